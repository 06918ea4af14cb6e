/* marker.h - the mark iochar leaves on files it creates.
 *
 * A file iochar creates carries the extended attribute user.iochar =
 * "created", so a later run can tell its own scratch data from a user's
 * file (the destructive-write guard, target/guard.h, reads it). The mark is
 * metadata only: the file's bytes are not touched, and no sidecar file is
 * made. Filesystems without user xattrs cannot carry it.
 *
 * Results and report files iochar writes carry user.iochar = "results"
 * instead (output/results_file.h): a later run may replace them, but they
 * are not write targets, so the two marks are told apart.
 */
#ifndef IOCHAR_TARGET_MARKER_H
#define IOCHAR_TARGET_MARKER_H

/* Mark the file open on fd (it must be open for writing, or owned by the
 * caller) as created by iochar. Returns 0, -ENOTSUP when its filesystem has
 * no user xattrs, or another -errno (e.g. -ENOSPC, -EDQUOT). */
int target_marker_set(int fd);

/* Does path (symlinks followed) carry iochar's mark? Returns 1 when it
 * does, 0 when it does not, -ENOTSUP when its filesystem has no user xattrs
 * (so the question has no answer), or another -errno (e.g. -EACCES). */
int target_marker_check(const char *path);

/* The same for results files: mark the file open on fd, or ask whether
 * path carries the results mark. Returns as the two above. */
int results_marker_set(int fd);
int results_marker_check(const char *path);

#endif

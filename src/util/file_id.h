/* file_id.h - which file a path names, whatever its spelling: two paths
 * name one file when they resolve to one device and inode, or, for files
 * not made yet, to one canonical place (its directory resolved, symlinks
 * that dangle followed), so "x", "./x", "d/../x" and a link to x agree. */
#ifndef IOCHAR_UTIL_FILE_ID_H
#define IOCHAR_UTIL_FILE_ID_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct file_id {
	bool exists;
	dev_t dev;          /* a block device: its st_rdev, ino 0 */
	ino_t ino;
	char path[PATH_MAX + 256]; /* when it does not exist: where it would be */
};

/* path as the kernel would resolve it, into out (len bytes): absolute,
 * every symlink followed (a dangling one to the file it would create),
 * '.' and '..' taken; the last component need not exist, its directory
 * must. 0, or -errno (-ENOENT: no such directory, -ELOOP, -ENAMETOOLONG). */
int path_resolve(const char *path, char *out, size_t len);

/* The identity of path into *id (never fails: an unresolvable path is
 * its own spelling). */
void file_id_of(const char *path, struct file_id *id);

bool file_id_same(const struct file_id *a, const struct file_id *b);

/* Do paths a and b name the same file? */
bool file_same(const char *a, const char *b);

#endif

/* guard.h - the destructive-write guard: no write workload goes to a target
 * that holds data unless the user says --force.
 *
 * A block device is refused when it (or one of its partitions, or a device
 * stacked on it: dm, md, ...) is mounted or active swap, when something is
 * stacked on it or holds it open exclusively, or when it carries a partition
 * table, a filesystem, or a RAID, LVM or other signature (libblkid, probed
 * read-only; a GPT counts by its backup header alone, as for wipefs). An
 * existing regular file is refused unless iochar created it
 * (target/marker.h). Files that do not exist yet are always fine: iochar
 * creates and marks them. The checks only read: nothing here writes, and
 * the one exclusive open is closed at once.
 */
#ifndef IOCHAR_TARGET_GUARD_H
#define IOCHAR_TARGET_GUARD_H

#include <stdbool.h>

#include "target/target.h"
#include "util/err.h"

/* May a write workload use path, as target_inspect described it in ti?
 * Returns 0 when it may (always with force, or when path does not exist),
 * or -EPERM with a one-line usage message in err that names path, says
 * what was found and that --force overrides. A check that cannot be made
 * (e.g. /proc/self/mountinfo unreadable) refuses too, saying why. */
int guard_check(const char *path, const struct target_info *ti, bool force,
		struct ioc_err *err);

/* Did iochar create the file at path? 1 yes, 0 no, -ENOTSUP when its
 * filesystem cannot carry the mark (no user xattrs), or another -errno. */
int guard_is_ours(const char *path);

#endif

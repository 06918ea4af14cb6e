/* bbu.h - a battery-backed write-back cache (write=back-bbu) outside the
 * process: its slots (vd/cache.h) live in a file mapped MAP_SHARED, so a
 * kill -9 of iochar (the simulated power loss) leaves them in the page
 * cache, and the next open of the VD writes them to the members before
 * anything else, as a controller flushes its preserved cache at power-on.
 *
 * The file is cache_file= of the definition, else
 * /dev/shm/iochar-vd-HASH.bbu with HASH of the layout (level, strip,
 * member paths made absolute): the same VD finds it again, whatever its
 * policies or failed= say. It survives a process crash, not a reboot of
 * this machine (tmpfs): a real BBU/flash-backed cache survives both.
 */
#ifndef IOCHAR_VD_BBU_H
#define IOCHAR_VD_BBU_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "vd/def.h"

/* Remove def's cache file (its path: vd_bbu_path, vd/def.h), stale once
 * the members are new; only a file of ours (empty, or a cache's header):
 * a device node or a user's file at cache_file= is refused, a usage error
 * naming it. 0 or -errno. */
int vd_bbu_discard(const struct vd_def *def, struct ioc_err *err);

/* If def's cache file exists and holds dirty data, write it to the
 * members (parity kept right), sync them, and remove the file. *bytes:
 * bytes written back (0: no file or nothing dirty). 0, or -errno with a
 * message (a file of another layout is a usage error). */
int vd_bbu_replay(const struct vd_def *def, uint64_t member_bytes, uint64_t *bytes,
		  struct ioc_err *err);

#endif

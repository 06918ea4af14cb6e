/* sync.h - whole-VD maintenance with plain pread/pwrite, row by row:
 * making redundancy consistent after members are laid out, checking it
 * (scrub), and regenerating one member (rebuild). Used before a run, by
 * `iochar vd rebuild` and by tests; never on a run's hot path.
 *
 * A struct vd_sync holds the open members of one VD. Rows [from, to) are
 * stripe rows (for raid1 and raid10 also units of one strip; jbod has no
 * redundancy and nothing to do).
 */
#ifndef IOCHAR_VD_SYNC_H
#define IOCHAR_VD_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"
#include "vd/def.h"
#include "vd/geom.h"

struct vd_sync {
	const struct vd_def *def;     /* borrowed, outlives the struct */
	struct vd_geom geom;
	int fds[VD_MAX_MEMBERS];      /* -1 for lost members */
	uint64_t lost;                /* members not read: failed, or being rebuilt */
	uint8_t *buf;                 /* n strips, aligned */
};

/* Open def's live members (for writing when write). 0 or -errno. */
int vd_sync_open(struct vd_sync *s, const struct vd_def *def,
		 uint64_t member_bytes, bool write, struct ioc_err *err);
void vd_sync_close(struct vd_sync *s);

/* Rows of the geometry (stripe rows; raid1/10: strips). */
uint64_t vd_sync_rows(const struct vd_sync *s);

/* Make rows [from, to) consistent: parity computed from the data, mirror
 * copies made equal to the first live copy. 0 or -errno. */
int vd_sync_init_rows(struct vd_sync *s, uint64_t from, uint64_t to,
		      struct ioc_err *err);

/* Rows in [from, to) whose redundancy disagrees with the data (all members
 * must be live); *bad gets the count. 0 or -errno. */
int vd_sync_scrub(struct vd_sync *s, uint64_t from, uint64_t to, uint64_t *bad,
		  struct ioc_err *err);

/* Regenerate member m of rows [from, to) from the others and write it to
 * fd (m's new file or device). 0 or -errno. */
int vd_sync_rebuild_rows(struct vd_sync *s, unsigned m, int fd, uint64_t from,
			 uint64_t to, struct ioc_err *err);

/* Read VD bytes [off, off+len) into buf, as a host read through the VD
 * sees them: pieces on live members read directly, pieces on lost ones
 * rebuilt from parity (the whole row read) or read from a live mirror
 * copy. For `iochar verify --vd`; plain pread (page cache). 0 or -errno
 * with a message naming the member (index and path). */
int vd_sync_read(struct vd_sync *s, void *buf, uint64_t off, uint64_t len,
		 struct ioc_err *err);

/* Write VD bytes [off, off+len) from buf with the redundancy kept right
 * (parity rows read whole, overlaid, recomputed and written back; every
 * live mirror copy written). For replaying a battery-backed cache; not
 * fast. 0 or -errno. */
int vd_sync_write(struct vd_sync *s, const void *buf, uint64_t off, uint64_t len,
		  struct ioc_err *err);

/* Where VD byte off lives: its member and the offset on it (the first
 * live copy for mirrors; the data member even when lost). Returns true
 * when that member is live (the byte is read from it), false when a read
 * rebuilds it from the others. */
bool vd_sync_locate(const struct vd_sync *s, uint64_t off, unsigned *member,
		    uint64_t *moff);

#endif

/* vd.h - a virtual drive while a run uses it: its definition and geometry,
 * and what the workers that drive it share (the stripe locks).
 *
 * One struct vd per VD job is made (vd_create) before the workers start
 * and destroyed after they are joined: the VD target kind's start and
 * stop (vd/target.h), which the runner calls. Each worker then
 * drives it through its own engine instance (vd/engine.h), which opens
 * the members itself. Everything in struct vd but the lock table is
 * read-only while workers run.
 */
#ifndef IOCHAR_VD_VD_H
#define IOCHAR_VD_VD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "vd/def.h"
#include "vd/geom.h"

#define VD_LOCK_SLOTS (1u << 16)

struct vd_wb;

struct vd {
	struct vd_def def;
	struct vd_geom geom;
	/* Stripe locks, by row modulo VD_LOCK_SLOTS: 0 free, > 0 readers,
	 * -1 one writer. Rows sharing a slot just wait for each other. */
	_Atomic int32_t *locks;
	/* Rebuild in progress (`iochar vd rebuild`): member rebuild_member
	 * (-1: none) holds good data below row rebuild_cursor only. The
	 * cursor moves while the rebuilder holds the row's lock, so an
	 * operation sees one state for its whole life. */
	/* Write generation of each strip, by strip number modulo
	 * VD_LOCK_SLOTS: bumped by every finished write, read by the
	 * read-ahead caches (vd/cache.h) of all workers. */
	_Atomic uint32_t *gens;
	int rebuild_member;
	_Atomic uint64_t rebuild_cursor;
	/* Set by the first host I/O completed (set once, then only read):
	 * a rebuild under load starts when the workload is really running. */
	atomic_bool host_started;
	/* Rows not yet initialized (vd/initmap.h), a bit per row; NULL: all
	 * are. A write op clears its rows' bits under the row lock. */
	_Atomic uint64_t *uninit;
	/* write=back, back-bbu: the controller's one write-back cache, shared
	 * by every instance (vd/cache.h, vd/wb.c); NULL: write-through. */
	struct vd_wb *wb;
};

static inline bool vd_row_uninit(const struct vd *vd, uint64_t r)
{
	return vd->uninit &&
	       ((atomic_load_explicit(&vd->uninit[r / 64], memory_order_relaxed) >> (r % 64)) & 1);
}

static inline void vd_row_initialized(struct vd *vd, uint64_t r)
{
	atomic_fetch_and_explicit(&vd->uninit[r / 64], ~(1ull << (r % 64)),
				  memory_order_relaxed);
}

/* Is member m unusable at stripe row r, with fail_mask the lost members? */
static inline bool vd_lost_at(struct vd *vd, uint64_t fail_mask, unsigned m,
			      uint64_t r)
{
	if ((fail_mask >> m) & 1)
		return true;
	return (int)m == vd->rebuild_member &&
	       r >= atomic_load_explicit(&vd->rebuild_cursor, memory_order_acquire);
}

/* A VD for def over members of member_bytes each, with its
 * initialization map loaded (vd/initmap.h). *out owned by the caller
 * (vd_destroy, which saves the map). 0 or -ENOMEM. */
int vd_create(const struct vd_def *def, uint64_t member_bytes, struct vd **out);

void vd_destroy(struct vd *vd);

/* wb.c: the VD's write-back cache (vd->wb), made by vd_create and freed
 * by vd_destroy. */
int vd_wb_create(struct vd *vd);
void vd_wb_destroy(struct vd *vd);

/* Bump the write generation of the strips of [off, off+len). */
void vd_gen_bump(struct vd *vd, uint64_t off, uint64_t len);

static inline uint32_t vd_gen(struct vd *vd, uint64_t strip)
{
	return atomic_load_explicit(&vd->gens[strip % VD_LOCK_SLOTS], memory_order_acquire);
}

/* Try to lock rows [first, last] for writing (excl) or reading, without
 * waiting: all of them, or none. */
bool vd_lock_try(struct vd *vd, uint64_t first, uint64_t last, bool excl);
void vd_unlock(struct vd *vd, uint64_t first, uint64_t last, bool excl);

#endif

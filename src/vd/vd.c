/* vd.c - the shared part of a running VD: geometry, stripe locks and the
 * write-back cache. */
#include "vd/vd.h"

#include <errno.h>
#include <stdlib.h>

#include "vd/initmap.h"

int vd_create(const struct vd_def *def, uint64_t member_bytes, struct vd **out)
{
	struct vd *vd = calloc(1, sizeof(*vd));

	*out = NULL;
	if (!vd)
		return -ENOMEM;
	vd->def = *def;
	vd->rebuild_member = -1;
	vd_geom_init(&vd->geom, def, member_bytes);
	vd->locks = calloc(VD_LOCK_SLOTS, sizeof(*vd->locks));
	vd->gens = calloc(VD_LOCK_SLOTS, sizeof(*vd->gens));
	if (!vd->locks || !vd->gens || vd_init_load(&vd->def, &vd->geom, &vd->uninit)) {
		free((void *)vd->locks);
		free((void *)vd->gens);
		free(vd);
		return -ENOMEM;
	}
	int ret = vd_write_back(def) ? vd_wb_create(vd) : 0;
	if (ret) {
		vd_destroy(vd);
		return ret;
	}
	*out = vd;
	return 0;
}

void vd_destroy(struct vd *vd)
{
	if (!vd)
		return;
	vd_wb_destroy(vd);
	vd_init_save(&vd->def, &vd->geom, vd->uninit);
	free((void *)vd->uninit);
	free((void *)vd->locks);
	free((void *)vd->gens);
	free(vd);
}

void vd_gen_bump(struct vd *vd, uint64_t off, uint64_t len)
{
	uint64_t c0 = off >> vd->geom.strip_shift;
	uint64_t c1 = (off + len - 1) >> vd->geom.strip_shift;
	if (c1 - c0 >= VD_LOCK_SLOTS)
		c1 = c0 + VD_LOCK_SLOTS - 1;
	for (uint64_t c = c0; c <= c1; c++)
		atomic_fetch_add_explicit(&vd->gens[c % VD_LOCK_SLOTS], 1, memory_order_release);
}

/* Slots of [first, last]: consecutive rows, at most every slot once. */
static uint64_t span_of(uint64_t first, uint64_t last)
{
	uint64_t n = last - first + 1;
	return n > VD_LOCK_SLOTS ? VD_LOCK_SLOTS : n;
}

static bool slot_try(_Atomic int32_t *s, bool excl)
{
	int32_t v = atomic_load_explicit(s, memory_order_relaxed);
	if (excl)
		return v == 0 && atomic_compare_exchange_strong_explicit(
					 s, &v, -1, memory_order_acquire, memory_order_relaxed);
	while (v >= 0)
		if (atomic_compare_exchange_weak_explicit(s, &v, v + 1, memory_order_acquire,
							  memory_order_relaxed))
			return true;
	return false;
}

static void slot_release(_Atomic int32_t *s, bool excl)
{
	if (excl)
		atomic_store_explicit(s, 0, memory_order_release);
	else
		atomic_fetch_sub_explicit(s, 1, memory_order_release);
}

bool vd_lock_try(struct vd *vd, uint64_t first, uint64_t last, bool excl)
{
	uint64_t n = span_of(first, last);
	for (uint64_t i = 0; i < n; i++) {
		if (!slot_try(&vd->locks[(first + i) % VD_LOCK_SLOTS], excl)) {
			while (i--)
				slot_release(&vd->locks[(first + i) % VD_LOCK_SLOTS], excl);
			return false;
		}
	}
	return true;
}

void vd_unlock(struct vd *vd, uint64_t first, uint64_t last, bool excl)
{
	uint64_t n = span_of(first, last);
	for (uint64_t i = 0; i < n; i++)
		slot_release(&vd->locks[(first + i) % VD_LOCK_SLOTS], excl);
}

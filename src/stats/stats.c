/* stats.c - see stats.h. */
#include "stats/stats.h"

#include "util/clock.h"
#include "util/sparse_mem.h"

#include <errno.h>
#include <stddef.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* A dir_stats' histograms, listed once for init, reset and merge. */
static const size_t dir_hists[] = {
	offsetof(struct dir_stats, lat),     offsetof(struct dir_stats, lag),
	offsetof(struct dir_stats, tool_lag), offsetof(struct dir_stats, service),
	offsetof(struct dir_stats, slat),    offsetof(struct dir_stats, clat),
};
#define NR_DIR_HISTS (sizeof(dir_hists) / sizeof(dir_hists[0]))

static struct hist *dir_hist(struct dir_stats *ds, unsigned i)
{
	return (struct hist *)((char *)ds + dir_hists[i]);
}

static const struct hist *dir_hist_c(const struct dir_stats *ds, unsigned i)
{
	return (const struct hist *)((const char *)ds + dir_hists[i]);
}

void dir_stats_init(struct dir_stats *ds)
{
	ds->ios = ds->bytes = 0;
	for (unsigned i = 0; i < NR_DIR_HISTS; i++)
		hist_init(dir_hist(ds, i));
}

void dir_stats_add(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	for (unsigned i = 0; i < NR_DIR_HISTS; i++)
		hist_merge(dir_hist(dst, i), dir_hist_c(src, i));
}

void stats_init(struct worker_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int d = 0; d < DIR_ALL; d++)
		dir_stats_init(&st->dir[d]);
	hist_init(&st->sync_lat);
}

void stats_reset(struct worker_stats *st)
{
	sparse_zero(st, sizeof(*st)); /* see util/sparse_mem.h */
	for (int d = 0; d < DIR_ALL; d++)
		for (unsigned i = 0; i < NR_DIR_HISTS; i++)
			dir_hist(&st->dir[d], i)->min = HIST_EMPTY_MIN;
	st->sync_lat.min = HIST_EMPTY_MIN;
}

void stats_free(struct worker_stats *st)
{
	if (!st)
		return;
	free(st->intervals.v);
	st->intervals.v = NULL;
	st->intervals.len = st->intervals.cap = 0;
}

static int series_reserve(struct interval_series *s, unsigned cap)
{
	if (cap <= s->cap)
		return 0;
	struct interval *v = realloc(s->v, (size_t)cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memset(v + s->cap, 0, (size_t)(cap - s->cap) * sizeof(*v));
	s->v = v;
	s->cap = cap;
	return 0;
}

int stats_reserve(struct worker_stats *st, unsigned seconds)
{
	return series_reserve(&st->intervals, seconds + 2);
}

int stats_grow_intervals(struct worker_stats *st, unsigned idx)
{
	struct interval_series *s = &st->intervals;
	if (idx >= s->cap) {
		unsigned cap = s->cap ? s->cap : 16;
		while (cap <= idx)
			cap *= 2;
		int ret = series_reserve(s, cap);
		if (ret)
			return ret;
	}
	s->len = idx + 1;
	return 0;
}

int stats_merge(struct worker_stats *dst, const struct worker_stats *src)
{
	return stats_merge_at(dst, src, 0);
}

int stats_merge_at(struct worker_stats *dst, const struct worker_stats *src,
		   unsigned shift)
{
	for (int d = 0; d < DIR_ALL; d++)
		dir_stats_add(&dst->dir[d], &src->dir[d]);
	dst->sync_ios += src->sync_ios;
	dst->datasync_ios += src->datasync_ios;
	for (int d = 0; d < DIR_ALL; d++) {
		dst->err_ios[d] += src->err_ios[d];
		dst->drop_ios[d] += src->drop_ios[d];
	}
	if (!dst->err_total)
		dst->err_first = src->err_first;
	dst->err_total += src->err_total;
	hist_merge(&dst->sync_lat, &src->sync_lat);
	for (int b = 0; b < DEPTH_BUCKETS; b++) {
		dst->depth.level[b] += src->depth.level[b];
		dst->depth.submit[b] += src->depth.submit[b];
		dst->depth.complete[b] += src->depth.complete[b];
	}
	if (src->intervals.len && src->intervals.len + shift > dst->intervals.len) {
		int ret = stats_grow_intervals(dst, src->intervals.len + shift - 1);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < src->intervals.len; i++) {
		struct interval *a = &dst->intervals.v[i + shift];
		const struct interval *b = &src->intervals.v[i];
		for (int d = 0; d < DIR_ALL; d++) {
			a->ios[d] += b->ios[d];
			a->bytes[d] += b->bytes[d];
			a->lat_sum[d] += b->lat_sum[d];
			if (b->lat_max[d] > a->lat_max[d])
				a->lat_max[d] = b->lat_max[d];
		}
	}
	return 0;
}

void stats_total(const struct worker_stats *st, struct dir_stats *out)
{
	dir_stats_init(out);
	for (int d = 0; d < DIR_ALL; d++)
		dir_stats_add(out, &st->dir[d]);
}

void stats_copy_into(struct worker_stats *dst, const struct worker_stats *src)
{
	struct interval_series keep = dst->intervals;
	sparse_copy(dst, src, sizeof(*dst)); /* pages only where counts are */
	keep.len = src->intervals.len < keep.cap ? src->intervals.len : keep.cap;
	if (keep.len)
		memcpy(keep.v, src->intervals.v, keep.len * sizeof(*keep.v));
	dst->intervals = keep;
}

void stats_live_ask_full(struct stats_live *l, struct worker_stats *full)
{
	l->full = full; /* published by the release below */
	atomic_store_explicit(&l->full_state, LIVE_SNAP_WANTED, memory_order_release);
}

bool stats_live_full_settle(struct stats_live *l)
{
	int want = LIVE_SNAP_WANTED;
	if (atomic_compare_exchange_strong_explicit(&l->full_state, &want, LIVE_SNAP_IDLE,
						    memory_order_acq_rel, memory_order_acquire))
		return false; /* withdrawn before the worker began */
	while (atomic_load_explicit(&l->full_state, memory_order_acquire) == LIVE_SNAP_BUSY)
		sched_yield();
	bool fresh = atomic_load_explicit(&l->full_state, memory_order_acquire) == LIVE_SNAP_READY;
	atomic_store_explicit(&l->full_state, LIVE_SNAP_IDLE, memory_order_relaxed);
	return fresh;
}

bool stats_live_full_answered(const struct stats_live *l)
{
	return atomic_load_explicit(&l->full_state, memory_order_acquire) == LIVE_SNAP_READY;
}

void stats_live_answer(struct stats_live *l, const struct worker_stats *st)
{
	int want = LIVE_SNAP_WANTED;
	/* one load when not asked; the exchange so the reader can withdraw */
	if (atomic_load_explicit(&l->full_state, memory_order_relaxed) == LIVE_SNAP_WANTED &&
	    atomic_compare_exchange_strong_explicit(&l->full_state, &want, LIVE_SNAP_BUSY,
						    memory_order_acquire, memory_order_relaxed)) {
		stats_copy_into(l->full, st);
		l->full_at_ns = fast_ns(); /* only when asked: no cost otherwise */
		atomic_store_explicit(&l->full_state, LIVE_SNAP_READY, memory_order_release);
	}
	if (atomic_load_explicit(&l->snap_state, memory_order_acquire) != LIVE_SNAP_WANTED)
		return;
	*l->snap = st->dir[0].lat;
	for (int d = 1; d < DIR_ALL; d++)
		hist_merge(l->snap, &st->dir[d].lat);
	atomic_store_explicit(&l->snap_state, LIVE_SNAP_READY, memory_order_release);
}

void stats_live_ask(struct stats_live *l, struct hist *snap)
{
	l->snap = snap; /* published by the release below */
	atomic_store_explicit(&l->snap_state, LIVE_SNAP_WANTED, memory_order_release);
}

bool stats_live_take(const struct stats_live *l, struct hist *seen)
{
	if (atomic_load_explicit(&l->snap_state, memory_order_acquire) != LIVE_SNAP_READY)
		return false;
	*seen = *l->snap;
	return true;
}

/* stats.c - see stats.h. */
#include "stats/stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dir_stats_init(struct dir_stats *ds)
{
	ds->ios = ds->bytes = 0;
	hist_init(&ds->lat);
	hist_init(&ds->lag);
	hist_init(&ds->tool_lag);
	hist_init(&ds->service);
}

void dir_stats_add(struct dir_stats *dst, const struct dir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	hist_merge(&dst->lat, &src->lat);
	hist_merge(&dst->lag, &src->lag);
	hist_merge(&dst->tool_lag, &src->tool_lag);
	hist_merge(&dst->service, &src->service);
}

void stats_init(struct worker_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int d = 0; d < DIR_COUNT; d++)
		dir_stats_init(&st->dir[d]);
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
	for (int d = 0; d < DIR_COUNT; d++)
		dir_stats_add(&dst->dir[d], &src->dir[d]);
	if (src->intervals.len > dst->intervals.len) {
		int ret = stats_grow_intervals(dst, src->intervals.len - 1);
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < src->intervals.len; i++) {
		struct interval *a = &dst->intervals.v[i];
		const struct interval *b = &src->intervals.v[i];
		for (int d = 0; d < DIR_COUNT; d++) {
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
	for (int d = 0; d < DIR_COUNT; d++)
		dir_stats_add(out, &st->dir[d]);
}

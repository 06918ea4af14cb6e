/* stats.c - VD member accounting (see stats.h). */
#include "vd/stats.h"

#include <stdlib.h>

struct vd_stats *vd_stats_new(unsigned n)
{
	struct vd_stats *s = calloc(1, sizeof(*s) + n * sizeof(s->member[0]));
	if (!s)
		return NULL;
	s->nr_members = n;
	for (unsigned i = 0; i < n; i++)
		for (int d = 0; d < DIR_COUNT; d++)
			hist_init(&s->member[i].dir[d].lat);
	return s;
}

void vd_stats_add(struct vd_stats *to, const struct vd_stats *from)
{
	for (int d = 0; d < DIR_COUNT; d++)
		to->host_ios[d] += from->host_ios[d];
	if (from->capacity)
		to->capacity = from->capacity, to->member_bytes = from->member_bytes;
	to->rmw_rows += from->rmw_rows;
	to->rcw_rows += from->rcw_rows;
	to->full_rows += from->full_rows;
	to->degraded_rows += from->degraded_rows;
	to->uninit_rows += from->uninit_rows;
	to->ra_hits += from->ra_hits;
	to->ra_strips += from->ra_strips;
	to->ra_used += from->ra_used;
	to->ra_copied += from->ra_copied;
	to->wb_absorbed += from->wb_absorbed;
	to->wb_end_bytes += from->wb_end_bytes;
	for (unsigned i = 0; i < to->nr_members && i < from->nr_members; i++) {
		for (int d = 0; d < DIR_COUNT; d++) {
			struct dir_stats *t = &to->member[i].dir[d];
			const struct dir_stats *f = &from->member[i].dir[d];
			t->ios += f->ios;
			t->bytes += f->bytes;
			hist_merge(&t->lat, &f->lat);
		}
	}
}

double vd_stats_amplification(const struct vd_stats *s, enum io_dir d)
{
	uint64_t host = s->host_ios[DIR_READ] + s->host_ios[DIR_WRITE], m = 0;
	for (unsigned i = 0; i < s->nr_members; i++)
		m += s->member[i].dir[d].ios;
	return host ? (double)m / (double)host : 0.0;
}

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
			hist_init(&s->member[i].lat[d]);
	return s;
}

void vd_stats_add(struct vd_stats *to, const struct vd_stats *from)
{
	for (int d = 0; d < DIR_COUNT; d++)
		to->host_ios[d] += from->host_ios[d];
	to->rmw_rows += from->rmw_rows;
	to->rcw_rows += from->rcw_rows;
	to->full_rows += from->full_rows;
	to->degraded_rows += from->degraded_rows;
	to->ra_hits += from->ra_hits;
	to->wb_absorbed += from->wb_absorbed;
	for (unsigned i = 0; i < to->nr_members && i < from->nr_members; i++) {
		for (int d = 0; d < DIR_COUNT; d++) {
			to->member[i].ios[d] += from->member[i].ios[d];
			to->member[i].bytes[d] += from->member[i].bytes[d];
			hist_merge(&to->member[i].lat[d], &from->member[i].lat[d]);
		}
	}
}

double vd_stats_amplification(const struct vd_stats *s, enum io_dir d)
{
	uint64_t host = s->host_ios[DIR_READ] + s->host_ios[DIR_WRITE], m = 0;
	for (unsigned i = 0; i < s->nr_members; i++)
		m += s->member[i].ios[d];
	return host ? (double)m / (double)host : 0.0;
}

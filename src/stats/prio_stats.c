/* prio_stats.c - latency per I/O priority. See prio_stats.h. */
#include "stats/prio_stats.h"

#include <errno.h>
#include <stdlib.h>

struct prio_stats *prio_stats_new(void)
{
	return calloc(1, sizeof(struct prio_stats));
}

struct prio_hist *prio_stats_slot(struct prio_stats *ps, enum io_dir d, unsigned ioprio)
{
	for (unsigned i = 0; i < ps->nr[d]; i++)
		if (ps->e[d][i].ioprio == ioprio)
			return &ps->e[d][i];
	if (ps->nr[d] == PRIO_STATS_MAX)
		return NULL;
	struct prio_hist *p = &ps->e[d][ps->nr[d]++];
	p->ioprio = ioprio;
	hist_init(&p->h);
	return p;
}

void prio_stats_record(struct prio_stats *ps, enum io_dir d, unsigned ioprio, uint64_t v)
{
	if (d >= DIR_COUNT)
		return;
	struct prio_hist *p = prio_stats_slot(ps, d, ioprio);
	if (p)
		hist_record(&p->h, v);
}

int prio_stats_add(struct prio_stats **dst, enum io_dir dd, const struct prio_stats *src,
		   enum io_dir sd)
{
	if (!src || sd >= DIR_COUNT || dd >= DIR_COUNT)
		return 0;
	if (!*dst && !(*dst = prio_stats_new()))
		return -ENOMEM;
	for (unsigned i = 0; i < src->nr[sd]; i++) {
		const struct prio_hist *s = &src->e[sd][i];
		struct prio_hist *p = prio_stats_slot(*dst, dd, s->ioprio);
		if (p)
			hist_merge(&p->h, &s->h);
	}
	return 0;
}

unsigned prio_stats_with_samples(const struct prio_stats *ps, enum io_dir d)
{
	unsigned n = 0;
	for (unsigned i = 0; ps && d < DIR_COUNT && i < ps->nr[d]; i++)
		n += ps->e[d][i].h.count > 0;
	return n;
}

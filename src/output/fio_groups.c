/* fio_groups.c - fio's report entries, merged by group_reporting. See
 * fio_groups.h. */
#include "output/fio_groups.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Does worker i start a new entry (fio: !group_reporting, or another
 * group than the worker before)? */
static bool starts_entry(const struct run_result *r, unsigned i)
{
	const struct worker_result *w = &r->workers[i];
	if (i == 0 || w->job >= r->nr_jobs || !r->jobs[w->job].group_reporting)
		return true;
	return r->workers[i - 1].group != w->group;
}

static int entry_add(struct fio_entry *e, const struct worker_result *w)
{
	if (e->members == 0) {
		e->wr = *w;
		stats_init(&e->wr.stats);
		e->wr.prio = NULL; /* the entry's own, merged below */
	} else {
		if (w->elapsed_ns > e->wr.elapsed_ns)
			e->wr.elapsed_ns = w->elapsed_ns;
		if (w->start_ns < e->wr.start_ns)
			e->wr.start_ns = w->start_ns;
		if (w->end_ns > e->wr.end_ns)
			e->wr.end_ns = w->end_ns;
		if (!e->wr.error && w->error) {
			e->wr.error = w->error;
			memcpy(e->wr.error_msg, w->error_msg, sizeof(e->wr.error_msg));
		}
	}
	e->members++;
	e->runtime_sum_ns += w->elapsed_ns;
	for (int d = 0; d < DIR_COUNT; d++)
		if (prio_stats_add(&e->wr.prio, (enum io_dir)d, w->prio, (enum io_dir)d))
			return -ENOMEM;
	return stats_merge(&e->wr.stats, &w->stats);
}

int fio_entries_make(const struct run_result *r, struct fio_entry **out,
		     unsigned *nr)
{
	struct fio_entry *e = calloc(r->nr_workers ? r->nr_workers : 1, sizeof(*e));
	unsigned n = 0;

	*out = NULL;
	*nr = 0;
	if (!e)
		return -ENOMEM;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		if (starts_entry(r, i) || n == 0)
			e[n++].first = i;
		if (entry_add(&e[n - 1], &r->workers[i])) {
			fio_entries_free(e, n);
			return -ENOMEM;
		}
	}
	*out = e;
	*nr = n;
	return 0;
}

void fio_entries_free(struct fio_entry *e, unsigned nr)
{
	for (unsigned i = 0; e && i < nr; i++) {
		stats_free(&e[i].wr.stats);
		free(e[i].wr.prio);
	}
	free(e);
}

unsigned fio_group_count(const struct run_result *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].group + 1 > n)
			n = r->workers[i].group + 1;
	return n;
}

void fio_group_figures(const struct fio_entry *e, unsigned nr, unsigned g,
		       enum io_dir d, struct fio_group_dir *out)
{
	*out = (struct fio_group_dir){.min_run_ms = UINT64_MAX, .min_bw = UINT64_MAX};
	for (unsigned i = 0; i < nr; i++) {
		const struct dir_stats *ds = &e[i].wr.stats.dir[d];
		/* fio's runtime is in ms and an entry under 1 ms has none */
		uint64_t ms = e[i].wr.elapsed_ns / 1000000;
		if (e[i].wr.group != g || !ds->ios || !ms)
			continue;
		uint64_t bw = ds->bytes * 1000 / ms;
		if (ms < out->min_run_ms)
			out->min_run_ms = ms;
		if (ms > out->max_run_ms)
			out->max_run_ms = ms;
		if (bw < out->min_bw)
			out->min_bw = bw;
		if (bw > out->max_bw)
			out->max_bw = bw;
		out->io_bytes += ds->bytes;
	}
	if (!out->max_run_ms) { /* nothing measured: all zero, as fio */
		*out = (struct fio_group_dir){0};
		return;
	}
	out->agg_bw = out->io_bytes * 1000 / out->max_run_ms;
}

/* fio_clients.c - see fio_clients.h. fio's client writes client_stats[]
 * instead of jobs[]; iochar writes both, so readers of either find theirs.
 * fio gives its entries a "port" too: MPI ranks have none, it is left out
 * (docs/output.md). */
#include "output/fio_clients.h"

#include <errno.h>

#include "output/json_fio.h"

/* Every worker of r merged into *all (fio's sum_thread_stats over the
 * clients): counts and histograms summed, the longest run time, the
 * first error. Returns 0 or -ENOMEM (all->wr.stats to stats_free). */
static int all_clients(const struct run_result *r, struct fio_entry *all)
{
	*all = (struct fio_entry){.wr = r->workers[0], .members = r->nr_workers};
	stats_init(&all->wr.stats);
	all->wr.prio = NULL; /* not merged over clients (MPI carries none) */
	all->wr.elapsed_ns = 0;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		if (stats_merge(&all->wr.stats, &w->stats))
			return -ENOMEM;
		if (w->elapsed_ns > all->wr.elapsed_ns)
			all->wr.elapsed_ns = w->elapsed_ns;
		if (!all->wr.error)
			all->wr.error = w->error;
		all->runtime_sum_ns += w->elapsed_ns;
	}
	return 0;
}

static const char *host_of(const struct run_result *r, const struct worker_result *w)
{
	return w->host < r->nr_hosts ? r->hosts[w->host].host : "";
}

void fio_clients_json(struct jw *w, const struct run_result *r, bool plus)
{
	struct fio_entry *e, all;
	unsigned n;
	if (!r->nr_hosts || !r->nr_workers || fio_entries_make(r, &e, &n))
		return; /* out of memory: jobs[] still has every figure */
	jw_key(w, "client_stats");
	jw_array_begin(w);
	for (unsigned i = 0; i < n; i++)
		json_fio_entry(w, r, &e[i], plus, NULL, host_of(r, &e[i].wr));
	fio_entries_free(e, n);
	/* fio names the sum after the last client it heard from: rank 0 here */
	if (all_clients(r, &all) == 0)
		json_fio_entry(w, r, &all, plus, "All clients", r->hosts[0].host);
	stats_free(&all.wr.stats);
	jw_array_end(w);
}

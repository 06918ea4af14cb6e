/* merge.c - the cluster's result on rank 0: every rank's workers in one
 * run_result, tagged with their host, and the totals merged from them
 * exactly (histograms add bucket by bucket, so a cluster percentile is a
 * percentile of all I/Os); see merge_cluster in internal.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/pace_opts.h"
#include "dist/internal.h"

static int copy_jobs(struct run_result *own, const struct job_spec *jobs,
		     unsigned nr_jobs)
{
	own->jobs = calloc(nr_jobs ? nr_jobs : 1, sizeof(*own->jobs));
	if (!own->jobs)
		return -ENOMEM;
	for (unsigned j = 0; j < nr_jobs; j++) {
		if (job_spec_copy(&own->jobs[j], &jobs[j]))
			return -ENOMEM;
		own->nr_jobs++;
		own->open_loop |= pace_job_paced(&jobs[j]);
	}
	return 0;
}

/* Append peer's workers to own (moving their series), tagged host h. */
static int take_workers(struct run_result *own, struct run_result *peer,
			unsigned h)
{
	if (!peer->nr_workers)
		return 0;
	struct worker_result *w = realloc(own->workers,
					  (own->nr_workers + peer->nr_workers) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	own->workers = w;
	for (unsigned i = 0; i < peer->nr_workers; i++) {
		w[own->nr_workers] = peer->workers[i];
		w[own->nr_workers].host = h;
		memset(&peer->workers[i].stats, 0, sizeof(peer->workers[i].stats));
		peer->workers[i].prio = NULL; /* moved */
		own->nr_workers++;
	}
	return 0;
}

static void fold_header(struct run_result *own, const struct run_result *p)
{
	if (p->elapsed_ns > own->elapsed_ns)
		own->elapsed_ns = p->elapsed_ns;
	if (p->ramp_ns > own->ramp_ns)
		own->ramp_ns = p->ramp_ns;
	own->cpu_usr_ns += p->cpu_usr_ns;
	own->cpu_sys_ns += p->cpu_sys_ns;
	own->partial |= p->partial;
	own->open_loop |= p->open_loop;
	own->verify |= p->verify;
	/* each rank judged its own lag against its own CPUs; one is enough */
	if (p->tool_limited && !own->tool_limited) {
		own->tool_limited = true;
		memcpy(own->tool_limited_reason, p->tool_limited_reason,
		       sizeof(own->tool_limited_reason));
	}
	verify_counts_add(&own->verify_counts, &p->verify_counts);
	if (!own->start_unix_ms || (p->start_unix_ms && p->start_unix_ms < own->start_unix_ms))
		own->start_unix_ms = p->start_unix_ms;
}

int merge_cluster(struct run_result *own, struct run_result *peers,
		  struct host_result *hosts_in, unsigned nr,
		  const struct job_spec *jobs, unsigned nr_jobs)
{
	if (!own->nr_jobs && copy_jobs(own, jobs, nr_jobs))
		return -ENOMEM;
	/* rank 0's own workers first, then each rank's in order */
	for (unsigned i = 0; i < own->nr_workers; i++)
		own->workers[i].host = 0;
	hosts_in[0].elapsed_ns = own->elapsed_ns;
	hosts_in[0].cpu_usr_ns = own->cpu_usr_ns;
	hosts_in[0].cpu_sys_ns = own->cpu_sys_ns;
	for (unsigned h = 1; h < nr; h++) {
		hosts_in[h].elapsed_ns = peers[h].elapsed_ns;
		hosts_in[h].cpu_usr_ns = peers[h].cpu_usr_ns;
		hosts_in[h].cpu_sys_ns = peers[h].cpu_sys_ns;
		fold_header(own, &peers[h]);
		if (take_workers(own, &peers[h], h))
			return -ENOMEM;
	}
	for (unsigned h = 0; h < nr; h++)
		stats_init(&hosts_in[h].stats);
	stats_free(&own->total);
	stats_init(&own->total);
	for (unsigned i = 0; i < own->nr_workers; i++) {
		const struct worker_result *w = &own->workers[i];
		if (stats_merge(&own->total, &w->stats) ||
		    (w->host < nr && stats_merge(&hosts_in[w->host].stats, &w->stats)))
			return -ENOMEM;
	}
	if (own->elapsed_ns) {
		own->cpu_usr_pct = 100.0 * (double)own->cpu_usr_ns / (double)own->elapsed_ns;
		own->cpu_sys_pct = 100.0 * (double)own->cpu_sys_ns / (double)own->elapsed_ns;
	}
	own->hosts = hosts_in;
	own->nr_hosts = nr;
	return 0;
}

/* result.c - releasing a run's result; see result.h. */
#include "stats/result.h"

#include <stdlib.h>
#include <string.h>

void run_result_free(struct run_result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nr_jobs; i++)
		job_spec_free(&r->jobs[i]);
	free(r->jobs);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		stats_free(&r->workers[i].stats);
		free(r->workers[i].prio);
	}
	for (unsigned i = 0; r->target_stats && i < r->nr_jobs; i++)
		free(r->target_stats[i]);
	free(r->target_stats);
	free(r->workers);
	stats_free(&r->total);
	for (unsigned i = 0; i < r->nr_hosts; i++) {
		stats_free(&r->hosts[i].stats);
		free(r->hosts[i].env_json);
	}
	free(r->hosts);
	for (unsigned i = 0; r->steady && i < r->nr_workers; i++) {
		free(r->steady[i].iops);
		free(r->steady[i].bw);
	}
	free(r->steady);
	free(r->disks);
	for (unsigned i = 0; r->notes && i < r->nr_notes; i++)
		free(r->notes[i]);
	free(r->notes);
	if (r->env && r->env_free)
		r->env_free(r->env);
	memset(r, 0, sizeof(*r));
}

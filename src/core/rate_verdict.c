/* rate_verdict.c - see rate_verdict.h. */
#include "core/rate_verdict.h"

#include <stdio.h>
#include <string.h>

#include "base/pace_opts.h"
#include "core/runner.h"

/* What the workers asked, per second: I/Os (rate_iops, rate_iops=R,W)
 * or bytes (rate=R,W); a job with both is judged by its I/Os. The
 * deepest iodepth of a paced job goes to *depth. */
static void asked(const struct run_result *r, struct rate_verdict *v, unsigned *depth)
{
	double ios = 0, bytes = 0;

	*depth = 0;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		if (r->workers[i].job >= r->nr_jobs)
			continue;
		const struct job_spec *j = &r->jobs[r->workers[i].job];
		if (!pace_job_paced(j))
			continue;
		unsigned qd = runner_depth_is_one(j) ? 1 : j->iodepth; /* psync's 8 runs as 1 */
		if (qd > *depth)
			*depth = qd;
		ios += (double)j->rate_iops;
		for (int d = 0; d < DIR_COUNT; d++) {
			ios += (double)j->rate_iops_rw[d];
			bytes += (double)j->rate_bps[d];
		}
	}
	v->paced = r->open_loop && (ios > 0 || bytes > 0);
	v->bytes = ios == 0;
	v->asked = v->bytes ? bytes : ios;
}

static double achieved(const struct run_result *r, bool bytes)
{
	double n = 0;
	for (int d = 0; d < DIR_COUNT; d++)
		n += (double)(bytes ? r->total.dir[d].bytes : r->total.dir[d].ios);
	return r->elapsed_ns ? n * 1e9 / (double)r->elapsed_ns : 0;
}

/* Mean service time (submission to completion) over the directions,
 * and the p99 of the lag behind the schedule and of iochar's own part of
 * it, the largest over the directions; ns. */
static void lags(const struct run_result *r, double *svc, uint64_t *lag, uint64_t *tool)
{
	double sum = 0, n = 0;
	*lag = *tool = 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct dir_stats *ds = &r->total.dir[d];
		sum += (double)ds->service.sum;
		n += (double)ds->service.count;
		uint64_t l = hist_percentile(&ds->lag, 99), t = hist_percentile(&ds->tool_lag, 99);
		*lag = l > *lag ? l : *lag;
		*tool = t > *tool ? t : *tool;
	}
	*svc = n ? sum / n : 0;
}

bool rate_depth_bound(const struct run_result *r)
{
	struct rate_verdict v = {0};
	unsigned depth;
	double svc;
	uint64_t lag, tool;

	asked(r, &v, &depth);
	if (!v.paced || v.bytes || !depth || !r->nr_workers)
		return false;
	lags(r, &svc, &lag, &tool);
	/* Little's law: I/Os in flight on average, per worker */
	return v.asked / r->nr_workers * svc / 1e9 >= RATE_DEPTH_BUSY * depth;
}

void rate_verdict_judge(const struct run_result *r, struct rate_verdict *v)
{
	unsigned depth;

	memset(v, 0, sizeof(*v));
	asked(r, v, &depth);
	if (!v->paced)
		return;
	v->achieved = achieved(r, v->bytes);
	v->reached = v->achieved >= RATE_REACHED_SHARE * v->asked;
	if (v->reached)
		return;
	double svc;
	uint64_t lag, tool;
	lags(r, &svc, &lag, &tool);
	size_t used = 0, len = sizeof(v->why);
	if (r->tool_limited)
		used += (size_t)snprintf(v->why, len, "iochar fell behind its schedule "
					 "(tool-limited, above)");
	else if (lag > 2 * tool && svc > 0 && !v->bytes)
		/* every slot was busy: what iodepth slots turning over at the
		 * mean service time can carry (Little's law) */
		used += (size_t)snprintf(v->why, len, "the device at the queue depth: "
					 "%u slot%s per worker at a mean service of %.0f us "
					 "carry at most %.0f IOPS per worker",
					 depth, depth == 1 ? "" : "s", svc / 1e3,
					 depth * 1e9 / svc);
	else
		used += (size_t)snprintf(v->why, len, "the device: mean service %.0f us",
					 svc / 1e3);
	if (used < len && !r->tool_limited && r->machine_busy_pct >= 95)
		snprintf(v->why + used, len - used, "; every CPU busy (%.0f%%): the "
			 "device's kernel threads shared them with the workers",
			 r->machine_busy_pct);
}

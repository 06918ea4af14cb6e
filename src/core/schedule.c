/* schedule.c - start order and group ids of a run's jobs, as fio. See
 * schedule.h. */
#include "core/schedule.h"

#include <errno.h>
#include <string.h>

#include "util/rng.h"

unsigned schedule_groups(const struct job_spec *jobs, unsigned nr,
			 unsigned *groups)
{
	unsigned group = 0, in_group = 0;

	for (unsigned j = 0; j < nr; j++) {
		if ((jobs[j].stonewall || jobs[j].new_group) && in_group) {
			group++;
			in_group = 0;
		}
		groups[j] = group;
		in_group++;
	}
	return nr ? group + 1 : 0;
}

int schedule_check(const struct job_spec *jobs, unsigned nr,
		   struct ioc_err *err)
{
	for (unsigned j = 0; j < nr; j++) {
		const char *waitee = jobs[j].wait_for;
		if (!waitee[0])
			continue;
		if (strcmp(waitee, jobs[j].name) == 0)
			return err_usage(err, EINVAL,
					 "job %s: wait_for=%s: a job cannot wait for itself",
					 jobs[j].name, waitee);
		unsigned e = 0;
		while (e < j && strcmp(jobs[e].name, waitee) != 0)
			e++;
		if (e == j)
			return err_usage(err, EINVAL,
					 "job %s: wait_for=%s: no earlier job of that name "
					 "(the waitee must be defined before the job)",
					 jobs[j].name, waitee);
	}
	return 0;
}

uint64_t schedule_planned_ns(const struct job_spec *jobs, unsigned nr)
{
	uint64_t total = 0, stretch = 0;

	for (unsigned j = 0; j < nr; j++) {
		if (jobs[j].stonewall) {
			total += stretch;
			stretch = 0;
		}
		uint64_t top = jobs[j].startdelay_max_ns > jobs[j].startdelay_ns ?
				       jobs[j].startdelay_max_ns : jobs[j].startdelay_ns;
		uint64_t len = top + jobs[j].ramp_ns + jobs[j].runtime_ns;
		if (len > stretch)
			stretch = len;
	}
	return total + stretch;
}

uint64_t schedule_delay(const struct job_spec *job, uint64_t *seed)
{
	uint64_t lo = job->startdelay_ns, hi = job->startdelay_max_ns;
	if (hi <= lo)
		return lo;
	struct rng r;
	rng_seed(&r, (*seed)++);
	uint64_t span = hi - lo;
	/* span + 1 cannot wrap: times are far below 2^64 ns */
	return lo + rng_next(&r) % (span + 1);
}

/* Has some worker of a job named name not finished (fio counts workers not
 * started yet as running)? */
static bool waitee_running(const struct job_spec *jobs,
			   const struct sched_worker *w, unsigned nr,
			   const char *name)
{
	for (unsigned i = 0; i < nr; i++)
		if (!w[i].finished && strcmp(jobs[w[i].job].name, name) == 0)
			return true;
	return false;
}

static bool any_running(const struct sched_worker *w, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (w[i].started && !w[i].finished)
			return true;
	return false;
}

unsigned schedule_pick(const struct job_spec *jobs, struct sched_worker *w,
		       unsigned nr, uint64_t since_start_ns, unsigned *out,
		       uint64_t *next_ns)
{
	unsigned n = 0;

	*next_ns = UINT64_MAX;
	for (unsigned i = 0; i < nr; i++) {
		if (w[i].started)
			continue;
		const struct job_spec *job = &jobs[w[i].job];
		if (w[i].delay_ns > since_start_ns) {
			if (w[i].delay_ns < *next_ns)
				*next_ns = w[i].delay_ns;
			continue;
		}
		/* fio's run_threads: a stonewall ends the pass */
		if (job->stonewall && w[i].first && any_running(w, nr))
			break;
		if (job->wait_for[0] && waitee_running(jobs, w, nr, job->wait_for))
			continue;
		w[i].started = true;
		out[n++] = i;
	}
	return n;
}

bool schedule_all_started(const struct sched_worker *w, unsigned nr)
{
	for (unsigned i = 0; i < nr; i++)
		if (!w[i].started)
			return false;
	return true;
}

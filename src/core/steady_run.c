/* steady_run.c - fio's steady-state windows over a run's workers
 * (steady_run.h). */
#include "core/steady_run.h"

#include <errno.h>
#include <stdlib.h>


/* The workers a window at head i sums: its job's clones, or itself. */
static unsigned members(const struct worker *w, unsigned i, unsigned nr)
{
	if (!w[i].job->group_reporting)
		return 1;
	unsigned n = 1;
	while (i + n < nr && w[i + n].job == w[i].job)
		n++;
	return n;
}

int steady_run_init(struct steady_run *sr, struct worker *w, unsigned nr)
{
	*sr = (struct steady_run){.nr = nr};
	bool any = false;
	for (unsigned i = 0; i < nr; i++)
		any |= w[i].job->ss_dur_ns >= 1000000000ull;
	if (!any)
		return 0;
	sr->by_worker = calloc(nr, sizeof(*sr->by_worker));
	sr->head = calloc(nr, sizeof(*sr->head));
	sr->due = calloc(nr, sizeof(*sr->due));
	if (!sr->by_worker || !sr->head || !sr->due)
		return -ENOMEM;
	for (unsigned i = 0; i < nr; i += members(w, i, nr)) {
		if (w[i].job->ss_dur_ns < 1000000000ull)
			continue;
		sr->head[i] = true;
		if (steady_job_init(&sr->by_worker[i], w[i].job))
			return -ENOMEM;
	}
	return 0;
}

/* fio samples from its helper thread, whose seconds run from before the
 * jobs start: a sample falls just before each whole second of a job's
 * time, and the one at ramp + 1 s is still in the ramp. */
#define SAMPLE_LEAD_NS 1000000ull

void steady_run_tick(struct steady_run *sr, struct worker *w,
		     const struct sched_worker *sw, uint64_t now)
{
	if (!sr->by_worker)
		return;
	sr->next_ns = UINT64_MAX;
	for (unsigned i = 0; i < sr->nr; i++) {
		struct steady_job *sj = &sr->by_worker[i];
		if (!sr->head[i] || sj->attained)
			continue;
		unsigned n = members(w, i, sr->nr);
		bool started = false, running = false;
		uint64_t ios = 0, bytes = 0, start = now;
		for (unsigned k = i; k < i + n; k++) {
			started |= sw[k].started;
			running |= sw[k].started && !atomic_load(&w[k].finished);
			/* its gate opened on this (the watching) thread */
			if (sw[k].started && w[k].gate->start_ns < start)
				start = w[k].gate->start_ns;
			for (int d = 0; d < DIR_ALL; d++) { /* trims too, as fio's */
				ios += atomic_load_explicit(&w[k].live.ios[d], memory_order_relaxed);
				bytes += atomic_load_explicit(&w[k].live.bytes[d], memory_order_relaxed);
			}
		}
		if (!started || !running)
			continue;
		if (!sr->due[i]) /* the first sample a second after the start */
			sr->due[i] = start + 1000000000ull - SAMPLE_LEAD_NS;
		if (now >= sr->due[i]) {
			if (steady_job_sample(sj, start, now, ios, bytes))
				for (unsigned k = i; k < i + n; k++)
					atomic_store(&w[k].ss_end, true);
			sr->due[i] += 1000000000ull;
		}
		if (sr->due[i] < sr->next_ns)
			sr->next_ns = sr->due[i];
	}
}

int steady_run_take(const struct steady_run *sr, struct run_result *r)
{
	if (!sr->by_worker)
		return 0;
	r->steady = calloc(sr->nr, sizeof(*r->steady));
	if (!r->steady)
		return -ENOMEM;
	for (unsigned i = 0; i < sr->nr; i++) {
		const struct steady_job *s = &sr->by_worker[i];
		if (!sr->head[i])
			continue;
		struct steady_result *o = &r->steady[i];
		*o = (struct steady_result){
			.on = true, .attained = s->attained, .rule = s->rule,
			.dur = s->dur, .criterion = s->criterion,
			.deviation = s->deviation, .slope = s->slope,
		};
		o->iops = calloc(s->dur, sizeof(*o->iops));
		o->bw = calloc(s->dur, sizeof(*o->bw));
		if (!o->iops || !o->bw)
			return -ENOMEM;
		o->n = steady_job_window(s, o->iops, o->bw);
	}
	return 0;
}

void steady_run_free(struct steady_run *sr)
{
	if (!sr)
		return;
	for (unsigned i = 0; sr->by_worker && i < sr->nr; i++)
		steady_job_free(&sr->by_worker[i]);
	free(sr->by_worker);
	free(sr->head);
	free(sr->due);
	*sr = (struct steady_run){0};
}

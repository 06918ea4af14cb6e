/* eta.c - see eta.h. */
#include "charz/eta.h"

#include <stdio.h>
#include <string.h>

void eta_init(struct eta *e, struct eta_step *steps, unsigned nr)
{
	memset(e, 0, sizeof(*e));
	e->steps = steps;
	e->nr = nr;
	e->cur = nr;
	e->fill_bps = ETA_FILL_GUESS_BPS;
}

static uint64_t fill_ns(const struct eta *e, uint64_t bytes)
{
	return e->fill_bps > 0 ? (uint64_t)((double)bytes / e->fill_bps * 1e9) : 0;
}

uint64_t eta_step_ns(const struct eta *e, const struct eta_step *s)
{
	return fill_ns(e, s->fill_bytes) + s->precond_ns +
	       s->run_ns * s->runs * s->sets;
}

void eta_step_start(struct eta *e, unsigned i)
{
	e->cur = i < e->nr ? i : e->nr;
	e->runs_started = 0;
}

void eta_run_start(struct eta *e)
{
	e->runs_started++;
}

void eta_step_done(struct eta *e, unsigned i, uint64_t took_ns, unsigned runs_per_set)
{
	if (i >= e->nr)
		return;
	struct eta_step *s = &e->steps[i];
	s->done = true;
	s->took_ns = took_ns;
	if (s->search && runs_per_set)
		for (unsigned k = i + 1; k < e->nr; k++)
			if (e->steps[k].search && !e->steps[k].done)
				e->steps[k].runs = runs_per_set;
	if (e->cur == i)
		e->cur = e->nr;
}

void eta_fill_measured(struct eta *e, uint64_t bytes, uint64_t ns)
{
	if (bytes && ns)
		e->fill_bps = (double)bytes / ((double)ns / 1e9);
}

uint64_t eta_step_left_ns(const struct eta *e, uint64_t run_left_ns)
{
	if (e->cur >= e->nr)
		return 0;
	const struct eta_step *s = &e->steps[e->cur];
	if (s->done)
		return 0;
	uint64_t all = (uint64_t)s->runs * s->sets;
	if (!e->runs_started) /* still filling or preconditioning */
		return eta_step_ns(e, s);
	uint64_t later = all > e->runs_started ? all - e->runs_started : 0;
	return run_left_ns + later * s->run_ns;
}

uint64_t eta_plan_left_ns(const struct eta *e, uint64_t run_left_ns)
{
	uint64_t left = eta_step_left_ns(e, run_left_ns);
	unsigned from = e->cur < e->nr ? e->cur + 1 : 0;
	for (unsigned k = from; k < e->nr; k++)
		if (!e->steps[k].done)
			left += eta_step_ns(e, &e->steps[k]);
	return left;
}

void plan_fmt_left(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ull;
	if (!ns)
		snprintf(buf, len, "time left unknown");
	else if (s < 120)
		snprintf(buf, len, "about %llus left", (unsigned long long)s);
	else if (s < 7200)
		snprintf(buf, len, "about %llum left", (unsigned long long)(s / 60));
	else
		snprintf(buf, len, "about %.1fh left", (double)s / 3600);
}

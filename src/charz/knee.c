/* knee.c - see knee.h. */
#include "charz/knee.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/student_t.h"

#define KNEE_MAX_COUNTS 256

void knee_count_set(struct knee_count *k, unsigned targets, const double *x, unsigned n)
{
	double sum = 0, sq = 0;
	k->targets = targets;
	k->n = n;
	for (unsigned i = 0; i < n; i++)
		sum += x[i];
	k->mean = n ? sum / n : NAN;
	for (unsigned i = 0; i < n; i++)
		sq += (x[i] - k->mean) * (x[i] - k->mean);
	k->sd = n >= 2 ? sqrt(sq / (n - 1)) : NAN;
}

enum knee_step knee_step_judge(const struct knee_count *a, const struct knee_count *b,
			       double *gain, double *band, double *share)
{
	double g = b->mean - a->mean;
	double h = student_welch_half(a->sd, a->n, b->sd, b->n, NULL);
	double s = a->targets ? KNEE_SHARE * (b->targets - a->targets) * a->mean / a->targets : 0;
	if (gain)
		*gain = g;
	if (band)
		*band = h;
	if (share)
		*share = s;
	if (!isfinite(g) || !isfinite(h) || !(a->mean > 0))
		return KNEE_STEP_UNDECIDED;
	if (g - h > s)
		return KNEE_GROWS;
	if (g + h < s)
		return KNEE_FLAT;
	return KNEE_STEP_UNDECIDED;
}

static int by_targets(const void *x, const void *y)
{
	const struct knee_count *a = x, *b = y;
	return (a->targets > b->targets) - (a->targets < b->targets);
}

/* The verdict once the counts around step i (c[i] to c[i + 1], the first
 * that does not grow) are adjacent. */
static void decide(const struct knee_count *c, unsigned n, unsigned i, enum knee_step st,
		   struct knee_result *r)
{
	r->verdict = KNEE_UNDECIDED;
	if (st != KNEE_FLAT)
		return;
	for (unsigned k = i + 1; k + 1 < n; k++)
		if (knee_step_judge(&c[k], &c[k + 1], NULL, NULL, NULL) == KNEE_GROWS) {
			r->regrows = c[k].targets; /* no single knee */
			return;
		}
	r->verdict = KNEE_FOUND;
	r->knee = c[i].targets;
}

void knee_find(const struct knee_count *in, unsigned n, struct knee_result *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = KNEE_UNDECIDED;
	if (!n || n > KNEE_MAX_COUNTS)
		return;
	struct knee_count c[KNEE_MAX_COUNTS];
	memcpy(c, in, n * sizeof(*c));
	qsort(c, n, sizeof(*c), by_targets);
	unsigned i = 0;
	enum knee_step st = KNEE_GROWS;
	for (; i + 1 < n; i++) {
		st = knee_step_judge(&c[i], &c[i + 1], &r->gain, &r->band, &r->share);
		if (st != KNEE_GROWS)
			break;
	}
	if (i + 1 >= n) { /* every step grows (or one count alone) */
		r->verdict = n > 1 ? KNEE_STILL_GROWS : KNEE_UNDECIDED;
		if (n > 1) {
			r->lo = c[n - 2].targets;
			r->hi = c[n - 1].targets;
			r->base = c[n - 2].mean;
		}
		return;
	}
	r->lo = c[i].targets;
	r->hi = c[i + 1].targets;
	r->base = c[i].mean;
	/* the step into it first: a growing average over a wide step may
	 * hide where it flattens; then the step out of it */
	if (i > 0 && c[i].targets - c[i - 1].targets > 1)
		r->next = c[i - 1].targets + (c[i].targets - c[i - 1].targets) / 2;
	else if (c[i + 1].targets - c[i].targets > 1)
		r->next = c[i].targets + (c[i + 1].targets - c[i].targets) / 2;
	if (st == KNEE_STEP_UNDECIDED && c[i].n < 2)
		r->next = 0; /* no band: more counts decide nothing */
	if (!r->next)
		decide(c, n, i, st, r);
}

const char *knee_verdict_name(enum knee_verdict v)
{
	switch (v) {
	case KNEE_FOUND:
		return "stops growing after";
	case KNEE_STILL_GROWS:
		return "still grows";
	case KNEE_UNDECIDED:
		break;
	}
	return "undecided";
}

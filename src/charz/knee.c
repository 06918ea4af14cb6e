/* knee.c - see knee.h. */
#include "charz/knee.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/student_t.h"

#define KNEE_MAX_COUNTS 256

void knee_count_set(struct knee_count *k, unsigned targets, const double *x,
		    unsigned n)
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

enum knee_step knee_step_judge(const struct knee_count *a,
			       const struct knee_count *b, double *gain,
			       double *band, double *share)
{
	double g = b->mean - a->mean;
	double h = student_welch_half(a->sd, a->n, b->sd, b->n, NULL);
	double s = a->targets ? KNEE_SHARE * (b->targets - a->targets) *
				    a->mean / a->targets
			      : 0;
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

void knee_find(const struct knee_count *in, unsigned n, struct knee_result *r)
{
	memset(r, 0, sizeof(*r));
	r->verdict = KNEE_UNDECIDED;
	if (n < 2 || n > KNEE_MAX_COUNTS)
		return;
	struct knee_count c[KNEE_MAX_COUNTS];
	memcpy(c, in, n * sizeof(*c));
	qsort(c, n, sizeof(*c), by_targets);
	/* the knee can only be where the growth last lands: after the last
	 * step that grows (k = 0 when none does) */
	unsigned k = 0;
	for (unsigned i = 0; i + 1 < n; i++)
		if (knee_step_judge(&c[i], &c[i + 1], NULL, NULL, NULL) ==
		    KNEE_GROWS)
			k = i + 1;
	if (k == n - 1) { /* it grows into the largest count */
		r->verdict = KNEE_STILL_GROWS;
		k--;
	}
	enum knee_step st =
	    knee_step_judge(&c[k], &c[k + 1], &r->gain, &r->band, &r->share);
	r->lo = c[k].targets;
	r->hi = c[k + 1].targets;
	r->base = c[k].mean;
	if (r->verdict == KNEE_STILL_GROWS)
		return;
	/* the step into it first: a growing average over a wide step may
	 * hide where it flattens; then the step out of it */
	if (k > 0 && c[k].targets - c[k - 1].targets > 1)
		r->next =
		    c[k - 1].targets + (c[k].targets - c[k - 1].targets) / 2;
	else if (c[k + 1].targets - c[k].targets > 1)
		r->next = c[k].targets + (c[k + 1].targets - c[k].targets) / 2;
	if (st == KNEE_STEP_UNDECIDED && c[k].n < 2)
		r->next = 0; /* no band: more counts decide nothing */
	if (!r->next && st == KNEE_FLAT) {
		r->verdict = KNEE_FOUND;
		r->knee = c[k].targets;
	}
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

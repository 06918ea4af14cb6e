/* scaling.c - see scaling.h. */
#include "charz/scaling.h"

#include <math.h>
#include <stdio.h>

unsigned scaling_first_counts(unsigned n, unsigned *sizes)
{
	unsigned k = 0;
	for (unsigned s = 1; s <= n && s <= SCALING_DENSE; s++)
		sizes[k++] = s;
	for (unsigned s = SCALING_DENSE * 2;
	     s < n && k + 1 < SCALING_MAX_COUNTS; s *= 2)
		sizes[k++] = s;
	if (n > SCALING_DENSE)
		sizes[k++] = n;
	return k;
}

int scaling_sweep(unsigned n, scaling_measure_fn fn, void *arg,
		  struct knee_count *counts, unsigned *nr,
		  struct knee_result *r, struct ioc_err *err)
{
	unsigned sizes[SCALING_MAX_COUNTS],
	    first = scaling_first_counts(n, sizes);
	int ret = 0;

	*nr = 0;
	knee_find(counts, 0, r);
	for (unsigned i = 0; i < first && !ret; i++)
		if (!(ret = fn(arg, sizes[i], &counts[*nr], err)))
			(*nr)++;
	if (!ret)
		knee_find(counts, *nr, r);
	while (!ret && r->next && *nr < SCALING_MAX_COUNTS) {
		if ((ret = fn(arg, r->next, &counts[*nr], err)))
			break;
		(*nr)++;
		knee_find(counts, *nr, r);
	}
	return ret;
}

void scaling_describe(const struct knee_result *r, const char *metric,
		      unsigned repeats, char *buf, size_t len)
{
	double pct = r->base > 0 ? 100 * r->gain / r->base : NAN;
	double band = r->base > 0 ? 100 * r->band / r->base : NAN;
	char how[96];

	snprintf(how, sizeof(how), "%u run%s per count, Welch's 95 %% interval",
		 repeats, repeats == 1 ? "" : "s");
	switch (r->verdict) {
	case KNEE_FOUND:
		snprintf(buf, len,
			 "%s stops growing after %u target%s (%u gave %+.1f %% "
			 "\xc2\xb1%.1f %%, "
			 "under half the added %s share; %s)",
			 metric, r->knee, r->knee == 1 ? "" : "s", r->hi, pct,
			 band, r->hi - r->lo == 1 ? "target's" : "targets'",
			 how);
		return;
	case KNEE_STILL_GROWS:
		snprintf(buf, len,
			 "%s still grows at %u targets (%+.1f %% \xc2\xb1%.1f "
			 "%% over %u; %s): "
			 "no knee up to there",
			 metric, r->hi, pct, band, r->lo, how);
		return;
	case KNEE_UNDECIDED:
		break;
	}
	if (repeats < 2)
		snprintf(buf, len,
			 "%s: the knee is undecided: one run per count gives "
			 "no noise "
			 "estimate (scaling_repeats=3 or more)",
			 metric);
	else if (!r->lo)
		snprintf(buf, len,
			 "%s: the knee is undecided: one target count only",
			 metric);
	else if (isfinite(band))
		snprintf(buf, len,
			 "%s: the knee is undecided: from %u to %u targets it "
			 "changed "
			 "%+.1f %% \xc2\xb1%.1f %%, too close to half the "
			 "added %s share "
			 "(%+.1f %%) to tell growing from flat (%s; more runs: "
			 "scaling_repeats=)",
			 metric, r->lo, r->hi, pct, band,
			 r->hi - r->lo == 1 ? "target's" : "targets'",
			 r->base > 0 ? 100 * r->share / r->base : NAN, how);
	else
		snprintf(
		    buf, len,
		    "%s: the knee is undecided: from %u to %u targets (%s)",
		    metric, r->lo, r->hi, how);
}

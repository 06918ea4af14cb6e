/* validate.c - see validate.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/median.h"
#include "model/validate.h"

double mdl_rel_error(double predicted, double measured)
{
	if (!(measured > 0))
		return NAN;
	if (!(predicted > 0))
		return 1;
	return fabs(predicted - measured) / measured;
}

void mdl_validation_of(const double *errs, size_t n, bool held_out, const char *fit,
		       struct mdl_validation *v)
{
	struct mdl_est *e = calloc(1, sizeof(*e));

	*v = (struct mdl_validation){.median = NAN, .held_out = held_out};
	for (size_t i = 0; e && i < n; i++)
		if (!isnan(errs[i])) {
			/* mdl_est keeps values > 0: an exact prediction counts as a tiny one */
			mdl_est_add(e, errs[i] + 1e-12);
			v->points++;
		}
	if (v->points)
		v->median = mdl_est_median(e) - 1e-12;
	free(e);
	if (v->points < 2) {
		snprintf(v->text, sizeof(v->text), "not validated: one step");
		return;
	}
	v->validated = v->median <= MDL_VALID_MAX_ERROR;
	const char *how = held_out ? "held-out error" : "error";
	if (v->validated && held_out)
		snprintf(v->text, sizeof(v->text),
			 "%s %.1f %% (median; each of %u points predicted by the model fitted on the others)",
			 how, v->median * 100, v->points);
	else if (v->validated)
		snprintf(v->text, sizeof(v->text), "%s %.1f %% (median over %u points, %s)", how,
			 v->median * 100, v->points, fit ? fit : "the given model");
	else
		snprintf(v->text, sizeof(v->text), "unvalidated: %s %.1f %% over %u points, above %.0f %%",
			 how, v->median * 100, v->points, MDL_VALID_MAX_ERROR * 100);
}

void mdl_validated_why(const struct mdl_validation *v, const char *why, const char *rate,
		       unsigned n, char *out, size_t len)
{
	if (v->validated)
		snprintf(out, len, "%s (%s %.1f %%)", why, v->held_out ? "held-out error" : "error",
			 v->median * 100);
	else
		snprintf(out, len, "%s; it predicts %s on %u target%s, no bound stated", v->text,
			 rate, n, n == 1 ? "" : "s");
}

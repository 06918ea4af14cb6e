/* validate.h - a model is shown only with its validation: its error on
 * measured points it was not fitted on. The model fitted on a plan's own
 * steps is validated by leave-one-out (each point predicted by the model
 * fitted on all the others); a given model file by its error on every
 * point. Over MDL_VALID_MAX_ERROR, or on a single point, it is not
 * validated and states no bound. */
#ifndef IOCHAR_MODEL_VALIDATE_H
#define IOCHAR_MODEL_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#define MDL_VALID_MAX_ERROR 0.25

struct mdl_validation {
	unsigned points;            /* measured points the error is over */
	double median;              /* median error, a fraction; NaN: none */
	bool held_out;              /* leave-one-out (else a given model's) */
	bool validated;             /* >= 2 points, median <= MDL_VALID_MAX_ERROR */
	char text[160];             /* what it says, e.g. "held-out error 4.1 % ..." */
};

/* The relative error of predicted against measured: |p - m| / m; a
 * prediction of nothing is 100 % off; NaN when nothing was measured. */
double mdl_rel_error(double predicted, double measured);

/* v from errs[0..n) (NaN ones skipped); held_out: leave-one-out errors
 * of the self-fit, else a given model's (fit names it). */
void mdl_validation_of(const double *errs, size_t n, bool held_out, const char *fit,
		       struct mdl_validation *v);

/* The model's summary of a step as v allows it: why (its "bound by ..."
 * sentence) with the error when validated; otherwise the prediction
 * alone, no bound, prefixed by why it is not validated. rate is the
 * prediction in words ("10 k IOPS"), n its targets. */
void mdl_validated_why(const struct mdl_validation *v, const char *why, const char *rate,
		       unsigned n, char *out, size_t len);

#endif

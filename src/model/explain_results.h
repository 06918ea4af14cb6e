/* explain_results.h - a plan's results beside the model's predictions:
 * the model fitted on that plan's own single-target and scaling steps
 * (fit_results.h), on top of a given fit when there is one, predicts
 * every step on every target set it ran; each scaling step gets its
 * predicted curve, where it stops growing and why. */
#ifndef IOCHAR_MODEL_EXPLAIN_RESULTS_H
#define IOCHAR_MODEL_EXPLAIN_RESULTS_H

#include <stdio.h>

#include "model/fit.h"
#include "util/err.h"

/* Read the result set at path, fit (base: NULL, or a fit to start from,
 * not modified), write measured beside predicted to out as format (NULL
 * or "normal", "csv", "json"). 0 or -errno with a usage message naming a
 * set that cannot be read. */
int mdl_explain_results(const char *path, const struct mdl_fit *base,
			const char *format, FILE *out, struct ioc_err *err);

struct rs_step;

struct rs_set;

/* Step st of result set s (NULL: each target its own drive) as the model
 * sees it on n targets: the measured drive (fit_results.h) from f, one
 * per device the n targets are on (mdl_step_drives), on CPU lanes, and
 * the step's workload (its in-flight I/Os spread over them). false when
 * the step's rw is not one the model knows. */
bool mdl_step_model(const struct mdl_fit *f, const struct rs_set *s, const struct rs_step *st,
		    unsigned n, struct mdl_config *c, struct mdl_workload *w);

#endif

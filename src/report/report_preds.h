/* report_preds.h - predictions beside a result set's measurements: the
 * HTML report's "Predicted beside measured" section (report_model.c) and
 * compare's model side (compare_pred.c). Plain data made by the caller
 * (cmd/report.c, cmd/compare.c and cmd/plan.c with the I/O-path model,
 * src/model/): the report draws them and knows nothing of how they were
 * made. Everything is malloc'd and owned; report_preds_free releases it. */
#ifndef IOCHAR_REPORT_REPORT_PREDS_H
#define IOCHAR_REPORT_REPORT_PREDS_H

#include <stdbool.h>

#define REPORT_PRED_BOUND_MAX 16
#define REPORT_PRED_WHY_MAX 320
#define REPORT_PRED_FIT_MAX 512

struct report_pred_step {
	unsigned step;              /* index into the set's steps */
	bool iops;                  /* values are IOPS, else bytes/s */
	unsigned nr_sets;           /* the step's target sets, in order */
	double *predicted;          /* nr_sets: at each set's target count */
	char (*bound)[REPORT_PRED_BOUND_MAX]; /* nr_sets: what binds there */
	double *util;               /* nr_sets: the bound's utilization, 0..1 */
	/* nr_sets: the error of the prediction of a model not fitted on that
	 * point (leave-one-out, or a given model file), a fraction; NaN:
	 * nothing measured. Never the error of a model fitted on the point. */
	double *heldout;
	double *curve;              /* predicted at 1..nr_curve targets */
	unsigned nr_curve;
	unsigned knee;              /* targets from which it stops growing; 0 none */
	/* the first target count the targets do not bind, measured or not
	 * (the model's saturation count); 0: they bind up to 256 */
	unsigned saturation;
	char knee_cause[REPORT_PRED_BOUND_MAX]; /* what binds there; "" none */
	/* what binds, with the error, when the model is validated; else
	 * why it is not and what it predicts, no bound */
	char why[REPORT_PRED_WHY_MAX];
};

struct report_preds {
	struct report_pred_step *steps;
	unsigned nr_steps;
	/* the model file the predictions came from; "": the model fitted on
	 * the set's own single-target and scaling steps */
	char fit[REPORT_PRED_FIT_MAX];
	/* the model's validation on this set (docs/model.md): e.g. "held-out
	 * error 4.1 % (...)", "unvalidated: ...", "not validated: one step" */
	bool validated;
	char validation[REPORT_PRED_WHY_MAX];
};

/* Release what p owns and zero it; p may be NULL. */
void report_preds_free(struct report_preds *p);

#endif

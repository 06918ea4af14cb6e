/* report_preds.h - predictions the report draws beside a result set's
 * measurements: the "Predicted beside measured" section (report_model.c).
 * Plain data made by the caller (cmd/report.c with the I/O-path model,
 * src/model/): the report draws them and knows nothing of how they were
 * made. Everything is malloc'd and owned; report_preds_free releases it. */
#ifndef IOCHAR_REPORT_REPORT_PREDS_H
#define IOCHAR_REPORT_REPORT_PREDS_H

#include <stdbool.h>

#define REPORT_PRED_BOUND_MAX 16
#define REPORT_PRED_WHY_MAX 256

struct report_pred_step {
	unsigned step;              /* index into the set's steps */
	bool iops;                  /* values are IOPS, else bytes/s */
	unsigned nr_sets;           /* the step's target sets, in order */
	double *predicted;          /* nr_sets: at each set's target count */
	char (*bound)[REPORT_PRED_BOUND_MAX]; /* nr_sets: what binds there */
	double *curve;              /* predicted at 1..nr_curve targets */
	unsigned nr_curve;
	unsigned knee;              /* targets from which it stops growing; 0 none */
	char why[REPORT_PRED_WHY_MAX];
};

struct report_preds {
	struct report_pred_step *steps;
	unsigned nr_steps;
};

/* Release what p owns and zero it; p may be NULL. */
void report_preds_free(struct report_preds *p);

#endif

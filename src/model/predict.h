/* predict.h - predictions for a figures table, and the model's
 * leave-one-configuration-out error on one. */
#ifndef IOCHAR_MODEL_PREDICT_H
#define IOCHAR_MODEL_PREDICT_H

#include <stdio.h>

#include "model/fit.h"

struct mdl_pred {
	double value;               /* in the row's unit */
	struct mdl_answer a;
	double error;               /* |value - row's| / row's; NaN: no value */
};

/* Predict every row of figs with f into p[figs->nr] (caller-owned). */
void mdl_predict_rows(const struct mdl_fit *f, const struct mdl_figs *figs,
		      struct mdl_pred *p);

/* Leave one configuration out (mdl_figrow_same_config): for each, fit on
 * every other row (latency limit limit_ms), predict its rows into p. */
void mdl_predict_loo(const struct mdl_figs *figs, double limit_ms, struct mdl_pred *p);

/* The median and the largest error of p[0..n) over rows with a value;
 * *nr how many. */
void mdl_pred_errors(const struct mdl_pred *p, unsigned n, double *median,
		     double *worst, unsigned *nr);

/* The same over configurations, each counted once by the median error
 * of its rows (so that one configuration measured in many tests does not
 * outweigh the rest); *nr how many configurations. */
void mdl_pred_config_errors(const struct mdl_figs *figs, const struct mdl_pred *p,
			    double *median, double *worst, unsigned *nr);

/* Write figs with the prediction columns added (predicted,
 * predicted_latency_ms, bound_by, utilization, saturation_drives, and
 * error_pct when loo) as CSV, or as a JSON array of row objects.
 * 0 or -EIO. */
int mdl_predict_write_csv(const struct mdl_figs *figs, const struct mdl_pred *p,
			  bool loo, FILE *out);
int mdl_predict_write_json(const struct mdl_figs *figs, const struct mdl_pred *p,
			   bool loo, FILE *out);

#endif

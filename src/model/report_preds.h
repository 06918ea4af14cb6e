/* report_preds.h - the model's predictions for the HTML report's
 * "Predicted beside measured" section (report/report_preds.h): each step
 * of a result set predicted on each of its target sets, and each scaling
 * step's curve, knee and cause, by the model fitted on that set's own
 * single-target and scaling steps. */
#ifndef IOCHAR_MODEL_REPORT_PREDS_H
#define IOCHAR_MODEL_REPORT_PREDS_H

#include "report/report_preds.h"
#include "report/results_model.h"

/* Fill p (zeroed first; report_preds_free it in every case) for set s.
 * A set with no step the model can read gives no steps. 0 or -ENOMEM. */
int mdl_report_preds(const struct rs_set *s, struct report_preds *p);

#endif

/* report_preds.h - the model's predictions for the HTML report's
 * "Predicted beside measured" section (report/report_preds.h): each step
 * of a result set predicted on each of its target sets, and each scaling
 * step's curve, knee and cause, by the model fitted on that set's own
 * single-target and scaling steps or by a given fit. */
#ifndef IOCHAR_MODEL_REPORT_PREDS_H
#define IOCHAR_MODEL_REPORT_PREDS_H

#include "report/report_preds.h"
#include "report/results_model.h"

struct mdl_fit;

/* Fill p (zeroed first; report_preds_free it in every case) for set s:
 * by fit when it is not NULL (used as it is: `report --fit`, `compare
 * --fit`; fit_name then names it in p->fit), else by the model fitted on
 * s's own single-target and scaling steps. A set with no step the model
 * can read gives no steps. 0 or -ENOMEM. */
int mdl_report_preds(const struct rs_set *s, const struct mdl_fit *fit,
		     const char *fit_name, struct report_preds *p);

#endif

/* plan_model.h - a finished plan's scaling steps with the model's word on
 * them: each gets a "model" member in results.json (docs/output.md), the
 * prediction of the model fitted on the plan's own single-target and
 * scaling steps, and one line "model: LABEL: WHY" for the text output. */
#ifndef IOCHAR_CMD_PLAN_MODEL_H
#define IOCHAR_CMD_PLAN_MODEL_H

#include <stdio.h>

#include "util/err.h"

/* Read the results in dir, predict every scaling step with the model
 * fitted on them, and rewrite dir/results.json with each such step's
 * "model" member, through output/results_file.h (renamed into place
 * whole: a failure leaves the file as the plan wrote it). Lines: NULL, or
 * where the "model: ..." lines go. Results without a scaling step the
 * model can read are left as they are. 0 or -errno with a message. */
int plan_model_write(const char *dir, FILE *lines, struct ioc_err *err);

#endif

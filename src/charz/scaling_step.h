/* scaling_step.h - a targets=scaling step run: its sweep (scaling.h)
 * over sets the plan runs, each count's headline point measured again up
 * to scaling_repeats, the devices its targets are on, and the verdict
 * in one line (step_outcome's knee, devices and scaling_msg). */
#ifndef IOCHAR_CHARZ_SCALING_STEP_H
#define IOCHAR_CHARZ_SCALING_STEP_H

#include "charz/outcome.h"

/* Runs the step's mode on a new set of out (out->sets[out->nr_sets++])
 * of the first size targets. 0 or -errno. */
typedef int (*scaling_set_fn)(void *arg, unsigned size, struct ioc_err *err);

/* Run out->step's sweep; out->sets has room for SCALING_MAX_COUNTS.
 * 0 or the first failure (what was measured is kept). */
int scaling_step_run(struct step_outcome *out, scaling_set_fn run_set,
		     void *arg, struct ioc_err *err);

#endif

/* plan_dry.h - what `iochar plan --dry-run` prints: every step as it
 * would run and the plan's time estimate, broken down. */
#ifndef IOCHAR_CMD_PLAN_DRY_H
#define IOCHAR_CMD_PLAN_DRY_H

#include <stdio.h>

#include "charz/eta.h"
#include "charz/plan.h"

/* p's steps in order (label, mode, workload, QD x jobs per target, the
 * targets and how they run, preconditioning) and e's figures (as
 * plan_dry_run made it) to f: each step's runs, fills and rounds, then
 * the totals and the first estimate exactly as the run's progress line
 * says it ("plan: about 12m left"). */
void plan_dry_print(FILE *f, const struct plan *p, const struct eta *e);

#endif

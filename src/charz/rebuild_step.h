/* rebuild_step.h - a plan step with mode=rebuild: the step's workload on
 * its RAID VD alone (the baseline), then during the rebuild of member
 * `replace` at each of `rebuild_rate`'s rates (charz/rebuild.h).
 */
#ifndef IOCHAR_CHARZ_REBUILD_STEP_H
#define IOCHAR_CHARZ_REBUILD_STEP_H

#include <stdatomic.h>

#include "charz/outcome.h"
#include "charz/plan.h"
#include "util/err.h"

/* What plan_validate asks of a rebuild step before anything is written:
 * a VD (vd=), replace=, one target set, and the VD and its new member
 * as rebuild_sweep_check inspects them. 0 or -errno (usage) with err. */
int rebuild_step_validate(const struct plan_step *st, struct ioc_err *err);

/* Run st on set s: the sweep into s->rebuild (and s->rebuild_vd), its
 * foreground figures into s->rebuild_points. stop may be NULL. 0 or
 * -errno with err. */
int rebuild_step_run(const struct plan_step *st, struct set_outcome *s,
		     atomic_bool *stop, struct ioc_err *err);

#endif

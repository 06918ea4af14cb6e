/* resume_targets.h - `plan --resume DIR` continues on the targets DIR's
 * results record (issue 37 H6): each step's key (steps/NNN.key) holds the
 * jobs it ran, their filename too. */
#ifndef IOCHAR_CHARZ_RESUME_TARGETS_H
#define IOCHAR_CHARZ_RESUME_TARGETS_H

#include "charz/plan.h"
#include "util/err.h"

/* Before p's targets are defaulted (scratch) or checked: each job of each
 * step (a multi-workload step's workloads too) that DIR records gets the
 * recorded filename when it names none; a step not run yet that names
 * none gets the one every recorded step shares. A recorded job whose
 * filename names other files (compared by the files they resolve to, not
 * their spelling) is refused, exit 2, naming both; one that names the
 * same files takes the recorded spelling, so its finished step is kept.
 * A recorded scratch file is left to the scratch default, which makes it
 * again alike. Nothing is read but DIR's keys. 0 or -errno with err. */
int resume_targets_apply(struct plan *p, const char *dir, struct ioc_err *err);

#endif

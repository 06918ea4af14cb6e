/* disc_set.h - the submission discipline of each target set of a plan
 * run: probed once per target set and engine (charz/discipline.h), the
 * set's later steps keeping that choice, and set on every run of the
 * step's mode (the set's measure context points at it).
 */
#ifndef IOCHAR_CHARZ_DISC_SET_H
#define IOCHAR_CHARZ_DISC_SET_H

#include "charz/outcome.h"
#include "charz/plan.h"
#include "charz/plan_run_opts.h"

/* The disciplines the plan's probes chose, by target set and engine.
 * Strings borrowed from the plan's steps; zeroed before the first step. */
#define DISC_MEMO_MAX 64
struct disc_memo_set {
	struct {
		char *const *targets;
		unsigned nr_targets;
		const char *engine;
		struct disc_choice c;
	} e[DISC_MEMO_MAX];
	unsigned n;
};

struct disc_memo {
	struct disc_memo_set probed; /* each set's probe, reused later */
	struct disc_memo_set said;   /* each set's last discipline said */
};

/* Decide set s's discipline before st's runs under o->discipline: an
 * earlier step's probe of the same targets and engine (kept in m), a
 * probe now (its runs through a measure context of its own, at the
 * step's first depth: a search's first point, else the job's), or none
 * (precondition and rebuild steps, a fixed one). Sets s->disc,
 * s->disc_decided and s->mctx.disc, and s->disc.unchanged when the set's
 * last step said the same. 0, or the probe's error. */
int disc_set_choose(const struct plan_step *st, struct set_outcome *s,
		    const struct plan_run_opts *o, struct disc_memo *m,
		    struct ioc_err *err);

#endif

/* plan_run.h - running a plan: every step on its target sets, each
 * step's outcome written to the results directory as soon as it is done,
 * and the summary table at the end.
 *
 * Results directory layout:
 *     results.json    {"iochar_version", "format_version", "plan", "source",
 *                      "complete", "nr_steps", "environment", "steps": [...]},
 *                      rewritten after each step
 *     results.csv     one row per step, target and point
 *     steps/NNN.json  one step, written atomically when it finishes
 *     steps/NNN.csv, steps/NNN.txt, steps/NNN.key
 * A step whose files and key (its full parameters) are present is not run
 * again by --resume.
 */
#ifndef IOCHAR_CHARZ_PLAN_RUN_H
#define IOCHAR_CHARZ_PLAN_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "app/app.h"
#include "charz/discipline.h"
#include "charz/eta.h"
#include "charz/plan.h"
#include "charz/plan_run_opts.h"
#include "core/runner.h"

/* Check every step on every target set it will use, without side
 * effects: a bad step 40 must not fail hours into a plan. Also refuses a
 * scaling sweep with fewer than two targets. 0 or -errno with a message. */
int plan_validate(const struct plan *p, struct ioc_err *err);

/* The planned time of p from its first step, as the progress lines say
 * it (charz/eta.h): each step's runs (a search's expected climb), its
 * preconditioning's rounds (at most max_rounds), every fill pass still to
 * come (PTS: once per target) and the pre-write of files too small to
 * read, at an assumed ETA_FILL_GUESS_BPS (the fill's rate is not known
 * before it runs). 0 when nothing is time-bound. Reads the targets'
 * sizes; writes nothing. */
uint64_t plan_time_estimate_ns(const struct plan *p);

/* Does st run a preconditioning (mode=precondition, or precondition=auto
 * before a step that writes at random)? */
bool plan_step_preconditions(const struct plan_step *st);

/* Everything plan_run refuses before it writes anything: plan_validate
 * and each step's --discipline. 0 or -errno with a message. */
int plan_run_check(const struct plan *p, const struct plan_run_opts *o,
		   struct ioc_err *err);

/* `--dry-run`: plan_run's checks (plan_run_check, and out_dir's as
 * results_open makes them, without creating it), then *eta as plan_run
 * starts with it (steps --resume keeps counted done), so that
 * eta_plan_left_ns(eta, 0) is the run's first estimate. No I/O, nothing
 * created; reads the targets' sizes. The caller frees eta->steps. */
int plan_dry_run(const struct plan *p, const struct plan_run_opts *o,
		 struct eta *eta, struct ioc_err *err);

/* Run p. Returns 0 when every step completed, -EINTR when stopped by the
 * user (finished steps are kept), or the first error (the step is written
 * down as partial first). */
int plan_run(const struct plan *p, const struct plan_run_opts *o,
	     struct ioc_err *err);

#endif

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
#include "core/runner.h"

struct plan_run_opts {
	const char *out_dir;   /* NULL: no results directory */
	bool resume;           /* reuse finished steps found in out_dir */
	const struct runner_hooks *hooks; /* stop flag, live status; may be NULL */
	FILE *table;           /* summary table at the end; NULL = none */
	FILE *json;            /* each step's JSON as it finishes; NULL = none */
	FILE *progress;        /* "step i of n" lines; NULL = none */
	struct dist *dist;     /* every step on every MPI rank at once; NULL = here only.
				* Only rank 0 should have out_dir, table and json. */
	/* the plan's time left, kept here while it runs (a live status
	 * line reads it between ticks on this thread; left empty at the
	 * end); NULL: kept privately */
	struct eta *eta;
	/* --discipline: how each target set's submission discipline is
	 * chosen (charz/discipline.h); all zero: probed */
	struct disc_opt discipline;
	/* mode=app steps: how their points' block I/O is captured (cmd/
	 * wires `iochar capture`'s session in); NULL: not captured */
	const struct app_capture_ops *app_capture;
};

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

/* plan_run_opts.h - how plan_run (charz/plan_run.h) runs a plan: where
 * it writes, what it says, over how many hosts, how it picks each set's
 * submission discipline. Apart so the step helpers plan_run calls
 * (disc_set.h) read them without including plan_run.h. */
#ifndef IOCHAR_CHARZ_PLAN_RUN_OPTS_H
#define IOCHAR_CHARZ_PLAN_RUN_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "charz/discipline.h"

struct app_capture_ops;

struct runner_hooks;
struct dist;
struct eta;

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

#endif

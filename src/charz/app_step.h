/* app_step.h - a plan step with mode=app: `iochar app` as a step (a real
 * database benchmark on the step's one target, filename= a directory or,
 * with --force, a device), its results a complete app run in
 * OUT/app-step<N>/ (docs/app.md), the step's JSON naming that directory
 * and the SLOB-like answer: the highest thread count whose p99 stays
 * inside the job's latency_target. */
#ifndef IOCHAR_CHARZ_APP_STEP_H
#define IOCHAR_CHARZ_APP_STEP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/app.h"
#include "base/json_writer.h"
#include "charz/plan.h"
#include "util/err.h"

/* What a step's app run found, kept in its outcome. */
struct app_step_result {
	char dir[64];        /* "app-step3", under the plan's output; "" none */
	bool complete;
	double limit_ms;     /* the latency_target; 0 none */
	const char *metric;  /* "p99" or "device" (static) */
	int best_threads;    /* -1: none inside it (or no target) */
	unsigned npoints;
	struct {
		unsigned threads;
		double tps, qps, lat_avg_ms, lat_p99_ms;
		bool failed;
	} pts[APP_MAX_POINTS];
};

/* st's keys and target, checked as `iochar app` checks its arguments
 * (usage errors name the step); writes nothing. */
int app_step_validate(const struct plan_step *st, struct ioc_err *err);

/* Run step number idx (0-based) into out_dir/app-step<idx+1>/ (a
 * temporary directory when out_dir is NULL), capture through capture
 * (may be NULL); *res allocated. 0 or -errno with err. */
int app_step_run(const struct plan_step *st, unsigned idx, const char *out_dir,
		 const struct app_capture_ops *capture, atomic_bool *stop, bool progress,
		 struct app_step_result **res, struct ioc_err *err);

/* For the plan's estimate: st's runs (a point per thread count and one
 * for the load), each *run_ns long, on *sets = 1 target set. */
unsigned app_step_runs(const struct plan_step *st, uint64_t *run_ns, unsigned *sets);

/* The step's lines of the plan's table: a line per thread count. */
void app_step_text(FILE *f, const char *label, const struct app_step_result *r);

/* The "app" member of the step's JSON. */
void app_step_json(struct jw *w, const struct app_step_result *r);

#endif

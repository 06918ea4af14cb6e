/* fit_results.h - the model fitted on iochar's own results (plan
 * directories or run JSON files, report/results_read.h).
 *
 * Every target of the results is one drive of type MDL_MEASURED_TYPE
 * ("measured": a configuration INI names it to use these figures).
 * Single-target points give its rates, each at its best, and its low-load
 * latency (points at one I/O in flight); a kind measured only on n
 * targets (a JBOD set) gives its figure / n. A point on n targets (a scaling
 * or parallel step) well below n times the single-target figure
 * (MDL_FIT_SLACK) is a ceiling above the targets. iochar's results carry
 * no CPU time, so that ceiling is the host's: its worker threads
 * (numjobs) each busy, i.e. cpu_us_per_io = numjobs x 1e6 / IOPS on
 * cores = numjobs. */
#ifndef IOCHAR_MODEL_FIT_RESULTS_H
#define IOCHAR_MODEL_FIT_RESULTS_H

#include "model/fit.h"
#include "util/err.h"

#define MDL_MEASURED_TYPE "measured"

struct rs_set;

/* Add what the result sets at paths[0..n) measure to f (its other drive
 * types and caps kept). 0 or -errno with the reader's usage message
 * naming the set that cannot be read. */
int mdl_fit_results(struct mdl_fit *f, const char *const *paths, unsigned n,
		    struct ioc_err *err);

/* The same for one result set already read. */
void mdl_fit_result_set(struct mdl_fit *f, const struct rs_set *s);

struct rs_tset;
struct rs_step;

/* The drives target set ts of s runs on: its targets' distinct devices
 * as s's environment names them (four files on one disk are one drive);
 * a target it names no device for (tmpfs, an unknown path) counts as
 * its own. At least 1. */
unsigned mdl_tset_drives(const struct rs_set *s, const struct rs_tset *ts);

/* The same for the target set of st with n targets; n when st has none
 * of that size (a count the model extrapolates to) or s is NULL. */
unsigned mdl_step_drives(const struct rs_set *s, const struct rs_step *st, unsigned n);

/* The same without the point of step (index into s->steps) on its target
 * set set: the model that point is held out of (leave-one-out). */
void mdl_fit_result_set_without(struct mdl_fit *f, const struct rs_set *s, unsigned step,
				unsigned set);

#endif

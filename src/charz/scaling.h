/* scaling.h - a targets=scaling step's sweep: every target count up to 8,
 * then doubling up to all of them, each measured scaling_repeats times;
 * then counts bisected until the knee is placed or cannot be (knee.h),
 * so that a knee at 14 or 16 drives is found on a 24-target set. The
 * measuring is a callback: plan_run.c's runs the step's mode on a set of
 * that many targets, tests a modelled device.
 */
#ifndef IOCHAR_CHARZ_SCALING_H
#define IOCHAR_CHARZ_SCALING_H

#include "charz/knee.h"
#include "util/err.h"

#define SCALING_DENSE		8  /* every count up to this one is measured */
#define SCALING_MAX_COUNTS	64 /* counts measured at most in one step */
#define SCALING_MAX_REPEATS	20 /* scaling_repeats= at most */
#define SCALING_DEFAULT_REPEATS 3

/* The counts measured first for n targets into sizes (room for
 * SCALING_MAX_COUNTS): 1 .. min(n, 8), then 16, 32 ... below n, then n.
 * Returns how many. */
unsigned scaling_first_counts(unsigned n, unsigned *sizes);

/* Measure targets targets at once, its runs into *k. 0 or -errno. */
typedef int (*scaling_measure_fn)(void *arg, unsigned targets,
				  struct knee_count *k, struct ioc_err *err);

/* The sweep over n targets: the first counts, then knee_find's next
 * until it asks for none or SCALING_MAX_COUNTS are measured. counts
 * (room for SCALING_MAX_COUNTS) get the measurements in the order taken,
 * *nr their number, *r the verdict on them. Stops at the first failure
 * (what was measured is kept). 0 or -errno. */
int scaling_sweep(unsigned n, scaling_measure_fn fn, void *arg,
		  struct knee_count *counts, unsigned *nr,
		  struct knee_result *r, struct ioc_err *err);

/* The verdict as one line into buf: "IOPS stops growing after 15 targets
 * (16 gave +0.4 % ± 1.1 %, under half the added targets' share; 3 runs
 * per count, Welch's 95 % interval)", "... still grows at 24 targets",
 * "the knee is undecided ...". metric: "IOPS" or "throughput"; repeats:
 * runs per count. */
void scaling_describe(const struct knee_result *r, const char *metric,
		      unsigned repeats, char *buf, size_t len);

#endif

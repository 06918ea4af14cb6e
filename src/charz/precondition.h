/* precondition.h - SNIA PTS-style preconditioning: the workload-independent
 * fill (2 passes of 128K sequential writes: twice the capacity), then the
 * workload-dependent rounds, the base job's own rw/bs/mix at its iodepth
 * and numjobs, until steady state or a round limit. PTS's defaults for the
 * rounds (4K random write, 4 jobs x QD 32) are the plan step's (plan.c).
 *
 * Steady state (SNIA PTS 2.0): over a window of the last 5 rounds, the
 * excursion (max - min) stays within 20 % of the window's average and the
 * least-squares slope, taken across the window, within 10 % of it.
 */
#ifndef IOCHAR_CHARZ_PRECONDITION_H
#define IOCHAR_CHARZ_PRECONDITION_H

#include <stdbool.h>

#include "charz/point.h"

struct steady_params {
	unsigned window;         /* rounds; 5 */
	double max_excursion;    /* 0.20 */
	double max_slope;        /* 0.10: |slope| x (window - 1) / average */
};

struct steady_verdict {
	bool steady;
	double average, excursion, slope; /* of the last window; excursion and slope relative to average */
};

/* Judge the last sp->window values of series[0..n). Not steady when
 * n < window or the average is 0. */
struct steady_verdict steady_state_check(const double *series, unsigned n,
					 const struct steady_params *sp);

/* Each target's IOPS in the run just measured, when a preconditioning runs
 * on several targets at once (arg is the measure_fn's): writes out[0..max)
 * and returns how many it wrote. */
typedef unsigned (*target_iops_fn)(void *arg, double *out, unsigned max);

struct precond_params {
	unsigned fill_passes;    /* sequential write passes over the region; 2 */
	uint64_t fill_bs;        /* 128k */
	unsigned fill_iodepth;   /* 32, one job: a pass writes the region once */
	unsigned max_rounds;     /* 25 */
	uint64_t round_ns;       /* length of one round; 60 s */
	struct steady_params steady;
	/* Several targets at once: PTS judges each device, and one drive still
	 * in its write cliff can hide in a steady-looking sum, so each
	 * target's rounds are judged too (target_iops gives them). nr_targets
	 * < 2 or no target_iops: the total only. */
	unsigned nr_targets;
	target_iops_fn target_iops;
};

/* What a preconditioning ran, for the results: taken from the jobs handed
 * to the measure_fn, after every default and override. */
struct precond_ran {
	enum rw_mode rw;         /* the rounds' workload */
	unsigned rwmixread;      /* of a mixed rw; 0 for a pure write (all writes) */
	uint64_t bs;
	unsigned iodepth, numjobs;
	uint64_t round_ns;
	unsigned fill_passes, fill_iodepth;
	uint64_t fill_bs;
	uint64_t fill_bytes;     /* written by the fill passes together */
};

struct precond_result {
	struct precond_ran ran;
	struct point fill[8];    /* one per fill pass (at most 8) */
	unsigned nr_fill;
	double *round_iops;      /* owned: each round's total */
	unsigned nr_rounds;
	struct point last_round; /* the last round's figures (nr_rounds > 0) */
	unsigned window;         /* rounds judged together (steady.window) */
	struct steady_verdict verdict; /* the total's window; all 0 while nr_rounds < window */
	/* judged one by one (pp->nr_targets > 1), else 0 and NULL: each
	 * target's round IOPS (precond_target_rounds) and last window */
	unsigned nr_targets;
	double *target_rounds;   /* owned: nr_targets x rounds_cap */
	unsigned rounds_cap;
	struct steady_verdict *target_verdict; /* owned: nr_targets; all 0 while nr_rounds < window */
	bool steady;             /* every target's window steady (the total's when judged alone) */
	unsigned steady_round;   /* 1-based round where steady state was met; 0 = never */
	unsigned filled_by_step; /* set by a plan: 1-based step whose fill covered
				  * these targets, so none ran here; 0 = not skipped */
};

/* Precondition base's targets (a valid job whose rw writes: its rw, bs,
 * rwmixread, iodepth and numjobs are the rounds'; the time is set here,
 * and any pacing of base is dropped: PTS runs flat out, closed loop).
 * Returns 0, -EINVAL with a message naming rw for a job that does not
 * write, or the first measurement error. Release res with
 * precond_result_free. */
int precondition_run(const struct job_spec *base,
		     const struct precond_params *pp, measure_fn measure,
		     void *arg, struct precond_result *res, struct ioc_err *err);

void precond_result_free(struct precond_result *res);

/* Target t's round IOPS (res->nr_rounds of them), t < res->nr_targets. */
const double *precond_target_rounds(const struct precond_result *res, unsigned t);

/* What a step reading a block device no preconditioning filled is told
 * (a warning: it runs, and its figures are what the device gave). */
#define PRECOND_UNWRITTEN_MSG                                                  \
	"reads of never-written blocks: an SSD answers them from its mapping "  \
	"table; precondition first for figures a filled drive gives"

/* Does job, run on a target, read blocks never written: it reads (a mix
 * with rwmixread=0 does not), the target is a block device (a file is
 * laid out, written, before it is read) and no preconditioning of the
 * plan has filled it (filled)? */
bool precond_reads_unwritten(const struct job_spec *job, bool is_block, bool filled);

/* The same for path, looked at (read-only) to tell a block device; false
 * when it cannot be looked at (the run will say why). */
bool precond_target_unwritten(const struct job_spec *job, const char *path, bool filled);

/* The defaults named above. */
void precond_params_default(struct precond_params *pp);

#endif

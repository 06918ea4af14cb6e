/* precondition.h - SNIA PTS-style preconditioning: sequential fill passes,
 * then rounds of random writes until steady state or a round limit.
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

struct precond_params {
	unsigned fill_passes;    /* sequential write passes over the region; 2 */
	uint64_t fill_bs;        /* 128k */
	unsigned max_rounds;     /* 25 */
	uint64_t round_ns;       /* length of one random-write round; 60 s */
	uint64_t round_bs;       /* 4k */
	struct steady_params steady;
};

struct precond_result {
	struct point fill[8];    /* one per fill pass (at most 8) */
	unsigned nr_fill;
	double *round_iops;      /* owned */
	unsigned nr_rounds;
	struct steady_verdict verdict;
	unsigned steady_round;   /* 1-based round where steady state was met; 0 = never */
};

/* Precondition base's targets (a valid job; rw, bs, time are set here).
 * Returns 0 or the first measurement error. Release res with
 * precond_result_free. */
int precondition_run(const struct job_spec *base,
		     const struct precond_params *pp, measure_fn measure,
		     void *arg, struct precond_result *res, struct ioc_err *err);

void precond_result_free(struct precond_result *res);

/* The defaults named above. */
void precond_params_default(struct precond_params *pp);

#endif

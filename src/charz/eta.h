/* eta.h - a plan's time left, honest and corrected as it runs.
 *
 * The estimate is made of each step's planned work (struct eta_step: its
 * fills and pre-writes as bytes over a fill rate, its preconditioning
 * rounds, and its runs: the fixed run, a curve's points and maximum, a
 * search's expected climb), summed over what is still to come. As the
 * plan runs, a finished step counts for what it took (and a search's
 * measured climb length replaces the guess for later searches), a
 * measured fill rate replaces the guessed one, and the step under way
 * counts its runs started. Pure arithmetic: it reads no target and no
 * clock, so it is tested on its own (tests/test_eta.c); plan_run.c feeds
 * it, cmd/status.c shows it.
 */
#ifndef IOCHAR_CHARZ_ETA_H
#define IOCHAR_CHARZ_ETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fill's rate before any fill was measured: a SATA SSD's sequential
 * write. A guess, replaced by eta_fill_measured. */
#define ETA_FILL_GUESS_BPS 500e6
/* The runs a search makes per target set before one was measured: what
 * the climb takes on typical devices, and its confirmation. */
#define ETA_SEARCH_RUNS 8

struct eta_step {
	uint64_t run_ns;     /* one run: ramp + runtime (0: not time-bound) */
	unsigned runs;       /* runs per target set (a search: its expected climb) */
	unsigned sets;       /* target sets */
	bool search;         /* runs is a guess that a measured search replaces */
	uint64_t fill_bytes; /* written before its runs (fills, pre-writes) */
	uint64_t precond_ns; /* preconditioning rounds */
	uint64_t took_ns;    /* once done: what it took */
	bool done;
};

struct eta {
	struct eta_step *steps; /* owned by the caller, nr of them */
	unsigned nr;
	unsigned cur;           /* the step under way; nr when none */
	unsigned runs_started;  /* runs of cur started so far */
	double fill_bps;        /* ETA_FILL_GUESS_BPS until measured */
};

/* e over steps[nr] (borrowed, filled in by the caller); nothing run. */
void eta_init(struct eta *e, struct eta_step *steps, unsigned nr);

/* The planned time of step s alone, at e's fill rate. */
uint64_t eta_step_ns(const struct eta *e, const struct eta_step *s);

/* Step i starts (its fills and preconditioning first). */
void eta_step_start(struct eta *e, unsigned i);

/* One more run of the step under way starts: its fills are behind it. */
void eta_run_start(struct eta *e);

/* Step i is done after took_ns, with runs_per_set runs per target set
 * (0: not told); a search's count becomes the guess of later searches. */
void eta_step_done(struct eta *e, unsigned i, uint64_t took_ns, unsigned runs_per_set);

/* A fill wrote bytes in ns: later fills are estimated at that rate. */
void eta_fill_measured(struct eta *e, uint64_t bytes, uint64_t ns);

/* Time left of the step under way, given run_left_ns left of its current
 * run (the runner's planned minus elapsed); 0 when none is under way or
 * its runs are all started and run_left_ns is 0. Never negative: a step
 * that runs longer than expected has only its current run left. */
uint64_t eta_step_left_ns(const struct eta *e, uint64_t run_left_ns);

/* Time left of the whole plan: the step under way (as above) and every
 * step after it not done. 0 once every step is done. */
uint64_t eta_plan_left_ns(const struct eta *e, uint64_t run_left_ns);

/* "about 12m left" (or "time left unknown" for 0): how the progress
 * lines say the plan's time left. */
void plan_fmt_left(char *buf, size_t len, uint64_t ns);

#endif

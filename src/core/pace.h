/* pace.h - when a rate-limited worker issues its I/Os, and how it waits
 * for them without taking the CPU from the I/O it measures.
 *
 * Every I/O has a due time: one every 1/rate (linear), or exponential gaps
 * of that mean (poisson). Between them the worker sleeps until shortly
 * before the next one, with its timer slack at the minimum, and spins only
 * the last PACE_SPIN_NS. A busy-waiting worker would do better alone on a
 * CPU, but with more workers than CPUs the spinners starve each other and
 * their lateness lands in the latency (which counts from the due time).
 * When a sleep ends late, every I/O that has come due leaves in one batch,
 * so lateness costs one wake-up, not one per I/O; and nothing is hidden:
 * the worker records each I/O's lag (due -> submitted) beside its latency.
 */
#ifndef IOCHAR_CORE_PACE_H
#define IOCHAR_CORE_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "util/rng.h"

/* Beside each I/O's lag (due -> submitted) the worker records its tool
 * lag: how much later it left than it would have from a tool with no
 * overhead, given the same service times. That ideal tool issues I/O k at
 * max(due_k, the time its slot is free again), a slot being free again at
 * its previous I/O's ideal issue plus that I/O's measured service time
 * (Lindley's recursion, one per iodepth slot). So an I/O that waits for a
 * busy device at its iodepth is not blamed on iochar, and a backlog that
 * iochar's lateness caused is. */

/* The last stretch of a wait that is spun rather than slept: short, since
 * the wake-up of a sleep with minimal slack is late by about this much on
 * an idle CPU, and every nanosecond spun is taken from other workers. */
#define PACE_SPIN_NS 5000ull

/* At rates above 1/PACE_BATCH_NS, the shortest sleep: I/Os that come due
 * within it leave together, each late by at most this much (recorded as
 * its lag), and a worker wakes at most 1/PACE_BATCH_NS times a second. */
#ifndef PACE_BATCH_NS
#define PACE_BATCH_NS 30000ull
#endif

/* The scheduler slice a pacing thread asks for (the kernel's minimum). */
#define PACE_SLICE_NS 100000ull

struct pace {
	uint64_t rate;       /* I/Os per second; 0: closed loop, never waits */
	uint64_t start_ns;   /* the first I/O is due then */
	uint64_t taken;      /* linear: I/Os scheduled so far */
	uint64_t next_ns;    /* when the next I/O is due */
	bool poisson;
	struct rng rng;      /* poisson gaps */
};

/* Pace for job j (its rate_iops and rate_process), the first I/O due at
 * start_ns; seed makes the poisson gaps of each worker its own. */
void pace_init(struct pace *p, const struct job_spec *j, uint64_t start_ns,
	       uint64_t seed);

/* Whether an I/O may be issued at now (always, in closed loop). */
static inline bool pace_due(const struct pace *p, uint64_t now)
{
	return !p->rate || p->next_ns <= now;
}

/* The due time of the next I/O (p must be rate-limited); schedules the
 * one after it. Linear due times are exact multiples of 1/rate from the
 * start: no rounding drift over a long run. */
uint64_t pace_take(struct pace *p);

/* Make this thread's sleeps end when asked: timer slack 1 ns instead of
 * the default 50 us (PR_SET_TIMERSLACK). Call from the pacing thread. */
void pace_thread_init(void);

/* Wait until monotonic time t: sleep until PACE_SPIN_NS before it, spin
 * the rest. Returns the time at return (fast_ns), >= t unless a signal
 * cut the sleep short and t was still more than PACE_SPIN_NS away. */
uint64_t pace_wait_until(uint64_t t);

#endif

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

#include "base/job.h"
#include "util/rng.h"

/* Beside each I/O's lag (due -> submitted) the worker records its tool
 * lag: how much later it left than it would have from a tool with no
 * overhead, given the same service times. That ideal tool issues I/O k at
 * max(due_k, the time its slot is free again), a slot being free again at
 * its previous I/O's ideal issue plus that I/O's measured service time
 * (Lindley's recursion, one per iodepth slot). So an I/O that waits for a
 * busy device at its iodepth is not blamed on iochar, and a backlog that
 * iochar's lateness caused is. */

/* The last stretch of a wait that is spun rather than slept, at least:
 * short, since the wake-up of a sleep with minimal slack is late by about
 * this much on an idle CPU of a real machine, and every nanosecond spun
 * is taken from other workers. */
#define PACE_SPIN_NS 5000ull

/* How much before its deadline a sleep ends is learnt per thread (the
 * lead): a virtual machine's timer wakes a thread 13-30 us late even with
 * 1 ns of slack (2026-12-02, this VM, bench/README.md), so a sleep to
 * PACE_SPIN_NS before the deadline ended that late after it, every I/O
 * late by that much. The lead follows the 10th percentile of the sleeps'
 * own lateness, from PACE_SPIN_NS up to PACE_LEAD_MAX_NS: nine wake-ups
 * in ten still end after the lead (nothing spun; each I/O late by the
 * lateness less the lead), one in ten spins what is left. Not higher: on
 * a shared CPU the spin is taken from the other workers. The cap bounds
 * that spin when the lateness drops at once, or was other load's. */
#define PACE_LEAD_MAX_NS 30000ull

/* At rates above 1/PACE_BATCH_NS, the shortest sleep (less PACE_SPIN_NS,
 * whatever the lead): I/Os that come due within it leave together at the
 * wake-up, each late by at most this much and the wake-up's own lateness
 * (recorded as its lag), and a worker wakes at most 1/PACE_BATCH_NS
 * times a second. */
#ifndef PACE_BATCH_NS
#define PACE_BATCH_NS 30000ull
#endif

/* The scheduler slice a pacing thread asks for (the kernel's minimum). */
#define PACE_SLICE_NS 100000ull

struct pace {
	uint64_t rate;       /* units (I/Os or bytes) per second; 0: closed loop, never waits */
	uint64_t start_ns;   /* the first I/O is due then */
	uint64_t taken;      /* linear: units scheduled so far */
	uint64_t next_ns;    /* when the next I/O is due */
	bool poisson;
	struct rng rng;      /* poisson gaps */
};

/* Pace for job j (its rate_iops and rate_process), the first I/O due at
 * start_ns; seed makes the poisson gaps of each worker its own. */
void pace_init(struct pace *p, const struct job_spec *j, uint64_t start_ns,
	       uint64_t seed);

/* Pace rate units per second (I/Os, or bytes for fio's rate=), the
 * first I/O due at start_ns; rate 0: closed loop. */
void pace_init_rate(struct pace *p, uint64_t rate, bool poisson,
		    uint64_t start_ns, uint64_t seed);

/* Whether an I/O may be issued at now (always, in closed loop). */
static inline bool pace_due(const struct pace *p, uint64_t now)
{
	return !p->rate || p->next_ns <= now;
}

/* The due time of the next I/O (p must be rate-limited); schedules the
 * one after it. Linear due times are exact multiples of 1/rate from the
 * start: no rounding drift over a long run. */
uint64_t pace_take(struct pace *p);

/* pace_take for an I/O of n units (its bytes, when the rate is in bytes):
 * the next one is due when n units at the rate have passed. */
uint64_t pace_take_n(struct pace *p, uint64_t n);

/* Move every due time from now on later by ns (a think time the rate
 * does not catch up on: rate_ignore_thinktime). */
void pace_shift(struct pace *p, uint64_t ns);

/* Make this thread's sleeps end when asked: timer slack 1 ns instead of
 * the default 50 us (PR_SET_TIMERSLACK). Call from the pacing thread.
 *
 * spin: spin the last stretch of each wait (the lead) instead of
 * sleeping to the deadline. slice: ask for a short scheduler slice, so
 * the woken thread preempts a CPU hog instead of queueing behind it for a
 * whole slice (null engine, 4 workers x 71k IOPS on 2 CPUs: p99 lag
 * 0.4-1.1 ms with it, 2-5 ms without). Both take the CPU from whatever
 * else the measurement needs: on 2 CPUs with 4 workers over loop devices
 * (issue 34) they preempted the devices' own kernel threads and
 * ksoftirqd, so the service latency at QD 32 and 20 % of the maximum was
 * 880 us with both, 640 without the spin and 460 without either, where
 * fio saw 60 (bench/README.md). pace_spin_slice says when each is taken.
 * A thread that does not spin sleeps to each deadline and its wake-up
 * lateness is its lag. */
void pace_thread_init(bool spin, bool slice);

/* Whether nr pacing threads on cpus usable CPUs leave room to spin: at
 * most one thread per two CPUs (the other for the device's completions
 * and the rest of the machine). */
static inline bool pace_has_room(unsigned nr, unsigned cpus)
{
	return nr && 2 * (uint64_t)nr <= cpus;
}

/* The pacing thread's spin and slice (pace_thread_init): the spin only
 * with room; the slice with room, or when no device work shares the CPUs
 * (an engine that moves no data), where only the threads' own wake-ups
 * are at stake. */
static inline void pace_spin_slice(unsigned nr, unsigned cpus, bool no_device,
				   bool *spin, bool *slice)
{
	*spin = pace_has_room(nr, cpus);
	*slice = *spin || no_device;
}

/* Wait until monotonic time t: sleep until the thread's lead before it
 * (pace_lead_ns), but not less than until sleep_min (0: no minimum; a
 * batch's shortest sleep), spin what is left to t, and learn the lead
 * from how late the sleep ended (a thread without room sleeps to t). Returns the time at return (fast_ns),
 * >= t unless a signal cut the sleep short and t was still more than the
 * lead away. */
uint64_t pace_wait(uint64_t t, uint64_t sleep_min);

/* pace_wait with no minimum sleep. */
static inline uint64_t pace_wait_until(uint64_t t)
{
	return pace_wait(t, 0);
}

/* This thread's lead: how long before a deadline its sleeps end, in
 * [PACE_SPIN_NS, PACE_LEAD_MAX_NS]; PACE_SPIN_NS until it has slept; 0
 * for a thread without room (pace_thread_init), which never spins. */
uint64_t pace_lead_ns(void);

/* The lead after a sleep meant to end at want ended at woke: up by
 * PACE_LEAD_UP_NS when it was later than the lead, down by nine times
 * that when not (the 10th percentile's stochastic approximation),
 * clamped. Pure, for the tests; pace_wait_until applies it. */
#define PACE_LEAD_UP_NS 100ull
uint64_t pace_lead_next(uint64_t lead, uint64_t want, uint64_t woke);

#endif

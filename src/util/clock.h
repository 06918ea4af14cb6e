/* clock.h - the clocks latency is measured with.
 *
 * clock_ns() is CLOCK_MONOTONIC through the vDSO: the reference, used for
 * deadlines, sleeps and everything off the hot path. fast_ns() is the same
 * timebase read from the CPU's time-stamp counter, as fio does: on this
 * class of VM a vDSO read costs ~50 ns, more than the rest of a null I/O,
 * while RDTSC costs a few. It is used only where the TSC is invariant
 * (constant_tsc and nonstop_tsc), agrees across every online CPU, and was
 * calibrated against CLOCK_MONOTONIC at start (fast_clock_init); anywhere
 * else fast_ns() is clock_ns(). IOCHAR_CLOCK=monotonic forces the latter.
 */
#ifndef IOCHAR_UTIL_CLOCK_H
#define IOCHAR_UTIL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleep until the monotonic time t (ns); returns early on a signal. */
static inline void clock_sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000000ull),
		.tv_nsec = (long)(t % 1000000000ull),
	};
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* The calibration, written once by fast_clock_init, read-only after. */
struct fast_clock {
	bool tsc;          /* use the TSC */
	uint64_t tsc0;     /* TSC at the reference point */
	uint64_t ns0;      /* CLOCK_MONOTONIC at the reference point */
	uint64_t mult;     /* ns per tick, as a 32.32 fixed-point number */
};

extern struct fast_clock fast_clock;

/* Decide and calibrate (about 10 ms, once per process; later calls return
 * at once). Thread-safe. Returns whether the TSC is used. */
bool fast_clock_init(void);

#if defined(__x86_64__)
static inline uint64_t fast_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#endif

/* Monotonic nanoseconds, cheaply. fast_clock_init must have run. */
static inline uint64_t fast_ns(void)
{
#if defined(__x86_64__)
	if (fast_clock.tsc) {
		uint64_t d = fast_rdtsc() - fast_clock.tsc0;
		return fast_clock.ns0 +
		       (uint64_t)(((unsigned __int128)d * fast_clock.mult) >> 32);
	}
#endif
	return clock_ns();
}

#endif

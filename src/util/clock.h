/* clock.h - the one clock latency is measured with: CLOCK_MONOTONIC, read
 * through the vDSO (tens of nanoseconds, no system call). */
#ifndef IOCHAR_UTIL_CLOCK_H
#define IOCHAR_UTIL_CLOCK_H

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

#endif

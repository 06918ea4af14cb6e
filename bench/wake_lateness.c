/* wake_lateness.c - how late this machine's timer wakes a sleeping thread
 * (issue 17: what core/pace.c's lead learns). Sleeps N times to an
 * absolute monotonic deadline GAP us ahead, timer slack 1 ns as a pacing
 * thread, and prints percentiles of (woken - deadline).
 *
 *   cc -O2 -o /tmp/wake_lateness bench/wake_lateness.c
 *   /tmp/wake_lateness 100          # gap in us; 20000 sleeps
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	enum { N = 20000 };
	static uint64_t late[N];
	long gap_us = argc > 1 ? atol(argv[1]) : 100;

	if (gap_us <= 0 || gap_us > 1000000) {
		fprintf(stderr, "usage: %s GAP_US (1-1000000)\n", argv[0]);
		return 2;
	}
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	for (int i = 0; i < N; i++) {
		uint64_t t = now_ns() + (uint64_t)gap_us * 1000;
		struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			; /* a signal: sleep on to the same deadline */
		late[i] = now_ns() - t;
	}
	qsort(late, N, sizeof(late[0]), cmp);
	printf("gap %ld us, %d sleeps: lateness p10 %.1f p50 %.1f p90 %.1f p99 %.1f us\n",
	       gap_us, N, late[N / 10] / 1e3, late[N / 2] / 1e3, late[N * 9 / 10] / 1e3,
	       late[N * 99 / 100] / 1e3);
	return 0;
}

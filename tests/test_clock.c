/* test_clock.c - the TSC clock agrees with CLOCK_MONOTONIC (what every
 * latency is reported in) and never runs backwards; forced off, it is
 * CLOCK_MONOTONIC itself. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/clock.h"

static int64_t gap(void)
{
	uint64_t a = clock_ns(), f = fast_ns(), b = clock_ns();
	int64_t mid = (int64_t)(a + (b - a) / 2);
	return (int64_t)f - mid;
}

static void test_agrees_with_monotonic(void **state)
{
	(void)state;
	bool tsc = fast_clock_init();
	printf("fast clock: %s\n", tsc ? "TSC" : "CLOCK_MONOTONIC");
	for (int i = 0; i < 5; i++) {
		int64_t g = gap();
		if (g < -20000 || g > 20000)
			fail_msg("fast clock is %lld ns off CLOCK_MONOTONIC", (long long)g);
		struct timespec ts = {0, 50000000}; /* 50 ms: drift would show */
		nanosleep(&ts, NULL);
	}
}

static void test_never_backwards(void **state)
{
	(void)state;
	fast_clock_init();
	uint64_t prev = fast_ns();
	for (int i = 0; i < 2000000; i++) {
		uint64_t t = fast_ns();
		assert_true(t >= prev);
		prev = t;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agrees_with_monotonic),
		cmocka_unit_test(test_never_backwards),
	};
	return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}

/* clock.c - calibrating the TSC clock; see clock.h. */
#define _GNU_SOURCE
#include "util/clock.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fast_clock fast_clock;
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;

#define CALIBRATE_NS 10000000ull   /* spin this long between the two samples */
#define CPU_SKEW_NS 2000           /* largest TSC disagreement between CPUs accepted */

#if defined(__x86_64__)
/* Both flags or the TSC may change rate or stop in idle states. */
static bool tsc_invariant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	bool constant = false, nonstop = false;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

/* A (TSC, monotonic) pair taken as close together as this CPU allows: the
 * tightest of a few brackets of clock reads around one RDTSC. */
static void sample(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 16; i++) {
		uint64_t a = clock_ns(), t = fast_rdtsc(), b = clock_ns();
		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
}

/* The calibrated TSC clock must agree with CLOCK_MONOTONIC on every CPU
 * the workers may run on, or a thread that moves would see time jump. */
static bool cpus_agree(void)
{
	cpu_set_t old, one;
	bool ok = true;
	if (pthread_getaffinity_np(pthread_self(), sizeof(old), &old))
		return false;
	for (int cpu = 0; cpu < CPU_SETSIZE && ok; cpu++) {
		if (!CPU_ISSET(cpu, &old))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one))
			continue;
		uint64_t t, ns;
		sample(&t, &ns);
		uint64_t est = fast_clock.ns0 +
			       (uint64_t)(((unsigned __int128)(t - fast_clock.tsc0) *
					   fast_clock.mult) >> 32);
		int64_t skew = (int64_t)(est - ns);
		ok = (skew < 0 ? -skew : skew) <= CPU_SKEW_NS;
	}
	pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	return ok;
}

static void calibrate(void)
{
	const char *env = getenv("IOCHAR_CLOCK");
	if ((env && !strcmp(env, "monotonic")) || !tsc_invariant())
		return;
	uint64_t t1, n1, t2, n2;
	sample(&t1, &n1);
	while (clock_ns() < n1 + CALIBRATE_NS)
		;
	sample(&t2, &n2);
	if (t2 <= t1 || n2 <= n1)
		return;
	fast_clock.mult = (uint64_t)(((unsigned __int128)(n2 - n1) << 32) / (t2 - t1));
	fast_clock.tsc0 = t2;
	fast_clock.ns0 = n2;
	fast_clock.tsc = cpus_agree();
}
#else
static void calibrate(void)
{
}
#endif

bool fast_clock_init(void)
{
	pthread_once(&fast_once, calibrate);
	return fast_clock.tsc;
}

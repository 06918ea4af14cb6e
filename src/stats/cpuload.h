/* cpuload.h - how busy the whole machine's CPUs were over a stretch of
 * time, from /proc/stat: the evidence that a rate-limited run was starved
 * by something other than itself.
 */
#ifndef IOCHAR_STATS_CPULOAD_H
#define IOCHAR_STATS_CPULOAD_H

#include <stdbool.h>
#include <stdint.h>

struct cpuload {
	bool ok;          /* the sample was read */
	uint64_t busy;    /* clock ticks, all CPUs: user+nice+system+irq+softirq+steal */
	uint64_t total;   /* the same plus idle and iowait */
	uint64_t user, system, irq, softirq, steal; /* busy's parts (user with nice) */
};

/* Where all CPUs' time went between two samples, % of it (0-100). */
struct cpu_shares {
	bool known;
	double busy, user, system, irq, softirq, steal;
};

/* Read the aggregate "cpu" line of /proc/stat into s (s->ok false when it
 * cannot be read or parsed). */
void cpuload_sample(struct cpuload *s);

/* % of all CPUs busy between a and b (0-100), or -1 when either sample
 * failed or no time passed. */
double cpuload_busy_pct(const struct cpuload *a, const struct cpuload *b);

/* The shares of all CPUs' time between a and b; known false when either
 * sample failed or no time passed. */
void cpuload_shares(const struct cpuload *a, const struct cpuload *b, struct cpu_shares *out);

#endif

/* tool_limited.c - see tool_limited.h. */
#include "core/tool_limited.h"

#include <stdio.h>
#include <string.h>

#include "base/pace_opts.h"
#include "core/rate_verdict.h"

/* "812 us", "7.10 ms", "45 ns" */
static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 10000000)
		snprintf(buf, len, "%.1f ms", (double)ns / 1e6);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else if (ns >= 10000)
		snprintf(buf, len, "%.0f us", (double)ns / 1e3);
	else if (ns >= 1000)
		snprintf(buf, len, "%.1f us", (double)ns / 1e3);
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
}

static unsigned paced_workers(const struct run_result *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].job < r->nr_jobs && pace_job_paced(&r->jobs[r->workers[i].job]))
			n++;
	return n;
}

/* The direction with the largest tool-lag share of its latency; its share in
 * *pct (0 when no direction has paced I/O). */
static int worst_dir(const struct run_result *r, double *pct)
{
	int worst = DIR_READ;
	*pct = 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct dir_stats *ds = &r->total.dir[d];
		if (!ds->tool_lag.count)
			continue;
		uint64_t lat = hist_percentile(&ds->lat, 99);
		uint64_t lag = hist_percentile(&ds->tool_lag, 99);
		double share = lat ? 100.0 * (double)lag / (double)lat : 0;
		if (share > *pct)
			*pct = share, worst = d;
	}
	return worst;
}

/* Append the likely causes to the reason. */
static void add_causes(const struct run_result *r, char *buf, size_t len)
{
	size_t used = strlen(buf);
	unsigned paced = paced_workers(r);
	double own = r->cpu_usr_pct + r->cpu_sys_pct;

	if (r->cpus_usable && paced > r->cpus_usable)
		used += (size_t)snprintf(buf + used, len - used,
					 "; %u rate-limited workers on %u CPUs", paced,
					 r->cpus_usable);
	if (used < len && r->machine_busy_pct >= 90)
		used += (size_t)snprintf(buf + used, len - used,
					 "; CPU saturated: %.0f%% of all CPUs busy (iochar %.0f%% of one)",
					 r->machine_busy_pct, own);
	else if (used < len && r->machine_busy_pct >= 0)
		snprintf(buf + used, len - used,
			 "; CPUs %.0f%% busy (iochar %.0f%% of one)",
			 r->machine_busy_pct, own);
}

/* Every CPU busy and the schedule's lag a material share of the
 * latency: the workers, the device's kernel threads (a loop or zram
 * device's I/O runs on the host's CPUs) and the rest of the machine
 * competed, and the tool-lag model, which takes the measured service
 * times as the device's, cannot tell whose the lateness was. */
static bool saturated_and_late(const struct run_result *r, int *dir)
{
	/* a rate the slots cannot carry waits for them, busy CPUs or not */
	if (r->machine_busy_pct < TOOL_LIMITED_BUSY_PCT || rate_depth_bound(r))
		return false;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct dir_stats *ds = &r->total.dir[d];
		uint64_t lat = hist_percentile(&ds->lat, 99);
		if (ds->lag.count && lat &&
		    100.0 * (double)hist_percentile(&ds->lag, 99) / (double)lat > TOOL_LIMITED_PCT) {
			*dir = d;
			return true;
		}
	}
	return false;
}

void tool_limited_judge(struct run_result *r)
{
	char lag[32], lat[32];
	double pct;

	r->tool_limited = false;
	r->tool_limited_reason[0] = '\0';
	if (!r->open_loop)
		return;
	int d = worst_dir(r, &pct);
	if (pct <= TOOL_LIMITED_PCT && saturated_and_late(r, &d)) {
		r->tool_limited = true;
		fmt_ns(lag, sizeof(lag), hist_percentile(&r->total.dir[d].lag, 99));
		fmt_ns(lat, sizeof(lat), hist_percentile(&r->total.dir[d].lat, 99));
		snprintf(r->tool_limited_reason, sizeof(r->tool_limited_reason),
			 "%s p99 lag %s behind the schedule (p99 latency %s) with "
			 "every CPU busy: workers and device threads competed",
			 d == DIR_READ ? "read" : "write", lag, lat);
		add_causes(r, r->tool_limited_reason, sizeof(r->tool_limited_reason));
		return;
	}
	if (pct <= TOOL_LIMITED_PCT)
		return;
	r->tool_limited = true;
	fmt_ns(lag, sizeof(lag), hist_percentile(&r->total.dir[d].tool_lag, 99));
	fmt_ns(lat, sizeof(lat), hist_percentile(&r->total.dir[d].lat, 99));
	snprintf(r->tool_limited_reason, sizeof(r->tool_limited_reason),
		 "%s p99 tool lag %s is %.0f%% of p99 latency %s",
		 d == DIR_READ ? "read" : "write", lag, pct, lat);
	add_causes(r, r->tool_limited_reason, sizeof(r->tool_limited_reason));
}

/* stats.h - what one worker measures: per-direction latency histograms
 * (and, in rate-limited runs, issue lag and service time beside them),
 * byte counts and a per-second interval series.
 *
 * A worker owns its struct worker_stats and records into it without locks.
 * The runner merges them (stats_merge) after the workers are joined, so
 * merged figures are exact. The few counters a live status line needs are
 * published separately through relaxed atomics (struct stats_live).
 */
#ifndef IOCHAR_STATS_STATS_H
#define IOCHAR_STATS_STATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/job.h"
#include "stats/hist.h"

#define STATS_INTERVAL_NS 1000000000ull

struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	/* ns, to completion from submission, or in rate-limited (open-loop)
	 * runs from the scheduled time: the response time */
	struct hist lat;
	/* rate-limited runs only (empty otherwise), ns: lag, from the
	 * scheduled time to submission; service, from submission to
	 * completion (lat = lag + service, I/O by I/O). tool_lag is the part
	 * of lag after a slot was free: iochar's own lateness, without the
	 * wait for the device to give back one of the iodepth slots. */
	struct hist lag;
	struct hist tool_lag;
	struct hist service;
};

/* Empty ds: no I/O, every histogram empty. */
void dir_stats_init(struct dir_stats *ds);

/* Add src into dst (counts and every histogram, exactly). */
void dir_stats_add(struct dir_stats *dst, const struct dir_stats *src);

/* One second of one worker, or of the merged run. */
struct interval {
	uint64_t ios[DIR_COUNT];
	uint64_t bytes[DIR_COUNT];
	uint64_t lat_sum[DIR_COUNT];  /* ns, for the interval's mean */
	uint64_t lat_max[DIR_COUNT];
};

struct interval_series {
	struct interval *v;   /* owned; v[i] covers [i, i+1) s after measuring began */
	unsigned len;         /* slots holding data */
	unsigned cap;
};

/* Counters a worker publishes for the live status line: written only by the
 * worker (relaxed stores), read by the main thread. */
struct stats_live {
	_Atomic uint64_t ios[DIR_COUNT];
	_Atomic uint64_t bytes[DIR_COUNT];
	_Atomic uint64_t lat_sum;
};

struct worker_stats {
	struct dir_stats dir[DIR_COUNT];
	struct interval_series intervals;
	/* the interval last recorded into, [iv_lo, iv_hi) ns: completions
	 * come in time order, so most need no division to find theirs */
	unsigned iv_cur;
	uint64_t iv_lo, iv_hi;
};

/* Zero st. The interval series starts empty; no memory is held yet. */
void stats_init(struct worker_stats *st);

/* Release the series memory; st may be NULL. */
void stats_free(struct worker_stats *st);

/* Reserve interval slots for a run expected to last `seconds` (avoids
 * allocating while measuring). Returns 0 or -ENOMEM. */
int stats_reserve(struct worker_stats *st, unsigned seconds);

/* Record one completed I/O of `bytes` in direction d with latency lat_ns,
 * completing at since_start_ns after measuring began. Returns 0, or -ENOMEM
 * when the interval series could not grow (the I/O is still counted in the
 * totals). */
static inline int stats_record(struct worker_stats *st, enum io_dir d,
			       uint64_t bytes, uint64_t lat_ns,
			       uint64_t since_start_ns);

/* Beside stats_record, for an I/O of a rate-limited run: its issue lag
 * (scheduled -> submitted), the tool's share of it (tool_lag_ns <=
 * lag_ns) and its service time (submitted -> completed). */
static inline void stats_record_paced(struct worker_stats *st, enum io_dir d,
				      uint64_t lag_ns, uint64_t tool_lag_ns,
				      uint64_t service_ns)
{
	hist_record(&st->dir[d].lag, lag_ns);
	hist_record(&st->dir[d].tool_lag, tool_lag_ns);
	hist_record(&st->dir[d].service, service_ns);
}

/* Slow path of stats_record: make slot `idx` exist. */
int stats_grow_intervals(struct worker_stats *st, unsigned idx);

static inline int stats_record(struct worker_stats *st, enum io_dir d,
			       uint64_t bytes, uint64_t lat_ns,
			       uint64_t since_start_ns)
{
	struct dir_stats *ds = &st->dir[d];
	ds->ios++;
	ds->bytes += bytes;
	hist_record(&ds->lat, lat_ns);

	if (since_start_ns < st->iv_lo || since_start_ns >= st->iv_hi) {
		unsigned idx = (unsigned)(since_start_ns / STATS_INTERVAL_NS);
		if (idx >= st->intervals.len) {
			int ret = stats_grow_intervals(st, idx);
			if (ret)
				return ret;
		}
		st->iv_cur = idx;
		st->iv_lo = (uint64_t)idx * STATS_INTERVAL_NS;
		st->iv_hi = st->iv_lo + STATS_INTERVAL_NS;
	}
	struct interval *iv = &st->intervals.v[st->iv_cur];
	iv->ios[d]++;
	iv->bytes[d] += bytes;
	iv->lat_sum[d] += lat_ns;
	if (lat_ns > iv->lat_max[d])
		iv->lat_max[d] = lat_ns;
	return 0;
}

/* Add src into dst: histograms, counts, and the interval series slot by
 * slot. Returns 0 or -ENOMEM. */
int stats_merge(struct worker_stats *dst, const struct worker_stats *src);

/* Total of both directions (all histograms merged). */
void stats_total(const struct worker_stats *st, struct dir_stats *out);

#endif

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
#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
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
	/* fio's split of its lat, ns, for engines that queue (io_uring,
	 * libaio, posixaio, null): slat from the I/O's start (in rate-limited
	 * runs, its issue) to the return of the submit call that carried it,
	 * clat from then to completion (one clock read per submit call, as
	 * fio's). Empty for synchronous engines: fio has no slat for them. */
	struct hist slat;
	struct hist clat;
};

/* Empty ds: no I/O, every histogram empty. */
void dir_stats_init(struct dir_stats *ds);

/* Add src into dst (counts and every histogram, exactly). */
void dir_stats_add(struct dir_stats *dst, const struct dir_stats *src);

/* One second of one worker, or of the merged run. */
struct interval {
	uint64_t ios[DIR_ALL];
	uint64_t bytes[DIR_ALL];
	uint64_t lat_sum[DIR_ALL];  /* ns, for the interval's mean */
	uint64_t lat_max[DIR_ALL];
};

struct interval_series {
	struct interval *v;   /* owned; v[i] covers [i, i+1) s after measuring began */
	unsigned len;         /* slots holding data */
	unsigned cap;
};

/* stats_live.snap_state: who may touch snap. */
enum { LIVE_SNAP_IDLE, LIVE_SNAP_WANTED, LIVE_SNAP_READY,
       LIVE_SNAP_BUSY /* full_state only: the worker is copying */ };

/* Counters a worker publishes for the live status line: written only by the
 * worker (relaxed stores), read by the main thread. The latency histogram
 * goes by a handshake instead, so a worker copies it only when asked (once
 * a second) and never while it is read: the reader sets WANTED; the worker,
 * at its next publication, copies its histograms into snap and sets READY;
 * snap is then the reader's until it asks again. */
struct stats_live {
	_Atomic uint64_t ios[DIR_ALL];
	_Atomic uint64_t bytes[DIR_ALL];
	_Atomic uint64_t lat_sum;
	_Atomic int snap_state;
	/* every direction's latency so far: the reader's memory (a worker
	 * that nobody asks carries none), set before it first asks */
	struct hist *snap;
	/* the same handshake for a copy of all of the worker's figures
	 * (--status-interval's reports): full is the reader's, its interval
	 * series' memory too (full->intervals.cap slots; the worker copies
	 * as many as fit) */
	_Atomic int full_state;
	struct worker_stats *full;
	uint64_t full_at_ns; /* fast_ns() when full was copied (the worker's) */
};

/* fio's I/O depth distributions, in fio's 7 buckets (stat.c
 * io_u_mark_depth, io_u_mark_submit, io_u_mark_complete): each I/O by the
 * number in flight when it is committed (1, 2, 4, 8, 16, 32, >=64), and each
 * submission and each reap by how many I/Os it carried (0, 1-4, 5-8, 9-16,
 * 17-32, 33-64, >64). Counts of the measured phase only. */
#define DEPTH_BUCKETS 7

struct depth_dist {
	uint64_t level[DEPTH_BUCKETS], submit[DEPTH_BUCKETS], complete[DEPTH_BUCKETS];
};

struct worker_stats;

/* Worker side: when l's reader asked, copy st's latency histograms (every
 * direction merged) into l->snap and answer. Cheap when not asked: one
 * load. */
void stats_live_answer(struct stats_live *l, const struct worker_stats *st);

/* Reader side: ask l for a snapshot into snap (the reader's, the same
 * every time; the worker's to write until it answers). */
void stats_live_ask(struct stats_live *l, struct hist *snap);

/* Reader side: when l answered, copy its snapshot into *seen (left as it
 * was otherwise). Returns whether *seen was updated. */
bool stats_live_take(const struct stats_live *l, struct hist *seen);

/* Reader side: ask l for a copy of all its worker's figures into full
 * (the reader's; full->intervals.v holds full->intervals.cap slots).
 * stats_live_full_settle ends the ask: a worker that has not begun to
 * answer never will (the ask is withdrawn), one that is copying is waited
 * for (microseconds); afterwards full is the reader's again. Returns
 * whether full was refreshed (then full_at_ns says when it was copied). */
void stats_live_ask_full(struct stats_live *l, struct worker_stats *full);
bool stats_live_full_settle(struct stats_live *l);

/* Reader side: has l answered the ask yet (full is ready to settle)? */
bool stats_live_full_answered(const struct stats_live *l);

/* Copy src's figures into dst, dst's series memory kept (as many of
 * src's slots as dst->intervals.cap holds): what a worker answers, and
 * what the reader takes from a worker that has finished. */
void stats_copy_into(struct worker_stats *dst, const struct worker_stats *src);

struct worker_stats {
	struct dir_stats dir[DIR_ALL]; /* trims' too: job.h io_dir */
	/* flushes of fsync=/fdatasync= (fio's "sync"): how many, and each
	 * one's latency, ns; end_fsync's are not counted, as in fio */
	uint64_t sync_ios;
	uint64_t datasync_ios; /* of sync_ios, fdatasync's (fio's total_ios leaves them out) */
	/* fio's continue_on_error: the I/Os that failed and were passed
	 * over, by direction (no bytes, no latency: fio's total_ios counts
	 * them), the errors counted (those and the one that stopped the
	 * worker) and the first one's errno */
	uint64_t err_ios[DIR_ALL];
	uint64_t err_total;
	int err_first;
	/* fio's drop_ios: blocks a udp receiver's sequence numbers say were
	 * lost on the way (the net engine's), by direction */
	uint64_t drop_ios[DIR_ALL];
	struct hist sync_lat;
	struct depth_dist depth;
	struct interval_series intervals;
	/* the interval last recorded into, [iv_lo, iv_hi) ns: completions
	 * come in time order, so most need no division to find theirs */
	unsigned iv_cur;
	uint64_t iv_lo, iv_hi;
};

/* fio's level bucket of an I/O queued with depth in flight (itself too). */
static inline unsigned depth_level_bucket(unsigned depth)
{
	unsigned b = 0;
	while (b < DEPTH_BUCKETS - 1 && depth >= 2u << b)
		b++;
	return b;
}

/* fio's submit/complete bucket of a call that carried nr I/Os. */
static inline unsigned depth_batch_bucket(unsigned nr)
{
	unsigned b = 1;
	if (!nr)
		return 0;
	while (b < DEPTH_BUCKETS - 1 && nr > 2u << b)
		b++;
	return b;
}

/* A commit of nr queued I/Os, depth in flight with them. */
static inline void depth_commit(struct depth_dist *dd, unsigned depth, unsigned nr)
{
	dd->level[depth_level_bucket(depth)] += nr;
	dd->submit[depth_batch_bucket(nr)]++;
}

/* A sync engine's I/O, done inside queue() with depth in flight: fio
 * counts it as one submission and one reap of one I/O. */
static inline void depth_sync_io(struct depth_dist *dd, unsigned depth)
{
	dd->level[depth_level_bucket(depth)]++;
	dd->submit[1]++;
	dd->complete[1]++;
}

/* Zero st. The interval series starts empty; no memory is held yet. */
void stats_init(struct worker_stats *st);

/* stats_init for st in defined memory (calloc'd, or used before; not an
 * uninitialised variable): writes only the words that change, so the
 * pages of buckets that count nothing are not paged in (~660 KiB a
 * worker, util/sparse_mem.h). Any series memory must be released first. */
void stats_reset(struct worker_stats *st);

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

/* Beside stats_record, for an I/O of an engine that queues: fio's slat
 * and clat (struct dir_stats). */
static inline void stats_record_split(struct worker_stats *st, enum io_dir d,
				      uint64_t slat_ns, uint64_t clat_ns)
{
	hist_record(&st->dir[d].slat, slat_ns);
	hist_record(&st->dir[d].clat, clat_ns);
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

/* stats_merge with src's interval i added into dst's interval i + shift:
 * a worker that started shift seconds after dst's series began (a job
 * after a stonewall). Returns 0 or -ENOMEM. */
int stats_merge_at(struct worker_stats *dst, const struct worker_stats *src,
		   unsigned shift);

/* Total of both directions (all histograms merged). */
void stats_total(const struct worker_stats *st, struct dir_stats *out);

#endif

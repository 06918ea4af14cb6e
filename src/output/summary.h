/* summary.h - the derived figures every output format prints.
 *
 * IOPS, bandwidth, latency moments and percentiles are computed here and
 * only here, from the raw counters and histograms of a struct run_result,
 * so text, JSON and CSV can never disagree about a figure.
 */
#ifndef IOCHAR_OUTPUT_SUMMARY_H
#define IOCHAR_OUTPUT_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/result.h"
#include "stats/stats.h"

#define SUMMARY_NR_PCT 6

/* One reported percentile: its value, JSON/CSV name and text label. */
struct summary_pct {
	double p;	   /* 99.9 */
	const char *key;   /* "p99_9" */
	const char *label; /* "99.9th" */
};

/* Index of each percentile in summary_pcts[] and lat_summary.pct[]. */
enum summary_pct_index {
	PCT_P50, PCT_P90, PCT_P95, PCT_P99, PCT_P99_9, PCT_P99_99,
};

/* The percentiles reported, in ascending order (p50 .. p99.99). */
extern const struct summary_pct summary_pcts[SUMMARY_NR_PCT];

struct lat_summary {	    /* nanoseconds; all 0 when there was no I/O */
	double mean, stdev; /* population standard deviation */
	uint64_t min, max;  /* exact */
	uint64_t pct[SUMMARY_NR_PCT]; /* from the histogram, see hist.h */
};

/* The summary of histogram h (all 0 when empty). */
void summary_lat(const struct hist *h, struct lat_summary *out);

struct dir_summary {
	uint64_t ios, bytes;
	double iops;	     /* ios / elapsed seconds; 0 if elapsed is 0 */
	double bw_bytes;     /* bytes / elapsed seconds */
	uint64_t elapsed_ns; /* the time the rates are over */
	struct lat_summary lat;     /* response time (see stats.h) */
	struct lat_summary lag;     /* scheduled -> submitted; all 0 in closed loop */
	struct lat_summary tool_lag; /* the part of lag with a slot free; ditto */
	struct lat_summary service; /* submitted -> completed; all 0 in closed loop */
	bool paced;                 /* lag and service were recorded (rate-limited) */
};

/* Read, write, trim, and all merged. */
struct stats_summary {
	struct dir_summary dir[DIR_ALL];
	struct dir_summary total;
};

struct interval_summary {
	uint64_t ios, bytes;
	double iops, bw_bytes; /* over the interval's true length */
	double lat_mean_ns;
	uint64_t lat_max_ns;
};

struct cpu_summary {
	double usr_pct, sys_pct; /* % of one CPU */
	uint64_t usr_ns, sys_ns;
	double ns_per_io; /* (usr + sys) / all I/Os; 0 with no I/O */
};

/* Figures of one direction over elapsed_ns. Never fails. */
void summary_dir(const struct dir_stats *ds, uint64_t elapsed_ns,
		 struct dir_summary *out);

/* Figures of read, write and total of st over elapsed_ns. Returns 0 or
 * -ENOMEM (the merged total histogram is allocated and freed inside). */
int summary_stats(const struct worker_stats *st, uint64_t elapsed_ns,
		  struct stats_summary *out);

/* Figures of job `job` of r: every clone's counters and histograms merged,
 * rates over the longest clone's elapsed time (r->elapsed_ns if no clone
 * has one). Returns 0 or -ENOMEM. */
int summary_job(const struct run_result *r, unsigned job,
		struct stats_summary *out);

/* True length of interval idx of r->total.intervals: a full second, except
 * for the last, which ends at r->elapsed_ns (a full second when elapsed_ns
 * does not fall inside it). */
uint64_t summary_interval_len_ns(const struct run_result *r, unsigned idx);

/* Figures of direction d of one interval of length len_ns. */
void summary_interval(const struct interval *iv, enum io_dir d, uint64_t len_ns,
		      struct interval_summary *out);

/* Process CPU use of the run and its cost per I/O. */
void summary_cpu(const struct run_result *r, struct cpu_summary *out);

/* The iochar version that produced r: r->env.iochar_version, else the
 * version this binary was built as. Never NULL. */
const char *summary_version(const struct run_result *r);

/* "read" / "write". */
const char *summary_dir_name(enum io_dir d);

#endif

/* point.h - one measured point of a characterization (a run reduced to the
 * figures searches, curves and reports compare), and the measuring callback
 * every algorithm in charz/ is written against.
 *
 * The algorithms (search.c, curve.c, precondition.c) never call the runner
 * themselves: they hand a job spec to a measure_fn. The real one
 * (measure.c) runs it; tests pass a simulated device model, so an
 * algorithm's choices can be checked against a known best.
 */
#ifndef IOCHAR_CHARZ_POINT_H
#define IOCHAR_CHARZ_POINT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "output/summary.h"
#include "util/err.h"

enum lat_stat {
	LAT_STAT_MEAN,
	LAT_STAT_P99,
	LAT_STAT_P99_9,
};

/* Where a latency limit applies on a mixed workload: to each direction
 * that did I/O (a 70:30 step whose writes average 2.04 ms misses a 2 ms
 * limit even if the combined mean is 1.1 ms), or to the combined figure. */
enum lat_scope {
	LAT_SCOPE_EACH,
	LAT_SCOPE_TOTAL,
};

/* An open-loop second counts as on rate within this fraction of the
 * asked rate (curves: a point is reached when most seconds are). */
#define POINT_RATE_TOL 0.05

struct point {
	unsigned iodepth, numjobs;  /* as run */
	uint64_t rate_iops;         /* total asked (all workers); 0 = as fast as possible */
	struct stats_summary s;     /* read, write and total figures */
	uint64_t elapsed_ns;
	bool partial;               /* stopped early (signal, error) */
	bool inside;                /* set by the algorithm: met the latency limit */
	/* open loop (rate_iops > 0): whole seconds measured, and those whose
	 * IOPS were within POINT_RATE_TOL of the asked total; 0, 0 if unknown */
	unsigned nr_sec, sec_on_rate;
	/* the tool, not the device, was the limit (see measure.c's accessor) */
	bool tool_limited;
	char tool_limited_reason[256];
	unsigned call;              /* 0-based measure call, in the algorithm's order, that gave it */
	unsigned runs;              /* times measured: 2 when a frontier break was re-measured */
	bool repeat_missed;         /* search: its confirming repeat missed the limit */
	bool confirmed;             /* search: repeated, both runs inside; these figures the lower */
	bool shows_repeat;          /* search, confirmed: the lower run shown was the repeat */
	bool ended_early;           /* search: ran well under runtime (not time_based, region read once) */
	/* a multi-workload step (charz/workloads.h): the worst latency, by
	 * enum lat_stat, of the directions its workloads' latency_judge
	 * names; when set the limit is judged on it (plan_validate refuses
	 * latency_scope=total on such a step: it would not be used) */
	bool judged;
	double judged_ns[3];
	/* a step that replays a log (read_iolog; its first replaying job,
	 * core/replay.h's figures): the run JSON's "replay" member, per point */
	struct point_replay {
		bool on, timed;
		uint64_t ios, behind;
		char name[JOB_NAME_MAX], read_iolog[1024];
		struct lat_summary lag, tool_lag, lat;
	} replay;
};

/* Run job (a complete, valid spec) and reduce it to *out. Returns 0, or
 * -errno with a message in err. The algorithms stop on any failure. */
typedef int (*measure_fn)(void *arg, const struct job_spec *job,
			  struct point *out, struct ioc_err *err);

/* The latency statistic `stat` of p's total, in ns. */
double point_latency(const struct point *p, enum lat_stat stat);

/* The latency statistic `stat` of direction d of p, in ns. */
double point_dir_latency(const struct point *p, enum io_dir d,
			 enum lat_stat stat);

/* True if p met limit_ns on `stat` in `scope`: each direction that did
 * I/O, or the total. A partial point never does. */
bool point_within(const struct point *p, enum lat_stat stat,
		  enum lat_scope scope, uint64_t limit_ns);

/* The worst latency that point_within compares with the limit. */
double point_scope_latency(const struct point *p, enum lat_stat stat,
			   enum lat_scope scope);

/* "each", "total". */
const char *lat_scope_name(enum lat_scope scope);

/* How far an achieved rate may miss asked (I/Os per second) over seconds
 * of a run and still be on rate: floor (e.g. POINT_RATE_TOL), or the
 * counting noise of the arrivals when that is larger: 4 standard
 * deviations of a Poisson count (4 / sqrt(asked x seconds)) for poisson
 * arrivals, 2 I/Os of quantization for linear ones. At 100 IOPS a Poisson
 * second is +-10 % by nature: a 5 % rule would call such points not
 * reached. */
double point_rate_tolerance(double asked, double seconds, bool poisson, double floor);

/* How many of the n per-second IOPS iv[] are within
 * point_rate_tolerance(asked, 1, poisson, POINT_RATE_TOL) of asked (> 0). */
unsigned point_count_on_rate(const double *iv, unsigned n, double asked, bool poisson);

/* An open-loop run's whole seconds and those on rate (point_count_on_rate),
 * from its per-second IOPS iv[0..nr_iv) over elapsed_ns: every whole
 * second of elapsed_ns counts, one the series lacks (nothing completed in
 * it: a stall at the end) as 0 IOPS; the last, cut-short second does not. */
void point_count_seconds(const double *iv, unsigned nr_iv, uint64_t elapsed_ns,
			 double asked, bool poisson, unsigned *nr_sec, unsigned *on_rate);

/* "mean", "p99", "p99.9". */
const char *lat_stat_name(enum lat_stat stat);

/* Parse "mean", "p99", "p99.9" (also "p99_9"). 0 or -EINVAL. */
int lat_stat_parse(const char *s, enum lat_stat *out);

#endif

/* sim_device.h - a simulated storage device as a measure_fn, for testing
 * the characterization algorithms (search, curve, precondition) against a
 * model whose best point is known.
 *
 * Closed loop (rate_iops 0), with Q = iodepth x numjobs outstanding I/Os:
 * - device capacity C_dev = parallel / svc_ns, times
 *   (1 - contention x (numjobs - 1));
 * - worker capacity C_cpu = job_max_iops x numjobs (none when 0);
 * - IOPS X = softmin(Q / svc_ns, C_dev, C_cpu), a smooth minimum (p-norm
 *   of the inverses, p = knee, 4 by default), so the knee is rounded; with
 *   knee = 1 and no C_cpu, mean latency is svc_ns + Q / C_dev: a linear
 *   queue, whose IOPS approach C_dev slowly (half of it at Q = C_dev x
 *   svc_ns, 90 % at 9 times that);
 * - past droop_q outstanding I/Os (when droop > 0), X falls by droop per
 *   doubling of Q: X x (1 - droop x log2(Q / droop_q)), at least X / 10
 *   (queueing below the device, in the block layer or a worker, costs
 *   more than the device gives);
 * - mean latency Q / X (Little's law);
 * - p99 = mean x (1.5 + tail x u^8 x Q / Q_knee), with the utilization
 *   u = X / min(C_dev, C_cpu) and Q_knee = min(C_dev, C_cpu) x svc_ns, so
 *   it grows past the knee; p99.9 = p99 x 1.5.
 * Open loop (rate_iops per worker): asked A = rate_iops x numjobs,
 * achieved min(A, X), latency from an M/M/c approximation (c = parallel,
 * Sakasegawa) that explodes as A approaches X; past X the backlog grows
 * over the run.
 * Random-write rounds of preconditioning (rw=randwrite, time based) can
 * follow a schedule instead: wr_floor + (wr_start - wr_floor) x
 * exp(-(r - 1) / wr_tau) for round r (wr_floor when wr_tau is 0), times
 * (1 + wr_swing) on odd rounds and (1 - wr_swing) on even ones.
 *
 * The fault hooks below (outlier, write_lat, stall, closed_scale) bend
 * single runs so tests can check what the algorithms do with them.
 * Every model parameter is plain data; the struct also records what it
 * was asked (calls, the first SIM_LOG_MAX jobs). No global state.
 */
#ifndef IOCHAR_TESTS_SIM_DEVICE_H
#define IOCHAR_TESTS_SIM_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "charz/point.h"

#define SIM_LOG_MAX 128
#define SIM_TARGETS_MAX 4

/* What one call was asked. */
struct sim_call {
	enum rw_mode rw;
	unsigned rwmixread;
	uint64_t bs;
	unsigned iodepth, numjobs;
	uint64_t rate_iops; /* per worker, as received */
	uint64_t rate_bps[DIR_COUNT]; /* rate=R,W as received */
	uint64_t thinktime_ns;
	enum rate_process rate_process;
	bool time_based;
	uint64_t runtime_ns, ramp_ns;
};

struct sim_device {
	/* the model */
	double svc_ns;	     /* one I/O on an idle device */
	unsigned parallel;   /* I/Os the device serves at once */
	double job_max_iops; /* one worker's ceiling (CPU); 0 = none */
	double contention;   /* device capacity lost per extra job */
	double knee;	     /* the softmin's p: 1 soft .. 8 sharp; 0 = 4 */
	double droop;	     /* IOPS lost per doubling of Q past droop_q */
	double droop_q;	     /* outstanding I/Os where the droop starts */
	double tail;	     /* p99 growth past the knee */
	double noise;	     /* deterministic +/- fraction on IOPS, latency */
	uint64_t noise_seed;
	/* Test hook: reported IOPS x (1 - iops_skew x log2 Q), bandwidth
	 * untouched, so a test can tell which figure a caller ranks by. */
	double iops_skew;
	/* Preconditioning schedule (see above); wr_start 0: none. */
	double wr_start, wr_floor, wr_tau, wr_swing;
	/* Preconditioning rounds on several targets at once: nr_targets
	 * schedules like the one above, each also x (1 - drift)^(r - 1) (a
	 * drive still falling), the round's total their sum; overrides wr_*.
	 * sim_target_iops gives each one's IOPS of the last round. */
	unsigned nr_targets;
	struct sim_sched {
		double start, floor, tau, swing, drift;
	} target[SIM_TARGETS_MAX];
	double target_last[SIM_TARGETS_MAX];
	uint64_t region_bytes; /* one pass when not time based; 0 = 1 GiB */
	unsigned fail_at;      /* 1-based call failing with -EIO; 0 = never */
	/* Fault hook: the 1-based call outlier_call reports IOPS x
	 * outlier_factor and latency / outlier_factor (one bad run); 0 = never. */
	unsigned outlier_call;
	double outlier_factor;
	/* When > 0: that call's latency is x outlier_lat instead (its IOPS
	 * still x outlier_factor; 1 leaves them): a hiccup that inflates the
	 * latency, a percentile most, and not the IOPS. */
	double outlier_lat;
	/* Writes' latency is write_lat times the reads' (0 or 1: the same);
	 * the total's mean stays the I/O-weighted mean of the two. */
	double write_lat;
	/* Open loop: per-second on-rate figures. A point asking at least
	 * stall_pct % of the closed-loop maximum stalls half its seconds
	 * (its average still meets the rate); 0 = never. */
	double stall_pct;
	/* Closed loop: IOPS x closed_scale on the first closed_calls
	 * closed-loop calls (0 = all); 0 = no scaling. Models a maximum run
	 * that came out low. */
	double closed_scale;
	unsigned closed_calls;
	unsigned closed_seen;
	bool no_io;	       /* every run does no I/O */

	/* what it was asked */
	unsigned calls;
	unsigned wr_rounds;
	struct sim_call log[SIM_LOG_MAX];
	uint64_t rng;
};

/* A device with the model zeroed and the given basics. */
void sim_init(struct sim_device *d, double svc_ns, unsigned parallel);

/* The noise-free figures of job on d (no call counted): what sim_measure
 * returns without noise, schedules or failures. */
void sim_model(const struct sim_device *d, const struct job_spec *job,
	       struct point *out);

/* The base job of a characterization test: job_spec_init'd, named name,
 * on the ':'-separated files, with rw, bs and iodepth x numjobs, time based
 * for runtime_ns when that is not 0. The caller sets the rest and frees it
 * (job_spec_free). 0, or job_spec_set_files' error. */
int sim_job(struct job_spec *job, const char *name, const char *files,
	    enum rw_mode rw, uint64_t bs, unsigned iodepth, unsigned numjobs,
	    uint64_t runtime_ns);

/* measure_fn: arg is a struct sim_device. */
int sim_measure(void *arg, const struct job_spec *job, struct point *out,
		struct ioc_err *err);

/* target_iops_fn (charz/precondition.h): each target's IOPS of the last
 * round of several targets (d->nr_targets of them); arg is the device. */
unsigned sim_target_iops(void *arg, double *out, unsigned max);

/* The figure a search ranks: bandwidth for sequential, IOPS for random. */
double sim_score(const struct point *p, enum rw_mode rw);

#endif

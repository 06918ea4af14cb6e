/* sim_device.c - see sim_device.h. */
#include "sim_device.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NS 1e9

void sim_init(struct sim_device *d, double svc_ns, unsigned parallel)
{
	memset(d, 0, sizeof(*d));
	d->svc_ns = svc_ns;
	d->parallel = parallel ? parallel : 1;
}

int sim_job(struct job_spec *job, const char *name, const char *files,
	    enum rw_mode rw, uint64_t bs, unsigned iodepth, unsigned numjobs,
	    uint64_t runtime_ns)
{
	job_spec_init(job);
	snprintf(job->name, sizeof(job->name), "%s", name);
	job->rw = rw;
	job->bs = bs;
	job->iodepth = iodepth;
	job->numjobs = numjobs;
	if (runtime_ns) {
		job->time_based = true;
		job->runtime_ns = runtime_ns;
	}
	return job_spec_set_files(job, files);
}

struct sim_closed {
	double iops, mean_ns, cap;
};

/* Closed-loop figures at qd x nj outstanding I/Os. */
static struct sim_closed closed_loop(const struct sim_device *d, unsigned qd,
				     unsigned nj)
{
	struct sim_closed c;
	double s = d->svc_ns / NS, q = (double)qd * nj;
	double share = 1.0 - d->contention * (nj - 1);
	double dev = d->parallel / s * (share > 0.1 ? share : 0.1);
	double k = d->knee > 0 ? d->knee : 4;
	double inv = pow(s / q, k) + pow(1 / dev, k);

	c.cap = dev;
	if (d->job_max_iops > 0) {
		double cpu = d->job_max_iops * nj;

		inv += pow(1 / cpu, k);
		c.cap = cpu < dev ? cpu : dev;
	}
	c.iops = pow(inv, -1 / k);
	if (d->droop > 0 && d->droop_q > 0 && q > d->droop_q) {
		double f = 1 - d->droop * log2(q / d->droop_q);

		c.iops *= f > 0.1 ? f : 0.1;
	}
	c.mean_ns = q / c.iops * NS;
	return c;
}

static double run_seconds(const struct job_spec *job)
{
	if (job->time_based && job->runtime_ns)
		return job->runtime_ns / NS;
	return 1.0;
}

/* Open loop at rate_iops per worker: achieved IOPS, mean and p99 factor. */
static void open_loop(const struct sim_device *d, const struct job_spec *job,
		      const struct sim_closed *c, double *iops, double *mean,
		      double *p99f)
{
	double asked = (double)job->rate_iops * job->numjobs;
	double rho = asked / c->iops, r = rho < 0.999 ? rho : 0.999;
	double servers = d->parallel;
	double wait = d->svc_ns * pow(r, sqrt(2 * (servers + 1)) - 1) /
		      (servers * (1 - r));

	*iops = asked < c->iops ? asked : c->iops;
	*mean = d->svc_ns + wait;
	if (rho >= 1) /* the backlog grows over the run */
		*mean += run_seconds(job) * NS / 2 * (1 - 1 / rho);
	*p99f = 1.5 + 3.1 * (rho < 1 ? rho : 1);
}

static void fill_dir(struct dir_summary *ds, double iops, uint64_t bs,
		     double mean, double p99, uint64_t elapsed_ns)
{
	double sec = elapsed_ns / NS;

	ds->iops = iops;
	ds->bw_bytes = iops * (double)bs;
	ds->ios = (uint64_t)llround(iops * sec);
	ds->bytes = ds->ios * bs;
	ds->elapsed_ns = elapsed_ns;
	ds->lat.mean = mean;
	ds->lat.stdev = mean / 2;
	ds->lat.min = (uint64_t)(mean / 3);
	ds->lat.pct[PCT_P50] = (uint64_t)(mean * 0.9);
	ds->lat.pct[PCT_P90] = (uint64_t)(mean + (p99 - mean) * 0.3);
	ds->lat.pct[PCT_P95] = (uint64_t)(mean + (p99 - mean) * 0.6);
	ds->lat.pct[PCT_P99] = (uint64_t)p99;
	ds->lat.pct[PCT_P99_9] = (uint64_t)(p99 * 1.5);
	ds->lat.pct[PCT_P99_99] = (uint64_t)(p99 * 2.0);
	ds->lat.max = (uint64_t)(p99 * 3.0);
}

/* Fill out from total IOPS, latency and the job's shape. */
static void fill_point(const struct sim_device *d, const struct job_spec *job,
		       double iops, double mean, double p99, struct point *out)
{
	double q = (double)job->iodepth * job->numjobs;
	double bw = iops * (double)job->bs, reported = iops;
	double rd = rw_is_mixed(job->rw) ? job->rwmixread / 100.0
					 : (rw_reads(job->rw) ? 1.0 : 0.0);
	uint64_t region = d->region_bytes ? d->region_bytes : 1ull << 30;
	uint64_t elapsed;

	if (job->time_based || iops <= 0)
		elapsed = (uint64_t)(run_seconds(job) * NS);
	else
		elapsed = (uint64_t)((double)region / bw * NS);
	if (d->iops_skew > 0) {
		reported *= 1 - d->iops_skew * log2(q);
		reported = reported > 1 ? reported : 1;
	}
	memset(out, 0, sizeof(*out));
	out->iodepth = job->iodepth;
	out->numjobs = job->numjobs;
	out->rate_iops = job->rate_iops * job->numjobs;
	out->elapsed_ns = elapsed;
	fill_dir(&out->s.total, iops, job->bs, mean, p99, elapsed);
	out->s.total.iops = reported;
	out->s.total.bw_bytes = bw;
	/* the total stays the I/O-weighted mean of reads and writes */
	double w = d->write_lat > 0 ? d->write_lat : 1, r_lat = mean / (rd + (1 - rd) * w);
	fill_dir(&out->s.dir[DIR_READ], iops * rd, job->bs, r_lat, p99 * r_lat / mean,
		 elapsed);
	fill_dir(&out->s.dir[DIR_WRITE], iops * (1 - rd), job->bs, r_lat * w,
		 p99 * r_lat * w / mean, elapsed);
}

void sim_model(const struct sim_device *d, const struct job_spec *job,
	       struct point *out)
{
	unsigned qd = job->iodepth ? job->iodepth : 1;
	unsigned nj = job->numjobs ? job->numjobs : 1;
	struct sim_closed c = closed_loop(d, qd, nj);
	double iops = c.iops, mean = c.mean_ns, p99f;

	if (job->rate_iops) {
		open_loop(d, job, &c, &iops, &mean, &p99f);
	} else {
		double q = (double)qd * nj, knee = c.cap * d->svc_ns / NS;
		double u = c.iops / c.cap;

		p99f = 1.5 + d->tail * pow(u, 8) * q / knee;
	}
	fill_point(d, job, iops, mean, mean * p99f, out);
}

/* Deterministic factor in [1 - noise, 1 + noise] (xorshift64). */
static double noise_factor(struct sim_device *d)
{
	if (d->noise <= 0)
		return 1.0;
	if (!d->rng)
		d->rng = d->noise_seed ? d->noise_seed : 0x9e3779b97f4a7c15ull;
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 7;
	d->rng ^= d->rng << 17;
	return 1.0 + d->noise * (2.0 * (double)(d->rng >> 11) / 0x1p53 - 1.0);
}

static void log_call(struct sim_device *d, const struct job_spec *job)
{
	struct sim_call *c;

	if (d->calls > SIM_LOG_MAX)
		return;
	c = &d->log[d->calls - 1];
	c->rw = job->rw;
	c->rwmixread = job->rwmixread;
	c->bs = job->bs;
	c->iodepth = job->iodepth;
	c->numjobs = job->numjobs;
	c->rate_iops = job->rate_iops;
	memcpy(c->rate_bps, job->rate_bps, sizeof(c->rate_bps));
	c->thinktime_ns = job->thinktime_ns;
	c->rate_process = job->rate_process;
	c->time_based = job->time_based;
	c->runtime_ns = job->runtime_ns;
	c->ramp_ns = job->ramp_ns;
}

/* Round r's IOPS (1-based) on schedule sc. */
static double sched_iops(const struct sim_sched *sc, unsigned r)
{
	double v = sc->floor;

	if (sc->tau > 0)
		v += (sc->start - sc->floor) * exp(-(r - 1.0) / sc->tau);
	v *= pow(1 - sc->drift, r - 1.0);
	return v * (1 + sc->swing * (r % 2 ? 1 : -1));
}

/* The next preconditioning round's IOPS from the schedule: the device's
 * own, or the sum of its targets'. */
static double wr_round_iops(struct sim_device *d)
{
	unsigned r = ++d->wr_rounds;
	struct sim_sched own = {d->wr_start, d->wr_floor, d->wr_tau, d->wr_swing, 0};
	double sum = 0;

	if (!d->nr_targets)
		return sched_iops(&own, r);
	for (unsigned t = 0; t < d->nr_targets && t < SIM_TARGETS_MAX; t++)
		sum += d->target_last[t] = sched_iops(&d->target[t], r);
	return sum;
}

unsigned sim_target_iops(void *arg, double *out, unsigned max)
{
	const struct sim_device *d = arg;
	unsigned n = d->nr_targets < max ? d->nr_targets : max;

	for (unsigned t = 0; t < n; t++)
		out[t] = d->target_last[t];
	return n;
}

/* Scale a point's IOPS by fi and its latency by fl, keeping the shape. */
static void scale_point(const struct sim_device *d, const struct job_spec *job,
			double fi, double fl, struct point *out)
{
	struct point p = *out;

	fill_point(d, job, p.s.total.bw_bytes / (double)job->bs * fi,
		   p.s.total.lat.mean * fl, (double)p.s.total.lat.pct[PCT_P99] * fl,
		   out);
}

/* The fault hooks: an outlier call, a low maximum, stalled seconds. */
static void bend(struct sim_device *d, const struct job_spec *job,
		 struct point *out)
{
	if (d->outlier_call && d->calls == d->outlier_call)
		scale_point(d, job, d->outlier_factor,
			    d->outlier_lat > 0 ? d->outlier_lat : 1 / d->outlier_factor, out);
	if (!job->rate_iops && d->closed_scale > 0 &&
	    (!d->closed_calls || d->closed_seen++ < d->closed_calls))
		scale_point(d, job, d->closed_scale, 1 / d->closed_scale, out);
	if (job->rate_iops) {
		struct job_spec closed = *job;
		struct point max;
		double asked = (double)job->rate_iops * job->numjobs;

		closed.rate_iops = 0;
		sim_model(d, &closed, &max);
		out->nr_sec = (unsigned)run_seconds(job);
		out->sec_on_rate = out->s.total.iops >= asked * (1 - POINT_RATE_TOL)
					   ? out->nr_sec : 0;
		if (d->stall_pct > 0 && asked >= max.s.total.iops * d->stall_pct / 100)
			out->sec_on_rate = out->nr_sec / 2;
	}
}

int sim_measure(void *arg, const struct job_spec *job, struct point *out,
		struct ioc_err *err)
{
	struct sim_device *d = arg;
	double q = (double)job->iodepth * job->numjobs;

	d->calls++;
	log_call(d, job);
	if (d->fail_at && d->calls == d->fail_at)
		return err_set(err, EIO, "sim: injected failure at call %u",
			       d->calls);
	if (d->no_io) {
		fill_point(d, job, 0, 0, 0, out);
		return 0;
	}
	if ((d->wr_start > 0 || d->nr_targets) && job->rw == RW_RANDWRITE && job->time_based) {
		double iops = wr_round_iops(d), mean = q / iops * NS;

		fill_point(d, job, iops, mean, mean * 2, out);
		return 0;
	}
	sim_model(d, job, out);
	bend(d, job, out);
	if (d->noise > 0) {
		double fi = noise_factor(d), fl = noise_factor(d);

		scale_point(d, job, fi, fl, out);
	}
	return 0;
}

double sim_score(const struct point *p, enum rw_mode rw)
{
	return rw_is_random(rw) ? p->s.total.iops : p->s.total.bw_bytes;
}

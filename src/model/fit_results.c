/* fit_results.c - see fit_results.h. */
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit_results.h"
#include "model/median.h"
#include "report/results_read.h"

/* What one measured point says. */
struct rpoint {
	bool random;
	double read_pct;
	unsigned targets, threads, in_flight;
	double iops, mbps;
	double lat_r_ms, lat_w_ms;  /* NaN: that direction did nothing */
	double cpu_us_per_io;       /* the run's CPU time per I/O; 0: not recorded */
};

static bool classify(const struct rs_job *j, struct rpoint *p)
{
	return !mdl_rw_parse(j->rw, j->rwmixread, &p->random, &p->read_pct);
}

static struct mdl_drive *measured_drive(struct mdl_fit *f)
{
	for (unsigned i = 0; i < f->nr_drives; i++)
		if (!strcmp(f->drives[i].type, MDL_MEASURED_TYPE))
			return &f->drives[i];
	if (f->nr_drives == MDL_FIT_MAX_DRIVES)
		return NULL;
	struct mdl_drive *d = &f->drives[f->nr_drives++];
	*d = (struct mdl_drive){.type = MDL_MEASURED_TYPE};
	return d;
}

static void single(struct mdl_drive *d, const struct rpoint *p)
{
	if (p->read_pct == 100)
		mdl_keep_max(p->random ? &d->rr_iops : &d->sr_mbps, p->random ? p->iops : p->mbps);
	else if (p->read_pct == 0)
		mdl_keep_max(p->random ? &d->rw_iops : &d->sw_mbps, p->random ? p->iops : p->mbps);
	if (p->in_flight == 1) {
		mdl_keep_min(&d->lat_r_ms, p->lat_r_ms);
		mdl_keep_min(&d->lat_w_ms, p->lat_w_ms);
	}
}

/* The single-target figure of p's kind, 0 when none. */
static double per_target(const struct mdl_drive *d, const struct rpoint *p)
{
	if (p->read_pct == 100)
		return p->random ? d->rr_iops : d->sr_mbps;
	if (p->read_pct == 0)
		return p->random ? d->rw_iops : d->sw_mbps;
	return 0;
}

/* The device the environment of s names for target path; "" when none
 * (tmpfs, a path it does not describe). */
static const char *device_of(const struct rs_set *s, const char *path)
{
	json_object *targets, *t, *v;

	if (!s->environment || !json_object_object_get_ex(s->environment, "targets", &targets) ||
	    !json_object_is_type(targets, json_type_array))
		return "";
	for (size_t i = 0; i < json_object_array_length(targets); i++) {
		t = json_object_array_get_idx(targets, i);
		if (json_object_object_get_ex(t, "path", &v) && json_object_is_type(v, json_type_string) &&
		    !strcmp(json_object_get_string(v), path) &&
		    json_object_object_get_ex(t, "device", &v) && json_object_is_type(v, json_type_string))
			return json_object_get_string(v);
	}
	return "";
}

unsigned mdl_tset_drives(const struct rs_set *s, const struct rs_tset *ts)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ts->nr_targets; i++) {
		const char *dev = device_of(s, ts->targets[i]);
		bool seen = false;
		for (unsigned k = 0; dev[0] && k < i && !seen; k++)
			seen = !strcmp(dev, device_of(s, ts->targets[k]));
		n += !seen;
	}
	return n ? n : 1;
}

unsigned mdl_step_drives(const struct rs_set *s, const struct rs_step *st, unsigned n)
{
	const struct rs_tset *most = NULL;

	for (unsigned k = 0; s && k < st->nr_sets; k++) {
		const struct rs_tset *ts = &st->sets[k];
		if (!ts->targets || !ts->nr_targets)
			continue;
		if (ts->nr_targets == n)
			return mdl_tset_drives(s, ts);
		if (!most || ts->nr_targets > most->nr_targets)
			most = ts;
	}
	if (!most || !n) /* no set to go by: each target its own */
		return n ? n : 1;
	/* a count it did not run: the largest set's share of devices */
	unsigned d = (n * mdl_tset_drives(s, most) + most->nr_targets - 1) / most->nr_targets;
	return d ? d : 1;
}

/* Each headline point of every step of s but the one on target set
 * skip_set of step skip_step (UINT_MAX: none), into pts (grown). */
static unsigned collect(const struct rs_set *s, struct rpoint **pts, unsigned n,
			unsigned skip_step, unsigned skip_set)
{
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		struct rpoint base = {0};
		if (st->error || !classify(&st->job, &base))
			continue;
		for (unsigned k = 0; k < st->nr_sets; k++) {
			if (i == skip_step && k == skip_set)
				continue;
			const struct rs_point *hp = rs_tset_headline(st, &st->sets[k]);
			struct rpoint *grown = hp ? realloc(*pts, (n + 1) * sizeof(**pts)) : NULL;
			if (!grown)
				continue;
			*pts = grown;
			struct rpoint *p = &(*pts)[n++];
			*p = base;
			p->targets = st->sets[k].targets ? mdl_tset_drives(s, &st->sets[k])
				     : st->sets[k].nr_targets ? st->sets[k].nr_targets : 1;
			p->threads = hp->numjobs ? hp->numjobs : 1;
			p->in_flight = (hp->iodepth ? hp->iodepth : 1) * p->threads;
			p->iops = hp->total.iops;
			p->mbps = hp->total.bw_bytes / 1e6;
			p->lat_r_ms = hp->read.ios ? hp->read.lat.mean / 1e6 : NAN;
			p->lat_w_ms = hp->write.ios ? hp->write.lat.mean / 1e6 : NAN;
			/* % of one CPU over the run: CPU seconds per second / IOPS */
			if (hp->has_cpu && hp->total.iops > 0)
				p->cpu_us_per_io = (hp->usr_cpu + hp->sys_cpu) / 100 * 1e6 /
						   hp->total.iops;
		}
	}
	return n;
}

static void fit_points(struct mdl_fit *f, const struct rpoint *pts, unsigned n)
{
	struct mdl_drive *d = measured_drive(f);
	struct mdl_est cpu = {0}, cores = {0}, q[MDL_Q_NR], used = {0};

	memset(q, 0, sizeof(q));

	if (!d)
		return;
	for (unsigned i = 0; i < n; i++)
		if (pts[i].targets == 1)
			single(d, &pts[i]);
	/* no single-target figure of a kind: a JBOD set's, per target (the
	 * targets assumed to bind, so no ceiling can show in that kind) */
	struct mdl_drive set = *d;
	for (unsigned i = 0; i < n; i++)
		if (pts[i].targets > 1 && !(per_target(d, &pts[i]) > 0)) {
			struct rpoint one = pts[i];
			one.iops /= one.targets;
			one.mbps /= one.targets;
			one.in_flight = 0; /* not a low-load latency */
			single(&set, &one);
		}
	*d = set;
	for (unsigned i = 0; i < n; i++) {
		const struct rpoint *p = &pts[i];
		double one = per_target(d, p), x = p->random ? p->iops : p->mbps;
		mdl_est_add(&q[p->random], (double)p->in_flight / p->targets);
		if (p->targets < 2 || !(one > 0) || !(x < MDL_FIT_SLACK * p->targets * one))
			continue;
		/* a ceiling above the targets: the host's worker threads */
		mdl_est_add(&cpu, p->threads * 1e6 / p->iops);
		mdl_est_add(&cores, p->threads);
	}
	if (cpu.n) {
		f->host.cpu_us_per_io = mdl_est_median(&cpu);
		f->host.cores = (unsigned)mdl_est_median(&cores);
	}
	for (unsigned i = 0; i < n; i++)
		mdl_est_add(&used, pts[i].cpu_us_per_io);
	if (used.n)
		f->measured_cpu_us_per_io = mdl_est_median(&used);
	for (unsigned k = 0; k < MDL_Q_NR; k++)
		if (q[k].n)
			f->outstanding[MDL_IF_UNKNOWN][k] = mdl_est_median(&q[k]);
}

void mdl_fit_result_set(struct mdl_fit *f, const struct rs_set *s)
{
	mdl_fit_result_set_without(f, s, UINT_MAX, UINT_MAX);
}

void mdl_fit_result_set_without(struct mdl_fit *f, const struct rs_set *s, unsigned step,
				unsigned set)
{
	struct rpoint *pts = NULL;
	unsigned nr = collect(s, &pts, 0, step, set);

	fit_points(f, pts, nr);
	f->nr_rows += nr;
	free(pts);
}

int mdl_fit_results(struct mdl_fit *f, const char *const *paths, unsigned n,
		    struct ioc_err *err)
{
	struct rpoint *pts = NULL;
	unsigned nr = 0;

	for (unsigned i = 0; i < n; i++) {
		struct rs_set s;
		int ret = results_read(paths[i], &s, err);
		if (ret) {
			rs_set_free(&s);
			free(pts);
			return ret;
		}
		nr = collect(&s, &pts, nr, UINT_MAX, UINT_MAX);
		rs_set_free(&s);
	}
	fit_points(f, pts, nr);
	f->nr_rows += nr;
	free(pts);
	return 0;
}

/* discipline.c - the probe that picks a target's submission discipline
 * (see discipline.h). */
#include "charz/discipline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"
#include "engine/io_uring_opts.h"

/* Candidates in probe order; a tie keeps the earlier. io_uring: the ring
 * setups bench/ab.py found best somewhere (defer first: ring_setup=auto's
 * pick); libaio: iochar's pass batching, then fio's. */
static const struct discipline table[] = {
	{"defer_taskrun", "io_uring", "defer_taskrun", NULL, NULL},
	{"coop_taskrun", "io_uring", "coop_taskrun", NULL, NULL},
	{"none", "io_uring", "none", NULL, NULL},
	{"pass", "libaio", NULL, "0", "65536"},
	{"fio_batch", "libaio", NULL, "1", "0"},
};
#define NR_TABLE (sizeof(table) / sizeof(table[0]))

int discipline_opt_parse(const char *s, struct disc_opt *out, struct ioc_err *err)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(s, "auto"))
		return 0;
	if (!strcmp(s, "fixed")) {
		out->mode = DISC_FIXED;
		return 0;
	}
	for (unsigned i = 0; i < NR_TABLE; i++)
		if (!strcmp(s, table[i].name)) {
			out->mode = DISC_NAMED;
			out->named = &table[i];
			return 0;
		}
	return err_usage(err, EINVAL,
			 "--discipline=%s: accepted: auto, fixed, defer_taskrun, "
			 "coop_taskrun, none (io_uring), pass, fio_batch (libaio)", s);
}

int discipline_opt_check(const struct disc_opt *o, const struct job_spec *job,
			 struct ioc_err *err)
{
	if (o->mode != DISC_NAMED || !strcmp(o->named->engine, job->ioengine))
		return 0;
	return err_usage(err, EINVAL, "--discipline=%s is for ioengine=%s, not ioengine=%s",
			 o->named->name, o->named->engine, job->ioengine);
}

bool discipline_user_fixed(const struct job_spec *job)
{
	static const char *const keys[] = {
		"iodepth_batch_submit", "iodepth_batch_complete_min",
		"iodepth_batch_complete_max", "iodepth_low",
	};
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (options_is_set(job, keys[i]))
			return true;
	return !strcmp(job->ioengine, "io_uring") && options_is_set(job, "ring_setup");
}

unsigned discipline_candidates(const struct job_spec *job)
{
	unsigned n = 0;
	for (unsigned i = 0; i < NR_TABLE; i++)
		n += !strcmp(table[i].engine, job->ioengine);
	return n;
}

static int apply_one(const struct discipline *d, struct job_spec *job,
		     struct ioc_err *err)
{
	int ret = 0;
	if (d->ring)
		ret = options_apply(job, "ring_setup", d->ring, err);
	if (!ret && d->submit)
		ret = options_apply(job, "iodepth_batch_submit", d->submit, err);
	if (!ret && d->cmax)
		ret = options_apply(job, "iodepth_batch_complete_max", d->cmax, err);
	return ret;
}

int discipline_apply(const struct disc_choice *c, struct job_spec *job,
		     struct ioc_err *err)
{
	return c->d ? apply_one(c->d, job, err) : 0;
}

void discipline_probe_time(const struct job_spec *job, uint64_t *runtime_ns,
			   uint64_t *ramp_ns)
{
	*runtime_ns = DISC_PROBE_NS;
	*ramp_ns = DISC_PROBE_RAMP_NS;
	if (job->runtime_ns && job->runtime_ns < DISC_PROBE_NS) {
		*runtime_ns = job->runtime_ns;
		if (job->ramp_ns < DISC_PROBE_RAMP_NS)
			*ramp_ns = job->ramp_ns;
	}
}

/* t's figures from its runs: the median IOPS, and the latency and tool
 * limit of the run nearest it. */
static void set_median(struct disc_tried *t)
{
	double v[DISC_PROBE_ROUNDS];
	unsigned n = t->nr_runs, near = 0;

	memcpy(v, t->runs, n * sizeof(*v));
	for (unsigned i = 1; i < n; i++) /* insertion sort: at most 3 */
		for (unsigned k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double x = v[k];
			v[k] = v[k - 1];
			v[k - 1] = x;
		}
	t->iops = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (unsigned i = 1; i < n; i++)
		if (fabs(t->runs[i] - t->iops) < fabs(t->runs[near] - t->iops))
			near = i;
	t->lat_mean_ns = t->runs_lat[near];
	t->tool_limited = t->runs_tool[near];
}

/* Run candidate d on a copy of job shaped for the probe: one more run
 * into *t. */
static int probe_one(const struct discipline *d, const struct job_spec *job,
		     const struct disc_choice *c, measure_fn measure, void *arg,
		     struct disc_tried *t, struct ioc_err *err)
{
	struct job_spec j;
	struct point p;
	int ret;

	if (job_spec_copy(&j, job))
		return err_set(err, ENOMEM, "out of memory");
	j.runtime_ns = c->probe_runtime_ns;
	j.ramp_ns = c->probe_ramp_ns;
	j.time_based = true;
	j.rate_iops = 0;
	ret = apply_one(d, &j, err);
	if (!ret)
		ret = measure(arg, &j, &p, err);
	job_spec_free(&j);
	if (ret)
		return ret;
	t->d = d;
	t->runs_lat[t->nr_runs] = p.s.total.lat.mean;
	t->runs_tool[t->nr_runs] = p.tool_limited;
	t->runs[t->nr_runs++] = p.s.total.iops;
	set_median(t);
	return 0;
}

/* The leader (the highest median; a tie keeps the earlier), when it is
 * decided: its median above every other candidate's best run. -1: none. */
static int decided_leader(const struct disc_choice *c)
{
	int lead = 0;

	for (unsigned i = 1; i < c->nr_tried; i++)
		if (c->tried[i].iops > c->tried[lead].iops)
			lead = (int)i;
	for (unsigned i = 0; i < c->nr_tried; i++)
		for (unsigned k = 0; (int)i != lead && k < c->tried[i].nr_runs; k++)
			if (!(c->tried[lead].iops > c->tried[i].runs[k]))
				return -1;
	return lead;
}

/* Every candidate of the job's engine once more: one round. */
static int probe_round(const struct job_spec *job, measure_fn measure, void *arg,
		       struct disc_choice *out, struct ioc_err *err)
{
	unsigned n = 0;

	for (unsigned i = 0; i < NR_TABLE && n < DISC_MAX_TRIED; i++) {
		if (strcmp(table[i].engine, job->ioengine))
			continue;
		struct disc_tried *t = &out->tried[n++];
		int ret = probe_one(&table[i], job, out, measure, arg, t, err);
		if (ret) {
			err_prefix(err, "discipline probe (%s)", table[i].name);
			return ret;
		}
	}
	out->nr_tried = n;
	out->rounds++;
	return 0;
}

static int probe(const struct job_spec *job, measure_fn measure, void *arg,
		 struct disc_choice *out, struct ioc_err *err)
{
	int lead = -1;

	out->how = DISC_HOW_PROBED;
	out->probe_iodepth = job->iodepth;
	out->probe_numjobs = job->numjobs ? job->numjobs : 1;
	discipline_probe_time(job, &out->probe_runtime_ns, &out->probe_ramp_ns);
	/* one run each is no choice: two rounds at least */
	while (out->rounds < DISC_PROBE_ROUNDS && (out->rounds < 2 || lead < 0)) {
		int ret = probe_round(job, measure, arg, out, err);
		if (ret)
			return ret;
		lead = out->rounds >= 2 ? decided_leader(out) : -1;
	}
	out->decided = lead >= 0;
	out->d = out->tried[lead >= 0 ? lead : 0].d; /* undecided: the default */
	return 0;
}

int discipline_choose(const struct disc_opt *o, const struct job_spec *job,
		      measure_fn measure, void *arg, struct disc_choice *out,
		      struct ioc_err *err)
{
	memset(out, 0, sizeof(*out));
	if (o->mode == DISC_NAMED) {
		out->how = DISC_HOW_NAMED;
		out->d = o->named;
		return 0;
	}
	if (o->mode == DISC_FIXED) {
		out->how = DISC_HOW_FIXED;
		return 0;
	}
	if (discipline_user_fixed(job)) {
		out->how = DISC_HOW_USER;
		return 0;
	}
	if (discipline_candidates(job) < 2)
		return 0;
	return probe(job, measure, arg, out, err);
}

void discipline_record(struct disc_choice *c, const struct job_spec *job)
{
	snprintf(c->engine, sizeof(c->engine), "%s", job->ioengine);
	c->ring[0] = '\0';
	if (!strcmp(job->ioengine, "io_uring") &&
	    (!job->engine_opts_of[0] || !strcmp(job->engine_opts_of, "io_uring"))) {
		const struct uring_opts *u = (const void *)job->engine_opts;
		snprintf(c->ring, sizeof(c->ring), "%s", uring_ring_name(u->ring));
	}
	c->submit = job->iodepth_batch_submit;
	c->cmax = job->iodepth_batch_complete_max;
}

static const char *how_name(enum disc_how how)
{
	switch (how) {
	case DISC_HOW_NONE:
		return "only";
	case DISC_HOW_PROBED:
		return "probed";
	case DISC_HOW_USER:
		return "job";
	case DISC_HOW_FIXED:
		return "fixed";
	case DISC_HOW_NAMED:
		return "named";
	}
	return "?";
}

void discipline_json(const struct disc_choice *c, struct jw *w)
{
	char line[512];

	jw_object_begin(w);
	jw_kv_string(w, "how", how_name(c->how));
	jw_kv_string(w, "name", c->d ? c->d->name : "job");
	jw_kv_string(w, "ioengine", c->engine);
	if (c->ring[0])
		jw_kv_string(w, "ring_setup", c->ring);
	jw_kv_uint(w, "iodepth_batch_submit", c->submit);
	jw_kv_uint(w, "iodepth_batch_complete_max", c->cmax);
	if (c->how == DISC_HOW_PROBED) {
		jw_kv_bool(w, "reused", c->reused);
		jw_kv_uint(w, "probe_iodepth", c->probe_iodepth);
		jw_kv_uint(w, "probe_numjobs", c->probe_numjobs);
		jw_kv_uint(w, "probe_runtime_ns", c->probe_runtime_ns);
		jw_kv_uint(w, "probe_ramp_ns", c->probe_ramp_ns);
		jw_kv_uint(w, "probe_rounds", c->rounds);
		jw_kv_bool(w, "decided", c->decided);
		jw_key(w, "probe");
		jw_array_begin(w);
		for (unsigned i = 0; i < c->nr_tried; i++) {
			jw_object_begin(w);
			jw_kv_string(w, "name", c->tried[i].d->name);
			jw_kv_double(w, "iops", c->tried[i].iops);
			jw_kv_double(w, "lat_mean_ns", c->tried[i].lat_mean_ns);
			jw_kv_bool(w, "tool_limited", c->tried[i].tool_limited);
			jw_key(w, "runs_iops");
			jw_array_begin(w);
			for (unsigned k = 0; k < c->tried[i].nr_runs; k++)
				jw_double(w, c->tried[i].runs[k]);
			jw_array_end(w);
			jw_object_end(w);
		}
		jw_array_end(w);
	}
	discipline_describe(c, line, sizeof(line));
	jw_kv_string(w, "summary", line);
	jw_object_end(w);
}

/* ", probed at iodepth N: a 1.2k, b 3.4k IOPS, medians of R rounds:
 * decided" into buf at *at. */
static void describe_probe(const struct disc_choice *c, char *buf, size_t len,
			   size_t at)
{
	if (at < len)
		at += (size_t)snprintf(buf + at, len - at, " (%s at iodepth %u numjobs %u:",
				       c->reused ? "probed in an earlier step" : "probed",
				       c->probe_iodepth, c->probe_numjobs);
	for (unsigned i = 0; i < c->nr_tried && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s %s %.1fk", i ? "," : "",
				       c->tried[i].d->name, c->tried[i].iops / 1000);
	if (at < len && c->decided)
		snprintf(buf + at, len - at, " IOPS, medians of %u rounds: decided)", c->rounds);
	else if (at < len)
		snprintf(buf + at, len - at, " IOPS, medians of %u rounds: undecided, the default %s)",
			 c->rounds, c->d ? c->d->name : "?");
}

void discipline_describe(const struct disc_choice *c, char *buf, size_t len)
{
	static const char *const why[] = {
		[DISC_HOW_NONE] = " (the engine's only one)",
		[DISC_HOW_PROBED] = "",
		[DISC_HOW_USER] = " (set by the job: not probed)",
		[DISC_HOW_FIXED] = " (--discipline=fixed: not probed)",
		[DISC_HOW_NAMED] = " (--discipline: not probed)",
	};
	size_t at = (size_t)snprintf(buf, len, "%s%s%s, iodepth_batch_submit=%u "
				     "iodepth_batch_complete_max=%u%s",
				     c->engine, c->ring[0] ? " ring_setup=" : "", c->ring,
				     c->submit, c->cmax, why[c->how]);
	if (c->how == DISC_HOW_PROBED)
		describe_probe(c, buf, len, at);
}

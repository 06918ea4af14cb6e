/* results_parse_run.c - a run JSON (`iochar run --output-format=json`,
 * docs/output.md) as a result set of one fixed step, so the report and
 * compare treat a run and a plan step alike. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/results_parse.h"

#define WHERE_MAX 256

/* "options": the first job is the step's; the label names them all. */
static int parse_jobs(const struct rj_ctx *c, json_object *root, struct rs_step *st,
		      unsigned *numjobs, double *asked_iops)
{
	char buf[WHERE_MAX];
	size_t len = 0;
	int ret;
	size_t n;
	json_object *a = rj_objects(c, root, "options", true, &n, &ret);
	if (!a)
		return ret;
	if (n == 0)
		return rj_fail(c, "options", "no job");
	FILE *f = open_memstream(&st->label, &len);
	if (!f)
		return rj_oom(c);
	for (size_t i = 0; i < n && !ret; i++) {
		struct rs_job j;
		struct rj_ctx jc = rj_child(c, "options", (int)i, buf, sizeof(buf));
		json_object *e = json_object_array_get_idx(a, i);

		memset(&j, 0, sizeof(j));
		ret = results_parse_job(&jc, e, i ? &j : &st->job);
		struct rs_job *got = i ? &j : &st->job;
		if (!ret) {
			fprintf(f, "%s%s", i ? " + " : "", got->name);
			*numjobs += got->numjobs;
			/* rate_iops is each clone's; 0 where a job is unlimited */
			*asked_iops += (double)got->rate_iops * got->numjobs;
		}
		if (i) /* only the first is kept */
			rs_job_free(&j);
	}
	if (fclose(f) != 0 && !ret)
		ret = rj_oom(c);
	return ret;
}

/* "cpu": the whole process's user and system time, % of one CPU, into
 * p's (the model's measured cost per I/O); absent from older files. */
static int parse_cpu(const struct rj_ctx *c, json_object *root, struct rs_point *p)
{
	char buf[WHERE_MAX];
	int ret = 0;
	json_object *o = rj_member(c, root, "cpu", json_type_object, false, &ret);

	if (!o)
		return ret;
	struct rj_ctx cc = rj_child(c, "cpu", -1, buf, sizeof(buf));
	p->usr_cpu = p->sys_cpu = NAN;
	if ((ret = rj_double(&cc, o, "usr_pct", false, &p->usr_cpu)) ||
	    (ret = rj_double(&cc, o, "sys_pct", false, &p->sys_cpu)))
		return ret;
	p->has_cpu = isfinite(p->usr_cpu) && isfinite(p->sys_cpu);
	return 0;
}

/* "intervals": [{t_s, len_ns, read: {ios, iops, lat_mean_ns ...}, write}]
 * into one series of both directions: IOPS add up, mean latencies are
 * weighted by the I/Os of each. */
static int parse_intervals(const struct rj_ctx *c, json_object *root,
			   struct rs_point *p)
{
	char buf[WHERE_MAX], buf2[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(c, root, "intervals", false, &n, &ret);
	if (!a)
		return ret;
	p->iv = rj_calloc(c, n, sizeof(*p->iv), &ret);
	if (!p->iv)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx ic = rj_child(c, "intervals", (int)i, buf, sizeof(buf));
		double iops = 0, lat_sum = 0;
		uint64_t ios_sum = 0;

		for (int d = 0; d < 2; d++) {
			const char *key = d ? "write" : "read";
			uint64_t ios = 0;
			double r = 0, lat = 0;
			json_object *dobj = rj_member(&ic, e, key, json_type_object, true, &ret);
			if (!dobj)
				return ret;
			struct rj_ctx dc = rj_child(&ic, key, -1, buf2, sizeof(buf2));
			if ((ret = rj_u64(&dc, dobj, "ios", true, &ios)) ||
			    (ret = rj_double(&dc, dobj, "iops", true, &r)) ||
			    (ret = rj_double(&dc, dobj, "lat_mean_ns", true, &lat)))
				return ret;
			iops += r;
			if (ios) {
				lat_sum += lat * (double)ios;
				ios_sum += ios;
			}
		}
		p->iv[i].iops = iops;
		p->iv[i].lat_mean_ns = ios_sum ? lat_sum / (double)ios_sum : 0;
		p->nr_iv = (unsigned)i + 1;
	}
	return 0;
}

int results_step_targets(const struct rj_ctx *c, const struct rs_step *st, struct rs_tset *ts)
{
	ts->targets = calloc(st->job.nr_files ? st->job.nr_files : 1, sizeof(char *));
	if (!ts->targets)
		return rj_oom(c);
	for (unsigned i = 0; i < st->job.nr_files; i++) {
		ts->targets[i] = strdup(st->job.files[i]);
		if (!ts->targets[i])
			return rj_oom(c);
		ts->nr_targets = i + 1;
	}
	return 0;
}

int results_parse_run(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = "", .err = err};
	unsigned numjobs = 0;
	double asked_iops = 0;
	int ret;

	if ((ret = results_parse_header(&c, root, s)))
		return ret;
	if (!json_object_object_get_ex(root, "options", NULL) ||
	    !json_object_object_get_ex(root, "total", NULL))
		return err_usage(err, EINVAL,
				 "%s: not an iochar run or plan result (no \"options\" and \"total\")",
				 file);
	s->is_run = true;
	s->complete = true;
	s->nr_steps_planned = 1;
	s->plan = strdup("run");
	s->source = strdup("");
	s->steps = calloc(1, sizeof(*s->steps));
	if (!s->plan || !s->source || !s->steps)
		return rj_oom(&c);
	s->nr_steps = 1;
	struct rs_step *st = &s->steps[0];
	st->mode = RS_FIXED;
	st->targets_use = strdup("each");
	st->latency_stat = strdup("mean");
	st->sets = calloc(1, sizeof(*st->sets));
	if (!st->targets_use || !st->latency_stat || !st->sets)
		return rj_oom(&c);
	st->nr_sets = 1;
	struct rs_tset *ts = &st->sets[0];
	ts->done = true;
	ts->best = 0;
	ts->points = calloc(1, sizeof(*ts->points));
	if (!ts->points)
		return rj_oom(&c);
	if ((ret = parse_jobs(&c, root, st, &numjobs, &asked_iops)))
		return ret;
	/* the label names the workload, so runs of different workloads
	 * under the same job name do not match in a comparison */
	char bs[NUMFMT_MAX], *label = NULL;
	if (asprintf(&label, "%s (%s %s)", st->label, st->job.rw,
		     numfmt_size(bs, (double)st->job.bs)) < 0)
		return rj_oom(&c);
	st->section = st->label;
	st->label = label;
	ts->nr_points = 1;
	struct rs_point *p = &ts->points[0];
	p->iodepth = st->job.iodepth;
	p->numjobs = numjobs;
	p->rate_iops = st->job.rate_iops;
	p->asked_iops = asked_iops;
	p->inside = true;
	if ((ret = rj_bool(&c, root, "partial", false, &p->partial)) ||
	    (ret = rj_str(&c, root, "latency_origin", false, &p->latency_origin)) ||
	    (ret = rj_u64(&c, root, "elapsed_ns", true, &p->elapsed_ns)) ||
	    (ret = results_parse_dir(&c, root, "read", &p->read)) ||
	    (ret = results_parse_dir(&c, root, "write", &p->write)) ||
	    (ret = results_parse_dir(&c, root, "total", &p->total)) ||
	    (ret = results_parse_tool_limited(&c, root, p)) ||
	    (ret = results_parse_replay(&c, root, p)) ||
	    (ret = results_parse_hosts(&c, root, true, p)) ||
	    (ret = results_parse_point_targets(&c, root, p)) ||
	    (ret = results_parse_host_envs(&c, root, s)) ||
	    (ret = parse_cpu(&c, root, p)) ||
	    (ret = parse_intervals(&c, root, p)))
		return ret;
	if (p->latency_origin && strcmp(p->latency_origin, "submit") &&
	    strcmp(p->latency_origin, "scheduled"))
		return rj_fail(&c, "latency_origin", "not submit or scheduled");
	st->partial = p->partial;
	return results_step_targets(&c, st, ts);
}

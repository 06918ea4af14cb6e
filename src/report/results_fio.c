/* results_fio.c - see results_fio.h. fio's "job options" are strings as
 * written on fio's command line or job file, so they are read here with
 * the parsers of fio-style values (base/units.h), under fio's defaults
 * for what a job did not set. */
#define _GNU_SOURCE /* asprintf */
#include "report/results_fio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "report/numfmt.h"
#include "report/results_parse.h"

#define WHERE_MAX 256

/* What one step (one fio group) gathers from its job entries. */
struct fio_group {
	unsigned groupid, entries;
	struct fio_dir dir[3];     /* read, write, trim */
	uint64_t job_runtime_ms;
	double usr, sys;
};

static const char *const dir_keys[3] = {"read", "write", "trim"};

bool results_is_fio(json_object *root)
{
	return json_object_is_type(root, json_type_object) &&
	       json_object_object_get_ex(root, "fio version", NULL) &&
	       json_object_object_get_ex(root, "jobs", NULL) &&
	       !json_object_object_get_ex(root, "iochar_version", NULL);
}

/* Option name (or its alias) of the job's options, else the global ones;
 * NULL when neither sets it. Not a string: an error in *ret. */
static const char *opt(const struct rj_ctx *c, json_object *jo, json_object *go,
		       const char *name, const char *alias, int *ret)
{
	json_object *objs[2] = {jo, go};
	const char *names[2] = {name, alias};
	for (int o = 0; o < 2; o++)
		for (int n = 0; n < 2 && objs[o]; n++) {
			json_object *v;
			if (!names[n] || !json_object_object_get_ex(objs[o], names[n], &v))
				continue;
			if (!json_object_is_type(v, json_type_string)) {
				*ret = rj_fail(c, names[n], "expected a string (as fio writes options)");
				return NULL;
			}
			return json_object_get_string(v);
		}
	return NULL;
}

/* A size, time or number option; unset leaves *out (fio's default). The
 * message names the option, not its value (which may hold anything). */
enum opt_kind { OPT_SIZE, OPT_TIME, OPT_UINT, OPT_BOOL };

static int opt_num(const struct rj_ctx *c, json_object *jo, json_object *go,
		   const char *name, const char *alias, enum opt_kind kind, uint64_t *out)
{
	static const char *const what[] = {"not a size", "not a time",
					   "not a whole number", "not a boolean"};
	struct ioc_err scratch = {0};
	char first[64];
	int ret = 0, bad;
	bool b;
	const char *v = opt(c, jo, go, name, alias, &ret);
	if (!v)
		return ret;
	/* bs=4k,8k (read,write) and bsrange 4k-16k: the first figure */
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(v, ",-:"), v);
	switch (kind) {
	case OPT_SIZE:
		bad = units_parse_size(name, first, out, &scratch);
		break;
	case OPT_TIME:
		bad = units_parse_time(name, first, out, &scratch);
		break;
	case OPT_UINT:
		bad = units_parse_uint(name, first, 0, UINT32_MAX, out, &scratch);
		break;
	default: /* fio writes a bare flag ("time_based") as "" */
		bad = *v ? units_parse_bool(name, v, &b, &scratch) : (b = true, 0);
		*out = !bad && b;
		break;
	}
	return bad ? rj_fail(c, name, what[kind]) : 0;
}

static int opt_str(const struct rj_ctx *c, json_object *jo, json_object *go,
		   const char *name, const char *alias, const char *dflt, char **out)
{
	int ret = 0;
	const char *v = opt(c, jo, go, name, alias, &ret);
	if (ret)
		return ret;
	if (!v && !dflt)
		return 0;
	*out = strdup(v ? v : dflt);
	return *out ? 0 : rj_oom(c);
}

/* filename=a:b:c, fio's list separator, into j->files. */
static int split_files(const struct rj_ctx *c, struct rs_job *j)
{
	if (!j->filename)
		return 0;
	size_t n = 1;
	for (const char *p = j->filename; *p; p++)
		n += *p == ':';
	j->files = calloc(n, sizeof(char *));
	if (!j->files)
		return rj_oom(c);
	for (const char *p = j->filename; j->nr_files < n; p += strcspn(p, ":") + 1) {
		j->files[j->nr_files] = strndup(p, strcspn(p, ":"));
		if (!j->files[j->nr_files++])
			return rj_oom(c);
	}
	return 0;
}

/* The "job options" of entry e (over the "global options" go) as j, under
 * fio's defaults: rw=read, bs=4k, iodepth=1, numjobs=1, ioengine=psync,
 * rwmixread=50. */
static int parse_job(const struct rj_ctx *ec, json_object *e, json_object *go,
		     struct rs_job *j)
{
	char buf[WHERE_MAX];
	uint64_t depth = 1, jobs = 1, mix = 50, tb = 0, direct = 0;
	int ret;
	json_object *jo = rj_member(ec, e, "job options", json_type_object, false, &ret);
	if (ret)
		return ret;
	struct rj_ctx c = rj_child(ec, "job options", -1, buf, sizeof(buf));

	j->bs = 4096;
	if ((ret = rj_str(ec, e, "jobname", true, &j->name)) ||
	    (ret = opt_str(&c, jo, go, "rw", "readwrite", "read", &j->rw)) ||
	    (ret = opt_str(&c, jo, go, "ioengine", NULL, "psync", &j->ioengine)) ||
	    (ret = opt_str(&c, jo, go, "filename", NULL, NULL, &j->filename)) ||
	    (ret = opt_num(&c, jo, go, "bs", "blocksize", OPT_SIZE, &j->bs)) ||
	    (ret = opt_num(&c, jo, go, "size", NULL, OPT_SIZE, &j->size)) ||
	    (ret = opt_num(&c, jo, go, "offset", NULL, OPT_SIZE, &j->offset)) ||
	    (ret = opt_num(&c, jo, go, "runtime", "timeout", OPT_TIME, &j->runtime_ns)) ||
	    (ret = opt_num(&c, jo, go, "ramp_time", NULL, OPT_TIME, &j->ramp_ns)) ||
	    (ret = opt_num(&c, jo, go, "iodepth", NULL, OPT_UINT, &depth)) ||
	    (ret = opt_num(&c, jo, go, "numjobs", NULL, OPT_UINT, &jobs)) ||
	    (ret = opt_num(&c, jo, go, "rwmixread", NULL, OPT_UINT, &mix)) ||
	    (ret = opt_num(&c, jo, go, "rate_iops", NULL, OPT_UINT, &j->rate_iops)) ||
	    (ret = opt_num(&c, jo, go, "randseed", NULL, OPT_UINT, &j->randseed)) ||
	    (ret = opt_num(&c, jo, go, "time_based", NULL, OPT_BOOL, &tb)) ||
	    (ret = opt_num(&c, jo, go, "direct", NULL, OPT_BOOL, &direct)))
		return ret;
	j->rw[strcspn(j->rw, ":")] = '\0'; /* rw=randread:8 */
	j->iodepth = (unsigned)depth;
	j->numjobs = (unsigned)jobs;
	j->rwmixread = mix > 100 ? 100 : (unsigned)mix;
	j->time_based = tb;
	j->direct = direct;
	return split_files(&c, j);
}

/* The step of groupid g, made from entry e when it is the group's first. */
static int group_step(const struct rj_ctx *ec, json_object *e, json_object *go,
		      unsigned g, struct rs_set *s, struct fio_group *gs,
		      unsigned *idx)
{
	for (*idx = 0; *idx < s->nr_steps; (*idx)++)
		if (gs[*idx].groupid == g)
			return 0;
	struct rs_step *st = &s->steps[s->nr_steps++];
	gs[*idx].groupid = g;
	st->index = *idx;
	st->mode = RS_FIXED;
	st->targets_use = strdup("each");
	st->latency_stat = strdup("mean");
	st->sets = calloc(1, sizeof(*st->sets));
	if (!st->targets_use || !st->latency_stat || !st->sets)
		return rj_oom(ec);
	st->nr_sets = 1;
	st->sets[0].points = calloc(1, sizeof(*st->sets[0].points));
	if (!st->sets[0].points)
		return rj_oom(ec);
	st->sets[0].nr_points = 1;
	st->sets[0].done = true;
	return parse_job(ec, e, go, &st->job);
}

/* Entry e's figures into its group. */
static int group_add(const struct rj_ctx *ec, json_object *e, struct rs_step *st,
		     struct fio_group *g)
{
	uint64_t rt = 0;
	unsigned error = 0;
	double usr = 0, sys = 0;
	int ret;

	for (int d = 0; d < 3; d++)
		if ((ret = fio_dir_add(ec, e, dir_keys[d], &g->dir[d])))
			return ret;
	if ((ret = rj_uint(ec, e, "error", true, &error)) ||
	    (ret = rj_u64(ec, e, "job_runtime", false, &rt)) ||
	    (ret = rj_double(ec, e, "usr_cpu", false, &usr)) ||
	    (ret = rj_double(ec, e, "sys_cpu", false, &sys)))
		return ret;
	g->entries++;
	g->usr += usr == usr ? usr : 0;
	g->sys += sys == sys ? sys : 0;
	if (rt > g->job_runtime_ms)
		g->job_runtime_ms = rt;
	if (error && !st->error &&
	    asprintf(&st->error, "fio job %u: error %u (%s)", g->entries, error,
		     strerror((int)error)) < 0) {
		st->error = NULL;
		return rj_oom(ec);
	}
	return 0;
}

/* The group's sums as its step's point, label and targets. */
static int group_finish(const struct rj_ctx *c, struct rs_step *st, struct fio_group *g)
{
	struct rs_tset *ts = &st->sets[0];
	struct rs_point *p = &ts->points[0];
	struct fio_dir total = {0};
	char bs[NUMFMT_MAX];
	int ret = 0;

	for (int d = 0; d < 3 && !ret; d++)
		ret = fio_dir_merge(c, &total, &g->dir[d]);
	if (!ret) {
		fio_dir_result(&g->dir[0], &p->read);
		fio_dir_result(&g->dir[1], &p->write);
		fio_dir_result(&total, &p->total);
	}
	uint64_t ms = total.runtime_ms ? total.runtime_ms : g->job_runtime_ms;
	fio_dir_free(&total);
	if (ret)
		return ret;
	/* group_reporting folds numjobs clones into one entry */
	p->numjobs = g->entries == 1 ? st->job.numjobs : g->entries;
	p->iodepth = st->job.iodepth;
	p->rate_iops = st->job.rate_iops;
	p->elapsed_ns = ms * 1000000;
	p->inside = true;
	p->has_cpu = true;
	p->usr_cpu = g->usr;
	p->sys_cpu = g->sys;
	st->section = strdup(st->job.name);
	if (!st->section || asprintf(&st->label, "%s (%s %s)", st->job.name, st->job.rw,
				     numfmt_size(bs, (double)st->job.bs)) < 0) {
		st->label = NULL;
		return rj_oom(c);
	}
	return results_step_targets(c, st, ts);
}

static int parse_entries(const struct rj_ctx *c, json_object *jobs, size_t n,
			 json_object *go, struct rs_set *s, struct fio_group *gs)
{
	char buf[WHERE_MAX];
	int ret;

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(jobs, i);
		struct rj_ctx ec = rj_child(c, "jobs", (int)i, buf, sizeof(buf));
		unsigned g = 0, idx;
		if ((ret = rj_uint(&ec, e, "groupid", true, &g)) ||
		    (ret = group_step(&ec, e, go, g, s, gs, &idx)) ||
		    (ret = group_add(&ec, e, &s->steps[idx], &gs[idx])))
			return ret;
	}
	for (unsigned i = 0; i < s->nr_steps; i++)
		if ((ret = group_finish(c, &s->steps[i], &gs[i])))
			return ret;
	return 0;
}

int results_parse_fio(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = "", .err = err};
	int ret;
	size_t n;

	if ((ret = rj_str(&c, root, "fio version", true, &s->fio_version)))
		return ret;
	json_object *go = rj_member(&c, root, "global options", json_type_object, false,
				    &ret);
	json_object *jobs = ret ? NULL : rj_objects(&c, root, "jobs", true, &n, &ret);
	if (!jobs)
		return ret;
	if (n == 0)
		return rj_fail(&c, "jobs", "no job");
	s->is_run = true;
	s->complete = true;
	s->format_version = 1;
	s->iochar_version = strdup("");
	s->plan = strdup("fio");
	s->source = strdup("");
	s->steps = calloc(n, sizeof(*s->steps));
	struct fio_group *gs = calloc(n, sizeof(*gs));
	if (!s->iochar_version || !s->plan || !s->source || !s->steps || !gs)
		ret = rj_oom(&c);
	else
		ret = parse_entries(&c, jobs, n, go, s, gs);
	for (size_t i = 0; gs && i < n; i++)
		for (int d = 0; d < 3; d++)
			fio_dir_free(&gs[i].dir[d]);
	free(gs);
	s->nr_steps_planned = s->nr_steps;
	return ret;
}

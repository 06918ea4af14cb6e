/* pace_opts.c - see pace_opts.h. */
#include "base/pace_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/units.h"

static uint64_t *pair_of(void *obj, const struct option_def *o)
{
	return (uint64_t *)((char *)obj + o->off);
}

static const uint64_t *cpair_of(const void *obj, const struct option_def *o)
{
	return (const uint64_t *)((const char *)obj + o->off);
}

static int parse_one(const struct option_def *o, const char *s, bool size,
		     uint64_t *out, struct ioc_err *err)
{
	if (size)
		return units_parse_size(o->name, s, out, err);
	return units_parse_uint(o->name, s, 0, o->max ? o->max : UINT64_MAX,
				out, err);
}

/* "R,W" / ",W" / "R," / "V" into out[2]; an empty side is 0 (no limit). */
static int parse_pair(const struct option_def *o, const char *v, bool size,
		      uint64_t out[DIR_COUNT], struct ioc_err *err)
{
	const char *comma = strchr(v, ',');
	char first[64], second[64];
	int ret;

	if (!comma) {
		if ((ret = parse_one(o, v, size, &out[0], err)))
			return ret;
		out[1] = out[0]; /* fio: one value sets every direction */
		return 0;
	}
	/* fio's third value is the trims' (R,W,T): iochar issues no trims,
	 * so it is checked and has nothing to limit */
	const char *trim = strchr(comma + 1, ',');
	if ((trim && strchr(trim + 1, ',')) || (size_t)(comma - v) >= sizeof(first) ||
	    (trim && (size_t)(trim - comma - 1) >= sizeof(first)))
		return err_usage(err, EINVAL,
				 "%s=%s: accepted: R,W (read,write), ,W, R, "
				 "R,W,T (T: trims) or one value for all", o->name, v);
	uint64_t t = 0;
	if (trim && trim[1] && (ret = parse_one(o, trim + 1, size, &t, err)))
		return ret;
	memcpy(first, v, (size_t)(comma - v));
	first[comma - v] = '\0';
	out[0] = out[1] = 0;
	if (first[0] && (ret = parse_one(o, first, size, &out[0], err)))
		return ret;
	if (trim) {
		memcpy(second, comma + 1, (size_t)(trim - comma - 1));
		second[trim - comma - 1] = '\0';
	} else {
		snprintf(second, sizeof(second), "%s", comma + 1);
	}
	if (second[0] && (ret = parse_one(o, second, size, &out[1], err)))
		return ret;
	return 0;
}

int pace_parse_pair_size(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	uint64_t p[DIR_COUNT];
	int ret = parse_pair(o, v, true, p, err);

	if (!ret)
		memcpy(pair_of(obj, o), p, sizeof(p));
	return ret;
}

int pace_parse_pair_uint(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	uint64_t p[DIR_COUNT];
	int ret = parse_pair(o, v, false, p, err);

	if (!ret)
		memcpy(pair_of(obj, o), p, sizeof(p));
	return ret;
}

int pace_show_pair(const void *obj, const struct option_def *o, FILE *f)
{
	const uint64_t *p = cpair_of(obj, o);

	return fprintf(f, "%llu,%llu", (unsigned long long)p[0],
		       (unsigned long long)p[1]) < 0 ? -EIO : 0;
}

void pace_emit_pair(const void *obj, const struct option_def *o, struct jw *w)
{
	const uint64_t *p = cpair_of(obj, o);

	jw_key(w, o->json ? o->json : o->name);
	jw_array_begin(w);
	jw_uint(w, p[0]);
	jw_uint(w, p[1]);
	jw_array_end(w);
}

int pace_parse_rate_iops(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	struct job_spec *j = obj;
	uint64_t p[DIR_COUNT];
	int ret = parse_pair(o, v, false, p, err);

	if (ret)
		return ret;
	if (strchr(v, ',')) {
		j->rate_iops = 0;
		memcpy(j->rate_iops_rw, p, sizeof(p));
	} else {
		j->rate_iops = p[0];
		memset(j->rate_iops_rw, 0, sizeof(j->rate_iops_rw));
	}
	return 0;
}

int pace_show_rate_iops(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *j = obj;

	(void)o;
	return fprintf(f, "%llu;%llu,%llu", (unsigned long long)j->rate_iops,
		       (unsigned long long)j->rate_iops_rw[0],
		       (unsigned long long)j->rate_iops_rw[1]) < 0 ? -EIO : 0;
}

void pace_emit_rate_iops(const void *obj, const struct option_def *o,
			 struct jw *w)
{
	const struct job_spec *j = obj;

	(void)o;
	jw_kv_uint(w, "rate_iops", j->rate_iops);
	if (j->rate_iops_rw[0] || j->rate_iops_rw[1]) {
		jw_key(w, "rate_iops_rw");
		jw_array_begin(w);
		jw_uint(w, j->rate_iops_rw[0]);
		jw_uint(w, j->rate_iops_rw[1]);
		jw_array_end(w);
	}
}

int pace_check_rate_iops(const void *obj, const struct option_def *o,
			 struct ioc_err *err)
{
	const struct job_spec *j = obj;
	uint64_t v[3] = {j->rate_iops, j->rate_iops_rw[0], j->rate_iops_rw[1]};

	for (int i = 0; i < 3; i++)
		if (o->max && v[i] > o->max)
			return err_usage(err, ERANGE, "%s=%llu: out of range "
					 "(at most %llu)", o->name,
					 (unsigned long long)v[i],
					 (unsigned long long)o->max);
	return 0;
}

static int parse_time_unit(void *obj, const struct option_def *o,
			   const char *v, uint64_t unit_ns, struct ioc_err *err)
{
	uint64_t n;
	size_t i = 0;

	while (isdigit((unsigned char)v[i]))
		i++;
	if (i && !v[i]) { /* a bare number: fio's unit for this option */
		int ret = units_parse_uint(o->name, v, 0, UINT64_MAX / unit_ns,
					   &n, err);
		if (ret)
			return ret;
		n *= unit_ns;
	} else {
		int ret = units_parse_time(o->name, v, &n, err);
		if (ret)
			return ret;
	}
	*(uint64_t *)((char *)obj + o->off) = n;
	return 0;
}

int pace_parse_usec(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	return parse_time_unit(obj, o, v, 1000ull, err);
}

int pace_parse_msec(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	return parse_time_unit(obj, o, v, 1000000ull, err);
}

int pace_show_ns(const void *obj, const struct option_def *o, FILE *f)
{
	uint64_t v = *(const uint64_t *)((const char *)obj + o->off);

	return fprintf(f, "%lluns", (unsigned long long)v) < 0 ? -EIO : 0;
}

void pace_emit_ns(const void *obj, const struct option_def *o, struct jw *w)
{
	uint64_t v = *(const uint64_t *)((const char *)obj + o->off);

	jw_kv_uint(w, o->json ? o->json : o->name, v);
}

static const char *const dir_names[DIR_COUNT] = {"read", "write"};

int pace_opts_check(const struct job_spec *j, struct ioc_err *err)
{
	bool iops = j->rate_iops || j->rate_iops_rw[0] || j->rate_iops_rw[1];
	bool bps = j->rate_bps[0] || j->rate_bps[1];

	if (bps && iops)
		return err_usage(err, EINVAL, "job %s: rate and rate_iops "
				 "exclude each other (as in fio)", j->name);
	if ((j->rate_min_bps[0] || j->rate_min_bps[1]) &&
	    (j->rate_iops_min[0] || j->rate_iops_min[1]))
		return err_usage(err, EINVAL, "job %s: rate_min and "
				 "rate_iops_min exclude each other (as in fio)",
				 j->name);
	for (int d = 0; d < DIR_COUNT; d++) {
		if (j->rate_bps[d] && j->rate_bps[d] < j->rate_min_bps[d])
			return err_usage(err, EINVAL, "job %s: %s rate=%llu is "
					 "below rate_min=%llu", j->name,
					 dir_names[d],
					 (unsigned long long)j->rate_bps[d],
					 (unsigned long long)j->rate_min_bps[d]);
		if (j->rate_iops_rw[d] && j->rate_iops_rw[d] < j->rate_iops_min[d])
			return err_usage(err, EINVAL, "job %s: %s rate_iops=%llu "
					 "is below rate_iops_min=%llu", j->name,
					 dir_names[d],
					 (unsigned long long)j->rate_iops_rw[d],
					 (unsigned long long)j->rate_iops_min[d]);
	}
	return 0; /* thinktime_spin past thinktime: cut to it, as fio */
}

void pace_opts_clear(struct job_spec *job)
{
	job->rate_iops = 0;
	memset(job->rate_iops_rw, 0, sizeof(job->rate_iops_rw));
	memset(job->rate_bps, 0, sizeof(job->rate_bps));
	memset(job->rate_min_bps, 0, sizeof(job->rate_min_bps));
	memset(job->rate_iops_min, 0, sizeof(job->rate_iops_min));
	job->thinktime_ns = job->thinktime_spin_ns = job->thinktime_iotime_ns = 0;
	job->thinktime_blocks = 0;
}

const char *pace_opts_first_set(const struct job_spec *j)
{
	for (unsigned d = 0; d < DIR_COUNT; d++) {
		if (j->rate_bps[d])
			return "rate";
		if (j->rate_iops_rw[d])
			return "rate_iops";
		if (j->rate_min_bps[d])
			return "rate_min";
		if (j->rate_iops_min[d])
			return "rate_iops_min";
	}
	if (j->rate_iops)
		return "rate_iops";
	if (j->thinktime_ns)
		return "thinktime";
	return NULL;
}

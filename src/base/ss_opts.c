/* ss_opts.c - see ss_opts.h. */
#include "base/ss_opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "base/units.h"
#include "util/debug_log.h"

static const char *const kind_names[] = {
	[SS_IOPS] = "iops", [SS_IOPS_SLOPE] = "iops_slope",
	[SS_BW] = "bw", [SS_BW_SLOPE] = "bw_slope",
};

const char *ss_opts_kind_name(enum ss_kind k)
{
	return k >= SS_IOPS && k <= SS_BW_SLOPE ? kind_names[k] : "iops_slope";
}

/* The limit after "KIND:": N% (any kind), a size (bw) or a number (iops). */
static int parse_limit(struct job_ss *ss, const struct option_def *o,
		       const char *v, const char *lim, struct ioc_err *err)
{
	size_t n = strlen(lim);
	char *end;
	ss->pct = n && lim[n - 1] == '%';
	if (ss->pct || ss->kind == SS_IOPS || ss->kind == SS_IOPS_SLOPE) {
		double d = strtod(lim, &end);
		if (end == lim || end != lim + n - ss->pct || !isfinite(d) || d < 0)
			return err_usage(err, EINVAL, "%s=%s: '%s' is not a limit "
					 "(e.g. iops:10%% or iops_slope:0.5)",
					 o->name, v, lim);
		ss->limit = d;
		return 0;
	}
	uint64_t b;
	int ret = units_parse_size(o->name, lim, &b, err);
	ss->limit = (double)b;
	return ret;
}

int ss_opts_parse(void *obj, const struct option_def *o, const char *v,
		  struct ioc_err *err)
{
	struct job_ss ss = {0};
	const char *colon = strchr(v, ':');
	size_t klen = colon ? (size_t)(colon - v) : strlen(v);
	for (int k = SS_IOPS; k <= SS_BW_SLOPE; k++)
		if (strlen(kind_names[k]) == klen && !strncmp(v, kind_names[k], klen))
			ss.kind = (enum ss_kind)k;
	if (!ss.kind)
		return err_usage(err, EINVAL, "%s=%s: not a criterion; accepted: "
				 "iops, iops_slope, bw, bw_slope, then :LIMIT",
				 o->name, v);
	if (!colon || !colon[1])
		return err_usage(err, EINVAL, "%s=%s: the limit is missing "
				 "(e.g. %.*s:10%%)", o->name, v, (int)klen, v);
	int ret = parse_limit(&ss, o, v, colon + 1, err);
	if (!ret)
		*(struct job_ss *)((char *)obj + o->off) = ss;
	return ret;
}

void ss_opts_trace(const void *obj, const struct option_def *o)
{
	const struct job_ss *ss =
	    (const struct job_ss *)((const char *)obj + o->off);

	if (ss->pct)
		debug_log(DEBUG_PARSE, "set steady state threshold to %f%%",
			  ss->limit);
	else if (ss->kind == SS_IOPS || ss->kind == SS_IOPS_SLOPE)
		debug_log(DEBUG_PARSE, "set steady state IOPS threshold to %f",
			  ss->limit);
	else
		debug_log(DEBUG_PARSE, "set steady state BW threshold to %llu",
			  (unsigned long long)ss->limit);
}

int ss_opts_show(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_ss *ss = (const void *)((const char *)obj + o->off);
	return fprintf(f, "%s:%f%s", ss_opts_kind_name(ss->kind), ss->limit,
		       ss->pct ? "%" : "") < 0 ? -EIO : 0;
}

void ss_opts_emit(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_ss *ss = (const void *)((const char *)obj + o->off);
	char buf[96];
	snprintf(buf, sizeof(buf), "%s:%f%s", ss_opts_kind_name(ss->kind),
		 ss->limit, ss->pct ? "%" : "");
	jw_kv_string(w, o->json ? o->json : o->name, buf);
}

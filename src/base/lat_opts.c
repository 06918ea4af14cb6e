/* lat_opts.c - see lat_opts.h. */
#include "base/lat_opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/job.h"
#include "base/json_writer.h"

int lat_opts_parse_pct(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || (*end && strcmp(end, "%")) || !isfinite(d) || d <= 0 || d > 100)
		return err_usage(err, EINVAL, "%s=%s: not a percentage; accepted: "
				 "above 0 up to 100, e.g. 99.9", o->name, v);
	*(double *)((char *)obj + o->off) = d;
	return 0;
}

int lat_opts_show_pct(const void *obj, const struct option_def *o, FILE *f)
{
	return fprintf(f, "%f", *(const double *)((const char *)obj + o->off)) < 0 ? -EIO : 0;
}

void lat_opts_emit_pct(const void *obj, const struct option_def *o, struct jw *w)
{
	jw_kv_double(w, o->json ? o->json : o->name,
		     *(const double *)((const char *)obj + o->off));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int lat_opts_parse_plist(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	struct job_spec *j = obj;
	double l[JOB_MAX_PLIST];
	unsigned n = 0;
	const char *p = v;
	while (*p) {
		char *end;
		double d = strtod(p, &end);
		if (end == p || (*end && *end != ':') || !isfinite(d) || d < 0 || d > 100)
			return err_usage(err, EINVAL, "%s=%s: not a list of percentages; "
					 "accepted: 0 to 100 separated by ':', e.g. 99.5:99.9",
					 o->name, v);
		if (n == JOB_MAX_PLIST)
			return err_usage(err, E2BIG, "%s=%s: more than %d percentages (fio's "
					 "limit)", o->name, v, JOB_MAX_PLIST);
		l[n++] = d;
		p = *end ? end + 1 : end;
	}
	if (!n)
		return err_usage(err, EINVAL, "%s=: empty; accepted: 0 to 100 separated "
				 "by ':', e.g. 99.5:99.9", o->name);
	qsort(l, n, sizeof(l[0]), cmp_double);
	memcpy(j->plist, l, n * sizeof(l[0]));
	j->nr_plist = n;
	return 0;
}

int lat_opts_show_plist(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *j = obj;
	(void)o;
	for (unsigned i = 0; i < j->nr_plist; i++)
		if (fprintf(f, "%s%f", i ? ":" : "", j->plist[i]) < 0)
			return -EIO;
	return 0;
}

void lat_opts_emit_plist(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_spec *j = obj;
	jw_key(w, o->json ? o->json : o->name);
	jw_array_begin(w);
	for (unsigned i = 0; i < j->nr_plist; i++)
		jw_double(w, j->plist[i]);
	jw_array_end(w);
}

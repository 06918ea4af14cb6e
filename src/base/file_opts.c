/* file_opts.c - see file_opts.h. */
#include "base/file_opts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/file_names.h"
#include "base/job.h"
#include "base/json_writer.h"
#include "base/units.h"

int file_opts_parse_filesize(void *obj, const struct option_def *o,
			     const char *v, struct ioc_err *err)
{
	struct job_spec *spec = obj;
	const char *dash = strchr(v, '-');
	uint64_t lo, hi;
	int ret;

	if (!dash) {
		if ((ret = units_parse_size(o->name, v, &lo, err)))
			return ret;
		spec->filesize = lo;
		spec->filesize_high = 0;
		return 0;
	}
	char low[64];
	size_t n = (size_t)(dash - v);
	if (n == 0 || n >= sizeof(low))
		return err_usage(err, EINVAL,
				 "%s=%s: not a size or a LOW-HIGH range", o->name, v);
	memcpy(low, v, n);
	low[n] = '\0';
	if (units_parse_size(o->name, low, &lo, NULL) ||
	    units_parse_size(o->name, dash + 1, &hi, NULL))
		return err_usage(err, EINVAL,
				 "%s=%s: not a size or a LOW-HIGH range of sizes "
				 "(e.g. 64k-1m)", o->name, v);
	/* fio takes HIGH below LOW without a word and draws nonsense */
	if (hi < lo)
		return err_usage(err, EINVAL,
				 "%s=%s: HIGH is below LOW; give LOW-HIGH", o->name, v);
	spec->filesize = lo;
	spec->filesize_high = hi == lo ? 0 : hi;
	return 0;
}

int file_opts_show_filesize(const void *obj, const struct option_def *o,
			    FILE *f)
{
	const struct job_spec *spec = obj;
	(void)o;
	if (spec->filesize_high)
		return fprintf(f, "%llu-%llu", (unsigned long long)spec->filesize,
			       (unsigned long long)spec->filesize_high) < 0
			       ? -EIO
			       : 0;
	return fprintf(f, "%llu", (unsigned long long)spec->filesize) < 0 ? -EIO
									    : 0;
}

void file_opts_emit_filesize(const void *obj, const struct option_def *o,
			     struct jw *w)
{
	const struct job_spec *spec = obj;
	char buf[48];

	if (!spec->filesize_high) {
		jw_kv_uint(w, o->name, spec->filesize);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu-%llu", (unsigned long long)spec->filesize,
		 (unsigned long long)spec->filesize_high);
	jw_kv_string(w, o->name, buf);
}

static const char *const service_names[] = {
	[FSVC_ROUNDROBIN] = "roundrobin",
	[FSVC_SEQUENTIAL] = "sequential",
	[FSVC_RANDOM] = "random",
	[FSVC_ZIPF] = "zipf",
	[FSVC_PARETO] = "pareto",
	[FSVC_GAUSS] = "normal",
};
#define NR_SERVICES (sizeof(service_names) / sizeof(service_names[0]))

static const char service_accepted[] =
    "roundrobin, sequential or random, each optionally :N (I/Os per file "
    "before the next); zipf[:THETA[:CENTER]], pareto[:H[:CENTER]], "
    "normal|gauss[:DEV%[:CENTER]]";

/* A number of fio's float syntax (all of s), into *out. */
static bool parse_float(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return s[0] && !*end && !errno;
}

/* fio's str_fst_cb: the nonuniform choices' VAL[:CENTER] (fio's
 * split_parse_distr), each checked against fio's range. */
static int parse_distr(struct job_spec *spec, enum file_service_type t,
		       const struct option_def *o, const char *v,
		       const char *post, struct ioc_err *err)
{
	static const double defaults[] = {[FSVC_ZIPF] = 1.1, [FSVC_PARETO] = 0.2,
					  [FSVC_GAUSS] = 0.0};
	double val = defaults[t], center = -1;
	char buf[64];

	if (post) {
		snprintf(buf, sizeof(buf), "%s", post);
		char *c = strchr(buf, ':');
		if (c)
			*c++ = '\0';
		if (strlen(post) >= sizeof(buf) || !parse_float(buf, &val) ||
		    (c && !parse_float(c, &center)))
			return err_usage(err, EINVAL, "%s=%s: not VALUE[:CENTER] "
					 "numbers; accepted: %s", o->name, v,
					 service_accepted);
		if (c && (center < 0 || center > 1))
			return err_usage(err, EINVAL, "%s=%s: the center must be "
					 "0 to 1", o->name, v);
	}
	if ((t == FSVC_ZIPF && (val == 1.0 || val < 0)) ||
	    (t == FSVC_PARETO && (val <= 0 || val >= 1)) ||
	    (t == FSVC_GAUSS && (val < 0 || val >= 100)))
		return err_usage(err, EINVAL, "%s=%s: out of range (zipf: theta "
				 ">= 0 and not 1; pareto: 0 < h < 1; normal: 0 <= "
				 "dev < 100)", o->name, v);
	spec->file_service = t;
	spec->file_service_nr = 1;
	spec->file_service_param = val;
	spec->file_service_centered = center >= 0;
	spec->file_service_center = center >= 0 ? center : 0;
	return 0;
}

int file_opts_parse_service(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err)
{
	struct job_spec *spec = obj;
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	uint64_t nr = 1;

	for (unsigned i = 0; i <= NR_SERVICES; i++) {
		const char *name = i < NR_SERVICES ? service_names[i] : "gauss";
		if (strlen(name) != n || strncasecmp(v, name, n))
			continue;
		enum file_service_type t = i < NR_SERVICES
					       ? (enum file_service_type)i
					       : FSVC_GAUSS;
		if (t >= FSVC_ZIPF)
			return parse_distr(spec, t, o, v, colon ? colon + 1 : NULL,
					   err);
		if (colon && units_parse_uint(o->name, colon + 1, 1, 1u << 30,
					      &nr, err))
			return -EINVAL;
		spec->file_service = t;
		spec->file_service_nr = (unsigned)nr;
		return 0;
	}
	return err_usage(err, EINVAL, "%s=%s: not a file service type; accepted: %s",
			 o->name, v, service_accepted);
}

static void service_text(const struct job_spec *spec, char *buf, size_t len)
{
	const char *name = spec->file_service < NR_SERVICES
				   ? service_names[spec->file_service]
				   : "roundrobin";
	if (spec->file_service >= FSVC_ZIPF && spec->file_service_centered)
		snprintf(buf, len, "%s:%g:%g", name, spec->file_service_param,
			 spec->file_service_center);
	else if (spec->file_service >= FSVC_ZIPF)
		snprintf(buf, len, "%s:%g", name, spec->file_service_param);
	else if (spec->file_service_nr > 1)
		snprintf(buf, len, "%s:%u", name, spec->file_service_nr);
	else
		snprintf(buf, len, "%s", name);
}

int file_opts_show_service(const void *obj, const struct option_def *o,
			   FILE *f)
{
	char buf[48];
	(void)o;
	service_text(obj, buf, sizeof(buf));
	return fprintf(f, "%s", buf) < 0 ? -EIO : 0;
}

void file_opts_emit_service(const void *obj, const struct option_def *o,
			    struct jw *w)
{
	char buf[48];
	service_text(obj, buf, sizeof(buf));
	jw_kv_string(w, o->name, buf);
}

/* Why each refused option is not done; the row's name is the key. */
static const struct {
	const char *name, *why;
} refused[] = {
	{"lockfile", "file locking between jobs is not supported by iochar; "
		     "accepted: none"},
	{"unlink_each_loop", "removing files after each loop is not supported "
			     "by iochar; accepted: 0 (unlink=1 removes them at "
			     "the end)"},
};

int file_opts_parse_opendir(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err)
{
	(void)o;
	return v[0] ? file_names_opendir(obj, v, err) : 0;
}

int file_opts_parse_refused(void *obj, const struct option_def *o,
			    const char *v, struct ioc_err *err)
{
	bool off = false;
	(void)obj;
	if (strcmp(o->name, "lockfile") == 0)
		off = strcasecmp(v, "none") == 0;
	else
		off = units_parse_bool(o->name, v, &off, NULL) == 0 && !off;
	if (off)
		return 0;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (strcmp(refused[i].name, o->name) == 0)
			return err_usage(err, ENOTSUP, "%s=%s: %s", o->name, v,
					 refused[i].why);
	return err_usage(err, ENOTSUP, "%s=%s: not supported by iochar",
			 o->name, v);
}

int file_opts_show_refused(const void *obj, const struct option_def *o,
			   FILE *f)
{
	(void)obj;
	const char *off = strcmp(o->name, "lockfile") == 0 ? "none"
			  : strcmp(o->name, "opendir") == 0 ? ""
							    : "0";
	return fprintf(f, "%s", off) < 0 ? -EIO : 0;
}

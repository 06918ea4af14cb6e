/* iolog_opts.c - the iolog rows' own parse/show/emit functions and the
 * checks between the iolog options (base/iolog.h): replay_time_scale,
 * replay_skip, merge_blktrace_scalars and merge_blktrace_iters. */
#include "base/iolog_opts.h"
#include "base/json_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const skip_names[] = {"read", "write", "trim", "sync"};

struct iolog_replay_opts iolog_opts_of(const struct job_spec *job)
{
	struct iolog_replay_opts o = {
		.redirect = job->replay_redirect, .scale = job->replay_scale,
		.align = job->replay_align, .time_scale = job->replay_time_scale,
		.no_stall = job->replay_no_stall, .skip = job->replay_skip,
	};
	if (!o.time_scale)
		o.time_scale = 100;
	return o;
}

unsigned iolog_merge_count(const char *list)
{
	unsigned n = 1;
	for (const char *c = list; *c; c++)
		n += *c == ':';
	return n;
}

/* merge_blktrace_file's checks: a list of traces to merge, the lists of
 * scalars and iterations one a trace (fio's "merge_blktrace_scalars(N)
 * != nr_logs(M)"), the output none of the traces. */
static int merge_check(const struct job_spec *job, struct ioc_err *err)
{
	if (!job->read_iolog[0])
		return err_usage(err, EINVAL, "job %s: merge_blktrace_file=%s needs read_iolog= "
				 "(the block traces to merge, ':'-separated)", job->name,
				 job->merge_blktrace_file);
	unsigned n = iolog_merge_count(job->read_iolog);
	if (n > JOB_MAX_MERGE)
		return err_usage(err, E2BIG, "job %s: read_iolog=%s: more than %d traces to merge",
				 job->name, job->read_iolog, JOB_MAX_MERGE);
	if (job->nr_merge_scalars && job->nr_merge_scalars != n)
		return err_usage(err, EINVAL, "job %s: merge_blktrace_scalars has %u values for "
				 "%u traces in read_iolog=", job->name, job->nr_merge_scalars, n);
	if (job->nr_merge_iters && job->nr_merge_iters != n)
		return err_usage(err, EINVAL, "job %s: merge_blktrace_iters has %u values for "
				 "%u traces in read_iolog=", job->name, job->nr_merge_iters, n);
	const char *at = job->read_iolog;
	size_t out = strlen(job->merge_blktrace_file);
	for (unsigned i = 0; i < n; i++) {
		size_t len = strcspn(at, ":");
		if (!len)
			return err_usage(err, EINVAL, "job %s: read_iolog=%s: an empty trace name",
					 job->name, job->read_iolog);
		if (len == out && !strncmp(at, job->merge_blktrace_file, len))
			return err_usage(err, EINVAL, "job %s: merge_blktrace_file=%s is one of the "
					 "traces it merges", job->name, job->merge_blktrace_file);
		at += len + (at[len] == ':');
	}
	return 0;
}

/* write_iolog= is opened for appending when the job's workers start,
 * after its targets are laid out: what would fail or block there (a
 * missing directory, a FIFO) is refused now, as a block device is. */
static int check_write_iolog(const struct job_spec *job, struct ioc_err *err)
{
	const char *log = job->write_iolog;
	struct stat st;
	if (stat(log, &st) == 0) {
		if (S_ISBLK(st.st_mode))
			return err_usage(err, EINVAL, "job %s: write_iolog=%s is a block device: "
					 "the log is appended to a file", job->name, log);
		if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
			return err_usage(err, EINVAL, "job %s: write_iolog=%s is not a file "
					 "(a directory, FIFO or socket)", job->name, log);
		return 0;
	}
	if (errno != ENOENT)
		return err_usage(err, errno, "job %s: write_iolog=%s: %s", job->name, log,
				 strerror(errno));
	char dir[sizeof(job->write_iolog)];
	snprintf(dir, sizeof(dir), "%s", log);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0; /* in the current directory */
	slash[slash == dir] = '\0'; /* "/x": the root */
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return err_usage(err, ENOENT, "job %s: write_iolog=%s: no directory %s",
				 job->name, log, dir);
	return 0;
}

int iolog_opts_check(const struct job_spec *job, struct ioc_err *err)
{
	uint64_t a = job->replay_align;
	if (a & (a - 1))
		return err_usage(err, EINVAL, "job %s: replay_align=%llu is not a power of 2",
				 job->name, (unsigned long long)a);
	int ret = job->write_iolog[0] ? check_write_iolog(job, err) : 0;
	if (ret)
		return ret;
	if (job->read_iolog[0] && (job->verify || job->verify_type))
		return err_usage(err, EINVAL, "job %s: read_iolog= with verify=: iochar does not "
				 "verify a replay yet (its reads would check blocks it did not write)",
				 job->name);
	if (job->read_iolog[0] && job->vd[0])
		return err_usage(err, EINVAL, "job %s: read_iolog= replays onto the log's files, "
				 "not a vd=", job->name);
	return job->merge_blktrace_file[0] ? merge_check(job, err) : 0;
}

/* A decimal number in 1..max. */
static bool whole(const char *v, uint64_t max, uint64_t *x)
{
	char *end;
	if (*v < '0' || *v > '9')
		return false;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	*x = n;
	return !errno && !*end && n >= 1 && n <= max;
}

int iolog_parse_time_scale(void *obj, const struct option_def *o, const char *v,
			   struct ioc_err *err)
{
	uint64_t x;
	if (!whole(v, 1000000, &x))
		return err_usage(err, EINVAL, "%s=%s: out of range; accepted: 1 to 1000000 "
				 "(%% of the log's speed)", o->name, v);
	*(unsigned *)((char *)obj + o->off) = (unsigned)x;
	return 0;
}

/* 0 (a job made without parsing) is the default, 100. */
static unsigned time_scale_of(const void *obj, const struct option_def *o)
{
	unsigned v = *(const unsigned *)((const char *)obj + o->off);
	return v ? v : 100;
}

int iolog_show_time_scale(const void *obj, const struct option_def *o, FILE *f)
{
	return fprintf(f, "%u", time_scale_of(obj, o)) < 0 ? -EIO : 0;
}

void iolog_emit_time_scale(const void *obj, const struct option_def *o, struct jw *w)
{
	jw_kv_uint(w, o->json ? o->json : o->name, time_scale_of(obj, o));
}

/* fio's str_replay_skip_cb: a comma-separated list of read, write, trim,
 * sync (blanks around the list stripped, none inside). */
int iolog_parse_skip(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err)
{
	unsigned mask = 0;
	const char *p = v + strspn(v, " \t");
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	for (;;) {
		size_t len = strcspn(p, ",");
		if (len > n)
			len = n;
		unsigned k = 0;
		while (k < 4 && (strlen(skip_names[k]) != len || strncmp(p, skip_names[k], len)))
			k++;
		if (k == 4)
			return err_usage(err, EINVAL, "%s=%s: unknown skip type '%.*s'; accepted: "
					 "read, write, trim, sync separated by ','", o->name, v,
					 (int)(len > 40 ? 40 : len), p);
		mask |= 1u << k; /* skip_names are enum iolog_op's order */
		if (len == n)
			break;
		p += len + 1;
		n -= len + 1;
	}
	*(unsigned *)((char *)obj + o->off) = mask;
	return 0;
}

/* The mask as its names in fio's order, "" for none. */
static void skip_text(unsigned mask, char *out, size_t size)
{
	size_t at = 0;
	out[0] = '\0';
	for (unsigned k = 0; k < 4; k++)
		if (mask & (1u << k))
			at += (size_t)snprintf(out + at, size - at, "%s%s", at ? "," : "",
					       skip_names[k]);
}

int iolog_show_skip(const void *obj, const struct option_def *o, FILE *f)
{
	char text[40];
	skip_text(*(const unsigned *)((const char *)obj + o->off), text, sizeof(text));
	return fputs(text, f) == EOF ? -EIO : 0;
}

/* Left out when nothing is skipped, as the iolog's empty strings are. */
void iolog_emit_skip(const void *obj, const struct option_def *o, struct jw *w)
{
	char text[40];
	skip_text(*(const unsigned *)((const char *)obj + o->off), text, sizeof(text));
	if (text[0])
		jw_kv_string(w, o->json ? o->json : o->name, text);
}

/* A ':'-separated list of up to JOB_MAX_MERGE numbers > 0 (fio's float
 * list; its 0 would end the list early, here it is refused), whole
 * numbers for the iterations. */
static int parse_merge_list(const char *v, const struct option_def *o, bool whole_only,
			    double *out, unsigned *nr, struct ioc_err *err)
{
	unsigned n = 0;
	const char *p = v;
	while (*p) {
		char *end;
		double d = strtod(p, &end);
		if (end == p || (*end && *end != ':') || !isfinite(d) || d <= 0 || d > 1e6 ||
		    (whole_only && d != floor(d)))
			return err_usage(err, EINVAL, "%s=%s: not a list of %s separated by ':', "
					 "e.g. %s", o->name, v, whole_only ?
					 "whole numbers 1 to 1000000" : "percentages above 0",
					 whole_only ? "2:1" : "50:100");
		if (n == JOB_MAX_MERGE)
			return err_usage(err, E2BIG, "%s=%s: more than %d values (fio's limit)",
					 o->name, v, JOB_MAX_MERGE);
		out[n++] = d;
		p = *end ? end + 1 : end;
	}
	if (!n)
		return err_usage(err, EINVAL, "%s=: empty; accepted: values separated by ':', "
				 "e.g. %s", o->name, whole_only ? "2:1" : "50:100");
	*nr = n;
	return 0;
}

int iolog_parse_merge_scalars(void *obj, const struct option_def *o, const char *v,
			      struct ioc_err *err)
{
	struct job_spec *j = obj;
	double l[JOB_MAX_MERGE];
	unsigned n;
	int ret = parse_merge_list(v, o, false, l, &n, err);
	if (ret)
		return ret;
	memcpy(j->merge_scalars, l, n * sizeof(l[0]));
	j->nr_merge_scalars = n;
	return 0;
}

int iolog_parse_merge_iters(void *obj, const struct option_def *o, const char *v,
			    struct ioc_err *err)
{
	struct job_spec *j = obj;
	double l[JOB_MAX_MERGE];
	unsigned n;
	int ret = parse_merge_list(v, o, true, l, &n, err);
	if (ret)
		return ret;
	for (unsigned i = 0; i < n; i++)
		j->merge_iters[i] = (unsigned)l[i];
	j->nr_merge_iters = n;
	return 0;
}

static bool is_scalars(const struct option_def *o)
{
	return !strcmp(o->name, "merge_blktrace_scalars");
}

int iolog_show_merge_list(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *j = obj;
	unsigned n = is_scalars(o) ? j->nr_merge_scalars : j->nr_merge_iters;
	for (unsigned i = 0; i < n; i++)
		if ((is_scalars(o) ? fprintf(f, "%s%g", i ? ":" : "", j->merge_scalars[i])
				   : fprintf(f, "%s%u", i ? ":" : "", j->merge_iters[i])) < 0)
			return -EIO;
	return 0;
}

/* An array of numbers; left out when empty. */
void iolog_emit_merge_list(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_spec *j = obj;
	unsigned n = is_scalars(o) ? j->nr_merge_scalars : j->nr_merge_iters;
	if (!n)
		return;
	jw_key(w, o->json ? o->json : o->name);
	jw_array_begin(w);
	for (unsigned i = 0; i < n; i++) {
		if (is_scalars(o))
			jw_double(w, j->merge_scalars[i]);
		else
			jw_uint(w, j->merge_iters[i]);
	}
	jw_array_end(w);
}

/* report_cmdline.c - the `iochar run` command line that repeats one
 * measured point of a step: the step's job parameters as the results file
 * has them, with the point's iodepth, numjobs and rate, on its target set.
 * The options are the job's rows that rs_job keeps (results_model.h), in
 * the option table's order: those marked OPT_F_CMD_ALWAYS always, the
 * others where they differ from what a default job's JSON says. Values
 * are quoted for a POSIX shell where needed. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/job_options.h"
#include "base/json_writer.h"
#include "base/units.h"
#include "report/report_parts.h"
#include "report/results_parse.h"

static void shell_word(FILE *f, const char *s)
{
	if (*s && !strpbrk(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~"))
		fputs(s, f);
	else {
		fputc('\'', f);
		for (; *s; s++)
			if (*s == '\'')
				fputs("'\\''", f);
			else
				fputc(*s, f);
		fputc('\'', f);
	}
}

static void opt(FILE *f, const char *name, const char *value)
{
	char *w = NULL;
	if (asprintf(&w, "--%s=%s", name, value) < 0)
		return;
	fputc(' ', f);
	shell_word(f, w);
	free(w);
}

/* Targets joined by ':', a ':' inside a name escaped as iochar reads it. */
static void opt_filename(FILE *f, const struct rs_tset *ts)
{
	char *list = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&list, &len);
	if (!m)
		return;
	for (unsigned i = 0; i < ts->nr_targets; i++) {
		if (i)
			fputc(':', m);
		for (const char *s = ts->targets[i]; *s; s++) {
			if (*s == ':' || *s == '\\')
				fputc('\\', m);
			fputc(*s, m);
		}
	}
	if (fclose(m) == 0 && len)
		opt(f, "filename", list);
	free(list);
}

/* The job a default job's JSON describes, read as the report reads a
 * step's. 0 or -errno. */
static int default_job(struct rs_job *d)
{
	struct ioc_err err = {0};
	struct rj_ctx c = {.file = "defaults", .where = "", .err = &err};
	struct job_spec spec;
	char *text = NULL;
	size_t len = 0;
	struct jw w;
	int ret = -ENOMEM;

	job_spec_init(&spec);
	job_options_set_defaults(&spec);
	FILE *f = open_memstream(&text, &len);
	if (f) {
		jw_init(&w, f, 0);
		jw_object_begin(&w);
		job_options_emit_json(&w, &spec);
		jw_object_end(&w);
		ret = jw_finish(&w);
		if (fclose(f) && !ret)
			ret = -EIO;
	}
	json_object *o = ret ? NULL : json_tokener_parse(text);
	ret = o ? results_parse_job(&c, o, d) : -EINVAL;
	json_object_put(o);
	free(text);
	job_spec_free(&spec);
	return ret;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Field f of j as its row's option (nothing when it is the default d has,
 * unless the row says always, or when it is empty). */
static void opt_field(FILE *f, const struct rs_job_field *fd,
		      const struct rs_job *j, const struct rs_job *d)
{
	const struct option_def *o = rs_job_field_row(fd);
	const void *v = (const char *)j + fd->off, *dv = (const char *)d + fd->off;
	bool always = o && (o->flags & OPT_F_CMD_ALWAYS);
	uint64_t n = 0;
	char buf[40];

	if (!o)
		return;
	switch (fd->kind) {
	case RS_STR:
	case RS_FILES:
		if (*(char *const *)v && **(char *const *)v &&
		    (always || !same_str(*(char *const *)v, *(char *const *)dv)))
			opt(f, o->name, *(char *const *)v);
		return;
	case RS_BOOL:
		if (always || *(const bool *)v != *(const bool *)dv) {
			if (!always && *(const bool *)v)
				fprintf(f, " --%s", o->name);
			else
				opt(f, o->name, *(const bool *)v ? "1" : "0");
		}
		return;
	case RS_U64:
		n = *(const uint64_t *)v;
		if (!always && n == *(const uint64_t *)dv)
			return;
		break;
	case RS_UINT:
		n = *(const unsigned *)v;
		if (!always && n == *(const unsigned *)dv)
			return;
		break;
	}
	if (o->type == OPT_TIME)
		units_format_time(buf, sizeof(buf), n);
	else
		snprintf(buf, sizeof(buf), "%" PRIu64, n);
	opt(f, o->name, buf);
}

/* The fields of j in the option table's order, targets from ts. */
static void opt_job(FILE *f, const struct rs_job *j, const struct rs_job *d,
		    const struct rs_tset *ts)
{
	size_t nr_rows, nr;
	const struct option_def *rows = job_option_rows(&nr_rows);
	const struct rs_job_field *fields = rs_job_fields(&nr);

	for (size_t r = 0; r < nr_rows; r++)
		for (size_t i = 0; i < nr; i++) {
			if (rs_job_field_row(&fields[i]) != &rows[r])
				continue;
			if (fields[i].kind == RS_FILES && ts && ts->nr_targets)
				opt_filename(f, ts);
			else
				opt_field(f, &fields[i], j, d);
		}
}

char *report_run_cmdline(const struct rs_step *st, const struct rs_tset *ts,
			 const struct rs_point *p)
{
	struct rs_job j = st->job, d = {0}; /* j: a view, owns nothing */
	char *out = NULL;
	size_t len = 0;
	FILE *f = NULL;

	if (default_job(&d) || !(f = open_memstream(&out, &len))) {
		rs_job_free(&d);
		return NULL;
	}
	if (p) {
		j.iodepth = p->iodepth;
		j.numjobs = p->numjobs;
		j.rate_iops = p->rate_iops;
	}
	fputs("iochar run", f);
	opt_job(f, &j, &d, ts);
	rs_job_free(&d);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* report_cmdline.c - the `iochar run` command line that repeats one
 * measured point of a step: the step's job parameters as the results file
 * has them, with the point's iodepth, numjobs and rate, on its target set.
 * Options are those of `iochar run --help`; values are quoted for a POSIX
 * shell where needed. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_parts.h"

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

static void opt_u(FILE *f, const char *name, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	opt(f, name, buf);
}

/* A time in the largest unit that holds it exactly. */
static void opt_time(FILE *f, const char *name, uint64_t ns)
{
	char buf[40];
	if (ns % UINT64_C(1000000000) == 0)
		snprintf(buf, sizeof(buf), "%" PRIu64 "s", ns / UINT64_C(1000000000));
	else if (ns % UINT64_C(1000000) == 0)
		snprintf(buf, sizeof(buf), "%" PRIu64 "ms", ns / UINT64_C(1000000));
	else
		snprintf(buf, sizeof(buf), "%" PRIu64 "us", ns / UINT64_C(1000));
	opt(f, name, buf);
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

char *report_run_cmdline(const struct rs_step *st, const struct rs_tset *ts,
			 const struct rs_point *p)
{
	const struct rs_job *j = &st->job;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	fputs("iochar run", f);
	if (j->name && *j->name)
		opt(f, "name", j->name);
	if (ts && ts->nr_targets)
		opt_filename(f, ts);
	else if (j->filename)
		opt(f, "filename", j->filename);
	if (j->size)
		opt_u(f, "size", j->size);
	if (j->offset)
		opt_u(f, "offset", j->offset);
	opt(f, "rw", j->rw ? j->rw : "read");
	if (j->rw && (!strcmp(j->rw, "rw") || !strcmp(j->rw, "randrw")))
		opt_u(f, "rwmixread", j->rwmixread);
	opt_u(f, "bs", j->bs);
	opt(f, "ioengine", j->ioengine ? j->ioengine : "io_uring");
	opt_u(f, "iodepth", p ? p->iodepth : j->iodepth);
	opt_u(f, "numjobs", p ? p->numjobs : j->numjobs);
	opt_u(f, "direct", j->direct);
	if (j->runtime_ns)
		opt_time(f, "runtime", j->runtime_ns);
	if (j->ramp_ns)
		opt_time(f, "ramp_time", j->ramp_ns);
	if (j->time_based)
		fputs(" --time_based", f);
	uint64_t rate = p ? p->rate_iops : j->rate_iops;
	if (rate) {
		opt_u(f, "rate_iops", rate);
		if (j->rate_process)
			opt(f, "rate_process", j->rate_process);
	}
	if (j->random_distribution && strcmp(j->random_distribution, "uniform"))
		opt(f, "random_distribution", j->random_distribution);
	if (j->cpus_allowed)
		opt(f, "cpus_allowed", j->cpus_allowed);
	opt_u(f, "randseed", j->randseed);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

const char *report_workload_name(const struct rs_step *st, unsigned k, char *buf,
				 size_t len)
{
	/* a scaling step's target sets are named by their size, the reader's
	 * x axis; other steps' by their place */
	if (st->nr_sets > 1 && st->targets_use && !strcmp(st->targets_use, "scaling"))
		snprintf(buf, len, "%s (%u target%s)", st->label, st->sets[k].nr_targets,
			 st->sets[k].nr_targets == 1 ? "" : "s");
	else if (st->nr_sets > 1)
		snprintf(buf, len, "%s #%u", st->label, k + 1);
	else
		snprintf(buf, len, "%s", st->label);
	return buf;
}

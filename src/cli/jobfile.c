/* jobfile.c - fio's INI-style job files into job specs. See jobfile.h.
 *
 * As fio 3.33's init.c reads them: a section whose name starts with
 * "global" is the global section; `include FILE` inside a section reads
 * FILE's lines into it (FILE as given when it exists, else beside the
 * including file; included files hold no sections); values go through
 * fio's substitutions (jobfile_expand.h). Bad options do not stop the
 * reading: every one is named, then the file is refused.
 */
#define _GNU_SOURCE /* asprintf */
#include "cli/jobfile.h"
#include "util/debug_log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/fio_names.h"
#include "util/ini.h"
#include "cli/jobfile_expand.h"
#include "cli/options.h"

/* Sections a job file may hold: a stated limit, so a huge file is one
 * error at its line instead of thousands of threads and files later. */
#define JOBFILE_MAX_JOBS 1024
/* Nested includes: deep enough for any real file, bounded for a loop
 * that realpath cannot see (a file rewritten while read). */
#define JOBFILE_MAX_DEPTH 16

enum section {
	SECTION_NONE, /* before the first [header] */
	SECTION_GLOBAL,
	SECTION_JOB,
	SECTION_SKIPPED, /* a job --section left out: its lines are not read */
};

struct jobfile {
	struct job_spec global; /* what the next [job] starts from */
	struct job_spec *jobs;
	unsigned nr_jobs, cap;
	enum section section;
	const struct jobfile_opts *opts;
	const char *origin;			/* the file being read */
	char *stack[JOBFILE_MAX_DEPTH + 1];	/* real paths being read */
	unsigned depth;				/* 0: the job file itself */
	struct ioc_err *errs;			/* every bad line, one a line */
	unsigned nr_errs, errs_left_out;
	int first_code; /* the first bad line's -errno: the file's */
	size_t expand_left; /* what ${VAR} may still make (jobfile_expand.h) */
	unsigned shown; /* sections written to opts->showcmd */
	/* --showcmd: the current section's options, written when it ends in
	 * fio's parse order (its priority, then file order) */
	struct shown_opt {
		char *text;
		int prio;
	} *opts_shown;
	unsigned nr_shown;
	size_t given_from; /* where the section's given options begin */
};

void jobfile_free_jobs(struct job_spec *jobs, unsigned nr_jobs)
{
	if (!jobs)
		return;
	for (unsigned i = 0; i < nr_jobs; i++)
		job_spec_free(&jobs[i]);
	free(jobs);
}

/* Keep the message of a bad line and go on reading: the user gets every
 * culprit at once. Lines that no longer fit are counted. */
static void note_error(struct jobfile *jf, unsigned line, int code,
		       const struct ioc_err *e)
{
	char *msg = jf->errs->msg;
	size_t len = strlen(msg);
	int n = snprintf(msg + len, sizeof(jf->errs->msg) - len, "%s%s:%u: %s",
			 len ? "\n" : "", jf->origin, line, e->msg);

	/* the first line is kept, cut, rather than left out: the message is
	 * never empty */
	if (len && (n < 0 || (size_t)n >= sizeof(jf->errs->msg) - len - 40)) {
		msg[len] = '\0';
		jf->errs_left_out++;
	} else if (n > 0 && (size_t)n >= sizeof(jf->errs->msg) - 40) {
		strcpy(msg + sizeof(jf->errs->msg) - 44, "...");
	}
	if (!jf->nr_errs++)
		jf->first_code = code;
}

static int add_job(struct jobfile *jf, const char *name, unsigned line,
		   struct ioc_err *err)
{
	struct job_spec *job;
	int ret;

	if (jf->nr_jobs == JOBFILE_MAX_JOBS)
		return err_usage(err, E2BIG,
				 "more than %d jobs; iochar runs at most %d "
				 "from one job file",
				 JOBFILE_MAX_JOBS, JOBFILE_MAX_JOBS);
	if (jf->nr_jobs == jf->cap) {
		unsigned cap = jf->cap ? 2 * jf->cap : 4;
		struct job_spec *grown =
		    realloc(jf->jobs, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "out of memory");
		jf->jobs = grown;
		jf->cap = cap;
	}
	job = &jf->jobs[jf->nr_jobs];
	ret = job_spec_copy(job, &jf->global);
	if (ret)
		return err_set(err, ret, "out of memory");
	jf->nr_jobs++;
	/* the globals so far, then its own: fio's "job options" */
	job->given_own = jf->given_from = job->given_len;
	job->given_kept = true;
	/* where it came from: a check of the whole job names this line */
	snprintf(job->source, sizeof(job->source), "%s:%u", jf->origin, line);
	return options_apply(job, "name", name, err);
}

static void flush_shown(struct jobfile *jf);

bool jobfile_section_wanted(const struct jobfile_opts *o, const char *name)
{
	if (!o || !o->nr_sections || !strncmp(name, "global", 6))
		return true;
	for (unsigned i = 0; i < o->nr_sections; i++)
		if (!strcmp(o->sections[i], name))
			return true;
	return false;
}

/* The section that ends: its given options in fio's parse order. */
static int end_section(struct jobfile *jf, struct ioc_err *err)
{
	struct job_spec *spec = jf->section == SECTION_GLOBAL ? &jf->global
				: jf->section == SECTION_JOB ? &jf->jobs[jf->nr_jobs - 1]
							     : NULL;
	if (spec && job_given_sort(spec, jf->given_from, options_given_rank))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* A "[name]" header: global (fio: any name starting "global"), a new job,
 * or a job --section leaves out. */
static int on_section(void *arg, const char *name, unsigned line,
		      struct ioc_err *err)
{
	struct jobfile *jf = arg;
	int ret;

	if (jf->depth > 1)
		return err_usage(err, EINVAL,
				 "[%s]: an included file holds no sections "
				 "(fio: \"No new sections in included files\")",
				 name);
	if ((ret = end_section(jf, err)))
		return ret;
	debug_log(DEBUG_PARSE, "Parsing section [%s]", name);
	if (!jobfile_section_wanted(jf->opts, name)) {
		jf->section = SECTION_SKIPPED;
		return 0;
	}
	if (jf->opts && jf->opts->showcmd) {
		flush_shown(jf);
		if (!jf->shown++)
			fputs("fio ", jf->opts->showcmd);
		if (strncmp(name, "global", 6))
			fprintf(jf->opts->showcmd, "--name=%s ", name);
	}
	if (!strncmp(name, "global", 6)) {
		jf->section = SECTION_GLOBAL;
		jf->given_from = jf->global.given_len;
		return 0;
	}
	jf->section = SECTION_JOB;
	return add_job(jf, name, line, err);
}

static int parse_file(struct jobfile *jf, const char *path,
		      struct ioc_err *err);

/* "include FILE": FILE as given when it exists (fio tries that first),
 * else beside the file that includes it. */
static int on_include(struct jobfile *jf, const char *file,
		      struct ioc_err *err)
{
	const char *slash = strrchr(jf->origin, '/');
	char path[PATH_MAX];
	const char *saved = jf->origin;
	int ret;

	if (!file[0])
		return err_usage(err, EINVAL, "include: no file named");
	if (access(file, F_OK) == 0 || file[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", file);
	else if (snprintf(path, sizeof(path), "%.*s%s",
			  (int)(slash - jf->origin + 1), jf->origin,
			  file) >= (int)sizeof(path))
		return err_usage(err, ENAMETOOLONG, "include %s: path too long",
				 file);
	ret = parse_file(jf, path, err);
	jf->origin = saved;
	return ret;
}

static bool is_include(const char *key, const char *value)
{
	return !value && !strncmp(key, "include", 7) &&
	       (key[7] == ' ' || key[7] == '\t');
}

/* One option as fio's --showcmd writes it: fio's name for it, the value
 * as parsed, description's in double quotes; kept until the section ends. */
static int show_option(struct jobfile *jf, const char *key, const char *value)
{
	const struct fio_name *n = fio_name_find(key);
	const char *name = n ? n->name : key;
	const char *q = strcmp(name, "description") ? "" : "\"";
	struct shown_opt *grown;
	char *text;
	int len;

	if (value)
		len = asprintf(&text, "--%s=%s%s%s ", name, q, value, q);
	else
		len = asprintf(&text, "--%s ", name);
	if (len < 0)
		return -ENOMEM;
	grown = realloc(jf->opts_shown, (jf->nr_shown + 1) * sizeof(*grown));
	if (!grown) {
		free(text);
		return -ENOMEM;
	}
	jf->opts_shown = grown;
	grown[jf->nr_shown].text = text;
	grown[jf->nr_shown++].prio = n ? n->prio : 0;
	return 0;
}

/* Write the section's options as fio parses them: highest priority
 * first, file order among equals (fio's sort of a few options is stable). */
static void flush_shown(struct jobfile *jf)
{
	for (int prio = 8; prio >= -8; prio--)
		for (unsigned i = 0; i < jf->nr_shown; i++)
			if (jf->opts_shown[i].prio == prio)
				fputs(jf->opts_shown[i].text, jf->opts->showcmd);
	for (unsigned i = 0; i < jf->nr_shown; i++)
		free(jf->opts_shown[i].text);
	free(jf->opts_shown);
	jf->opts_shown = NULL;
	jf->nr_shown = 0;
}

/* A bad option's message names the option and quotes a long value by
 * its start, so the reason still fits its line (a 3,000-byte value left
 * it empty). */
static void name_option(struct ioc_err *e, const char *key,
			const char *value)
{
	size_t klen = strlen(key);
	size_t probe = klen < ERR_VALUE_KEEP ? klen : ERR_VALUE_KEEP;

	if (value)
		err_shorten(e, value, ERR_VALUE_KEEP);
	err_shorten(e, key, ERR_VALUE_KEEP);
	/* a long key is in the message by its start, if at all (the whole
	 * of a 1 MB key prefixed filled the line, the reason lost) */
	if (!memmem(e->msg, strlen(e->msg), key, probe))
		err_prefix(e, "%.*s%s", (int)probe, key,
			   probe < klen ? "..." : "");
}

/* A "key=value" or bare "key" line, for the current section. A bad option
 * is noted and the reading goes on; a bad include stops it. */
static int on_key(void *arg, const char *key, const char *value, unsigned line,
		  struct ioc_err *err)
{
	struct jobfile *jf = arg;
	struct ioc_err e = {0};
	struct job_spec *spec;
	char *expanded = NULL;
	int ret;

	if (jf->section == SECTION_SKIPPED)
		return 0;
	if (jf->section == SECTION_NONE)
		return err_usage(err, EINVAL,
				 "option '%s' outside a section (start one "
				 "with [global] or [jobname])",
				 key);
	if (is_include(key, value))
		return on_include(jf, ini_trim((char *)key + 8), err);
	spec = jf->section == SECTION_GLOBAL ? &jf->global
					     : &jf->jobs[jf->nr_jobs - 1];
	ret = value ? jobfile_expand(key, value, &jf->expand_left, &expanded,
				     &e)
		    : 0;
	if (ret == -E2BIG) /* every later value would pass it too */
		return err_usage(err, E2BIG, "%s", e.msg);
	if (!ret)
		ret = options_apply(spec, key, expanded, &e);
	if (!ret)
		ret = options_given_add(spec, key, expanded);
	if (!ret && jf->opts && jf->opts->showcmd)
		ret = show_option(jf, key, expanded);
	if (ret)
		name_option(&e, key, expanded);
	free(expanded);
	if (ret == -ENOMEM)
		return err_set(err, ENOMEM, "%s: out of memory", key);
	if (ret)
		note_error(jf, line, ret, &e);
	return 0;
}

static const struct ini_ops jobfile_ini = {
    .section = on_section,
    .key = on_key,
};

/* Refuse a file already being read (an include loop), by its real path. */
static int push_file(struct jobfile *jf, const char *path,
		     struct ioc_err *err)
{
	char *real = realpath(path, NULL);

	if (!real)
		return 0; /* unreadable: the read says so */
	for (unsigned i = 0; i < jf->depth; i++)
		if (jf->stack[i] && !strcmp(jf->stack[i], real)) {
			free(real);
			return err_usage(err, ELOOP,
					 "include %s: an include loop (%s "
					 "includes itself)",
					 path, path);
		}
	if (jf->depth > JOBFILE_MAX_DEPTH) {
		free(real);
		return err_usage(err, ELOOP, "include %s: more than %d nested "
				 "includes", path, JOBFILE_MAX_DEPTH);
	}
	jf->stack[jf->depth] = real;
	return 0;
}

/* Read and parse the file at path into jf (an included one when
 * jf->depth > 0). */
static int parse_file(struct jobfile *jf, const char *path,
		      struct ioc_err *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	ret = push_file(jf, path, err);
	if (ret)
		return ret;
	ret = ini_read_file_n(path, &text, &len);
	if (ret) {
		ret = err_usage(err, -ret, "%s: cannot read %s: %s", path,
				jf->depth ? "included file" : "job file",
				strerror(-ret));
	} else {
		jf->origin = path;
		debug_log(DEBUG_PARSE, "Parsing ini file %s", path);
		jf->depth++;
		ret = ini_parse_n(text, len, path, &jobfile_ini, jf, err);
		jf->depth--;
	}
	free(jf->stack[jf->depth]);
	jf->stack[jf->depth] = NULL;
	free(text);
	return ret;
}

/* The bad lines noted, then the error that stopped the reading (if any),
 * as one message of one line each. */
static int finish_errors(struct jobfile *jf, int ret, struct ioc_err *err)
{
	char stop[sizeof(err->msg)];
	size_t len;

	if (!jf->nr_errs)
		return ret;
	snprintf(stop, sizeof(stop), "%s", ret ? err->msg : "");
	memcpy(err->msg, jf->errs->msg, sizeof(err->msg));
	len = strlen(err->msg);
	if (stop[0])
		snprintf(err->msg + len, sizeof(err->msg) - len, "\n%.*s",
			 (int)(sizeof(err->msg) - len - 40), stop);
	len = strlen(err->msg);
	if (jf->errs_left_out)
		snprintf(err->msg + len, sizeof(err->msg) - len,
			 "\n... and %u more", jf->errs_left_out);
	err->usage = 1;
	return ret == -ENOMEM ? ret : jf->first_code;
}

/* Read the job file at path (or text, when text is not NULL) into jobs. */
static int parse_jobs(const char *path, const char *text, size_t len,
		      const struct jobfile_opts *opts, struct job_spec **jobs,
		      unsigned *nr_jobs, struct ioc_err *err)
{
	struct ioc_err errs = {0};
	struct jobfile jf = {.section = SECTION_NONE, .opts = opts,
			     .origin = path, .errs = &errs,
			     .expand_left = JOBFILE_EXPAND_MAX};
	int ret;

	job_spec_init(&jf.global);
	if (opts && opts->base)
		ret = job_spec_copy(&jf.global, opts->base) ? -ENOMEM : 0;
	else
		ret = (options_set_defaults(&jf.global), 0);
	if (ret)
		return err_set(err, ENOMEM, "out of memory");
	if (text) {
		jf.depth = 1;
		ret = ini_parse_n(text, len, path, &jobfile_ini, &jf, err);
	} else {
		ret = parse_file(&jf, path, err);
	}
	if (!ret)
		ret = end_section(&jf, err);
	ret = finish_errors(&jf, ret, err);
	if (jf.shown) {
		flush_shown(&jf);
		fputc('\n', opts->showcmd);
	}
	if (jf.nr_shown) /* options before any section: an error */
		flush_shown(&jf);
	if (ret == 0 && jf.nr_jobs == 0 && !(opts && opts->nr_sections))
		ret = err_usage(err, EINVAL,
				"%s: no jobs (a job is a [name] section with "
				"its options)",
				path);
	if (ret == 0) {
		*jobs = jf.jobs;
		*nr_jobs = jf.nr_jobs;
		jf.jobs = NULL;
		jf.nr_jobs = 0;
	}
	jobfile_free_jobs(jf.jobs, jf.nr_jobs);
	job_spec_free(&jf.global);
	return ret;
}

int jobfile_parse_text_n(const char *text, size_t len, const char *origin,
			 struct job_spec **jobs, unsigned *nr_jobs,
			 struct ioc_err *err)
{
	return parse_jobs(origin, text, len, NULL, jobs, nr_jobs, err);
}

int jobfile_parse_text(const char *text, const char *origin,
		       struct job_spec **jobs, unsigned *nr_jobs,
		       struct ioc_err *err)
{
	return jobfile_parse_text_n(text, strlen(text), origin, jobs, nr_jobs,
				    err);
}

int jobfile_parse_opts(const char *path, const struct jobfile_opts *opts,
		       struct job_spec **jobs, unsigned *nr_jobs,
		       struct ioc_err *err)
{
	return parse_jobs(path, NULL, 0, opts, jobs, nr_jobs, err);
}

int jobfile_parse(const char *path, struct job_spec **jobs, unsigned *nr_jobs,
		  struct ioc_err *err)
{
	return parse_jobs(path, NULL, 0, NULL, jobs, nr_jobs, err);
}

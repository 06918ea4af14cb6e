/* resume_targets.c - see resume_targets.h. */
#include "charz/resume_targets.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charz/results.h"
#include "cli/run_config.h"
#include "util/file_id.h"

#define KEY_MAX 65536 /* results_step_done reads no more of a key either */
#define KEY_JOBS (1 + PLAN_MAX_WORKLOADS)

/* The recorded filenames of step i's jobs (the step's, then each
 * workload's) into rec[] (malloc'd, NULL: none recorded). A key is text
 * lines and one JSON object per job, each on a line of its own. */
static void read_key(const char *dir, unsigned i, char *rec[KEY_JOBS])
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/steps/%03u.key", dir, i);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	char *text = malloc(KEY_MAX);
	size_t n = text ? fread(text, 1, KEY_MAX - 1, f) : 0;
	fclose(f);
	if (!text)
		return;
	text[n] = '\0';
	unsigned k = 0;
	for (char *line = text; line && *line && k < KEY_JOBS;) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '{') {
			json_object *o = json_tokener_parse(line), *fn;
			if (o && json_object_object_get_ex(o, "filename", &fn) &&
			    json_object_is_type(fn, json_type_string))
				rec[k] = strdup(json_object_get_string(fn));
			json_object_put(o);
			k++;
		}
		line = next;
	}
	free(text);
}

/* Do job's files and the list rec name the same files, in order? */
static bool same_files(const struct job_spec *job, const char *rec)
{
	struct job_spec r = {0};
	bool same = job_spec_set_files(&r, rec) == 0 && r.nr_files == job->nr_files;
	for (unsigned f = 0; same && f < r.nr_files; f++)
		same = file_same(job->files[f], r.files[f]);
	job_spec_free(&r);
	return same;
}

/* rec: what step st's job ran on, or (ran false) what the finished steps
 * share, for a step not run yet: only given to a job that names none. */
static int apply_one(const struct plan_step *st, struct job_spec *job, const char *rec,
		     bool ran, const char *dir, struct ioc_err *err)
{
	if (job->vd[0] || !strcmp(job->ioengine, "null"))
		return 0; /* no files: a VD's members are its definition's */
	if (!ran && job->nr_files)
		return 0; /* its own targets: nothing of it was run */
	if (!job->nr_files) {
		if (!strcmp(rec, RUN_SCRATCH_FILE))
			return 0; /* the scratch default makes it again, alike */
		return job_spec_set_files(job, rec) ? err_set(err, ENOMEM, "out of memory") : 0;
	}
	if (!same_files(job, rec))
		return err_usage(err, EINVAL,
				 "--resume %s: step '%s' ran on %s, not %s: a resumed plan "
				 "continues on its recorded targets (or use --out for a new run)",
				 dir, st->label, rec, job->filename ? job->filename : job->files[0]);
	/* the recorded spelling, so the finished step's key matches */
	return job_spec_set_files(job, rec) ? err_set(err, ENOMEM, "out of memory") : 0;
}

int resume_targets_apply(struct plan *p, const char *dir, struct ioc_err *err)
{
	char *(*rec)[KEY_JOBS] = calloc(p->nr_steps ? p->nr_steps : 1, sizeof(*rec));
	const char *common = NULL;
	bool several = false;
	int ret = 0;

	if (!rec)
		return err_set(err, ENOMEM, "out of memory");
	if ((ret = results_resume_check(dir, p, err))) { /* a FIFO key would hang */
		free(rec);
		return ret;
	}
	for (unsigned i = 0; i < p->nr_steps; i++) {
		read_key(dir, i, rec[i]);
		for (unsigned k = 0; k < KEY_JOBS; k++)
			if (rec[i][k] && !common)
				common = rec[i][k];
			else if (rec[i][k] && strcmp(rec[i][k], common))
				several = true;
	}
	for (unsigned i = 0; i < p->nr_steps && !ret; i++) {
		struct plan_step *st = &p->steps[i];
		for (unsigned k = 0; k <= st->nr_wl && k < KEY_JOBS && !ret; k++) {
			struct job_spec *job = k ? &st->wl[k - 1].job : &st->job;
			/* a step not run yet: the targets every finished step ran on */
			const char *want = rec[i][k] ? rec[i][k] : several ? NULL : common;
			if (want)
				ret = apply_one(st, job, want, rec[i][k] != NULL, dir, err);
		}
	}
	for (unsigned i = 0; i < p->nr_steps; i++)
		for (unsigned k = 0; k < KEY_JOBS; k++)
			free(rec[i][k]);
	free(rec);
	return ret;
}

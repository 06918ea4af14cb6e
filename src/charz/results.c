/* results.c - see results.h. */
#define _GNU_SOURCE
#include "charz/results.h"
#include "output/results_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "charz/workloads.h"
#include "dist/dist.h"
#include "output/json_parts.h"
#include "util/atomic_file.h"

static int mkdir_p(const char *dir)
{
	char tmp[4096];
	if (strlen(dir) >= sizeof(tmp))
		return -ENAMETOOLONG;
	strcpy(tmp, dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static void step_path(const struct results_dir *rd, unsigned i,
		      const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/steps/%03u.%s", rd->path, i, ext);
}

int results_resume_check(const char *dir, const struct plan *p, struct ioc_err *err)
{
	static const char *const exts[] = {"key", "json", "csv", "txt"};
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/steps", dir);
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		return err_usage(err, ENOTDIR,
				 "--resume %s: %s is not a directory; not a plan's results", dir,
				 path);
	for (unsigned i = 0; i < p->nr_steps; i++)
		for (unsigned e = 0; e < sizeof(exts) / sizeof(exts[0]); e++) {
			snprintf(path, sizeof(path), "%s/steps/%03u.%s", dir, i, exts[e]);
			if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
				return err_usage(err, EINVAL,
						 "--resume %s: %s is not a regular file; "
						 "not as a plan left it",
						 dir, path);
		}
	return 0;
}

int results_check(struct results_dir *rd, const char *dir, const struct plan *p,
		  const struct environment *env, bool resume, struct ioc_err *err)
{
	char steps[4100];
	struct stat st;

	memset(rd, 0, sizeof(*rd));
	if (strlen(dir) >= sizeof(rd->path) - 32)
		return err_usage(err, ENAMETOOLONG, "%s: path too long", dir);
	strcpy(rd->path, dir);
	rd->plan = p;
	rd->env = env;
	snprintf(steps, sizeof(steps), "%s/steps", dir);
	if (resume && stat(steps, &st) < 0)
		return err_usage(err, ENOENT,
				 "--resume %s: no results of an earlier run there", dir);
	if (resume) {
		int ret = results_resume_check(dir, p, err);
		if (ret)
			return ret;
	}
	if (!resume && stat(steps, &st) == 0)
		return err_usage(err, EEXIST,
				 "--out %s: holds results already; use --resume %s to continue them, or another directory",
				 dir, dir);
	/* the files a plan writes there, never over data iochar did not write
	 * (unless --force, which the plan's steps then carry) */
	static const char *const names[] = {"results.json", "results.csv"};
	bool force = p->nr_steps && p->steps[0].job.force;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* written by a rename into place: a device node or FIFO there
		 * would be replaced, not written (results_file writes those) */
		if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
			return err_usage(err, EINVAL,
					 "%s %s: %s is not a regular file; a plan's results "
					 "are files of their own",
					 resume ? "--resume" : "--out", dir, path);
		int r = !resume && stat(path, &st) == 0
			    ? results_file_check("--out", path, force, err)
			    : 0;
		if (r)
			return r;
	}
	return 0;
}

int results_open(struct results_dir *rd, const char *dir, const struct plan *p,
		 const struct environment *env, bool resume, struct ioc_err *err)
{
	char steps[4100];
	int ret = results_check(rd, dir, p, env, resume, err);
	if (ret)
		return ret;
	snprintf(steps, sizeof(steps), "%s/steps", dir);
	ret = mkdir_p(steps);
	if (ret)
		return err_set(err, -ret, "%s: cannot create: %s", steps, strerror(-ret));
	return 0;
}

int results_step_key(const struct plan *p, unsigned i, char **out)
{
	const struct plan_step *st = &p->steps[i];
	size_t len = 0;
	FILE *f = open_memstream(out, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "step %u: %s\nmode %s targets %s limit %llu %s\n", i, st->label,
		step_mode_name(st->mode), target_use_name(st->targets),
		(unsigned long long)st->latency_limit_ns, lat_stat_name(st->latency_stat));
	fprintf(f, "scope %s precondition %d\n", lat_scope_name(st->latency_scope),
		(int)st->precondition);
	fprintf(f, "search %u %u stop %llu fill %u rounds %u %llu points", st->max_iodepth,
		st->max_numjobs, (unsigned long long)st->stop_latency_ns, st->fill_passes,
		st->max_rounds, (unsigned long long)st->round_ns);
	for (unsigned k = 0; k < st->nr_points; k++)
		fprintf(f, " %u", st->points[k]);
	fputc('\n', f);
	/* a scaling step's runs per count (only there: other steps' keys
	 * stay as earlier directories have them) */
	if (st->targets == TARGETS_SCALING)
		fprintf(f, "scaling repeats %u\n", st->scaling_repeats);
	struct jw w;
	jw_init(&w, f, 0);
	json_emit_job(&w, &st->job);
	/* a multi-workload step: every workload's too (a changed log is a
	 * different step) */
	int ret = jw_finish(&w);
	for (unsigned k = 0; k < st->nr_wl && !ret; k++) {
		fprintf(f, "\nworkload %s judge %s\n", st->wl[k].name,
			wl_judge_name(st->wl[k].judge));
		jw_init(&w, f, 0);
		json_emit_job(&w, &st->wl[k].job);
		ret = jw_finish(&w);
	}
	if (fclose(f) != 0 || ret) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

bool results_step_done(const struct results_dir *rd, unsigned i)
{
	char path[4200], *want = NULL, have[65536];
	bool done = false;

	step_path(rd, i, "key", path, sizeof(path));
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t n = fread(have, 1, sizeof(have) - 1, f);
	fclose(f);
	have[n] = '\0';
	if (results_step_key(rd->plan, i, &want) == 0)
		done = strcmp(want, have) == 0;
	free(want);
	return done;
}

typedef int (*write_fn)(const struct step_outcome *o, FILE *f);

static int write_one(const char *path, write_fn fn, const struct step_outcome *o,
		     const char *text)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path);
	if (ret)
		return ret;
	ret = fn ? fn(o, af.f) : (fputs(text, af.f) < 0 ? -EIO : 0);
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af);
}

static bool step_file_exists(const struct results_dir *rd, unsigned i, const char *ext)
{
	char path[4200];
	step_path(rd, i, ext, path, sizeof(path));
	return access(path, F_OK) == 0;
}

/* Over many hosts, "hosts": [{host, rank, environment}] (docs/mpi.md),
 * once for the directory: gathered at the start of the plan. */
static void emit_host_envs(struct jw *w, const struct results_dir *rd)
{
	if (!rd->dist || !rd->host_envs)
		return;
	jw_key(w, "hosts");
	jw_array_begin(w);
	for (int r = 0; r < dist_size(rd->dist); r++) {
		jw_object_begin(w);
		jw_kv_string(w, "host", dist_host(rd->dist, r));
		jw_kv_int(w, "rank", r);
		jw_key(w, "environment");
		if (rd->host_envs[r])
			jw_raw(w, rd->host_envs[r], strlen(rd->host_envs[r]));
		else
			jw_null(w);
		jw_object_end(w);
	}
	jw_array_end(w);
}

static int write_results_json(const struct results_dir *rd, bool complete)
{
	char path[4200];
	struct atomic_file af;
	struct jw w;

	snprintf(path, sizeof(path), "%s/results.json", rd->path);
	int ret = atomic_file_open(&af, path);
	if (ret)
		return ret;
	jw_init(&w, af.f, 2);
	jw_object_begin(&w);
	jw_kv_string(&w, "iochar_version", IOCHAR_VERSION);
	jw_kv_uint(&w, "format_version", IOCHAR_FORMAT_VERSION);
	jw_kv_string(&w, "plan", rd->plan->name);
	jw_kv_string(&w, "source", rd->plan->source ? rd->plan->source : "");
	jw_kv_bool(&w, "complete", complete);
	jw_kv_uint(&w, "nr_steps", rd->plan->nr_steps);
	if (rd->env)
		json_emit_environment(&w, rd->env);
	emit_host_envs(&w, rd);
	jw_key(&w, "steps");
	jw_array_begin(&w);
	/* each finished step exactly as its own file has it */
	for (unsigned i = 0; i < rd->plan->nr_steps; i++) {
		if (!step_file_exists(rd, i, "json"))
			continue;
		step_path(rd, i, "json", path, sizeof(path));
		jw_raw_file(&w, path);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	ret = jw_finish(&w);
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af);
}

static int write_results_csv(const struct results_dir *rd)
{
	char path[4200];
	struct atomic_file af;

	snprintf(path, sizeof(path), "%s/results.csv", rd->path);
	int ret = atomic_file_open(&af, path);
	if (ret)
		return ret;
	fputs(step_csv_header, af.f);
	for (unsigned i = 0; i < rd->plan->nr_steps && !ret; i++) {
		if (!step_file_exists(rd, i, "csv"))
			continue;
		step_path(rd, i, "csv", path, sizeof(path));
		ret = copy_file_into(af.f, path);
	}
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af);
}

int results_write_step(const struct results_dir *rd,
		       const struct step_outcome *o, bool complete,
		       struct ioc_err *err)
{
	char path[4200], *key = NULL;
	int ret;

	step_path(rd, o->index, "json", path, sizeof(path));
	ret = write_one(path, step_json_write, o, NULL);
	if (!ret) {
		step_path(rd, o->index, "csv", path, sizeof(path));
		ret = write_one(path, step_csv_write, o, NULL);
	}
	if (!ret) {
		step_path(rd, o->index, "txt", path, sizeof(path));
		ret = write_one(path, step_table_write, o, NULL);
	}
	/* the key last, and only for a whole step: --resume redoes the rest */
	if (!ret && !o->partial) {
		ret = results_step_key(rd->plan, o->index, &key);
		step_path(rd, o->index, "key", path, sizeof(path));
		if (!ret)
			ret = write_one(path, NULL, o, key);
		free(key);
	}
	if (!ret)
		ret = write_results_json(rd, complete);
	if (!ret)
		ret = write_results_csv(rd);
	if (ret)
		return err_set(err, -ret, "%s: writing results: %s", rd->path,
			       strerror(-ret));
	return 0;
}

int results_finish(const struct results_dir *rd, struct ioc_err *err)
{
	int ret = write_results_json(rd, true);
	if (ret)
		return err_set(err, -ret, "%s: writing results: %s", rd->path,
			       strerror(-ret));
	return 0;
}

/* A step's table from path into f, its per-target line left out once
 * *said (one summary table says it once). */
static void copy_table_into(FILE *f, const char *path, bool *said)
{
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!in)
		return;
	while (getline(&line, &cap, in) > 0) {
		bool note = !strcmp(line, STEP_TABLE_PER_TARGET);
		if (!(note && *said))
			fputs(line, f);
		*said |= note;
	}
	free(line);
	fclose(in);
}

void results_print_table(const struct results_dir *rd, FILE *f)
{
	bool per_target_said = false;
	char path[4200];
	step_table_header(f, rd->plan);
	for (unsigned i = 0; i < rd->plan->nr_steps; i++) {
		if (!step_file_exists(rd, i, "txt"))
			continue;
		step_path(rd, i, "txt", path, sizeof(path));
		copy_table_into(f, path, &per_target_said);
	}
}

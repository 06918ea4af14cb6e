/* plan_expand.c - a parsed plan's sections into steps (see plan_parse.h):
 * ','-lists expanded into cross products, labels, SNIA PTS defaults for
 * precondition steps, and multi-workload steps (workloads=). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "charz/plan.h"
#include "charz/plan_parse.h"
#include "vd/matrix.h"

/* ---- expanding sections into steps ---- */

/* Steps of section s, at most PLAN_MAX_STEPS + 1. */
static unsigned section_steps(const struct section *s)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < s->keys.nr; i++) {
		n *= s->keys.e[i]->vals.nr;
		if (n > PLAN_MAX_STEPS)
			return PLAN_MAX_STEPS + 1;
	}
	return (unsigned)n;
}

static int count_steps(const struct parser *p, unsigned *total,
		       struct ioc_err *err)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nr_secs; i++) {
		if (p->secs[i].is_wl)
			continue;
		n += section_steps(&p->secs[i]);
		if (n > PLAN_MAX_STEPS)
			return err_usage(err, E2BIG,
					 "%s:%u: [%s]: more than %d steps (a "
					 "list multiplies its section's steps)",
					 p->origin, p->secs[i].line,
					 p->secs[i].name, PLAN_MAX_STEPS);
	}
	*total = n;
	return 0;
}

/* Append " key=value" to a label; once it does not fit, end the label with
 * "..." without cutting a UTF-8 character, and add nothing more. */
static void label_add(char *label, bool *full, const char *key, const char *v)
{
	size_t used = strlen(label), end = PLAN_LABEL_MAX - 4;
	int n;

	if (*full)
		return;
	n = snprintf(label + used, PLAN_LABEL_MAX - used, " %s=%s", key, v);
	if (n >= 0 && (size_t)n < PLAN_LABEL_MAX - used)
		return;
	while (end > 0 && ((unsigned char)label[end] & 0xc0) == 0x80)
		end--;
	memcpy(label + end, "...", 4);
	*full = true;
}

/* Did section s set the workload option named key (or an alias)? */
static bool section_sets(const struct section *s, const char *key)
{
	const struct option_def *row = options_find(key);

	if (!row)
		return false;
	for (unsigned i = 0; i < s->keys.nr; i++)
		if (s->keys.e[i]->row && s->keys.e[i]->row->off == row->off)
			return true;
	return false;
}

/* A precondition step runs PTS's workload unless told otherwise: the
 * option table's defaults (rw=read, QD 1 x 1 job) would write nothing or
 * precondition at a depth no SSD is measured at. */
static int pts_defaults(const struct section *s, struct plan_step *st,
			struct ioc_err *err)
{
	char v[16];
	int ret = 0;

	if (st->mode != STEP_PRECONDITION)
		return 0;
	if (!section_sets(s, "rw"))
		ret = options_apply(&st->job, "rw", PTS_RW, err);
	snprintf(v, sizeof(v), "%u", PTS_IODEPTH);
	if (!ret && !section_sets(s, "iodepth"))
		ret = options_apply(&st->job, "iodepth", v, err);
	snprintf(v, sizeof(v), "%u", PTS_NUMJOBS);
	if (!ret && !section_sets(s, "numjobs"))
		ret = options_apply(&st->job, "numjobs", v, err);
	return ret;
}

/* ---- multi-workload steps (workloads=) ---- */

static int build_one(const struct parser *p, const struct section *s,
		     const unsigned *pick, struct plan_step *st,
		     struct ioc_err *err);

void plan_step_free(struct plan_step *st)
{
	if (!st)
		return;
	job_spec_free(&st->job);
	for (unsigned i = 0; i < st->nr_wl; i++)
		job_spec_free(&st->wl[i].job);
	free(st->wl);
	st->wl = NULL;
	st->nr_wl = 0;
}

/* The entry of plan key name in s, or NULL. */
static const struct entry *section_pk(const struct section *s, const char *name)
{
	for (unsigned i = 0; i < s->keys.nr; i++)
		if (s->keys.e[i]->pk && !strcmp(s->keys.e[i]->pk->name, name))
			return s->keys.e[i];
	return NULL;
}

static struct section *section_named(const struct parser *p, const char *name,
				     size_t len)
{
	for (unsigned i = 0; i < p->nr_secs; i++)
		if (strlen(p->secs[i].name) == len && !strncmp(p->secs[i].name, name, len))
			return &p->secs[i];
	return NULL;
}

/* Mark the sections named by step e's workloads= of section s. */
static int wl_mark_one(struct parser *p, const struct section *s,
		       const struct entry *e, struct ioc_err *err)
{
	const char *v = e->vals.v[0] ? e->vals.v[0] : "";
	unsigned n = 0;

	for (const char *a = v; *a;) {
		size_t len = strcspn(a, ":");
		struct section *w = section_named(p, a, len);
		if (!w || w == s)
			return err_usage(err, EINVAL, "%s:%u: workloads: %s [%.*s]", p->origin,
					 e->line, w ? "a step cannot be its own workload"
						    : "no such section", (int)len, a);
		if (++n > PLAN_MAX_WORKLOADS)
			return err_usage(err, E2BIG, "%s:%u: workloads: more than %d",
					 p->origin, e->line, PLAN_MAX_WORKLOADS);
		w->is_wl = true;
		a += len + (a[len] == ':');
	}
	if (!n)
		return err_usage(err, EINVAL, "%s:%u: workloads: empty (name sections, e.g. "
				 "workloads=data:redo)", p->origin, e->line);
	return 0;
}

/* What a section may not hold: a workload section takes one value per key,
 * no plan key but latency_judge and no workloads= of its own; a step with
 * workloads= no workload option of its own (its workloads have them). */
static int wl_check_section(const struct parser *p, const struct section *s,
			    struct ioc_err *err)
{
	bool multi = section_pk(s, "workloads") != NULL;
	for (unsigned i = 0; i < s->keys.nr; i++) {
		const struct entry *e = s->keys.e[i];
		bool own = e->line > s->line;
		const char *why = NULL;
		if (s->is_wl && e->vals.nr > 1)
			why = "a list in a workload section (one value per key)";
		else if (s->is_wl && e->pk && !strcmp(e->pk->name, "workloads"))
			why = "a workload section cannot run workloads of its own";
		else if (s->is_wl && own && e->pk && strcmp(e->pk->name, "latency_judge"))
			why = "a plan key in a workload section (set it in the step's section)";
		else if (!s->is_wl && own && e->pk && !strcmp(e->pk->name, "latency_judge"))
			why = "only a workload section takes it";
		else if (!s->is_wl && multi && own && e->row)
			why = "the step runs workloads=: set workload options in its workload "
			      "sections or [global]";
		if (why)
			return err_usage(err, EINVAL, "%s:%u: %s: [%s]: %s", p->origin, e->line,
					 plan_entry_key(e), s->name, why);
	}
	return 0;
}

static int plan_wl_mark(struct parser *p, struct ioc_err *err)
{
	int ret = 0;
	for (unsigned i = 0; i < p->nr_secs && !ret; i++) {
		const struct entry *e = section_pk(&p->secs[i], "workloads");
		if (e && e->line > p->secs[i].line)
			ret = wl_mark_one(p, &p->secs[i], e, err);
	}
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		ret = wl_check_section(p, &p->secs[i], err);
	return ret;
}

/* Build st's workloads from their sections; st->job becomes the first's. */
static int plan_wl_build(const struct parser *p, struct plan_step *st,
			 struct ioc_err *err)
{
	/* a curve paces the first workload only, against a maximum of all:
	 * its points would not be what they say */
	if (st->mode != STEP_FIXED && st->mode != STEP_SEARCH) {
		const struct section *s = section_named(p, st->section, strlen(st->section));
		const struct entry *e = s ? section_pk(s, "workloads") : NULL;
		return err_usage(err, EINVAL, "%s:%u: workloads: [%s]: workloads= runs with "
				 "mode=fixed or search, not %s", p->origin, e ? e->line : 0,
				 st->section, step_mode_name(st->mode));
	}
	if (!(st->wl = calloc(PLAN_MAX_WORKLOADS, sizeof(*st->wl))))
		return err_set(err, ENOMEM, "out of memory");
	for (const char *a = st->workloads; *a;) {
		size_t len = strcspn(a, ":");
		const struct section *w = section_named(p, a, len);
		unsigned *pick = calloc(w->keys.nr + 1, sizeof(*pick));
		struct plan_step tmp;
		int ret = pick ? build_one(p, w, pick, &tmp, err)
			       : err_set(err, ENOMEM, "out of memory");
		free(pick);
		if (ret)
			return ret;
		struct step_workload *wl = &st->wl[st->nr_wl++];
		snprintf(wl->name, sizeof(wl->name), "%s", w->name);
		wl->job = tmp.job;
		wl->judge = tmp.judge;
		a += len + (a[len] == ':');
	}
	job_spec_free(&st->job);
	if (job_spec_copy(&st->job, &st->wl[0].job))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Build the step of section s that takes element pick[i] of each entry. */
static int build_step(const struct parser *p, const struct section *s,
		      const unsigned *pick, struct plan_step *st,
		      struct ioc_err *err)
{
	int ret = build_one(p, s, pick, st, err);

	if (!ret && st->workloads[0] && (ret = plan_wl_build(p, st, err)))
		plan_step_free(st);
	return ret;
}

/* raid_level=: the step's drives (filename=) become the level's VDs. */
static int raid_matrix_apply(struct plan_step *st, struct ioc_err *err)
{
	struct job_spec *j = &st->job;
	if (!j->nr_files)
		return err_usage(err, EINVAL,
				 "raid_level=%s: give the drives as filename=A:B:... (or --filename)",
				 st->raid_level);
	if (j->vd[0])
		return err_usage(err, EINVAL, "raid_level= makes the step's vd=: give one or the other");
	unsigned unused = 0;
	int ret = vd_matrix_def(st->raid_level, (const char *const *)j->files, j->nr_files,
				st->raid_options, j->vd, sizeof(j->vd), &unused, err);
	if (ret)
		return ret;
	if (job_spec_set_files(j, ""))
		return err_set(err, ENOMEM, "out of memory");
	free(j->filename); /* no files at all, as a vd= step */
	j->filename = NULL;
	return 0;
}

/* The step of section s alone (its workloads= not yet built). */
static int build_one(const struct parser *p, const struct section *s,
		     const unsigned *pick, struct plan_step *st,
		     struct ioc_err *err)
{
	bool full = false;
	int ret;

	*st = p->defaults;
	snprintf(st->section, sizeof(st->section), "%s", s->name);
	snprintf(st->label, sizeof(st->label), "%s", s->name);
	ret = options_apply(&st->job, "name", s->name, err);
	if (ret) {
		plan_prefix_origin(p, s->line, err);
		goto fail;
	}
	for (unsigned i = 0; i < s->keys.nr; i++) {
		const struct entry *e = s->keys.e[i];
		const char *v = e->vals.v[pick[i]];

		ret = plan_entry_apply(st, e, v, err);
		if (ret) {
			plan_prefix_origin(p, e->line, err);
			goto fail;
		}
		if (e->vals.nr > 1)
			label_add(st->label, &full, plan_entry_key(e), v);
	}
	ret = pts_defaults(s, st, err);
	if (ret)
		goto fail;
	/* a search's points last runtime unless the plan says time_based=0:
	 * size-bound, a point on a small file ended with its region (0.6 s
	 * of a 2 s runtime) and was compared with points of whole runtimes */
	if (st->mode == STEP_SEARCH && st->job.runtime_ns &&
	    !options_is_set(&st->job, "time_based"))
		st->job.time_based = true;
	if (st->raid_level[0] && (ret = raid_matrix_apply(st, err))) {
		plan_prefix_origin(p, s->line, err);
		goto fail;
	}
	if (st->mode == STEP_SEARCH && st->latency_limit_ns == 0 && !s->is_wl) {
		ret = err_usage(err, EINVAL,
				"%s:%u: latency_limit: missing in [%s] "
				"(mode=search needs one, e.g. "
				"latency_limit=2ms)",
				p->origin, s->line, s->name);
		goto fail;
	}
	return 0;
fail:
	job_spec_free(&st->job);
	return ret;
}

/* The next combination, the last listed key turning fastest; false after
 * the last one. */
static bool next_pick(const struct section *s, unsigned *pick)
{
	for (unsigned i = s->keys.nr; i-- > 0;) {
		if (++pick[i] < s->keys.e[i]->vals.nr)
			return true;
		pick[i] = 0;
	}
	return false;
}

static int expand_section(const struct parser *p, const struct section *s,
			  struct plan *out, struct ioc_err *err)
{
	unsigned *pick = calloc(s->keys.nr ? s->keys.nr : 1, sizeof(*pick));
	int ret = 0;

	if (!pick)
		return err_set(err, ENOMEM, "out of memory");
	do {
		ret = build_step(p, s, pick, &out->steps[out->nr_steps], err);
		if (ret)
			break;
		out->nr_steps++;
	} while (next_pick(s, pick));
	free(pick);
	return ret;
}

/* The last path component of path, cut to fit name[len]. */
void plan_set_name(char *name, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash && slash[1] ? slash + 1 : path;
	size_t n = strlen(base);

	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)base[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(name, base, n);
	name[n] = '\0';
}

int plan_build(const struct parser *p, const char *text,
		      struct plan *out, struct ioc_err *err)
{
	unsigned total = 0;
	int ret;

	if (p->nr_secs == 0)
		return err_usage(err, EINVAL,
				 "%s: no steps (a step is a [name] section "
				 "with its workload)",
				 p->origin);
	ret = plan_wl_mark((struct parser *)p, err);
	if (!ret)
		ret = count_steps(p, &total, err);
	if (ret)
		return ret;
	if (total == 0)
		return err_usage(err, EINVAL,
				 "%s: no steps (every section is a workload of another)",
				 p->origin);
	out->source = strdup(text);
	out->steps = calloc(total, sizeof(*out->steps));
	if (!out->source || !out->steps)
		return err_set(err, ENOMEM, "%s: out of memory", p->origin);
	plan_set_name(out->name, sizeof(out->name), p->origin);
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		if (!p->secs[i].is_wl)
			ret = expand_section(p, &p->secs[i], out, err);
	return ret;
}

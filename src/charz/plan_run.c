/* plan_run.c - steps, target sets and modes; see plan_run.h. */
#define _GNU_SOURCE
#include "charz/plan_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/pace_opts.h"
#include "charz/app_step.h"
#include "charz/disc_set.h"
#include "charz/eta.h"
#include "charz/outcome.h"
#include "charz/rebuild_step.h"
#include "cli/options.h"
#include "charz/results.h"
#include "charz/scaling_step.h"
#include "charz/workloads.h"
#include "core/runner.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/note.h"

#define SEARCH_PLATEAU 0.03      /* < 3 % more IOPS is not worth more load */
#define CURVE_REACH_TOLERANCE 0.02
/* The targets a plan run has filled (the PTS fill is once per target:
 * later preconditionings of it run their rounds only), and by which step;
 * the estimate also keeps its laid-out files in one. */
struct fills {
	const char *done[JOB_MAX_FILES]; /* borrowed from the steps' jobs */
	unsigned by[JOB_MAX_FILES];      /* 1-based step that filled done[i] */
	unsigned n;
	unsigned step;                   /* 0-based step under way */
	/* targets whose last preconditioning ended with no steady state, and
	 * its 1-based step: the rows measured on them after it are marked */
	const char *unsteady[JOB_MAX_FILES];
	unsigned unsteady_by[JOB_MAX_FILES];
	unsigned nr_unsteady;
};

static unsigned fills_find(const struct fills *f, const char *path)
{
	for (unsigned i = 0; i < f->n; i++)
		if (!strcmp(f->done[i], path))
			return i + 1;
	return 0;
}

static bool fills_has(const struct fills *f, const char *path)
{
	return fills_find(f, path) != 0;
}

static void fills_add(struct fills *f, const char *path)
{
	if (!fills_has(f, path) && f->n < JOB_MAX_FILES) {
		f->by[f->n] = f->step + 1;
		f->done[f->n++] = path;
	}
}

/* s's preconditioning ended: its targets are unsteady from this step on
 * when it reached no steady state, and steady again when it did. */
static void unsteady_note(struct fills *f, const struct set_outcome *s)
{
	for (unsigned t = 0; t < s->nr_targets; t++) {
		unsigned i = 0;
		while (i < f->nr_unsteady && strcmp(f->unsteady[i], s->targets[t]))
			i++;
		if (s->precond.steady && i < f->nr_unsteady) { /* drop it: the last moves in */
			f->unsteady[i] = f->unsteady[--f->nr_unsteady];
			f->unsteady_by[i] = f->unsteady_by[f->nr_unsteady];
		} else if (!s->precond.steady && (i < f->nr_unsteady || f->nr_unsteady < JOB_MAX_FILES)) {
			f->unsteady[i] = s->targets[t];
			f->unsteady_by[i] = f->step + 1;
			f->nr_unsteady += i == f->nr_unsteady;
		}
	}
}

/* The latest step that left any of s's targets unsteady; 0: none. */
static unsigned unsteady_since(const struct fills *f, const struct set_outcome *s)
{
	unsigned by = 0;

	for (unsigned t = 0; t < s->nr_targets; t++)
		for (unsigned i = 0; i < f->nr_unsteady; i++)
			if (!strcmp(f->unsteady[i], s->targets[t]) && f->unsteady_by[i] > by)
				by = f->unsteady_by[i];
	return by;
}

/* Does precondition=auto precondition st: a step (not itself a
 * preconditioning) whose workload writes at random offsets. */
static bool auto_precondition(const struct plan_step *st)
{
	const struct job_spec *j = &st->job;
	return st->precondition == PRECOND_AUTO && st->mode != STEP_PRECONDITION &&
	       rw_is_random(j->rw) && rw_writes(j->rw) &&
	       !(rw_is_mixed(j->rw) && j->rwmixread >= 100);
}

bool plan_step_preconditions(const struct plan_step *st)
{
	return st->mode == STEP_PRECONDITION || auto_precondition(st);
}

/* Sizes of the target sets a step uses: all 1 (each), one of n (parallel),
 * or scaling's first counts (1 .. 8, 16, 32 ... n; the sweep may add
 * counts between them). Returns how many sets; sizes has room for 64. */
static unsigned set_sizes(const struct plan_step *st, unsigned *sizes)
{
	unsigned n = st->job.nr_files, k = 0;
	if (n == 0) { /* engines without targets: one set of none */
		sizes[0] = 0;
		return 1;
	}
	switch (st->targets) {
	case TARGETS_EACH:
		for (k = 0; k < n && k < 64; k++)
			sizes[k] = 1;
		return k;
	case TARGETS_PARALLEL:
		sizes[0] = n;
		return 1;
	case TARGETS_SCALING:
		return scaling_first_counts(n, sizes);
	}
	return 0;
}

/* The first target of set i: each uses one target after the other, the
 * others always start at the first. */
static unsigned set_first(const struct plan_step *st, unsigned i)
{
	return st->targets == TARGETS_EACH ? i : 0;
}

int plan_validate(const struct plan *p, struct ioc_err *err)
{
	unsigned sizes[64];
	for (unsigned i = 0; i < p->nr_steps; i++) {
		const struct plan_step *st = &p->steps[i];
		if (st->mode == STEP_APP) { /* no fio job: iochar app's own checks */
			int ret = app_step_validate(st, err);
			if (ret)
				return ret;
			continue;
		}
		if (st->targets == TARGETS_SCALING && st->job.nr_files < 2)
			return err_usage(err, EINVAL,
					 "step '%s': targets=scaling needs at least two targets (filename=a:b:...)",
					 st->label);
		if (st->mode == STEP_SEARCH && !st->latency_limit_ns)
			return err_usage(err, EINVAL, "step '%s': mode=search needs latency_limit",
					 st->label);
		/* a workloads= step judges each workload on its latency_judge:
		 * a combined figure would be accepted and silently not used */
		if (st->nr_wl && st->latency_scope == LAT_SCOPE_TOTAL)
			return err_usage(err, EINVAL,
					 "step '%s': latency_scope=total does not apply to workloads= "
					 "(each workload is judged on the directions its latency_judge "
					 "names: set those instead)", st->label);
		if (st->mode == STEP_CURVE && !st->job.runtime_ns)
			return err_usage(err, EINVAL, "step '%s': " CURVE_NEEDS_RUNTIME ", e.g. "
					 "runtime=30s", st->label);
		if (st->mode == STEP_PRECONDITION &&
		    (!rw_writes(st->job.rw) || (rw_is_mixed(st->job.rw) && st->job.rwmixread >= 100)))
			return err_usage(err, EINVAL,
					 "step '%s': mode=precondition with rw=%s writes nothing "
					 "(PTS's default is rw=randwrite; give a workload that writes)",
					 st->label, rw_name(st->job.rw));
		const char *pace = pace_opts_first_set(&st->job);
		if (st->mode == STEP_PRECONDITION && pace) /* PTS: flat out */
			return err_usage(err, EINVAL,
					 "step '%s': mode=precondition with %s: preconditioning runs "
					 "unthrottled (SNIA PTS), give no rate or thinktime",
					 st->label, pace);
		if (st->mode == STEP_REBUILD) {
			int ret = rebuild_step_validate(st, err);
			if (ret)
				return ret;
		}
		/* the whole set at its largest, which covers every smaller one */
		unsigned nsets = set_sizes(st, sizes);
		for (unsigned s = 0; s < nsets; s++) {
			struct job_spec j;
			if (job_spec_copy(&j, &st->job))
				return err_set(err, ENOMEM, "out of memory");
			int ret = 0;
			for (unsigned t = 0; t < sizes[s] && !ret; t++) {
				struct job_spec one;
				if (job_spec_copy(&one, &j)) {
					ret = err_set(err, ENOMEM, "out of memory");
					break;
				}
				if (job_spec_set_files(&one, st->job.files[set_first(st, s) + t]))
					ret = err_set(err, ENOMEM, "out of memory");
				if (!ret)
					ret = runner_validate(&one, 1, err);
				job_spec_free(&one);
			}
			if (sizes[s] == 0)
				ret = runner_validate(&j, 1, err);
			job_spec_free(&j);
			if (!ret && st->nr_wl) /* the workloads together, on this set */
				ret = wl_validate(st, sizes[s] ? &st->job.files[set_first(st, s)] : NULL,
						  sizes[s], err);
			if (ret) {
				err_prefix(err, "step '%s'", st->label);
				return ret;
			}
		}
	}
	return 0;
}

/* The bytes one fill pass (or a layout) writes on target path of st: the
 * job's size, which each target of a set gets whole (measure.c runs one
 * copy of the job per target), else the target's (0 when it cannot be
 * told). */
static uint64_t fill_bytes(const struct plan_step *st, const char *path)
{
	struct target_info info;
	struct ioc_err err = {0};

	if (st->job.size)
		return st->job.size;
	if (target_inspect(path, &info, &err) || !info.exists)
		return 0;
	return info.size;
}

/* What the estimate knows of the targets so far: those a preconditioning
 * filled (as run_precondition tracks them) and those written whole at
 * all (a fill, or a layout before a step reads). */
struct eta_targets {
	struct fills filled, laid;
};

/* The bytes written on st's targets before its runs, as the run will
 * write them: a preconditioning fills every target of each set unless
 * all of that set's are filled already (run_precondition), so a scaling
 * step fills its first target again in each larger set; then a file not
 * there or too small to read is laid out once. */
static uint64_t step_fill_bytes(const struct plan_step *st, struct eta_targets *t)
{
	unsigned sizes[64], nsets = set_sizes(st, sizes);
	uint64_t bytes = 0;
	for (unsigned k = 0; plan_step_preconditions(st) && k < nsets; k++) {
		char *const *set = st->job.files + set_first(st, k);
		bool filled = sizes[k] > 0;
		for (unsigned i = 0; i < sizes[k]; i++)
			filled &= fills_has(&t->filled, set[i]);
		for (unsigned i = 0; i < sizes[k] && !filled; i++)
			bytes += (uint64_t)st->fill_passes * fill_bytes(st, set[i]);
		for (unsigned i = 0; i < sizes[k] && st->fill_passes; i++) {
			fills_add(&t->filled, set[i]);
			fills_add(&t->laid, set[i]);
		}
	}
	if (st->mode == STEP_PRECONDITION)
		return bytes;
	for (unsigned i = 0; i < st->job.nr_files; i++) {
		const char *path = st->job.files[i];
		struct target_info info;
		struct ioc_err err = {0};
		uint64_t need = fill_bytes(st, path);
		if (fills_has(&t->laid, path))
			continue;
		if (target_inspect(path, &info, &err) || !info.exists ||
		    (!info.is_block && info.size < need))
			bytes += need; /* laid out before it is read */
		fills_add(&t->laid, path);
	}
	return bytes;
}

/* The planned work of st for the estimate (charz/eta.h): its runs' ramp +
 * runtime times how many runs its mode usually makes, its target sets,
 * its fills and pre-writes still to come (f tracks them) and its
 * preconditioning's rounds (at most max_rounds). */
static void step_eta(const struct plan_step *st, struct eta_targets *f, struct eta_step *e)
{
	unsigned sizes[64];
	memset(e, 0, sizeof(*e));
	e->run_ns = st->job.ramp_ns + st->job.runtime_ns;
	e->sets = set_sizes(st, sizes);
	e->fill_bytes = step_fill_bytes(st, f);
	/* each count's headline again (scaling_repeats), a run each */
	unsigned again = st->targets == TARGETS_SCALING && st->scaling_repeats > 1 &&
			 st->mode != STEP_PRECONDITION && st->mode != STEP_REBUILD
			 ? st->scaling_repeats - 1 : 0;
	if (plan_step_preconditions(st))
		e->precond_ns = (uint64_t)st->max_rounds * st->round_ns * e->sets;
	switch (st->mode) {
	case STEP_FIXED:
		e->runs = 1;
		break;
	case STEP_SEARCH:
		e->runs = ETA_SEARCH_RUNS;
		e->search = true;
		break;
	case STEP_CURVE:
		e->runs = st->nr_points + 1;
		break;
	case STEP_PRECONDITION:
		e->runs = 0;
		break;
	case STEP_APP: /* a run per thread count (and about one to load) */
		e->runs = app_step_runs(st, &e->run_ns, &e->sets);
		break;
	case STEP_REBUILD: /* the baseline and a pass per rate, each about a run */
		e->runs = 2;
		for (const char *c = st->rebuild_rate; *c; c++)
			e->runs += *c == ',';
		break;
	}
	e->runs += again;
}

/* e over p's steps, in a new array (the caller frees e->steps). */
static int plan_eta(const struct plan *p, struct eta *e)
{
	struct eta_targets *t = calloc(1, sizeof(*t));
	struct eta_step *steps = calloc(p->nr_steps ? p->nr_steps : 1, sizeof(*steps));
	if (!steps || !t) {
		free(steps);
		free(t);
		return -ENOMEM;
	}
	for (unsigned k = 0; k < p->nr_steps; k++)
		step_eta(&p->steps[k], t, &steps[k]);
	free(t);
	eta_init(e, steps, p->nr_steps);
	return 0;
}

uint64_t plan_time_estimate_ns(const struct plan *p)
{
	struct eta e;
	if (plan_eta(p, &e))
		return 0;
	uint64_t ns = eta_plan_left_ns(&e, 0);
	free(e.steps);
	return ns;
}

struct progress {
	const struct plan_run_opts *o;
	const struct plan *p;
	unsigned step;
	unsigned point;
	unsigned precond_calls, fills; /* of the preconditioning under way */
	struct eta *eta;
};

static void on_point(void *arg, const struct job_spec *job)
{
	struct progress *pr = arg;
	eta_run_start(pr->eta);
	if (!pr->o->progress)
		return;
	char rate[48] = "";
	pr->point++;
	if (job->rate_iops)
		snprintf(rate, sizeof(rate), " rate_iops=%llu",
			 (unsigned long long)job->rate_iops);
	fprintf(pr->o->progress, "iochar: step %u of %u, %s: run %u (iodepth=%u numjobs=%u%s)\n",
		pr->step + 1, pr->p->nr_steps, pr->p->steps[pr->step].label, pr->point,
		job->iodepth, job->numjobs, rate);
	fflush(pr->o->progress);
}

/* A fill pass or round of a preconditioning: said, but not one of the
 * step's runs for the estimate (its fills and rounds are counted apart). */
static void on_precond_point(void *arg, const struct job_spec *job)
{
	struct progress *pr = arg;
	if (!pr->o->progress)
		return;
	bool fill = !job->time_based;
	pr->precond_calls++;
	fprintf(pr->o->progress, "iochar: step %u of %u, %s: preconditioning %s %u (%s, iodepth=%u numjobs=%u)\n",
		pr->step + 1, pr->p->nr_steps, pr->p->steps[pr->step].label,
		fill ? "fill pass" : "round", fill ? pr->precond_calls : pr->precond_calls - pr->fills,
		rw_name(job->rw), job->iodepth, job->numjobs);
	if (fill)
		pr->fills++;
	fflush(pr->o->progress);
}

/* Precondition s's targets with job (st's, or a copy for auto): the fill
 * only when some target of the set has not been filled in this plan run
 * (then on all of them: a fill pass runs on the whole set); otherwise the
 * result names the step that filled them. */
static int run_precondition(const struct plan_step *st, const struct job_spec *job,
			    struct set_outcome *s, struct fills *f, struct ioc_err *err)
{
	struct precond_params pp;
	bool filled = s->nr_targets > 0;
	unsigned by = 0;
	int ret;

	precond_params_default(&pp);
	pp.fill_passes = st->fill_passes;
	if (st->max_rounds)
		pp.max_rounds = st->max_rounds;
	if (st->round_ns)
		pp.round_ns = st->round_ns;
	if (!s->mctx.dist) { /* over many hosts a rank's per_target is its own: ranks would judge apart */
		pp.nr_targets = s->nr_targets;
		pp.target_iops = measure_target_iops;
	}
	for (unsigned t = 0; t < s->nr_targets; t++) {
		unsigned i = fills_find(f, s->targets[t]);
		filled &= i != 0;
		if (i && f->by[i - 1] > by)
			by = f->by[i - 1];
	}
	if (filled)
		pp.fill_passes = 0;
	struct progress *pr = s->mctx.on_point_arg;
	void (*step_point)(void *, const struct job_spec *) = s->mctx.on_point;
	if (pr) {
		pr->precond_calls = pr->fills = 0;
		s->mctx.on_point = on_precond_point;
	}
	ret = precondition_run(job, &pp, measure_run, &s->mctx, &s->precond, err);
	s->mctx.on_point = step_point;
	if (filled)
		s->precond.filled_by_step = by;
	if (!ret && pp.fill_passes) /* fill_passes=0 filled nothing */
		for (unsigned t = 0; t < s->nr_targets; t++)
			fills_add(f, s->targets[t]);
	if (!ret)
		unsteady_note(f, s);
	return ret;
}

static int run_mode(const struct plan_step *st, struct set_outcome *s,
		    struct fills *f, struct ioc_err *err)
{
	switch (st->mode) {
	case STEP_FIXED:
		return measure_run(&s->mctx, &st->job, &s->fixed, err);
	case STEP_SEARCH: {
		struct search_params sp = {
			.limit_ns = st->latency_limit_ns,
			.stat = st->latency_stat,
			.max_iodepth = st->max_iodepth ? st->max_iodepth : 256,
			.max_numjobs = st->max_numjobs ? st->max_numjobs : 8,
			.plateau = SEARCH_PLATEAU,
			.scope = st->latency_scope,
			.confirm = true, /* the best, and any point that beats it, run twice */
		};
		/* a synchronous engine runs at depth 1 whatever iodepth says
		 * (fio's rule, core/runner_result.c): only numjobs is a
		 * dimension, and depths that all run as 1 would each be a
		 * point, all of them the same */
		if (runner_depth_is_one(&st->job) && sp.max_iodepth > 1) {
			note_once("step %s: ioengine=%s is synchronous: its depth is 1, so the "
				  "search varies numjobs only", st->label, st->job.ioengine);
			sp.max_iodepth = 1;
		}
		return search_run(&st->job, &sp, measure_run, &s->mctx, &s->search, err);
	}
	case STEP_CURVE: {
		struct curve_params cp = {
			.pct = st->points,
			.nr_pct = st->nr_points,
			.arrivals = st->job.rate_process,
			.stat = st->latency_stat,
			.stop_ns = st->stop_latency_ns,
			.reach_tolerance = CURVE_REACH_TOLERANCE,
		};
		return curve_run(&st->job, &cp, measure_run, &s->mctx, &s->curve, err);
	}
	case STEP_PRECONDITION:
		return run_precondition(st, &st->job, s, f, err);
	case STEP_REBUILD:
		return rebuild_step_run(st, s, s->mctx.hooks ? s->mctx.hooks->stop : NULL, err);
	case STEP_APP: /* run_step runs it: no target sets */
		break;
	}
	return err_set(err, EINVAL, "unknown step mode");
}

/* precondition=auto before st on set s: the rounds run st's workload;
 * a search's at PTS's depth (its own are the search's to choose). */
static int pre_mode(const struct plan_step *st, struct set_outcome *s,
		    struct fills *f, struct ioc_err *err)
{
	struct job_spec job;
	int ret;

	if (!auto_precondition(st))
		return 0;
	if (job_spec_copy(&job, &st->job))
		return err_set(err, ENOMEM, "out of memory");
	if (st->mode == STEP_SEARCH) {
		job.iodepth = PTS_IODEPTH;
		job.numjobs = PTS_NUMJOBS;
	}
	ret = run_precondition(st, &job, s, f, err);
	job_spec_free(&job);
	s->preconditioned = true;
	s->call_base = s->mctx.nr_calls;
	return ret;
}

/* s's block devices the step reads (its job or any of its workloads)
 * that no preconditioning of this plan filled, after precondition=auto's:
 * kept for its table and said once each on stderr, before its runs. */
static void note_unwritten(const struct plan_step *st, const struct set_outcome *s,
			   const struct fills *f, const struct plan_run_opts *o,
			   struct step_outcome *out)
{
	const struct job_spec *rd = &st->job;
	for (unsigned w = 0; w < st->nr_wl && !precond_reads_unwritten(rd, true, false); w++)
		rd = &st->wl[w].job;
	for (unsigned t = 0; t < s->nr_targets; t++) {
		const char *path = s->targets[t];
		bool known = false;
		for (unsigned i = 0; i < out->nr_unwritten; i++)
			known |= !strcmp(out->unwritten[i], path);
		if (known || out->nr_unwritten == sizeof(out->unwritten) / sizeof(out->unwritten[0]) ||
		    !precond_target_unwritten(rd, path, fills_has(f, path)))
			continue;
		out->unwritten[out->nr_unwritten++] = path;
		fprintf(o->progress ? o->progress : stderr, "iochar: warning: step '%s': %s: %s\n",
			st->label, path, PRECOND_UNWRITTEN_MSG);
	}
}

/* Set out->sets[out->nr_sets] on size targets from first: its
 * preconditioning, its discipline, the step's mode. */
static int run_set(const struct plan_step *st, unsigned first, unsigned size,
		   const struct plan_run_opts *o, struct fills *f, struct disc_memo *m,
		   struct progress *pr, struct step_outcome *out, struct ioc_err *err)
{
	struct set_outcome *s = &out->sets[out->nr_sets++];
	s->targets = st->job.nr_files ? &st->job.files[first] : NULL;
	s->nr_targets = size;
	s->mctx.targets = s->targets;
	s->mctx.nr_targets = s->nr_targets;
	s->mctx.hooks = o->hooks;
	s->mctx.on_point = on_point;
	s->mctx.on_point_arg = pr;
	s->mctx.dist = o->dist;
	s->mctx.wl = st->wl;
	s->mctx.nr_wl = st->nr_wl;
	int ret = pre_mode(st, s, f, err);
	if (st->mode != STEP_PRECONDITION)
		s->after_unsteady = unsteady_since(f, s);
	if (!ret && st->mode != STEP_PRECONDITION && st->mode != STEP_REBUILD)
		note_unwritten(st, s, f, o, out);
	if (!ret)
		ret = disc_set_choose(st, s, o, m, err);
	if (!ret)
		ret = run_mode(st, s, f, err);
	s->done = ret == 0;
	return ret;
}

struct set_arg {
	const struct plan_step *st;
	const struct plan_run_opts *o;
	struct fills *f;
	struct disc_memo *m;
	struct progress *pr;
	struct step_outcome *out;
};

/* scaling_step_run's set: the first size targets. */
static int run_scaling_set(void *arg, unsigned size, struct ioc_err *err)
{
	struct set_arg *a = arg;
	return run_set(a->st, 0, size, a->o, a->f, a->m, a->pr, a->out, err);
}

/* st's target sets, each run (or a scaling sweep's counts) into out. */
static int run_sets(const struct plan_step *st, const struct plan_run_opts *o,
		    struct fills *f, struct disc_memo *m, struct progress *pr,
		    struct step_outcome *out, struct ioc_err *err)
{
	unsigned sizes[64];
	unsigned nsets = set_sizes(st, sizes);
	bool scaling = st->targets == TARGETS_SCALING && st->job.nr_files;
	int ret = 0;

	/* a scaling sweep adds counts as it goes: room for all it may take
	 * (a set's discipline is pointed at from its mctx: never moved) */
	out->sets = calloc(scaling ? SCALING_MAX_COUNTS : nsets, sizeof(*out->sets));
	if (!out->sets)
		return err_set(err, ENOMEM, "out of memory");
	struct set_arg a = {st, o, f, m, pr, out};
	if (scaling)
		ret = scaling_step_run(out, run_scaling_set, &a, err);
	for (unsigned i = 0; !scaling && i < nsets && !ret; i++)
		ret = run_set(st, set_first(st, i), sizes[i], o, f, m, pr, out, err);
	return ret;
}

static int run_step(const struct plan *p, unsigned idx,
		    const struct plan_run_opts *o, struct fills *f, struct disc_memo *m,
		    struct eta *eta, struct step_outcome *out, struct ioc_err *err)
{
	const struct plan_step *st = &p->steps[idx];
	struct progress pr = {.o = o, .p = p, .step = idx, .eta = eta};
	int ret;

	memset(out, 0, sizeof(*out));
	out->step = st;
	out->index = idx;
	f->step = idx;
	if (st->mode == STEP_APP) /* a database's run: no target sets */
		ret = app_step_run(st, idx, o->out_dir, o->app_capture,
				   o->hooks ? o->hooks->stop : NULL, o->progress != NULL,
				   &out->app, err);
	else
		ret = run_sets(st, o, f, m, &pr, out, err);
	if (ret) {
		out->partial = true;
		snprintf(out->error, sizeof(out->error), "%.*s",
			 (int)sizeof(out->error) - 1, err->msg);
	}
	return ret;
}

static int emit_step(const struct step_outcome *so, const struct plan_run_opts *o,
		     const struct results_dir *rd, bool complete,
		     struct ioc_err *err)
{
	if (o->json)
		step_json_write(so, o->json);
	if (rd)
		return results_write_step(rd, so, complete, err);
	return 0;
}

/* What step i of the estimate took and taught: its time, a search's
 * runs per target set, a fill's rate. */
static void eta_learn(struct eta *eta, unsigned i, const struct step_outcome *so,
		      uint64_t took_ns)
{
	unsigned runs = 0;
	for (unsigned k = 0; k < so->nr_sets; k++) {
		const struct set_outcome *s = &so->sets[k];
		uint64_t fill_ns = 0;
		runs += s->mctx.nr_calls - s->call_base;
		for (unsigned f = 0; f < s->precond.nr_fill; f++)
			fill_ns += s->precond.fill[f].elapsed_ns;
		eta_fill_measured(eta, s->precond.ran.fill_bytes, fill_ns);
	}
	eta_step_done(eta, i, took_ns, so->nr_sets ? (runs + so->nr_sets - 1) / so->nr_sets : 0);
}

/* Step i of p: said, run, written down, its time learnt. */
static int plan_step(const struct plan *p, unsigned i, const struct plan_run_opts *o,
		     const struct results_dir *rd, struct fills *fills, struct disc_memo *m,
		     struct eta *eta, struct environment *env, struct ioc_err *err)
{
	struct step_outcome so;
	if (o->progress) {
		char left[48];
		plan_fmt_left(left, sizeof(left), eta_plan_left_ns(eta, 0));
		fprintf(o->progress, "iochar: step %u of %u: %s (%s; plan: %s)\n", i + 1,
			p->nr_steps, p->steps[i].label, step_mode_name(p->steps[i].mode), left);
		if (p->steps[i].mode == STEP_CURVE && !p->steps[i].job.time_based)
			/* fio would end each run when the file has been read once */
			fprintf(o->progress, "iochar: step '%s': every curve run lasts "
				"runtime=%.3gs (time_based, as vdbench's elapsed=)\n",
				p->steps[i].label, (double)p->steps[i].job.runtime_ns / 1e9);
		if (p->steps[i].mode == STEP_SEARCH && p->steps[i].job.time_based &&
		    !options_is_set(&p->steps[i].job, "time_based"))
			/* the default (plan_expand.c): say it, and how to turn it off */
			fprintf(o->progress, "iochar: step '%s': every search point lasts "
				"runtime=%.3gs (time_based; time_based=0 ends each with its region)\n",
				p->steps[i].label, (double)p->steps[i].job.runtime_ns / 1e9);
	}
	eta_step_start(eta, i);
	uint64_t t0 = clock_ns();
	int ret = run_step(p, i, o, fills, m, eta, &so, err);
	eta_learn(eta, i, &so, clock_ns() - t0);
	environment_refresh_targets(env); /* the step may have made them */
	struct ioc_err werr = {0};
	int wret = emit_step(&so, o, rd, !ret && i + 1 == p->nr_steps, &werr);
	if (!rd && o->table) {
		step_table_header(o->table, p);
		step_table_write(&so, o->table);
	}
	step_outcome_free(&so);
	if (!ret && wret) {
		*err = werr;
		ret = wret;
	}
	return ret;
}

int plan_run_check(const struct plan *p, const struct plan_run_opts *o,
		   struct ioc_err *err)
{
	int ret = plan_validate(p, err);
	for (unsigned i = 0; i < p->nr_steps && !ret; i++)
		if ((ret = discipline_opt_check(&o->discipline, &p->steps[i].job, err)))
			err_prefix(err, "step '%s'", p->steps[i].label);
	return ret;
}

int plan_dry_run(const struct plan *p, const struct plan_run_opts *o,
		 struct eta *eta, struct ioc_err *err)
{
	struct results_dir rd;
	int ret;

	eta_init(eta, NULL, 0);
	if ((ret = plan_run_check(p, o, err)))
		return ret;
	if (o->out_dir && (ret = results_check(&rd, o->out_dir, p, NULL, o->resume, err)))
		return ret;
	if (plan_eta(p, eta))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < p->nr_steps; i++) /* as plan_run skips them */
		if (o->out_dir && o->resume && results_step_done(&rd, i))
			eta_step_done(eta, i, 0, 0);
	return 0;
}

int plan_run(const struct plan *p, const struct plan_run_opts *o,
	     struct ioc_err *err)
{
	struct results_dir rd;
	struct environment env;
	const char *paths[JOB_MAX_FILES];
	unsigned nr_paths = 0;
	char *done = NULL, **host_envs = NULL;
	struct fills fills = {.n = 0};
	struct disc_memo *memo = NULL;
	struct eta own, *eta = o->eta ? o->eta : &own;
	int ret;

	eta_init(eta, NULL, 0);
	if ((ret = plan_run_check(p, o, err)))
		return ret;
	if (plan_eta(p, eta))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < p->nr_steps; i++)
		for (unsigned f = 0; f < p->steps[i].job.nr_files && nr_paths < JOB_MAX_FILES; f++)
			paths[nr_paths++] = p->steps[i].job.files[f];
	if (environment_collect(&env, paths, nr_paths))
		return err_set(err, ENOMEM, "out of memory");
	/* every host's own, once per plan, before any step: rank 0's
	 * results.json lists them in "hosts". A description, not a figure:
	 * without it the plan still runs. */
	struct ioc_err eerr = {0};
	if (o->dist && dist_gather_env(o->dist, &env, &host_envs, &eerr) && o->progress)
		fprintf(o->progress, "iochar: warning: %s\n", eerr.msg);
	if (o->out_dir && (ret = results_open(&rd, o->out_dir, p, &env, o->resume, err)))
		goto out;
	if (o->out_dir) {
		rd.dist = o->dist;
		rd.host_envs = host_envs;
	}
	/* on many hosts, rank 0's results directory says what is left to do */
	if (!(done = calloc(p->nr_steps ? p->nr_steps : 1, 1)) ||
	    !(memo = calloc(1, sizeof(*memo)))) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < p->nr_steps; i++)
		done[i] = o->out_dir && o->resume && results_step_done(&rd, i);
	if (o->dist && (ret = dist_share(o->dist, done, p->nr_steps ? p->nr_steps : 1, err)))
		goto out;
	for (unsigned i = 0; i < p->nr_steps && !ret; i++) {
		if (done[i]) {
			eta_step_done(eta, i, 0, 0);
			if (o->progress)
				fprintf(o->progress, "iochar: step %u of %u, %s: done earlier, kept\n",
					i + 1, p->nr_steps, p->steps[i].label);
			continue;
		}
		ret = plan_step(p, i, o, o->out_dir ? &rd : NULL, &fills, memo, eta, &env, err);
	}
	if (o->out_dir && !ret)
		ret = results_finish(&rd, err);
	if (o->out_dir && o->table)
		results_print_table(&rd, o->table);
out:
	free(eta->steps);
	eta_init(eta, NULL, 0); /* nothing left to show */
	free(done);
	free(memo);
	dist_env_free(host_envs, o->dist ? dist_size(o->dist) : 0);
	environment_free(&env);
	return ret;
}

/* step_json.c - one plan step's outcome as JSON (an element of
 * results.json "steps", and what `iochar search|curve --output-format=json`
 * prints). Points carry the same figures as `iochar run`'s read/write/total
 * blocks, plus each target's total and the per-second series. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "charz/outcome.h"
#include "output/json_parts.h"
#include "base/replay_verdict.h"

/* "replay": the run JSON's member (docs/output.md), its one job. */
static void emit_replay(struct jw *w, const struct point_replay *r)
{
	jw_key(w, "replay");
	jw_array_begin(w);
	jw_object_begin(w);
	jw_kv_uint(w, "job", 0);
	jw_kv_string(w, "name", r->name);
	jw_kv_string(w, "read_iolog", r->read_iolog);
	jw_kv_bool(w, "timed", r->timed);
	jw_kv_uint(w, "ios_timed", r->ios);
	jw_kv_uint(w, "ios_behind", r->behind);
	jw_kv_uint(w, "behind_limit_ns", REPLAY_BEHIND_NS);
	json_emit_lat_as(w, "lag", &r->lag);
	json_emit_lat_as(w, "tool_lag", &r->tool_lag);
	json_emit_lat_as(w, "lat_ns", &r->lat);
	const char *v = replay_verdict(r->timed, r->lag.pct[PCT_P99]);
	jw_key(w, "verdict");
	if (v)
		jw_string(w, v);
	else
		jw_null(w);
	jw_object_end(w);
	jw_array_end(w);
}

/* A search point's marks, each only when set. */
static void emit_search_marks(struct jw *w, const struct point *p)
{
	if (p->repeat_missed)
		jw_kv_bool(w, "repeat_missed", true);
	if (p->confirmed) /* run twice, inside both times: these the lower run */
		jw_kv_bool(w, "confirmed", true);
	if (p->ended_early) /* well under runtime: not time_based, region done */
		jw_kv_bool(w, "ended_early", true);
}

/* A point's members, its object left open (emit_point closes it). */
static void emit_point_members(struct jw *w, const struct point *p,
			       const struct measure_call *c, const struct set_outcome *s)
{
	jw_object_begin(w);
	jw_kv_uint(w, "iodepth", p->iodepth);
	jw_kv_uint(w, "numjobs", p->numjobs);
	jw_kv_uint(w, "rate_iops", p->rate_iops);
	jw_kv_uint(w, "elapsed_ns", p->elapsed_ns);
	jw_kv_bool(w, "partial", p->partial);
	jw_kv_bool(w, "inside", p->inside);
	jw_kv_uint(w, "runs", p->runs);
	emit_search_marks(w, p);
	if (p->rate_iops) {
		jw_kv_uint(w, "seconds", p->nr_sec);
		jw_kv_uint(w, "seconds_on_rate", p->sec_on_rate);
	}
	/* as a run's: a rate-limited point's lat_ns is its response time */
	jw_kv_string(w, "latency_origin", p->s.total.paced ? "scheduled" : "submit");
	jw_kv_bool(w, "tool_limited", p->tool_limited);
	if (p->tool_limited)
		jw_kv_string(w, "tool_limited_reason", p->tool_limited_reason);
	if (p->replay.on)
		emit_replay(w, &p->replay);
	/* the headline figures at the top, as the search output promises */
	jw_kv_double(w, "iops", p->s.total.iops);
	jw_kv_double(w, "bw_bytes", p->s.total.bw_bytes);
	json_emit_lat(w, &p->s.total.lat);
	json_emit_dir(w, "read", &p->s.dir[DIR_READ]);
	json_emit_dir(w, "write", &p->s.dir[DIR_WRITE]);
	json_emit_dir(w, "total", &p->s.total);
	if (p->judged) { /* the worst of the workloads' judged latencies */
		jw_kv_double(w, "judged_lat_mean_ns", p->judged_ns[LAT_STAT_MEAN]);
		jw_kv_double(w, "judged_lat_p99_ns", p->judged_ns[LAT_STAT_P99]);
	}
	if (c) {
		jw_key(w, "per_target");
		jw_array_begin(w);
		unsigned n = c->vd_labels ? c->nr_vds : s->nr_targets;
		for (unsigned t = 0; t < n; t++) {
			jw_object_begin(w);
			jw_kv_string(w, "target", c->vd_labels ? c->vd_labels[t] : s->targets[t]);
			if (c->vd_amps)
				jw_kv_double(w, "member_ios_per_host_io", c->vd_amps[t]);
			json_emit_dir(w, "total", &c->per_target[t]);
			jw_object_end(w);
		}
		jw_array_end(w);
		step_wl_json(w, c);
		if (c->vd_json) { /* the same "vd" array as a run's */
			jw_kv_double(w, "member_ios_per_host_io", c->vd_amp);
			jw_key(w, "vd");
			jw_raw(w, c->vd_json, strlen(c->vd_json));
		}
		if (c->nr_hosts) {
			jw_kv_uint(w, "start_skew_ns", c->start_skew_ns);
			jw_key(w, "per_host");
			jw_array_begin(w);
			for (unsigned h = 0; h < c->nr_hosts; h++) {
				jw_object_begin(w);
				jw_kv_string(w, "host", c->host_names[h]);
				jw_kv_uint(w, "rank", h);
				json_emit_dir(w, "total", &c->per_host[h]);
				jw_object_end(w);
			}
			jw_array_end(w);
		}
		jw_key(w, "intervals");
		jw_array_begin(w);
		for (unsigned i = 0; i < c->nr_iv; i++) {
			jw_object_begin(w);
			jw_kv_uint(w, "t_s", i);
			jw_kv_double(w, "iops", c->iv_iops[i]);
			jw_kv_double(w, "lat_mean_ns", c->iv_lat_mean_ns[i]);
			jw_object_end(w);
		}
		jw_array_end(w);
	}
}

static void emit_point(struct jw *w, const struct point *p,
		       const struct measure_call *c, const struct set_outcome *s)
{
	emit_point_members(w, p, c, s);
	jw_object_end(w);
}

/* The measure call of a point of the step's mode (after any
 * preconditioning of the set), or of its preconditioning (pre). */
static const struct measure_call *call_of(const struct set_outcome *s,
					  const struct point *p, bool pre)
{
	unsigned i = p->call + (pre ? 0 : s->call_base);
	return i < s->mctx.nr_calls ? &s->mctx.calls[i] : NULL;
}

static void emit_search(struct jw *w, const struct step_outcome *o,
			const struct set_outcome *s)
{
	const struct search_result *r = &s->search;
	jw_key(w, "best");
	if (r->found)
		emit_point(w, &r->points[r->best], call_of(s, &r->points[r->best], false), s);
	else
		jw_null(w);
	/* the best run again: confirmed when the repeat met the limit too;
	 * "repeat" holds the other of the two runs (the first, when the
	 * repeat scored less and became "best": best_run) */
	jw_kv_bool(w, "confirmed", r->confirmed);
	jw_key(w, "repeat");
	if (r->confirmed)
		emit_point(w, &r->repeat, call_of(s, &r->repeat, false), s);
	else
		jw_null(w);
	jw_kv_double(w, "spread", r->spread);
	/* "best" is the lower-scoring of the two runs: which one it was,
	 * and whether the spread is over SEARCH_UNSTEADY */
	if (r->confirmed) {
		jw_kv_string(w, "best_run", r->repeat_first ? "repeat" : "first");
		jw_kv_bool(w, "unsteady", r->unsteady);
	}
	jw_kv_uint(w, "dropped_by_repeat", r->nr_dropped);
	jw_kv_uint(w, "remeasured", r->nr_remeasured);
	jw_kv_uint(w, "repeats", r->nr_repeats);
	/* none inside: the point nearest the limit (lowest latency) */
	if (!r->found && r->nr_points) {
		const struct point *c = step_search_closest(o, s);
		jw_key(w, "closest");
		if (c)
			emit_point(w, c, NULL, s);
		else
			jw_null(w);
	}
	/* each point; one run twice (confirmed or repeat_missed) has its
	 * other run in "other_run" */
	jw_key(w, "points");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_points; i++) {
		const struct point *p = &r->points[i];
		emit_point_members(w, p, call_of(s, p, false), s);
		if (r->again && (p->confirmed || p->repeat_missed)) {
			jw_key(w, "other_run");
			emit_point(w, &r->again[i], NULL, s);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
}

static void emit_curve(struct jw *w, const struct set_outcome *s)
{
	const struct curve_result *r = &s->curve;
	jw_key(w, "max");
	emit_point(w, &r->max, call_of(s, &r->max, false), s);
	jw_key(w, "max_again");
	if (r->remax.elapsed_ns)
		emit_point(w, &r->remax, call_of(s, &r->remax, false), s);
	else
		jw_null(w);
	jw_kv_double(w, "top_reached_iops", r->top_reached_iops);
	/* against the first max, the one the curve's pct are of */
	jw_kv_double(w, "max_underestimated", r->underestimated);
	jw_kv_double(w, "max_best_iops", r->best_max_iops);
	jw_kv_bool(w, "stopped", r->stopped);
	jw_key(w, "curve");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_points; i++) {
		const struct curve_point *cp = &r->points[i];
		jw_object_begin(w);
		jw_kv_uint(w, "pct", cp->pct);
		jw_kv_double(w, "asked_iops", cp->asked_iops);
		jw_kv_bool(w, "reached", cp->reached);
		jw_key(w, "point");
		emit_point(w, &cp->p, call_of(s, &cp->p, false), s);
		jw_object_end(w);
	}
	jw_array_end(w);
}

/* Several targets judged one by one: the total's window verdict (the
 * window_* keys are its figures), each target's rounds and window, and
 * those not steady, by name. */
static void emit_precond_targets(struct jw *w, const struct set_outcome *s)
{
	const struct precond_result *r = &s->precond;
	jw_kv_bool(w, "total_steady", r->verdict.steady);
	jw_key(w, "per_target_window");
	jw_array_begin(w);
	for (unsigned t = 0; t < r->nr_targets; t++) {
		const struct steady_verdict *v = &r->target_verdict[t];
		const double *iops = precond_target_rounds(r, t);
		jw_object_begin(w);
		jw_kv_string(w, "target", t < s->nr_targets ? s->targets[t] : "");
		jw_key(w, "rounds_iops");
		jw_array_begin(w);
		for (unsigned i = 0; i < r->nr_rounds; i++)
			jw_double(w, iops[i]);
		jw_array_end(w);
		jw_kv_bool(w, "steady", v->steady);
		jw_kv_double(w, "window_average_iops", v->average);
		jw_kv_double(w, "window_excursion", v->excursion);
		jw_kv_double(w, "window_slope", v->slope);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "unsteady_targets");
	jw_array_begin(w);
	for (unsigned t = 0; t < r->nr_targets && t < s->nr_targets; t++)
		if (!r->target_verdict[t].steady)
			jw_string(w, s->targets[t]);
	jw_array_end(w);
}

static void emit_precond(struct jw *w, const struct set_outcome *s)
{
	const struct precond_result *r = &s->precond;
	jw_key(w, "ran");
	jw_object_begin(w);
	jw_kv_string(w, "rw", rw_name(r->ran.rw));
	jw_kv_uint(w, "rwmixread", r->ran.rwmixread);
	jw_kv_uint(w, "bs", r->ran.bs);
	jw_kv_uint(w, "iodepth", r->ran.iodepth);
	jw_kv_uint(w, "numjobs", r->ran.numjobs);
	jw_kv_uint(w, "round_ns", r->ran.round_ns);
	jw_kv_uint(w, "fill_passes", r->ran.fill_passes);
	jw_kv_uint(w, "fill_bs", r->ran.fill_bs);
	jw_kv_uint(w, "fill_iodepth", r->ran.fill_iodepth);
	jw_kv_uint(w, "fill_bytes", r->ran.fill_bytes);
	jw_object_end(w);
	if (r->filled_by_step) /* the fill skipped: that step's covered these targets */
		jw_kv_uint(w, "fill_skipped_filled_by_step", r->filled_by_step);
	jw_key(w, "fill");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_fill; i++)
		emit_point(w, &r->fill[i], call_of(s, &r->fill[i], true), s);
	jw_array_end(w);
	jw_key(w, "rounds_iops");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_rounds; i++)
		jw_double(w, r->round_iops[i]);
	jw_array_end(w);
	if (r->nr_rounds) { /* what the rounds did, beside what they were asked */
		jw_key(w, "last_round");
		emit_point(w, &r->last_round, NULL, s);
	}
	jw_kv_uint(w, "window_rounds", r->window);
	jw_kv_bool(w, "steady", r->steady);
	jw_kv_uint(w, "steady_round", r->steady_round);
	jw_kv_double(w, "window_average_iops", r->verdict.average);
	jw_kv_double(w, "window_excursion", r->verdict.excursion);
	jw_kv_double(w, "window_slope", r->verdict.slope);
	if (r->nr_targets)
		emit_precond_targets(w, s);
}

static void emit_set(struct jw *w, const struct step_outcome *o,
		     const struct set_outcome *s)
{
	jw_object_begin(w);
	jw_key(w, "targets");
	jw_array_begin(w);
	for (unsigned t = 0; t < s->nr_targets; t++)
		jw_string(w, s->targets[t]);
	jw_array_end(w);
	jw_kv_bool(w, "done", s->done);
	if (s->after_unsteady) /* its figures are an unsteady device's */
		jw_kv_uint(w, "after_no_steady_state", s->after_unsteady);
	if (s->disc_decided && s->disc.how != DISC_HOW_NONE) { /* something chosen */
		jw_key(w, "discipline");
		discipline_json(&s->disc, w);
	}
	if (s->preconditioned && o->step->mode != STEP_PRECONDITION) {
		jw_key(w, "precondition");
		jw_object_begin(w);
		emit_precond(w, s);
		jw_object_end(w);
	}
	switch (o->step->mode) {
	case STEP_FIXED:
		if (s->done) {
			jw_key(w, "fixed");
			emit_point(w, &s->fixed, call_of(s, &s->fixed, false), s);
		}
		break;
	case STEP_SEARCH:
		emit_search(w, o, s);
		break;
	case STEP_CURVE:
		if (s->curve.nr_points || s->done)
			emit_curve(w, s);
		break;
	case STEP_PRECONDITION:
		emit_precond(w, s);
		break;
	case STEP_APP: /* no target sets: the step's "app" member */
		break;
	case STEP_REBUILD:
		if (!s->done)
			break;
		rebuild_sweep_json(s->rebuild, w);
		/* the foreground as the other modes' points: the baseline,
		 * then one per rate, in "rates"' order */
		jw_key(w, "points");
		jw_array_begin(w);
		for (unsigned k = 0; k <= s->rebuild->n; k++)
			emit_point(w, &s->rebuild_points[k], NULL, s);
		jw_array_end(w);
		break;
	}
	jw_object_end(w);
}

static double mean_of(const double *x, unsigned n)
{
	double sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / n : 0;
}

static void emit_scaling_point(struct jw *w, const struct step_outcome *o,
			       const struct set_outcome *s)
{
	const double *x = rw_is_random(o->step->job.rw) ? s->rep_iops : s->rep_bw;
	struct knee_count k;
	knee_count_set(&k, s->nr_targets, x, s->nr_rep);
	jw_object_begin(w);
	jw_kv_uint(w, "targets", s->nr_targets);
	jw_kv_double(w, "iops", mean_of(s->rep_iops, s->nr_rep));
	jw_kv_double(w, "bw_bytes", mean_of(s->rep_bw, s->nr_rep));
	jw_kv_uint(w, "runs", s->nr_rep);
	jw_key(w, "values"); /* the metric's, run by run */
	jw_array_begin(w);
	for (unsigned r = 0; r < s->nr_rep; r++)
		jw_double(w, x[r]);
	jw_array_end(w);
	jw_kv_double(w, "stdev", k.sd);
	jw_kv_double(w, "lat_ns", mean_of(s->rep_lat_ns, s->nr_rep));
	jw_object_end(w);
}

static void emit_scaling(struct jw *w, const struct step_outcome *o)
{
	const struct knee_result *r = &o->knee;
	jw_key(w, "scaling");
	jw_object_begin(w);
	jw_kv_string(w, "metric", rw_is_random(o->step->job.rw) ? "iops" : "bw_bytes");
	jw_kv_string(w, "latency_stat", lat_stat_name(o->step->latency_stat));
	jw_kv_uint(w, "repeats", o->step->scaling_repeats);
	jw_key(w, "points");
	jw_array_begin(w);
	for (unsigned i = 0; i < o->nr_sets; i++) /* by count: scaling_step.c */
		emit_scaling_point(w, o, &o->sets[i]);
	jw_array_end(w);
	jw_kv_string(w, "verdict", knee_verdict_name(r->verdict));
	jw_key(w, "saturation_targets"); /* the knee: where it stops growing */
	if (r->verdict == KNEE_FOUND)
		jw_uint(w, r->knee);
	else
		jw_null(w);
	jw_key(w, "decided_between"); /* the two counts the verdict rests on */
	jw_array_begin(w);
	if (r->lo) {
		jw_uint(w, r->lo);
		jw_uint(w, r->hi);
	}
	jw_array_end(w);
	jw_kv_double(w, "gain", r->lo ? r->gain : NAN);
	jw_kv_double(w, "gain_band", r->lo ? r->band : NAN);
	jw_kv_double(w, "share", r->lo ? r->share : NAN);
	jw_kv_uint(w, "devices", o->nr_devices);
	jw_kv_string(w, "device_names", o->devices);
	jw_kv_string(w, "message", o->scaling_msg);
	jw_object_end(w);
}

int step_json_write(const struct step_outcome *o, FILE *f)
{
	const struct plan_step *st = o->step;
	struct jw w;

	jw_init(&w, f, 2);
	jw_object_begin(&w);
	jw_kv_uint(&w, "index", o->index);
	jw_kv_string(&w, "section", st->section);
	jw_kv_string(&w, "label", st->label);
	jw_kv_string(&w, "mode", step_mode_name(st->mode));
	jw_kv_string(&w, "targets_use", target_use_name(st->targets));
	jw_kv_uint(&w, "latency_limit_ns", st->latency_limit_ns);
	jw_kv_string(&w, "latency_stat", lat_stat_name(st->latency_stat));
	jw_kv_string(&w, "latency_scope", lat_scope_name(st->latency_scope));
	jw_key(&w, "options");
	json_emit_job(&w, &st->job);
	if (st->nr_wl) { /* a multi-workload step: what each one ran */
		jw_key(&w, "workloads");
		jw_array_begin(&w);
		for (unsigned k = 0; k < st->nr_wl; k++) {
			jw_object_begin(&w);
			jw_kv_string(&w, "workload", st->wl[k].name);
			jw_kv_string(&w, "latency_judge", wl_judge_name(st->wl[k].judge));
			jw_key(&w, "options");
			json_emit_job(&w, &st->wl[k].job);
			jw_object_end(&w);
		}
		jw_array_end(&w);
	}
	jw_kv_bool(&w, "partial", o->partial);
	jw_key(&w, "error");
	if (o->error[0])
		jw_string(&w, o->error);
	else
		jw_null(&w);
	/* one target set (the common case of search and curve): its findings
	 * at the top too, so scripts need not dig */
	if (o->nr_sets == 1 && st->mode == STEP_SEARCH)
		emit_search(&w, o, &o->sets[0]);
	jw_key(&w, "sets");
	jw_array_begin(&w);
	for (unsigned i = 0; i < o->nr_sets; i++)
		emit_set(&w, o, &o->sets[i]);
	jw_array_end(&w);
	if (st->targets == TARGETS_SCALING)
		emit_scaling(&w, o);
	if (o->app)
		app_step_json(&w, o->app);
	jw_object_end(&w);
	return jw_finish(&w);
}

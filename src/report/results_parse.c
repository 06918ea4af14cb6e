/* results_parse.c - iochar's JSON trees (a results.json, one steps/NNN.json,
 * a run JSON) into the structs of results_model.h. Every member the report
 * uses is checked for presence and type, so a damaged file is refused with
 * the member that is wrong, never half drawn. Layouts: docs/output.md. */
#include "report/results_parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/format.h"
#include "base/option.h"
#include "report/results_json.h"

#define WHERE_MAX 256

/* A latency-shaped block (lat_ns, lag, service_latency); *have says
 * whether an optional one was there. */
int results_parse_lat(const struct rj_ctx *pc, json_object *o, const char *key,
		      bool required, struct rs_lat *l, bool *have)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *v = rj_member(pc, o, key, json_type_object, required, &ret);
	*have = v != NULL;
	if (!v)
		return ret;
	struct rj_ctx c = rj_child(pc, key, -1, buf, sizeof(buf));
	if ((ret = rj_double(&c, v, "mean", true, &l->mean)) ||
	    (ret = rj_double(&c, v, "stdev", true, &l->stdev)) ||
	    (ret = rj_u64(&c, v, "min", true, &l->min)) ||
	    (ret = rj_u64(&c, v, "max", true, &l->max)))
		return ret;
	for (int i = 0; i < RS_NR_PCT; i++)
		if ((ret = rj_u64(&c, v, rs_pct_key[i], true, &l->pct[i])))
			return ret;
	return 0;
}

int results_parse_dir(const struct rj_ctx *pc, json_object *o, const char *key,
		     struct rs_dir *d)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *v = rj_member(pc, o, key, json_type_object, true, &ret);
	if (!v)
		return ret;
	struct rj_ctx c = rj_child(pc, key, -1, buf, sizeof(buf));
	if ((ret = rj_u64(&c, v, "ios", true, &d->ios)) ||
	    (ret = rj_u64(&c, v, "bytes", true, &d->bytes)) ||
	    (ret = rj_double(&c, v, "iops", true, &d->iops)) ||
	    (ret = rj_double(&c, v, "bw_bytes", true, &d->bw_bytes)))
		return ret;
	bool have;
	if ((ret = results_parse_lat(&c, v, "lat_ns", true, &d->lat, &have)) ||
	    (ret = results_parse_lat(&c, v, "lag", false, &d->lag, &d->has_lag)) ||
	    (ret = results_parse_lat(&c, v, "tool_lag", false, &d->tool_lag, &d->has_tool_lag)))
		return ret;
	return results_parse_lat(&c, v, "service_latency", false, &d->service, &d->has_service);
}

int results_parse_tool_limited(const struct rj_ctx *c, json_object *o,
			       struct rs_point *p)
{
	int ret = rj_bool(c, o, "tool_limited", false, &p->tool_limited);
	if (ret || !p->tool_limited)
		return ret;
	return rj_str(c, o, "tool_limited_reason", false, &p->tool_limited_reason);
}

/* A step point's "intervals": [{t_s, iops, lat_mean_ns}]. */
static int parse_step_intervals(const struct rj_ctx *pc, json_object *o,
				struct rs_point *p)
{
	char buf[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(pc, o, "intervals", false, &n, &ret);
	if (!a)
		return ret;
	p->iv = rj_calloc(pc, n, sizeof(*p->iv), &ret);
	if (!p->iv)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx c = rj_child(pc, "intervals", (int)i, buf, sizeof(buf));
		if ((ret = rj_double(&c, e, "iops", true, &p->iv[i].iops)) ||
		    (ret = rj_double(&c, e, "lat_mean_ns", true, &p->iv[i].lat_mean_ns)))
			return ret;
		p->nr_iv = (unsigned)i + 1;
	}
	return 0;
}

/* A rate-limited point's "seconds" and "seconds_on_rate", together or
 * not at all; the rate asked of its workers together (a curve point's
 * own "asked_iops" overrides it). */
static int parse_seconds(const struct rj_ctx *c, json_object *o, struct rs_point *p)
{
	int ret;
	p->asked_iops = (double)p->rate_iops * p->numjobs;
	p->has_sec = json_object_object_get_ex(o, "seconds", NULL);
	if (!p->has_sec)
		return 0;
	if ((ret = rj_uint(c, o, "seconds", true, &p->nr_sec)) ||
	    (ret = rj_uint(c, o, "seconds_on_rate", true, &p->sec_on_rate)))
		return ret;
	if (p->sec_on_rate > p->nr_sec)
		return rj_fail(c, "seconds_on_rate", "more than \"seconds\"");
	return 0;
}

/* A workloads= step's judged latencies, both or neither. */
static int parse_judged(const struct rj_ctx *c, json_object *o, struct rs_point *p)
{
	int ret;

	p->has_judged = json_object_object_get_ex(o, "judged_lat_mean_ns", NULL);
	if (!p->has_judged)
		return 0;
	if ((ret = rj_double(c, o, "judged_lat_mean_ns", true, &p->judged_mean_ns)))
		return ret;
	return rj_double(c, o, "judged_lat_p99_ns", true, &p->judged_p99_ns);
}

static int parse_point_member(const struct rj_ctx *pc, json_object *o,
			      const char *key, struct rs_point *p, bool *have);

/* A search point run twice: its other run ("other_run"). */
static int parse_other_run(const struct rj_ctx *c, json_object *o, struct rs_point *p)
{
	bool have;
	int ret;

	if (!json_object_object_get_ex(o, "other_run", NULL))
		return 0;
	if (!(p->other = rj_calloc(c, 1, sizeof(*p->other), &ret)))
		return ret;
	return parse_point_member(c, o, "other_run", p->other, &have);
}

static int parse_point(const struct rj_ctx *c, json_object *o, struct rs_point *p)
{
	int ret;
	if (!json_object_is_type(o, json_type_object))
		return rj_fail(c, NULL, "expected an object");
	if ((ret = rj_uint(c, o, "iodepth", true, &p->iodepth)) ||
	    (ret = rj_uint(c, o, "numjobs", true, &p->numjobs)) ||
	    (ret = rj_u64(c, o, "rate_iops", false, &p->rate_iops)) ||
	    (ret = rj_u64(c, o, "elapsed_ns", true, &p->elapsed_ns)) ||
	    (ret = rj_bool(c, o, "partial", false, &p->partial)) ||
	    (ret = rj_bool(c, o, "inside", false, &p->inside)) ||
	    (ret = rj_bool(c, o, "repeat_missed", false, &p->repeat_missed)) ||
	    (ret = rj_bool(c, o, "confirmed", false, &p->confirmed)) ||
	    (ret = rj_bool(c, o, "ended_early", false, &p->ended_early)) ||
	    (ret = parse_judged(c, o, p)) ||
	    (ret = parse_other_run(c, o, p)) ||
	    (ret = parse_seconds(c, o, p)) ||
	    (ret = results_parse_dir(c, o, "read", &p->read)) ||
	    (ret = results_parse_dir(c, o, "write", &p->write)) ||
	    (ret = results_parse_dir(c, o, "total", &p->total)) ||
	    (ret = results_parse_tool_limited(c, o, p)) ||
	    (ret = results_parse_replay(c, o, p)) ||
	    (ret = results_parse_hosts(c, o, false, p)) ||
	    (ret = results_parse_point_targets(c, o, p)))
		return ret;
	return parse_step_intervals(c, o, p);
}

static int parse_point_member(const struct rj_ctx *pc, json_object *o,
			      const char *key, struct rs_point *p, bool *have)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *v = rj_member(pc, o, key, json_type_object, false, &ret);
	*have = false;
	if (!v)
		return ret;
	struct rj_ctx c = rj_child(pc, key, -1, buf, sizeof(buf));
	*have = true;
	return parse_point(&c, v, p);
}

static int parse_point_array(const struct rj_ctx *pc, json_object *o,
			     const char *key, bool required, struct rs_point **pts,
			     unsigned *nr)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *a = rj_member(pc, o, key, json_type_array, required, &ret);
	if (!a)
		return ret;
	size_t n = json_object_array_length(a);
	/* one spare slot: a search's best appended when it is not among them */
	*pts = rj_calloc(pc, n + 1, sizeof(**pts), &ret);
	if (!*pts)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct rj_ctx c = rj_child(pc, key, (int)i, buf, sizeof(buf));
		*nr = (unsigned)i + 1;
		if ((ret = parse_point(&c, json_object_array_get_idx(a, i), &(*pts)[i])))
			return ret;
	}
	return 0;
}

static int parse_strv(const struct rj_ctx *pc, json_object *o, const char *key,
		      bool required, char ***v, unsigned *nr)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *a = rj_member(pc, o, key, json_type_array, required, &ret);
	if (!a)
		return ret;
	size_t n = json_object_array_length(a);
	*v = rj_calloc(pc, n, sizeof(**v), &ret);
	if (!*v)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx c = rj_child(pc, key, (int)i, buf, sizeof(buf));
		if (!json_object_is_type(e, json_type_string))
			return rj_fail(&c, NULL, "expected a string");
		(*v)[i] = strdup(json_object_get_string(e));
		if (!(*v)[i])
			return rj_oom(&c);
		*nr = (unsigned)i + 1;
	}
	return 0;
}

static bool same_point(const struct rs_point *a, const struct rs_point *b)
{
	return a->iodepth == b->iodepth && a->numjobs == b->numjobs &&
	       a->total.ios == b->total.ios && a->elapsed_ns == b->elapsed_ns;
}


/* A search's "best_run": which of the best's two runs the best is (the
 * lower-scoring one); "first" when absent (older files reported the
 * first run). */
static int parse_best_run(const struct rj_ctx *c, json_object *o, bool *is_repeat)
{
	char *run = NULL;
	int ret = rj_str(c, o, "best_run", false, &run);

	*is_repeat = false;
	if (!ret && run) {
		if (!strcmp(run, "repeat"))
			*is_repeat = true;
		else if (strcmp(run, "first"))
			ret = rj_fail(c, "best_run", "is \"first\" or \"repeat\"");
	}
	free(run);
	return ret;
}

static int parse_search(const struct rj_ctx *c, json_object *o, struct rs_tset *ts)
{
	struct rs_point best;
	bool have = false;
	int ret;

	ts->best = -1;
	memset(&best, 0, sizeof(best));
	ret = parse_point_array(c, o, "points", true, &ts->points, &ts->nr_points);
	if (!ret)
		ret = parse_point_member(c, o, "best", &best, &have);
	/* the confirmation: absent from older files */
	if (!ret && !(ret = rj_bool(c, o, "confirmed", false, &ts->confirmed)) &&
	    !(ret = rj_double(c, o, "spread", false, &ts->spread)) &&
	    !(ret = rj_uint(c, o, "dropped_by_repeat", false, &ts->nr_dropped)) &&
	    !(ret = rj_bool(c, o, "unsteady", false, &ts->unsteady)) &&
	    !(ret = parse_best_run(c, o, &ts->best_is_repeat)))
		ret = parse_point_member(c, o, "repeat", &ts->repeat, &ts->has_repeat);
	if (ret || !have) {
		rs_point_free(&best);
		return ret;
	}
	for (unsigned i = 0; i < ts->nr_points; i++)
		if (same_point(&ts->points[i], &best)) {
			ts->best = (int)i;
			rs_point_free(&best);
			return 0;
		}
	ts->points[ts->nr_points] = best; /* the spare slot */
	ts->best = (int)ts->nr_points++;
	return 0;
}

static int parse_curve(const struct rj_ctx *pc, json_object *o, struct rs_tset *ts)
{
	char buf[WHERE_MAX];
	int ret = parse_point_member(pc, o, "max", &ts->max, &ts->has_max);
	if (!ret)
		ret = parse_point_member(pc, o, "max_again", &ts->max_again, &ts->has_max_again);
	if (!ret)
		ret = rj_double(pc, o, "top_reached_iops", false, &ts->top_reached_iops);
	if (!ret)
		ret = rj_double(pc, o, "max_underestimated", false, &ts->max_underestimated);
	if (ret)
		return ret;
	size_t n;
	json_object *a = rj_objects(pc, o, "curve", false, &n, &ret);
	if (!a)
		return ret;
	ts->curve = rj_calloc(pc, n, sizeof(*ts->curve), &ret);
	if (!ts->curve)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx c = rj_child(pc, "curve", (int)i, buf, sizeof(buf));
		struct rs_curve_point *cp = &ts->curve[i];
		bool have = false;
		ts->nr_curve = (unsigned)i + 1;
		if ((ret = rj_uint(&c, e, "pct", true, &cp->pct)) ||
		    (ret = rj_double(&c, e, "asked_iops", true, &cp->asked_iops)) ||
		    (ret = rj_bool(&c, e, "reached", true, &cp->reached)) ||
		    (ret = parse_point_member(&c, e, "point", &cp->p, &have)))
			return ret;
		if (!have)
			return rj_fail(&c, "point", "missing");
		cp->p.asked_iops = cp->asked_iops; /* its point's rate_iops per worker, rounded */
	}
	return 0;
}

static int parse_precond(const struct rj_ctx *pc, json_object *o, struct rs_tset *ts)
{
	char buf[WHERE_MAX];
	int ret = parse_point_array(pc, o, "fill", false, &ts->points, &ts->nr_points);
	if (!ret)
		ret = rj_bool(pc, o, "steady", false, &ts->steady);
	if (ret)
		return ret;
	json_object *a = rj_member(pc, o, "rounds_iops", json_type_array, false, &ret);
	if (!a)
		return ret;
	size_t n = json_object_array_length(a);
	ts->rounds_iops = rj_calloc(pc, n, sizeof(double), &ret);
	if (!ts->rounds_iops)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx c = rj_child(pc, "rounds_iops", (int)i, buf, sizeof(buf));
		if (!e)
			ts->rounds_iops[i] = NAN;
		else if (json_object_is_type(e, json_type_double) ||
			 json_object_is_type(e, json_type_int))
			ts->rounds_iops[i] = json_object_get_double(e);
		else
			return rj_fail(&c, NULL, "expected a number");
		ts->nr_rounds = (unsigned)i + 1;
	}
	return 0;
}

/* A rebuild set: "points" (the baseline, then one per rate), "rates"
 * (their labels and rebuild speeds, as many as the points after the
 * baseline) and "rebuild.inconsistent_rows". */
static int parse_rebuild(const struct rj_ctx *pc, json_object *o, struct rs_tset *ts)
{
	char buf[WHERE_MAX];
	size_t n;
	int ret = parse_point_array(pc, o, "points", true, &ts->points, &ts->nr_points);
	json_object *a = ret ? NULL : rj_objects(pc, o, "rates", true, &n, &ret);
	if (!a)
		return ret;
	if (n + 1 != ts->nr_points)
		return rj_fail(pc, "rates", "not one per point after the baseline");
	struct rj_ctx rc = rj_child(pc, "rebuild", -1, buf, sizeof(buf));
	json_object *rb = rj_member(pc, o, "rebuild", json_type_object, true, &ret);
	if (!rb || (ret = rj_u64(&rc, rb, "inconsistent_rows", true, &ts->rebuild_bad)))
		return ret;
	ts->rebuild_rates = rj_calloc(pc, n, sizeof(char *), &ret);
	ts->rebuild_bw = ts->rebuild_rates ? rj_calloc(pc, n, sizeof(double), &ret) : NULL;
	if (!ts->rebuild_bw)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx c = rj_child(pc, "rates", (int)i, buf, sizeof(buf));
		ts->nr_rebuild = (unsigned)i + 1;
		if ((ret = rj_str(&c, e, "rate", true, &ts->rebuild_rates[i])) ||
		    (ret = rj_double(&c, e, "bw_bytes", true, &ts->rebuild_bw[i])))
			return ret;
	}
	return 0;
}

/* The set's "discipline" object, when there is one: its summary line. */
static int parse_discipline(const struct rj_ctx *pc, json_object *o, struct rs_tset *ts)
{
	json_object *d;
	char buf[256];

	if (!json_object_object_get_ex(o, "discipline", &d))
		return 0;
	struct rj_ctx c = rj_child(pc, "discipline", -1, buf, sizeof(buf));
	return rj_str(&c, d, "summary", true, &ts->discipline);
}

static int parse_tset(const struct rj_ctx *c, json_object *o, enum rs_mode mode,
		      struct rs_tset *ts)
{
	bool have = false;
	int ret;

	ts->best = -1;
	if (!json_object_is_type(o, json_type_object))
		return rj_fail(c, NULL, "expected an object");
	if ((ret = parse_strv(c, o, "targets", true, &ts->targets, &ts->nr_targets)) ||
	    (ret = rj_bool(c, o, "done", true, &ts->done)) ||
	    (ret = rj_uint(c, o, "after_no_steady_state", false, &ts->after_unsteady)) ||
	    (ret = parse_discipline(c, o, ts)))
		return ret;
	switch (mode) {
	case RS_FIXED:
		ts->points = rj_calloc(c, 1, sizeof(*ts->points), &ret);
		if (!ts->points)
			return ret;
		ret = parse_point_member(c, o, "fixed", ts->points, &have);
		ts->nr_points = have;
		ts->best = have ? 0 : -1;
		return ret;
	case RS_SEARCH:
		return parse_search(c, o, ts);
	case RS_CURVE:
		return parse_curve(c, o, ts);
	case RS_PRECONDITION:
		return parse_precond(c, o, ts);
	case RS_REBUILD:
		return ts->done ? parse_rebuild(c, o, ts) : 0;
	case RS_APP: /* no target sets */
		break;
	}
	return 0;
}

static int read_job_field(const struct rj_ctx *c, json_object *o,
			  const struct rs_job_field *f, struct rs_job *j)
{
	const struct option_def *row = rs_job_field_row(f);
	void *field = (char *)j + f->off;
	int ret;

	if (!row)
		return rj_fail(c, f->row, "no such option (report's table)");
	const char *key = row->json ? row->json : row->name;
	bool required = !(row->flags & OPT_F_JSON_OPTIONAL);

	switch (f->kind) {
	case RS_STR:
		return rj_str(c, o, key, required, field);
	case RS_U64:
		return rj_u64(c, o, key, required, field);
	case RS_UINT:
		return rj_uint(c, o, key, required, field);
	case RS_BOOL:
		return rj_bool(c, o, key, required, field);
	case RS_FILES:
		if ((ret = rj_str(c, o, key, required, field)))
			return ret;
		return parse_strv(c, o, "files", false, &j->files, &j->nr_files);
	}
	return 0;
}

int results_parse_job(const struct rj_ctx *c, json_object *o, struct rs_job *j)
{
	int ret = 0;

	size_t nr;
	const struct rs_job_field *f = rs_job_fields(&nr);

	for (size_t i = 0; !ret && i < nr; i++)
		ret = read_job_field(c, o, &f[i], j);
	return ret;
}

static int parse_mode(const struct rj_ctx *c, json_object *o, enum rs_mode *m)
{
	static const struct { const char *name; enum rs_mode m; } modes[] = {
		{"fixed", RS_FIXED}, {"search", RS_SEARCH},
		{"curve", RS_CURVE}, {"precondition", RS_PRECONDITION}, {"rebuild", RS_REBUILD},
		{"app", RS_APP},
	};
	int ret;
	json_object *v = rj_member(c, o, "mode", json_type_string, true, &ret);
	if (!v)
		return ret;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(json_object_get_string(v), modes[i].name)) {
			*m = modes[i].m;
			return 0;
		}
	return rj_fail(c, "mode", "not fixed, search, curve, precondition, rebuild or app");
}

static int parse_scaling(const struct rj_ctx *pc, json_object *o, struct rs_scaling *sc)
{
	char buf[WHERE_MAX], buf2[WHERE_MAX];
	char *metric = NULL;
	int ret;
	json_object *so = rj_member(pc, o, "scaling", json_type_object, false, &ret);
	if (!so)
		return ret;
	struct rj_ctx c = rj_child(pc, "scaling", -1, buf, sizeof(buf));
	ret = rj_str(&c, so, "metric", true, &metric);
	sc->metric_iops = metric && !strcmp(metric, "iops");
	free(metric);
	if (ret || (ret = rj_str(&c, so, "message", false, &sc->message)) ||
	    (ret = rj_str(&c, so, "latency_stat", false, &sc->latency_stat)) ||
	    (ret = rj_str(&c, so, "verdict", false, &sc->verdict)) ||
	    (ret = rj_uint(&c, so, "devices", false, &sc->devices)))
		return ret;
	size_t n;
	json_object *a = rj_objects(&c, so, "points", true, &n, &ret);
	if (!a)
		return ret;
	sc->targets = rj_calloc(&c, n, sizeof(unsigned), &ret);
	sc->iops = rj_calloc(&c, n, sizeof(double), &ret);
	sc->bw_bytes = rj_calloc(&c, n, sizeof(double), &ret);
	sc->lat_ns = rj_calloc(&c, n, sizeof(double), &ret);
	sc->stdev = rj_calloc(&c, n, sizeof(double), &ret);
	sc->runs = rj_calloc(&c, n, sizeof(unsigned), &ret);
	if (ret)
		return ret;
	sc->present = true;
	sc->saturation = -1;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx ec = rj_child(&c, "points", (int)i, buf2, sizeof(buf2));
		if ((ret = rj_uint(&ec, e, "targets", true, &sc->targets[i])) ||
		    (ret = rj_double(&ec, e, "iops", true, &sc->iops[i])) ||
		    (ret = rj_double(&ec, e, "bw_bytes", true, &sc->bw_bytes[i])))
			return ret;
		sc->lat_ns[i] = sc->stdev[i] = NAN; /* older files have neither */
		sc->runs[i] = 1;
		if ((ret = rj_double(&ec, e, "lat_ns", false, &sc->lat_ns[i])) ||
		    (ret = rj_double(&ec, e, "stdev", false, &sc->stdev[i])) ||
		    (ret = rj_uint(&ec, e, "runs", false, &sc->runs[i])))
			return ret;
		sc->nr = (unsigned)i + 1;
	}
	unsigned sat = 0;
	bool have = json_object_object_get_ex(so, "saturation_targets", NULL);
	if (have && (ret = rj_uint(&c, so, "saturation_targets", false, &sat)))
		return ret;
	for (unsigned i = 0; have && i < sc->nr; i++)
		if (sc->targets[i] == sat) {
			sc->saturation = (int)i;
			break;
		}
	return 0;
}

/* The optional "model" member plan_model.c adds to a scaling step. */
static int parse_step_model(const struct rj_ctx *pc, json_object *o, struct rs_step_model *m)
{
	char buf[WHERE_MAX], *metric = NULL;
	int ret;
	json_object *mo = rj_member(pc, o, "model", json_type_object, false, &ret);
	if (!mo)
		return ret;
	struct rj_ctx c = rj_child(pc, "model", -1, buf, sizeof(buf));
	if ((ret = rj_str(&c, mo, "metric", true, &metric)))
		return ret;
	m->metric_iops = !strcmp(metric, "iops");
	bool known = m->metric_iops || !strcmp(metric, "bw_bytes");
	free(metric);
	if (!known)
		return rj_fail(&c, "metric", "not iops or bw_bytes");
	if ((ret = rj_uint(&c, mo, "targets", true, &m->targets)) ||
	    (ret = rj_double(&c, mo, "predicted", true, &m->predicted)) ||
	    (ret = rj_double(&c, mo, "utilization", false, &m->utilization)) ||
	    (ret = rj_str(&c, mo, "bound_by", true, &m->bound_by)) ||
	    (ret = rj_uint(&c, mo, "knee_targets", false, &m->knee_targets)) ||
	    (ret = rj_str(&c, mo, "knee_cause", false, &m->knee_cause)) ||
	    (ret = rj_str(&c, mo, "why", false, &m->why)))
		return ret;
	m->present = true;
	return 0;
}

int results_parse_step(json_object *o, const char *file, const char *where,
		       struct rs_step *st, struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = where, .err = err};
	char buf[WHERE_MAX];
	int ret;

	memset(st, 0, sizeof(*st));
	if (!json_object_is_type(o, json_type_object))
		return rj_fail(&c, NULL, "expected an object (a step)");
	if ((ret = rj_uint(&c, o, "index", true, &st->index)) ||
	    (ret = rj_str(&c, o, "section", false, &st->section)) ||
	    (ret = rj_str(&c, o, "label", true, &st->label)) ||
	    (ret = parse_mode(&c, o, &st->mode)) ||
	    (ret = rj_str(&c, o, "targets_use", false, &st->targets_use)) ||
	    (ret = rj_u64(&c, o, "latency_limit_ns", false, &st->latency_limit_ns)) ||
	    (ret = rj_str(&c, o, "latency_stat", false, &st->latency_stat)) ||
	    (ret = rj_str(&c, o, "latency_scope", false, &st->latency_scope)) ||
	    (ret = rj_bool(&c, o, "partial", false, &st->partial)) ||
	    (ret = rj_str(&c, o, "error", false, &st->error)))
		return ret;
	json_object *app = st->mode == RS_APP ? rj_member(&c, o, "app", json_type_object, false,
							   &ret) : NULL;
	if (ret)
		return ret;
	if (app) {
		struct rj_ctx ac = rj_child(&c, "app", -1, buf, sizeof(buf));
		if ((ret = rj_str(&ac, app, "dir", false, &st->app_dir)))
			return ret;
	}
	json_object *jo = rj_member(&c, o, "options", json_type_object, true, &ret);
	if (!jo)
		return ret;
	struct rj_ctx jc = rj_child(&c, "options", -1, buf, sizeof(buf));
	if ((ret = results_parse_job(&jc, jo, &st->job)))
		return ret;
	json_object *a = rj_member(&c, o, "sets", json_type_array, true, &ret);
	if (!a)
		return ret;
	size_t n = json_object_array_length(a);
	st->sets = rj_calloc(&c, n, sizeof(*st->sets), &ret);
	if (!st->sets)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct rj_ctx sc = rj_child(&c, "sets", (int)i, buf, sizeof(buf));
		st->nr_sets = (unsigned)i + 1;
		ret = parse_tset(&sc, json_object_array_get_idx(a, i), st->mode,
				 &st->sets[i]);
		if (ret)
			return ret;
	}
	if ((ret = parse_scaling(&c, o, &st->scaling)))
		return ret;
	return parse_step_model(&c, o, &st->model);
}

/* The members every iochar document starts with; anything without them
 * is someone else's JSON. */
int results_parse_header(const struct rj_ctx *c, json_object *root, struct rs_set *s)
{
	int ret;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "iochar_version", NULL))
		return err_usage(c->err, EINVAL,
				 "%s: not iochar's results (no \"iochar_version\")", c->file);
	if ((ret = rj_str(c, root, "iochar_version", true, &s->iochar_version)))
		return ret;
	s->format_version = 1; /* files from before the member existed */
	if ((ret = rj_uint(c, root, "format_version", false, &s->format_version)))
		return ret;
	if (s->format_version > IOCHAR_FORMAT_VERSION)
		return err_usage(c->err, EINVAL,
				 "%s: format_version %u is newer than this iochar reads (%d); use iochar %s or later",
				 c->file, s->format_version, IOCHAR_FORMAT_VERSION,
				 s->iochar_version);
	json_object *env = rj_member(c, root, "environment", json_type_object, false, &ret);
	if (ret)
		return ret;
	if (env)
		s->environment = json_object_get(env);
	return 0;
}

int results_parse_plan(json_object *root, const char *file, bool with_steps,
		       struct rs_set *s, struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = "", .err = err};
	char buf[WHERE_MAX];
	int ret;

	if ((ret = results_parse_header(&c, root, s)))
		return ret;
	if (!json_object_object_get_ex(root, "steps", NULL))
		return err_usage(err, EINVAL,
				 "%s: not a plan's results.json (no \"steps\")", file);
	if ((ret = results_parse_host_envs(&c, root, s)) ||
	    (ret = rj_str(&c, root, "plan", true, &s->plan)) ||
	    (ret = rj_str(&c, root, "source", false, &s->source)) ||
	    (ret = rj_bool(&c, root, "complete", false, &s->complete)) ||
	    (ret = rj_uint(&c, root, "nr_steps", false, &s->nr_steps_planned)))
		return ret;
	json_object *a = rj_member(&c, root, "steps", json_type_array, true, &ret);
	if (!a || !with_steps)
		return ret;
	size_t n = json_object_array_length(a);
	s->steps = rj_calloc(&c, n, sizeof(*s->steps), &ret);
	if (!s->steps)
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct rj_ctx sc = rj_child(&c, "steps", (int)i, buf, sizeof(buf));
		s->nr_steps = (unsigned)i + 1;
		ret = results_parse_step(json_object_array_get_idx(a, i), file, sc.where,
					 &s->steps[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

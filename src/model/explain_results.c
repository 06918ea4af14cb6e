/* explain_results.c - see explain_results.h. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/explain.h"
#include "model/explain_results.h"
#include "model/fit_results.h"
#include "model/validate.h"
#include "report/results_read.h"
#include "util/csv.h"

bool mdl_step_model(const struct mdl_fit *f, const struct rs_set *s, const struct rs_step *st,
		    unsigned n, struct mdl_config *c, struct mdl_workload *w)
{
	const struct rs_job *j = &st->job;

	memset(c, 0, sizeof(*c));
	memset(w, 0, sizeof(*w));
	if (mdl_rw_parse(j->rw, j->rwmixread, &w->random, &w->read_pct))
		return false;
	snprintf(c->drive.type, sizeof(c->drive.type), "%s", MDL_MEASURED_TYPE);
	c->drive_count = mdl_step_drives(s, st, n);
	c->path = MDL_PATH_DIRECT;
	mdl_fit_apply(f, c);
	w->bs_kib = j->bs ? j->bs / 1024.0 : 4;
	w->latency_limit_ms = st->latency_limit_ns / 1e6;
	w->outstanding_per_drive = (double)(j->iodepth ? j->iodepth : 1) *
				   (j->numjobs ? j->numjobs : 1) / c->drive_count;
	return true;
}

struct xout {
	const char *format;
	FILE *out;
	json_object *arr;           /* json: the steps */
	const struct rs_set *s;     /* the set explained */
	const struct mdl_fit *base; /* the fit it starts from; NULL: none */
	struct mdl_fit *held;       /* scratch: the fit without one point */
	struct mdl_validation v;    /* of the whole set, before any step is written */
};

static double metric(bool random, double iops, double mbps)
{
	return random ? iops : mbps;
}

/* The error on target set k of st of the model fitted without that point
 * (leave-one-out: never the error of a model fitted on what it predicts). */
static double held_out_error(struct xout *x, const struct rs_step *st, unsigned k, double got)
{
	struct mdl_config c;
	struct mdl_workload w;
	struct mdl_answer a;

	if (x->base)
		*x->held = *x->base;
	else
		memset(x->held, 0, sizeof(*x->held));
	mdl_fit_result_set_without(x->held, x->s, (unsigned)(st - x->s->steps), k);
	mdl_step_model(x->held, x->s, st, st->sets[k].nr_targets, &c, &w);
	mdl_eval(&c, &w, &a);
	return mdl_rel_error(metric(w.random, a.iops, a.mbps), got) * 100;
}

static void set_row(struct xout *x, const struct rs_step *st, unsigned k,
		    const struct mdl_answer *a, const struct mdl_workload *w, json_object *sets)
{
	const struct rs_tset *ts = &st->sets[k];
	const struct rs_point *p = rs_tset_headline(st, ts);
	double got = p ? metric(w->random, p->total.iops, p->total.bw_bytes / 1e6) : NAN;
	double pred = metric(w->random, a->iops, a->mbps);
	/* one point: nothing to hold it out of */
	double err = x->v.points < 2 ? NAN : held_out_error(x, st, k, got);

	if (sets) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "targets", json_object_new_int((int)ts->nr_targets));
		json_object_object_add(o, "measured", isnan(got) ? NULL : json_object_new_double(got));
		json_object_object_add(o, "predicted", json_object_new_double(pred));
		json_object_object_add(o, "held_out_error_pct", isnan(err) ? NULL : json_object_new_double(err));
		json_object_object_add(o, "bound_by", json_object_new_string(mdl_bound_name(a->bound)));
		json_object_object_add(o, "utilization", json_object_new_double(a->utilization));
		json_object_array_add(sets, o);
	} else if (x->format && !strcmp(x->format, "csv")) {
		fprintf(x->out, "%u,", st->index);
		csv_field(x->out, st->label ? st->label : "");
		fprintf(x->out, ",%u,%s,%.1f,%.1f,%.1f,%s,%.2f,%u\n", ts->nr_targets,
			w->random ? "iops" : "MBps", got, pred, err, mdl_bound_name(a->bound),
			a->utilization, a->saturation_drives);
	} else {
		fprintf(x->out, "  %7u %12.0f %12.0f %14.1f%%  %s\n", ts->nr_targets, got, pred, err,
			mdl_bound_name(a->bound));
	}
}

/* The step's predicted scaling curve 1..n targets, as JSON. */
static json_object *curve_json(const struct mdl_fit *f, const struct xout *x,
			       const struct rs_step *st, unsigned n)
{
	json_object *arr = json_object_new_array();

	for (unsigned k = 1; k <= n; k++) {
		struct mdl_config c;
		struct mdl_workload w;
		struct mdl_answer a;
		mdl_step_model(f, x->s, st, k, &c, &w);
		mdl_eval(&c, &w, &a);
		json_object_array_add(arr, json_object_new_double(metric(w.random, a.iops, a.mbps)));
	}
	return arr;
}

static void one_step(struct xout *x, const struct mdl_fit *f, const struct rs_step *st)
{
	struct mdl_config c;
	struct mdl_workload w;
	unsigned most = 1;

	if (!mdl_step_model(f, x->s, st, 1, &c, &w))
		return;
	json_object *o = x->arr ? json_object_new_object() : NULL, *sets = NULL;
	if (o) {
		sets = json_object_new_array();
		json_object_object_add(o, "step", json_object_new_int((int)st->index));
		json_object_object_add(o, "label", json_object_new_string(st->label ? st->label : ""));
	} else if (!x->format || strcmp(x->format, "csv")) {
		fprintf(x->out, "step %u %s (%s):\n  targets %12s %12s %15s  bound_by\n", st->index,
			st->label ? st->label : "", st->job.rw ? st->job.rw : "?",
			w.random ? "IOPS" : "MB/s", "predicted", "held-out error");
	}
	for (unsigned k = 0; k < st->nr_sets; k++) {
		struct mdl_answer a;
		mdl_step_model(f, x->s, st, st->sets[k].nr_targets, &c, &w);
		mdl_eval(&c, &w, &a);
		set_row(x, st, k, &a, &w, sets);
		if (st->sets[k].nr_targets > most)
			most = st->sets[k].nr_targets;
	}
	struct mdl_answer a;
	char why[256];
	mdl_step_model(f, x->s, st, most, &c, &w);
	mdl_eval(&c, &w, &a);
	char said[sizeof(why) + 200], rate[48];
	mdl_explain(&c, &w, &a, why, sizeof(why));
	mdl_fmt_rate(rate, sizeof(rate) - 8, metric(w.random, a.iops, a.mbps));
	strcat(rate, w.random ? " IOPS" : " MB/s");
	mdl_validated_why(&x->v, why, rate, most, said, sizeof(said));
	if (o) {
		json_object_object_add(o, "sets", sets);
		if (st->scaling.present)
			json_object_object_add(o, "predicted_curve", curve_json(f, x, st, most));
		json_object_object_add(o, "saturation_targets",
				       json_object_new_int((int)a.saturation_drives));
		json_object_object_add(o, "why", json_object_new_string(said));
		json_object_array_add(x->arr, o);
	} else if (!x->format || strcmp(x->format, "csv")) {
		fprintf(x->out, "  on %u target%s: %s\n", most, most > 1 ? "s" : "", said);
	}
}

/* Every point's held-out error, into x->v: the validation each step's
 * summary is said with. */
static int validate_set(struct xout *x, const struct mdl_fit *f)
{
	unsigned n = 0;
	double *errs;

	for (unsigned i = 0; i < x->s->nr_steps; i++)
		n += x->s->steps[i].nr_sets;
	if (!(errs = calloc(n ? n : 1, sizeof(*errs))))
		return -ENOMEM;
	n = 0;
	for (unsigned i = 0; i < x->s->nr_steps; i++) {
		const struct rs_step *st = &x->s->steps[i];
		struct mdl_config c;
		struct mdl_workload w;
		if (st->error || !mdl_step_model(f, x->s, st, 1, &c, &w))
			continue;
		for (unsigned k = 0; k < st->nr_sets; k++) {
			const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
			double got = p ? metric(w.random, p->total.iops, p->total.bw_bytes / 1e6) : NAN;
			errs[n++] = held_out_error(x, st, k, got) / 100;
		}
	}
	mdl_validation_of(errs, n, true, NULL, &x->v);
	free(errs);
	return 0;
}

int mdl_explain_results(const char *path, const struct mdl_fit *base,
			const char *format, FILE *out, struct ioc_err *err)
{
	struct mdl_fit *f = malloc(sizeof(*f));
	struct rs_set s;
	int ret;

	if (!f)
		return -ENOMEM;
	if ((ret = results_read(path, &s, err)))
		goto out;
	if (base)
		*f = *base;
	else
		memset(f, 0, sizeof(*f));
	mdl_fit_result_set(f, &s);
	struct xout x = {.format = format, .out = out, .s = &s, .base = base,
			 .held = malloc(sizeof(*x.held))};
	if (!x.held) {
		json_object_put(x.arr);
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = validate_set(&x, f)))
		goto out_x;
	if (format && !strcmp(format, "json"))
		x.arr = json_object_new_array();
	if (format && !strcmp(format, "csv"))
		fprintf(out, "step,label,targets,metric,measured,predicted,held_out_error_pct,bound_by,utilization,saturation_targets\n");
	for (unsigned i = 0; i < s.nr_steps; i++)
		if (!s.steps[i].error)
			one_step(&x, f, &s.steps[i]);
	if (x.arr)
		fprintf(out, "%s\n", json_object_to_json_string_ext(x.arr, JSON_C_TO_STRING_PRETTY));
	ret = ferror(out) ? -EIO : 0;
out_x:
	json_object_put(x.arr);
	free(x.held);
out:
	rs_set_free(&s);
	free(f);
	return ret;
}

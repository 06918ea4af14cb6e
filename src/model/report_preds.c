/* report_preds.c - see report_preds.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/explain.h"
#include "model/explain_results.h"
#include "model/fit_results.h"
#include "model/report_preds.h"
#include "model/validate.h"
#include "report/results_model.h"

static double value(const struct mdl_workload *w, const struct mdl_answer *a)
{
	return w->random ? a->iops : a->mbps * 1e6; /* the report's bytes/s */
}

static int one_step(const struct mdl_fit *f, const struct rs_set *s, const struct rs_step *st,
		    unsigned index, struct report_pred_step *ps)
{
	struct mdl_config c;
	struct mdl_workload w;
	struct mdl_answer a;
	unsigned most = 1;

	ps->step = index;
	ps->nr_sets = st->nr_sets;
	ps->predicted = calloc(st->nr_sets ? st->nr_sets : 1, sizeof(*ps->predicted));
	ps->bound = calloc(st->nr_sets ? st->nr_sets : 1, sizeof(*ps->bound));
	ps->util = calloc(st->nr_sets ? st->nr_sets : 1, sizeof(*ps->util));
	ps->heldout = calloc(st->nr_sets ? st->nr_sets : 1, sizeof(*ps->heldout));
	if (!ps->predicted || !ps->bound || !ps->util || !ps->heldout)
		return -ENOMEM;
	for (unsigned k = 0; k < st->nr_sets; k++) {
		mdl_step_model(f, s, st, st->sets[k].nr_targets, &c, &w);
		mdl_eval(&c, &w, &a);
		ps->predicted[k] = value(&w, &a);
		snprintf(ps->bound[k], sizeof(ps->bound[k]), "%s", mdl_bound_name(a.bound));
		ps->util[k] = a.utilization;
		if (st->sets[k].nr_targets > most)
			most = st->sets[k].nr_targets;
	}
	mdl_step_model(f, s, st, most, &c, &w);
	ps->iops = w.random;
	mdl_eval(&c, &w, &a);
	mdl_explain(&c, &w, &a, ps->why, sizeof(ps->why));
	ps->knee = a.saturation_drives && a.saturation_drives <= most ? a.saturation_drives : 0;
	ps->saturation = a.saturation_drives;
	if (ps->saturation) { /* what binds from the knee on */
		mdl_step_model(f, s, st, ps->saturation, &c, &w);
		mdl_eval(&c, &w, &a);
		snprintf(ps->knee_cause, sizeof(ps->knee_cause), "%s", mdl_bound_name(a.bound));
	}
	if (!st->scaling.present)
		return 0;
	if (!(ps->curve = calloc(most, sizeof(*ps->curve))))
		return -ENOMEM;
	ps->nr_curve = most;
	for (unsigned n = 1; n <= most; n++) {
		mdl_step_model(f, s, st, n, &c, &w);
		mdl_eval(&c, &w, &a);
		ps->curve[n - 1] = value(&w, &a);
	}
	return 0;
}

/* What step st measured on its target set k, in the prediction's unit;
 * NaN: nothing. */
static double measured(const struct rs_step *st, unsigned k, bool iops)
{
	const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);

	return p ? (iops ? p->total.iops : p->total.bw_bytes) : NAN;
}

/* Each point's error by a model not fitted on it: with a given fit its
 * own prediction, else the self-fit's without that point (leave-one-out). */
static int held_out(const struct rs_set *s, bool given, struct report_preds *p)
{
	struct mdl_fit *f = given ? NULL : malloc(sizeof(*f));
	struct mdl_config c;
	struct mdl_workload w;
	struct mdl_answer a;

	if (!given && !f)
		return -ENOMEM;
	for (unsigned i = 0; i < p->nr_steps; i++) {
		struct report_pred_step *ps = &p->steps[i];
		const struct rs_step *st = &s->steps[ps->step];
		for (unsigned k = 0; k < ps->nr_sets; k++) {
			double got = measured(st, k, ps->iops), pred = ps->predicted[k];
			if (!given && !isnan(got)) {
				memset(f, 0, sizeof(*f));
				mdl_fit_result_set_without(f, s, ps->step, k);
				mdl_step_model(f, s, st, st->sets[k].nr_targets, &c, &w);
				mdl_eval(&c, &w, &a);
				pred = value(&w, &a);
			}
			ps->heldout[k] = mdl_rel_error(pred, got);
		}
	}
	free(f);
	return 0;
}

/* The set's validation from its points' held-out errors, and each step's
 * summary as it allows. */
static int validate(const struct rs_set *s, bool given, const char *fit_name,
		    struct report_preds *p)
{
	unsigned n = 0;
	int ret = held_out(s, given, p);

	for (unsigned i = 0; !ret && i < p->nr_steps; i++)
		n += p->steps[i].nr_sets;
	double *errs = ret ? NULL : calloc(n ? n : 1, sizeof(*errs));
	if (!errs)
		return ret ? ret : -ENOMEM;
	n = 0;
	for (unsigned i = 0; i < p->nr_steps; i++)
		for (unsigned k = 0; k < p->steps[i].nr_sets; k++)
			errs[n++] = p->steps[i].heldout[k];
	struct mdl_validation v;
	mdl_validation_of(errs, n, !given, fit_name, &v);
	free(errs);
	p->validated = v.validated;
	for (unsigned i = 0; v.points < 2 && i < p->nr_steps; i++)
		for (unsigned k = 0; k < p->steps[i].nr_sets; k++)
			p->steps[i].heldout[k] = NAN; /* nothing to hold it out of */
	snprintf(p->validation, sizeof(p->validation), "%s", v.text);
	for (unsigned i = 0; i < p->nr_steps; i++) {
		struct report_pred_step *ps = &p->steps[i];
		const struct rs_step *st = &s->steps[ps->step];
		unsigned most = 0;
		for (unsigned k = 1; k < ps->nr_sets; k++)
			if (st->sets[k].nr_targets > st->sets[most].nr_targets)
				most = k;
		char rate[48], why[sizeof(ps->why)];
		double x = ps->nr_sets ? ps->predicted[most] : 0;
		mdl_fmt_rate(rate, sizeof(rate) - 8, ps->iops ? x : x / 1e6);
		strcat(rate, ps->iops ? " IOPS" : " MB/s");
		mdl_validated_why(&v, ps->why, rate, ps->nr_sets ? st->sets[most].nr_targets : 1,
				  why, sizeof(why));
		memcpy(ps->why, why, sizeof(why));
	}
	return 0;
}

int mdl_report_preds(const struct rs_set *s, const struct mdl_fit *fit,
		     const char *fit_name, struct report_preds *p)
{
	struct mdl_fit *f = calloc(1, sizeof(*f));
	struct mdl_config c;
	struct mdl_workload w;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	if (!f)
		return -ENOMEM;
	if (fit) {
		*f = *fit;
		snprintf(p->fit, sizeof(p->fit), "%s", fit_name ? fit_name : "the given fit");
	} else {
		mdl_fit_result_set(f, s);
	}
	p->steps = calloc(s->nr_steps ? s->nr_steps : 1, sizeof(*p->steps));
	if (!p->steps)
		ret = -ENOMEM;
	for (unsigned i = 0; !ret && i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		if (st->error || !st->nr_sets || !mdl_step_model(f, s, st, 1, &c, &w))
			continue;
		ret = one_step(f, s, st, i, &p->steps[p->nr_steps++]);
		/* nothing measured says what this workload costs: no prediction */
		struct report_pred_step *ps = &p->steps[p->nr_steps - 1];
		bool any = false;
		for (unsigned k = 0; !ret && k < ps->nr_sets; k++)
			any |= ps->predicted[k] > 0;
		if (!ret && !any) {
			free(ps->predicted);
			free(ps->bound);
			free(ps->util);
			free(ps->curve);
			free(ps->heldout);
			memset(ps, 0, sizeof(*ps));
			p->nr_steps--;
		}
	}
	free(f);
	if (!ret && p->nr_steps)
		ret = validate(s, fit != NULL, fit ? p->fit : NULL, p);
	return ret;
}

/* report_model.c - the report's "Predicted beside measured" section: for
 * each set with predictions (report_preds.h), every step on every target
 * set measured beside predicted with the error and what binds, and for a
 * scaling step its measured and predicted curves, the knee marked with
 * its cause. */
#include <math.h>
#include <stdlib.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

void report_preds_free(struct report_preds *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_steps; i++) {
		free(p->steps[i].predicted);
		free(p->steps[i].bound);
		free(p->steps[i].util);
		free(p->steps[i].curve);
		free(p->steps[i].heldout);
	}
	free(p->steps);
	p->steps = NULL;
	p->nr_steps = 0;
}

bool report_has_preds(const struct report_ctx *r)
{
	for (unsigned s = 0; r->preds && s < r->nr_sets; s++)
		if (r->preds[s].nr_steps)
			return true;
	return false;
}

static char *fmt_value(char *buf, bool iops, double v)
{
	return iops ? numfmt_iops(buf, v) : numfmt_bw(buf, v);
}

static void pred_table(struct report_ctx *r, const struct rs_set *set,
		       const struct rs_step *st, const struct report_pred_step *ps)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], name[200];

	/* the error of a model not fitted on the point: never a circular one */
	fputs("<table><tr><th>workload</th><th>targets</th><th>measured</th>"
	      "<th>predicted</th><th>held-out error</th><th>bound by</th></tr>\n", r->f);
	for (unsigned k = 0; k < ps->nr_sets && k < st->nr_sets; k++) {
		const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
		double got = p ? (ps->iops ? p->total.iops : p->total.bw_bytes) : NAN;
		fputs("<tr><td>", r->f);
		html_escape(r->f, report_workload_name(name, sizeof(name), st, k));
		fprintf(r->f, " (%s)</td><td>%u</td><td>%s</td><td>%s</td>", set->name,
			st->sets[k].nr_targets, isnan(got) ? "-" : fmt_value(a, ps->iops, got),
			fmt_value(b, ps->iops, ps->predicted[k]));
		if (ps->heldout && !isnan(ps->heldout[k]))
			fprintf(r->f, "<td>%.1f %%</td>", ps->heldout[k] * 100);
		else
			fputs("<td>-</td>", r->f);
		fputs("<td>", r->f);
		html_escape(r->f, ps->bound[k]);
		fputs("</td></tr>\n", r->f);
	}
	fputs("</table>\n", r->f);
}

/* Measured (series 0) and predicted (series 1) totals against targets. */
static void pred_curve(struct report_ctx *r, const struct rs_step *st,
		       const struct report_pred_step *ps)
{
	const struct rs_scaling *sc = &st->scaling;
	double *xs = calloc(ps->nr_curve + sc->nr + 1, sizeof(double)), ymax = 0;
	char title[300], lbl[REPORT_PRED_WHY_MAX + 64];

	if (!xs)
		return;
	const double *ys = ps->iops ? sc->iops : sc->bw_bytes;
	for (unsigned i = 0; i < ps->nr_curve; i++)
		ymax = fmax(ymax, ps->curve[i]);
	for (unsigned i = 0; i < sc->nr; i++)
		if (isfinite(ys[i]))
			ymax = fmax(ymax, ys[i]);
	struct axis x = {.kind = AXIS_LINEAR, .label = "targets at once"};
	struct axis y = {.kind = AXIS_LINEAR,
			 .label = ps->iops ? "total IOPS" : "total throughput (MB/s, GB/s)",
			 .unit = ps->iops ? AXIS_UNIT_IOPS : AXIS_UNIT_BW};
	axis_fit(&x, 0, ps->nr_curve, true);
	axis_fit(&y, 0, ymax, true);
	snprintf(title, sizeof(title), "%s: measured and predicted scaling", st->label);
	struct chart c;
	if (chart_begin(&c, r->f, "prediction", title, &x, &y, NULL)) {
		free(xs);
		return;
	}
	chart_axes(&c);
	double *mx = xs + ps->nr_curve + 1;
	for (unsigned i = 0; i < sc->nr; i++)
		mx[i] = sc->targets[i];
	chart_line(&c, 0, false, mx, ys, sc->nr, NULL);
	chart_legend_add(&c, 0, true, "measured");
	for (unsigned i = 0; i < ps->nr_curve; i++)
		xs[i] = i + 1;
	chart_line(&c, 1, false, xs, ps->curve, ps->nr_curve, NULL);
	chart_legend_add(&c, 1, true, "predicted");
	if (ps->knee && ps->knee <= ps->nr_curve) {
		snprintf(lbl, sizeof(lbl), "knee at %u targets", ps->knee);
		chart_mark(&c, false, ps->knee, ps->curve[ps->knee - 1], lbl);
	}
	fputs("<figure>", r->f);
	int ret = chart_end(&c);
	if (ret && !r->ret)
		r->ret = ret;
	fputs("<figcaption>", r->f);
	html_escape(r->f, ps->why);
	fputs("</figcaption></figure>\n", r->f);
	free(xs);
}

void report_model_section(struct report_ctx *r)
{
	for (unsigned s = 0; r->preds && s < r->nr_sets; s++) {
		const struct rs_set *set = &r->sets[s];
		if (r->preds[s].nr_steps) {
			fputs("<p class=\"fit\">", r->f);
			html_escape(r->f, set->name);
			fputs(r->preds[s].fit[0] ? ": predicted by the model in " :
			      ": predicted by the model fitted on its own single-target and scaling steps", r->f);
			html_escape(r->f, r->preds[s].fit);
			fputs(r->preds[s].validated ? "; " : "; <strong>", r->f);
			html_escape(r->f, r->preds[s].validation);
			fputs(r->preds[s].validated ? "</p>\n" : "</strong></p>\n", r->f);
		}
		for (unsigned i = 0; i < r->preds[s].nr_steps; i++) {
			const struct report_pred_step *ps = &r->preds[s].steps[i];
			if (ps->step >= set->nr_steps)
				continue;
			const struct rs_step *st = &set->steps[ps->step];
			fputs("<h3>", r->f);
			html_escape(r->f, st->label ? st->label : "");
			fputs("</h3>\n", r->f);
			pred_table(r, set, st, ps);
			if (st->scaling.present && ps->nr_curve && st->scaling.nr) {
				pred_curve(r, st, ps); /* the cause is its caption */
				continue;
			}
			fputs("<p>", r->f);
			html_escape(r->f, ps->why);
			fputs("</p>\n", r->f);
		}
	}
}

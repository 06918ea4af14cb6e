/* predict.c - see predict.h. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>

#include "model/median.h"
#include "model/predict.h"
#include "util/csv.h"

static void predict_one(const struct mdl_fit *f, const struct mdl_figrow *r,
			struct mdl_pred *p)
{
	mdl_fit_predict_row(f, r, &p->a, &p->value);
	p->error = !isnan(r->value) && r->value > 0 ? fabs(p->value - r->value) / r->value : NAN;
}

void mdl_predict_rows(const struct mdl_fit *f, const struct mdl_figs *figs,
		      struct mdl_pred *p)
{
	for (unsigned i = 0; i < figs->nr; i++)
		predict_one(f, &figs->rows[i], &p[i]);
}

static bool same_config(void *arg, const struct mdl_figrow *r)
{
	return mdl_figrow_same_config(arg, r);
}

void mdl_predict_loo(const struct mdl_figs *figs, double limit_ms, struct mdl_pred *p)
{
	struct mdl_fit *f = malloc(sizeof(*f));

	for (unsigned i = 0; f && i < figs->nr; i++) {
		const struct mdl_figrow *r = &figs->rows[i];
		mdl_fit_figures(f, figs, same_config, (void *)r);
		f->latency_limit_ms = limit_ms;
		predict_one(f, r, &p[i]);
	}
	free(f);
}

/* The median of the n errors in v, NaN for none (sorts v). */
static double median_of(double *v, unsigned n)
{
	struct mdl_est *e = calloc(1, sizeof(*e));
	double m = NAN;

	if (!e || !n) {
		free(e);
		return m;
	}
	/* mdl_est keeps values > 0: an exact prediction counts as a tiny one */
	for (unsigned i = 0; i < n; i++)
		mdl_est_add(e, v[i] + 1e-12);
	m = mdl_est_median(e) - 1e-12;
	free(e);
	return m;
}

void mdl_pred_errors(const struct mdl_pred *p, unsigned n, double *median,
		     double *worst, unsigned *nr)
{
	double *v = calloc(n ? n : 1, sizeof(*v));

	*worst = 0;
	*nr = 0;
	for (unsigned i = 0; v && i < n; i++)
		if (!isnan(p[i].error)) {
			v[(*nr)++] = p[i].error;
			*worst = fmax(*worst, p[i].error);
		}
	*median = v ? median_of(v, *nr) : NAN;
	free(v);
}

void mdl_pred_config_errors(const struct mdl_figs *figs, const struct mdl_pred *p,
			    double *median, double *worst, unsigned *nr)
{
	unsigned n = figs->nr;
	double *v = calloc(n ? n : 1, sizeof(*v)), *rows = calloc(n ? n : 1, sizeof(*rows));

	*worst = 0;
	*nr = 0;
	*median = NAN;
	for (unsigned i = 0; v && rows && i < n; i++) {
		unsigned k = 0, seen = 0;
		for (unsigned j = 0; j < n; j++) {
			if (!mdl_figrow_same_config(&figs->rows[i], &figs->rows[j]))
				continue;
			if (j < i)
				seen = 1;
			if (!isnan(p[j].error))
				rows[k++] = p[j].error;
		}
		if (seen || !k)
			continue;
		v[*nr] = median_of(rows, k);
		*worst = fmax(*worst, v[(*nr)++]);
	}
	if (v && rows)
		*median = median_of(v, *nr);
	free(v);
	free(rows);
}

int mdl_predict_write_csv(const struct mdl_figs *figs, const struct mdl_pred *p,
			  bool loo, FILE *out)
{
	const struct csv_doc *d = &figs->doc;

	for (unsigned k = 0; k < d->nr_cols; k++) {
		csv_field(out, d->head[k]);
		fputc(',', out);
	}
	fprintf(out, "predicted,predicted_latency_ms,bound_by,utilization,saturation_drives%s\n",
		loo ? ",error_pct" : "");
	for (unsigned i = 0; i < figs->nr; i++) {
		for (unsigned k = 0; k < d->nr_cols; k++) {
			csv_field(out, d->rows[i][k]);
			fputc(',', out);
		}
		fprintf(out, "%.0f,%.3f,%s,%.2f,%u", p[i].value, p[i].a.latency_ms,
			mdl_bound_name(p[i].a.bound), p[i].a.utilization,
			p[i].a.saturation_drives);
		if (loo && !isnan(p[i].error))
			fprintf(out, ",%.1f", p[i].error * 100);
		else if (loo)
			fputc(',', out);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

int mdl_predict_write_json(const struct mdl_figs *figs, const struct mdl_pred *p,
			   bool loo, FILE *out)
{
	const struct csv_doc *d = &figs->doc;
	json_object *arr = json_object_new_array();

	for (unsigned i = 0; i < figs->nr; i++) {
		json_object *o = json_object_new_object(), *u = json_object_new_object();
		for (unsigned k = 0; k < d->nr_cols; k++)
			json_object_object_add(o, d->head[k], json_object_new_string(d->rows[i][k]));
		json_object_object_add(o, "predicted", json_object_new_double(p[i].value));
		json_object_object_add(o, "predicted_latency_ms",
				       json_object_new_double(p[i].a.latency_ms));
		json_object_object_add(o, "bound_by",
				       json_object_new_string(mdl_bound_name(p[i].a.bound)));
		json_object_object_add(o, "utilization", json_object_new_double(p[i].a.utilization));
		json_object_object_add(o, "saturation_drives",
				       json_object_new_int((int)p[i].a.saturation_drives));
		for (int b = 0; b < MDL_B_NR; b++)
			if (p[i].a.util[b] > 0)
				json_object_object_add(u, mdl_bound_name((enum mdl_bound)b),
						       json_object_new_double(p[i].a.util[b]));
		json_object_object_add(o, "utilizations", u);
		if (loo && !isnan(p[i].error))
			json_object_object_add(o, "error_pct", json_object_new_double(p[i].error * 100));
		json_object_array_add(arr, o);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY));
	json_object_put(arr);
	return ferror(out) ? -EIO : 0;
}

/* compare_pred.c - compare's model side (compare --predicted): each disk
 * workload of each side measured beside what the I/O-path model predicts
 * for it, with the error, the component that binds and its utilization.
 * The predictions are plain data (report_preds.h) the caller made with the
 * model; this file only matches them to the table's rows and writes them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"
#include "report/compare.h"
#include "report/numfmt.h"
#include "report/report_preds.h"
#include "util/csv.h"
#include "util/text_width.h"

/* The step and target set of set s whose headline point is p; false when
 * none is (a host row, a network row). */
static bool find_point(const struct rs_set *s, const struct rs_point *p, unsigned *step,
		       unsigned *tset)
{
	for (unsigned i = 0; p && i < s->nr_steps; i++)
		for (unsigned k = 0; k < s->steps[i].nr_sets; k++)
			if (rs_tset_headline(&s->steps[i], &s->steps[i].sets[k]) == p) {
				*step = i;
				*tset = k;
				return true;
			}
	return false;
}

static const struct report_pred_step *find_step(const struct report_preds *p, unsigned step)
{
	for (unsigned i = 0; i < p->nr_steps; i++)
		if (p->steps[i].step == step)
			return &p->steps[i];
	return NULL;
}

static void match(const struct cmp_table *t, const struct cmp_row *row, unsigned side,
		  const struct report_preds *preds, struct cmp_pred *out)
{
	const struct cmp_value *v = &row->v[side];
	const struct cmp_side *sd = &t->sides[side];
	unsigned step, k;

	out->error_pct = NAN;
	if (row->host || row->net || row->app || v->verdict == CMP_MISSING ||
	    !find_point(&sd->sets[0], v->point, &step, &k))
		return;
	/* the side's first run: its index among the sets compare was given */
	const struct report_pred_step *ps = find_step(&preds[sd->sets - t->sides[0].sets], step);
	if (!ps || k >= ps->nr_sets || ps->iops != row->iops)
		return;
	out->present = true;
	out->predicted = ps->predicted[k];
	out->utilization = ps->util ? ps->util[k] : NAN;
	snprintf(out->bound, sizeof(out->bound), "%s", ps->bound[k]);
	/* the error of a model not fitted on this point (never circular) */
	if (ps->heldout && !isnan(ps->heldout[k]))
		out->error_pct = ps->heldout[k] * 100;
}

int compare_add_predictions(struct cmp_table *t, const struct report_preds *preds)
{
	size_t n = (size_t)t->nr_rows * t->nr_sets;

	free(t->preds);
	t->preds = calloc(n ? n : 1, sizeof(*t->preds));
	if (!t->preds)
		return -ENOMEM;
	t->model_fit[0] = '\0';
	unsigned nr_sets = 0;
	for (unsigned s = 0; s < t->nr_sets; s++)
		nr_sets += t->sides[s].nr_runs;
	for (unsigned i = 0; i < nr_sets; i++)
		if (preds[i].fit[0]) { /* one fit for every set: the command's --fit */
			snprintf(t->model_fit, sizeof(t->model_fit), "%s", preds[i].fit);
			break;
		}
	t->model_validation[0] = '\0';
	for (unsigned s = 0; s < t->nr_sets; s++) { /* each side's first run's */
		const struct report_preds *p = &preds[t->sides[s].sets - t->sides[0].sets];
		size_t used = strlen(t->model_validation);
		if (p->nr_steps && used < sizeof(t->model_validation))
			snprintf(t->model_validation + used, sizeof(t->model_validation) - used,
				 "%s%s: %s", used ? "; " : "", t->sides[s].name, p->validation);
	}
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned s = 0; s < t->nr_sets; s++)
			match(t, &t->rows[r], s, preds, &t->preds[(size_t)r * t->nr_sets + s]);
	return 0;
}

static const struct cmp_pred *pred_at(const struct cmp_table *t, unsigned row, unsigned side)
{
	return &t->preds[(size_t)row * t->nr_sets + side];
}

/* The values with a prediction, in row then side order: *i from 0 (the
 * index into t->preds); false past the last. */
static bool next_pred(const struct cmp_table *t, size_t *i)
{
	for (size_t n = (size_t)t->nr_rows * t->nr_sets; *i < n; ++*i)
		if (t->preds[*i].present)
			return true;
	return false;
}

static char *value_str(char *buf, bool iops, double v)
{
	char t[NUMFMT_MAX];
	if (!iops)
		return numfmt_bw(buf, v);
	snprintf(buf, NUMFMT_MAX, "%s IOPS", numfmt_iops(t, v));
	return buf;
}

static const char *fit_words(const struct cmp_table *t)
{
	return t->model_fit[0] ? t->model_fit : "each set's own single-target and scaling steps";
}

void compare_pred_write_text(const struct cmp_table *t, FILE *f)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX];

	if (!t->preds)
		return;
	fprintf(f, "\nmodel: predicted by the model %s %s\n",
		t->model_fit[0] ? "in" : "fitted on", fit_words(t));
	if (t->model_validation[0])
		fprintf(f, "model: %s\n", t->model_validation);
	size_t names = compare_name_cols(t);
	fprintf(f, "%-34s ", "workload");
	text_pad(f, "set", names, 1);
	fprintf(f, " %15s %15s %7s  %-10s %s\n", "measured", "predicted", "error", "bound_by",
		"util");
	unsigned shown = 0;
	for (size_t i = 0; next_pred(t, &i); i++) {
		const struct cmp_pred *p = &t->preds[i];
		const struct cmp_row *row = &t->rows[i / t->nr_sets];
		unsigned s = (unsigned)(i % t->nr_sets);
		fprintf(f, "%-34.34s ", row->key);
		text_pad(f, t->sides[s].name, names, 1);
		fprintf(f, " %15s %15s ", value_str(a, row->iops, row->v[s].value),
			value_str(b, row->iops, p->predicted));
		if (isfinite(p->error_pct))
			fprintf(f, "%6.1f%%", p->error_pct);
		else
			fprintf(f, "%7s", "-");
		fprintf(f, "  %-10s %.0f %%\n", p->bound, p->utilization * 100);
		shown++;
	}
	if (!shown)
		fputs("(no workload the model can predict: it knows randread, randwrite, randrw, "
		      "read, write and rw)\n", f);
}

void compare_pred_write_json(const struct cmp_table *t, struct jw *w)
{
	if (!t->preds)
		return;
	jw_key(w, "model");
	jw_object_begin(w);
	jw_key(w, "fit");
	if (t->model_fit[0])
		jw_string(w, t->model_fit);
	else
		jw_null(w); /* each set's own self-fit */
	jw_kv_string(w, "validation", t->model_validation);
	jw_key(w, "workloads");
	jw_array_begin(w);
	for (size_t i = 0; next_pred(t, &i); i++) {
		const struct cmp_pred *p = &t->preds[i];
		const struct cmp_row *row = &t->rows[i / t->nr_sets];
		unsigned s = (unsigned)(i % t->nr_sets);
		jw_object_begin(w);
		jw_kv_string(w, "workload", row->key);
		jw_kv_string(w, "set", t->sides[s].name);
		jw_kv_string(w, "metric", row->iops ? "iops" : "bw_bytes");
		jw_kv_double(w, "measured", row->v[s].value);
		jw_kv_double(w, "predicted", p->predicted);
		jw_kv_double(w, "error_pct", p->error_pct);
		jw_kv_string(w, "bound_by", p->bound);
		jw_kv_double(w, "utilization", p->utilization);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

void compare_pred_csv_header(const struct cmp_table *t, FILE *f)
{
	if (t->preds)
		fputs(",predicted,predicted_error_pct,bound_by,utilization", f);
}

static void csv_num(FILE *f, double v, int digits)
{
	if (isfinite(v))
		fprintf(f, ",%.*f", digits, v);
	else
		fputc(',', f);
}

void compare_pred_csv_fields(const struct cmp_table *t, unsigned row, unsigned side, FILE *f)
{
	if (!t->preds)
		return;
	const struct cmp_pred *p = pred_at(t, row, side);
	if (!p->present) {
		fputs(",,,,", f);
		return;
	}
	csv_num(f, p->predicted, 3);
	csv_num(f, p->error_pct, 3);
	fputc(',', f);
	csv_field(f, p->bound);
	csv_num(f, p->utilization, 4);
}

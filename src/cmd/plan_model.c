/* plan_model.c - see plan_model.h. The model is commentary added once the
 * plan's own results are complete: charz writes results.json as steps end
 * and knows nothing of the model; this reads it back, adds the members and
 * writes it again whole. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/plan_model.h"
#include "model/report_preds.h"
#include "output/results_file.h"
#include "report/results_read.h"

/* A double written as iochar writes figures, not json-c's 17 digits. */
static json_object *num(double v, int digits)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*f", digits, v);
	return json_object_new_double_s(v, buf);
}

/* A fraction as a percentage, null when NaN. */
static json_object *pct_or_null(double v)
{
	return isnan(v) ? NULL : num(v * 100, 1);
}

/* The "model" member of scaling step st predicted as ps, by the model
 * whose validation p states. */
static json_object *model_member(const struct rs_step *st, const struct report_pred_step *ps,
				 const struct report_preds *p)
{
	json_object *m = json_object_new_object(), *pts = json_object_new_array();
	unsigned most = 0;

	for (unsigned k = 0; k < ps->nr_sets && k < st->nr_sets; k++) {
		json_object *pt = json_object_new_object();
		json_object_object_add(pt, "targets", json_object_new_int((int)st->sets[k].nr_targets));
		json_object_object_add(pt, "predicted", num(ps->predicted[k], 1));
		json_object_object_add(pt, "bound_by", json_object_new_string(ps->bound[k]));
		json_object_object_add(pt, "utilization", num(ps->util[k], 4));
		json_object_object_add(pt, "held_out_error_pct", pct_or_null(ps->heldout[k]));
		json_object_array_add(pts, pt);
		if (st->sets[k].nr_targets > st->sets[most].nr_targets)
			most = k;
	}
	json_object_object_add(m, "fit", json_object_new_string("self"));
	json_object_object_add(m, "validated", json_object_new_boolean(p->validated));
	json_object_object_add(m, "validation", json_object_new_string(p->validation));
	json_object_object_add(m, "metric", json_object_new_string(ps->iops ? "iops" : "bw_bytes"));
	json_object_object_add(m, "targets", json_object_new_int((int)st->sets[most].nr_targets));
	json_object_object_add(m, "predicted", num(ps->predicted[most], 1));
	json_object_object_add(m, "bound_by", json_object_new_string(ps->bound[most]));
	json_object_object_add(m, "utilization", num(ps->util[most], 4));
	json_object_object_add(m, "knee_targets", json_object_new_int((int)ps->saturation));
	json_object_object_add(m, "knee_cause", ps->saturation ?
			       json_object_new_string(ps->knee_cause) : NULL);
	json_object_object_add(m, "why", json_object_new_string(ps->why));
	json_object_object_add(m, "points", pts);
	return m;
}

/* results.json's step object whose "index" is index; NULL: none. */
static json_object *json_step(json_object *steps, unsigned index)
{
	for (size_t i = 0; i < json_object_array_length(steps); i++) {
		json_object *o = json_object_array_get_idx(steps, i), *ix;
		if (json_object_object_get_ex(o, "index", &ix) &&
		    json_object_get_int64(ix) == (int64_t)index)
			return o;
	}
	return NULL;
}

/* Add every scaling step's member to root; the number added. */
static unsigned annotate(json_object *root, const struct rs_set *s, const struct report_preds *p,
			 FILE *lines)
{
	json_object *steps;
	unsigned added = 0;

	if (!json_object_object_get_ex(root, "steps", &steps) ||
	    !json_object_is_type(steps, json_type_array))
		return 0;
	for (unsigned i = 0; i < p->nr_steps; i++) {
		const struct report_pred_step *ps = &p->steps[i];
		const struct rs_step *st = &s->steps[ps->step];
		json_object *o = st->scaling.present ? json_step(steps, st->index) : NULL;
		if (!o || !ps->nr_sets)
			continue;
		json_object_object_add(o, "model", model_member(st, ps, p));
		added++;
		if (lines) /* why the step stops growing (docs/model.md) */
			fprintf(lines, "model: %s: %s\n", st->label ? st->label : "", ps->why);
	}
	return added;
}

static int rewrite(const char *path, json_object *root, struct ioc_err *err)
{
	struct results_file rf;
	/* iochar's own layout: the two-space indent results_file.c knows it by */
	int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE;
	int ret = results_file_open(&rf, "--out", path, false, err);

	if (ret)
		return ret;
	if (fputs(json_object_to_json_string_ext(root, flags), rf.f) < 0 || fputc('\n', rf.f) < 0) {
		results_file_abort(&rf);
		return err_set(err, EIO, "%s: writing the model: %s", path, strerror(EIO));
	}
	if ((ret = results_file_commit(&rf)))
		return err_set(err, -ret, "%s: writing the model: %s", path, strerror(-ret));
	return 0;
}

int plan_model_write(const char *dir, FILE *lines, struct ioc_err *err)
{
	struct rs_set s;
	struct report_preds p = {0};
	char path[4200];
	json_object *root = NULL;
	int ret;

	if ((ret = results_read(dir, &s, err)))
		goto out;
	if ((ret = mdl_report_preds(&s, NULL, NULL, &p))) {
		ret = err_set(err, -ret, "%s: the model: %s", dir, strerror(-ret));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (!(root = json_object_from_file(path))) {
		ret = err_set(err, EINVAL, "%s: cannot read it back as JSON", path);
		goto out;
	}
	if (annotate(root, &s, &p, lines))
		ret = rewrite(path, root, err);
out:
	json_object_put(root);
	report_preds_free(&p);
	rs_set_free(&s);
	return ret;
}

/* model.c - `iochar model`: fit the I/O-path model (src/model/) on
 * figures tables and iochar results, predict configurations with it,
 * state its leave-one-configuration-out error on a figures table, and
 * explain a plan's results with it. */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "cmd/cmd.h"
#include "cmd/model_args.h"
#include "cmd/stdout_end.h"
#include "model/config_ini.h"
#include "model/explain_results.h"
#include "model/fit_file.h"
#include "model/fit_results.h"
#include "model/predict.h"
#include "output/results_file.h"

/* Where a command's output goes: -o FILE, by the rules every results
 * file follows (output/results_file.h: never over data iochar did not
 * write, a device written directly, never renamed over; issue 37: a
 * plain atomic rename made `model fit -o /dev/full` a regular file), or
 * stdout. */
struct sink {
	struct results_file rf;
	FILE *f;
	const char *path;
};

static int sink_open(struct sink *s, const char *path, bool force, struct ioc_err *err)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	if (!path) {
		s->f = stdout;
		return 0;
	}
	int ret = results_file_open(&s->rf, "-o", path, force, err);
	s->f = ret ? NULL : s->rf.f;
	return ret;
}

static int sink_close(struct sink *s, int ret, struct ioc_err *err)
{
	if (!s->path)
		return ret ? ret : fflush(stdout) ? -EIO : 0;
	if (ret) {
		results_file_abort(&s->rf);
		return ret;
	}
	ret = results_file_commit(&s->rf);
	if (ret)
		err_set(err, -ret, "-o %s: %s", s->path, strerror(-ret));
	return ret;
}

static int load_figs(const char *path, struct mdl_figs *figs, char **text,
		     struct ioc_err *err)
{
	int ret = ini_read_text(path, path, text, err);

	memset(figs, 0, sizeof(*figs));
	if (ret)
		return ret;
	return mdl_figs_parse(*text, path, figs, err);
}

static int do_fit(const struct model_args *a, FILE *out, struct ioc_err *err)
{
	struct mdl_fit *f = calloc(1, sizeof(*f));
	int ret = f ? 0 : -ENOMEM;

	if (!a->nr_figures && !a->nr_results)
		ret = err_usage(err, EINVAL, "fit: needs --figures=CSV or --results=DIR");
	else if (a->nr_figures > 1)
		ret = err_usage(err, EINVAL, "fit: one --figures table (put its rows in one file)");
	for (unsigned i = 0; !ret && i < a->nr_figures; i++) {
		struct mdl_figs figs;
		char *text = NULL;
		if (!(ret = load_figs(a->figures[i], &figs, &text, err)))
			mdl_fit_figures(f, &figs, NULL, NULL);
		mdl_figs_free(&figs);
		free(text);
	}
	if (!ret && a->nr_results)
		ret = mdl_fit_results(f, a->results, a->nr_results, err);
	if (!ret) {
		f->latency_limit_ms = a->latency_limit_ms > 0 ? a->latency_limit_ms : 2;
		json_object *o = mdl_fit_to_json(f);
		ret = o ? 0 : -ENOMEM;
		if (o)
			fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
	}
	free(f);
	return ret;
}

static void write_text(const struct mdl_figs *figs, const struct mdl_pred *p,
		       bool loo, FILE *out)
{
	fprintf(out, "%-6s %-10s %12s %12s %7s  %-11s %5s %4s\n", "id", "metric", "value",
		"predicted", "error", "bound_by", "util", "sat");
	for (unsigned i = 0; i < figs->nr; i++) {
		const struct mdl_figrow *r = &figs->rows[i];
		char e[16] = "-";
		if (!isnan(p[i].error))
			snprintf(e, sizeof(e), "%.1f%%", p[i].error * 100);
		fprintf(out, "%-6s %-10s %12.0f %12.0f %7s  %-11s %5.2f %4u\n", r->id, r->metric,
			r->value, p[i].value, e, mdl_bound_name(p[i].a.bound),
			p[i].a.utilization, p[i].a.saturation_drives);
	}
	double med, worst;
	unsigned n;
	mdl_pred_errors(p, figs->nr, &med, &worst, &n);
	if (!n)
		return;
	/* predict's rows may or may not be those the model was fitted on */
	const char *what = loo ? "leave-one-configuration-out" : "the model's";
	fprintf(out, "%s error over %u rows: median %.1f %%, worst %.1f %%\n", what, n,
		med * 100, worst * 100);
	mdl_pred_config_errors(figs, p, &med, &worst, &n);
	fprintf(out, "%s error over %u configurations (each its rows' median): median %.1f %%, worst %.1f %%\n",
		what, n, med * 100, worst * 100);
}

static int write_preds(const struct model_args *a, const struct mdl_figs *figs,
		       const struct mdl_pred *p, bool loo, FILE *out)
{
	if (a->format && !strcmp(a->format, "csv"))
		return mdl_predict_write_csv(figs, p, loo, out);
	if (a->format && !strcmp(a->format, "json"))
		return mdl_predict_write_json(figs, p, loo, out);
	write_text(figs, p, loo, out);
	return ferror(out) ? -EIO : 0;
}

/* predict --figures or loo: every row of one figures table. */
static int do_rows(const struct model_args *a, const struct mdl_fit *f, FILE *out,
		   struct ioc_err *err)
{
	struct mdl_figs figs;
	char *text = NULL;
	struct mdl_pred *p = NULL;
	int ret;

	if (a->nr_figures != 1) {
		ret = err_usage(err, EINVAL, "%s: needs one --figures=CSV", a->sub);
		goto out_text;
	}
	if ((ret = load_figs(a->figures[0], &figs, &text, err)))
		goto out;
	p = calloc(figs.nr ? figs.nr : 1, sizeof(*p));
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	if (f)
		mdl_predict_rows(f, &figs, p);
	else
		mdl_predict_loo(&figs, a->latency_limit_ms > 0 ? a->latency_limit_ms : 2, p);
	ret = write_preds(a, &figs, p, !f, out);
out:
	free(p);
	mdl_figs_free(&figs);
out_text:
	free(text);
	return ret;
}

static int do_predict(const struct model_args *a, FILE *out, struct ioc_err *err)
{
	struct mdl_fit *f = malloc(sizeof(*f));
	int ret;

	if (!f)
		return -ENOMEM;
	if (!a->fit)
		ret = err_usage(err, EINVAL, "predict: needs the model file (iochar model fit -o FIT)");
	else if (!(ret = mdl_fit_load(a->fit, f, err))) {
		if (a->latency_limit_ms > 0)
			f->latency_limit_ms = a->latency_limit_ms;
		if (a->config && a->nr_figures)
			ret = err_usage(err, EINVAL, "predict: --config or --figures, not both");
		else if (a->config)
			ret = mdl_config_predict(a->config, f, a->format, out, err);
		else
			ret = do_rows(a, f, out, err);
	}
	free(f);
	return ret;
}

static int do_explain(const struct model_args *a, FILE *out, struct ioc_err *err)
{
	struct mdl_fit *f = NULL;
	int ret = 0;

	if (a->nr_results != 1)
		return err_usage(err, EINVAL, "explain: needs one results directory or run JSON file");
	if (a->fit && !(f = malloc(sizeof(*f))))
		return -ENOMEM;
	if (!f || !(ret = mdl_fit_load(a->fit, f, err)))
		ret = mdl_explain_results(a->results[0], f, a->format, out, err);
	free(f);
	return ret;
}

/* -o may not name one of the inputs: the output is renamed over it. */
static int output_not_input(const struct model_args *a, struct ioc_err *err)
{
	const char *in[2 * MODEL_MAX_INPUTS + 2] = {a->fit, a->config};
	unsigned n = 2;

	for (unsigned i = 0; i < a->nr_figures; i++)
		in[n++] = a->figures[i];
	for (unsigned i = 0; i < a->nr_results; i++)
		in[n++] = a->results[i];
	for (unsigned i = 0; a->output && i < n; i++)
		if (in[i] && results_file_same(a->output, in[i]))
			return err_usage(err, EINVAL,
					 "-o %s: also an input (%s); the output needs a file "
					 "of its own",
					 a->output, in[i]);
	return 0;
}

int cmd_model(int argc, char **argv)
{
	struct model_args a;
	struct ioc_err err = {0};
	struct sink s;
	int ret;

	if (model_args_parse(argc, argv, &a, &err)) {
		fprintf(stderr, "iochar model: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (a.help) {
		model_args_help(stdout);
		return 0;
	}
	if (output_not_input(&a, &err) || sink_open(&s, a.output, a.force, &err)) {
		fprintf(stderr, "iochar model: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	if (!strcmp(a.sub, "fit"))
		ret = do_fit(&a, s.f, &err);
	else if (!strcmp(a.sub, "predict"))
		ret = do_predict(&a, s.f, &err);
	else if (!strcmp(a.sub, "explain"))
		ret = do_explain(&a, s.f, &err);
	else
		ret = do_rows(&a, NULL, s.f, &err);
	ret = sink_close(&s, ret, &err);
	if (!ret)
		return 0;
	/* stdout's own failure is main's stdout_end line, with its errno */
	if (!err.msg[0] && !a.output && stdout_failed())
		return 1;
	fprintf(stderr, "iochar model: %s\n", err.msg[0] ? err.msg : strerror(-ret));
	return err.usage ? EXIT_USAGE : 1;
}

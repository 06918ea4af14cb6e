/* test_model_compare.c - a measurement beside the model's prediction
 * outside `iochar model`: `compare --predicted` (text, JSON, CSV) on the
 * report fixture's plan, by the self-fit and by a model file from `iochar
 * model fit` (`--fit`, for compare and for the report), a missing or bad
 * model file refused with exit 2 before anything is written, and the
 * "model" member a finished plan's scaling steps carry in results.json
 * (a real small plan over files on /dev/shm), which the reader takes, as
 * it takes older files without it. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "report_fixture.h"

#define RATE 3000
#define STATED_ERROR 0.15

static const char *const bounds[] = {"drives", "drive-link", "controller", "parity",
				     "hba", "pcie-link", "cpu"};

static void expect_bound(const char *b)
{
	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		if (!strcmp(b, bounds[i]))
			return;
	fail_msg("bound_by %s: not a component of the model", b);
}

/* model.workloads[] of compare JSON: the entry of workload key. */
static json_object *model_row(json_object *root, const char *key)
{
	json_object *a = jget(root, "model.workloads");
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!strcmp(json_object_get_string(jget(e, "workload")), key))
			return e;
	}
	fail_msg("model.workloads: no %s", key);
	return NULL;
}

static json_object *compare_json(const char *cwd, const char *const *args)
{
	struct proc_out po;
	run_iochar(&po, cwd, 0, args);
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	proc_out_free(&po);
	return o;
}

/* The fixture's plan (fixed, search, curve, a sequential scaling step on
 * two null-engine targets) beside the model fitted on itself. */
static void test_compare_predicted(void **state)
{
	const char *dir = *state;
	struct proc_out po;

	fixture_plan(dir, "a");
	/* one set is enough with --predicted, not without */
	run_iochar(&po, dir, 0, ARGS("compare", "a"));
	expect_exit(&po, 2);
	proc_out_free(&po);

	run_iochar(&po, dir, 0, ARGS("compare", "a", "--predicted"));
	expect_exit(&po, 0);
	expect_has(po.out, "model: predicted by the model fitted on each set's own "
			   "single-target and scaling steps");
	expect_has(po.out, "seq (2 targets)");
	expect_has(po.out, "bound_by");
	proc_out_free(&po);

	json_object *j = compare_json(dir, ARGS("compare", "a", "--predicted",
						    "--output-format=json"));
	assert_true(json_object_is_type(jget(j, "model"), json_type_object));
	json_object *fv = NULL;
	assert_true(json_object_object_get_ex(jget(j, "model"), "fit", &fv));
	assert_null(fv); /* null: each set's self-fit */
	json_object *rows = jget(j, "model.workloads");
	assert_true(json_object_array_length(rows) >= 3);
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *e = json_object_array_get_idx(rows, i);
		expect_bound(json_object_get_string(jget(e, "bound_by")));
		assert_true(jget_double(e, "predicted") > 0);
		assert_in_range((int64_t)(jget_double(e, "utilization") * 1000), 0, 1000);
	}
	/* the measured side is compare's own value; the error is of the two */
	json_object *one = model_row(j, "seq (1 target)");
	assert_string_equal(json_object_get_string(jget(one, "metric")), "bw_bytes");
	double measured = jget_double(one, "measured");
	double predicted = jget_double(one, "predicted");
	json_object *v0 = json_object_array_get_idx(jget(compare_workload(j, "seq (1 target)"),
							  "values"), 0);
	assert_true(fabs(jget_double(v0, "value") - measured) <= 1e-6 * measured);
	/* the error is the held-out one (the point predicted by the model
	 * fitted on the others), and the side says how the model validates */
	assert_true(jget_double(one, "error_pct") >= 0);
	const char *val = json_object_get_string(jget(j, "model.validation"));
	if (!strstr(val, "a: held-out error ") && !strstr(val, "a: unvalidated: held-out error "))
		fail_msg("validation: %s", val);
	/* the same self-fit as `iochar model explain`: the same prediction and bound
	 * (explain in MB/s) */
	run_iochar(&po, dir, 0, ARGS("model", "explain", "a", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *x = json_tokener_parse(po.out); /* an array of steps */
	proc_out_free(&po);
	assert_true(json_object_is_type(x, json_type_array));
	bool seen = false;
	for (size_t i = 0; i < json_object_array_length(x); i++) {
		json_object *st = json_object_array_get_idx(x, i);
		if (strcmp(json_object_get_string(jget(st, "label")), "seq"))
			continue;
		json_object *set0 = json_object_array_get_idx(jget(st, "sets"), 0);
		assert_int_equal(jget_u64(set0, "targets"), 1);
		if (fabs(jget_double(set0, "predicted") * 1e6 - predicted) > 1e-6 * predicted)
			fail_msg("compare predicts %.0f B/s, explain %.3f MB/s", predicted,
				 jget_double(set0, "predicted"));
		assert_string_equal(json_object_get_string(jget(set0, "bound_by")),
				    json_object_get_string(jget(one, "bound_by")));
		seen = true;
	}
	assert_true(seen);
	json_object_put(x);
	json_object_put(j);

	/* without --predicted, no model side in any format */
	j = compare_json(dir, ARGS("compare", "a", "a/results.json", "--output-format=json"));
	assert_false(json_object_object_get_ex(j, "model", NULL));
	json_object_put(j);
	run_iochar(&po, dir, 0, ARGS("compare", "a", "a/results.json", "--output-format=csv"));
	expect_exit(&po, 0);
	assert_null(strstr(po.out, "predicted"));
	proc_out_free(&po);

	/* CSV: four more columns on every row, the model's figures filled in */
	run_iochar(&po, dir, 0, ARGS("compare", "a", "--predicted", "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, ",verdict,predicted,predicted_error_pct,bound_by,utilization\n");
	char *line = strstr(po.out, "\nseq (1 target),");
	assert_non_null(line);
	char row[512];
	snprintf(row, sizeof(row), "%.*s", (int)strcspn(line + 1, "\n"), line + 1);
	unsigned commas = 0;
	for (const char *p = row; *p; p++)
		commas += *p == ',';
	assert_int_equal(commas, 21); /* 18 columns, then the model's 4 */
	double value = atof(strchr(strchr(strchr(row, ',') + 1, ',') + 1, ',') + 1);
	assert_true(fabs(value - measured) < 1e-3 * measured);
	const char *verdict = strstr(row, ",reference,");
	assert_non_null(verdict);
	assert_true(fabs(atof(verdict + 11) - predicted) < 1e-3 * predicted);
	const char *last = strrchr(row, ',');
	assert_in_range((int64_t)(atof(last + 1) * 1000), 0, 1000);
	proc_out_free(&po);
}

static void halve_rates(json_object *fit)
{
	static const char *const rates[] = {"rr_iops", "rw_iops", "rr_media_iops", "sr_mbps",
					    "sw_mbps"};
	json_object *drives = jget(fit, "drives");
	for (size_t i = 0; i < json_object_array_length(drives); i++)
		for (size_t k = 0; k < sizeof(rates) / sizeof(rates[0]); k++) {
			json_object *drv = json_object_array_get_idx(drives, i), *v;
			if (json_object_object_get_ex(drv, rates[k], &v))
				json_object_object_add(drv, rates[k],
						       json_object_new_double(json_object_get_double(v) / 2));
		}
	json_object *host = jget(fit, "host"), *cpu;
	if (json_object_object_get_ex(host, "cpu_us_per_io", &cpu))
		json_object_object_add(host, "cpu_us_per_io",
				       json_object_new_double(json_object_get_double(cpu) * 2));
}

/* Every model row's prediction in compare JSON, in order, into out. */
static unsigned predictions(json_object *j, double *out, unsigned max)
{
	json_object *a = jget(j, "model.workloads");
	unsigned n = (unsigned)json_object_array_length(a);
	assert_true(n > 0 && n <= max);
	for (unsigned i = 0; i < n; i++)
		out[i] = jget_double(json_object_array_get_idx(a, i), "predicted");
	return n;
}

/* --fit: the given model instead of the self-fit. A fit of the set's own
 * results predicts what the self-fit does; the same fit with every rate
 * halved predicts half of that, so compare and report use that model. */
static void test_compare_fit(void **state)
{
	const char *dir = *state;
	char fit[512], half[512], arg[600];
	double self[64], own[64], halved[64];
	struct proc_out po;

	fixture_plan(dir, "a");
	snprintf(fit, sizeof(fit), "%s/fit.json", dir);
	snprintf(arg, sizeof(arg), "--results=%s/a", dir);
	run_iochar(&po, dir, 0, ARGS("model", "fit", arg, "-o", fit));
	expect_exit(&po, 0);
	proc_out_free(&po);

	json_object *j = compare_json(dir, ARGS("compare", "a", "--predicted", "--output-format=json"));
	unsigned n = predictions(j, self, 64);
	json_object_put(j);
	snprintf(arg, sizeof(arg), "--fit=%s", fit);
	j = compare_json(dir, ARGS("compare", "a", arg, "--output-format=json"));
	assert_string_equal(json_object_get_string(jget(j, "model.fit")), fit);
	assert_int_equal(predictions(j, own, 64), n);
	for (unsigned i = 0; i < n; i++)
		if (fabs(own[i] - self[i]) > 1e-6 * self[i])
			fail_msg("row %u: --fit of its own results %.1f, self-fit %.1f", i, own[i], self[i]);
	json_object_put(j);

	json_object *f = json_object_from_file(fit);
	assert_non_null(f);
	halve_rates(f);
	snprintf(half, sizeof(half), "%s/half.json", dir);
	assert_int_equal(json_object_to_file(half, f), 0);
	json_object_put(f);
	snprintf(arg, sizeof(arg), "--fit=%s", half);
	j = compare_json(dir, ARGS("compare", "a", arg, "--output-format=json"));
	assert_int_equal(predictions(j, halved, 64), n);
	for (unsigned i = 0; i < n; i++)
		if (fabs(halved[i] / self[i] - 0.5) > 0.01)
			fail_msg("row %u: --fit with halved rates %.1f, self-fit %.1f", i, halved[i],
				 self[i]);
	json_object_put(j);

	run_iochar(&po, dir, 0, ARGS("compare", "a", arg));
	expect_exit(&po, 0);
	expect_has(po.out, "model: predicted by the model in ");
	expect_has(po.out, half);
	proc_out_free(&po);

	/* the report's predicted beside measured says which model */
	char *html = fixture_report_html(dir, "r.html", ARGS("a", arg));
	expect_has(html, "<section id=\"model\"><h2>Predicted beside measured</h2>");
	expect_has(html, ": predicted by the model in ");
	expect_has(html, half);
	free(html);
	html = fixture_report(dir, "a");
	expect_has(html, ": predicted by the model fitted on its own single-target and scaling steps");
	free(html);
}

/* A missing or bad model file: exit 2, one line naming it, nothing written. */
static void test_bad_fit(void **state)
{
	const char *dir = *state;
	char bad[512], notjson[512], arg[600], out[600];
	struct proc_out po;

	fixture_synthetic(dir, "s", (const struct synth_workload[]){{"w", 1000, 0.01, 5}}, 1);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	fixture_write(bad, "{\"hello\": 1}\n", 13);
	snprintf(notjson, sizeof(notjson), "%s/notjson.json", dir);
	fixture_write(notjson, "drives,1\n", 9);
	const char *files[] = {bad, notjson, "/dev/shm/no-such-iochar-fit.json"};
	for (unsigned i = 0; i < 3; i++) {
		snprintf(arg, sizeof(arg), "--fit=%s", files[i]);
		snprintf(out, sizeof(out), "%s/out-%u", dir, i);
		run_iochar(&po, dir, 0, ARGS("compare", "s", arg, "-o", out));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, files[i]);
		proc_out_free(&po);
		assert_false(file_exists(out));
		run_iochar(&po, dir, 0, ARGS("report", "s", arg, "-o", out));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, files[i]);
		proc_out_free(&po);
		assert_false(file_exists(out));
	}
	run_iochar(&po, dir, 0, ARGS("compare", "s", "--fit"));
	expect_exit(&po, 2);
	expect_has(po.err, "--fit: needs a model file");
	proc_out_free(&po);
	/* the report always has its predictions */
	run_iochar(&po, dir, 0, ARGS("report", "s", "--predicted", "-o", "r.html"));
	expect_exit(&po, 2);
	expect_has(po.err, "--predicted");
	proc_out_free(&po);
	/* an older file, no model member anywhere: the model side still works */
	run_iochar(&po, dir, 0, ARGS("compare", "s", "--predicted"));
	expect_exit(&po, 0);
	expect_has(po.out, "model: predicted by");
	proc_out_free(&po);
}

static json_object *step_of(json_object *results, unsigned i)
{
	return json_object_array_get_idx(jget(results, "steps"), i);
}

/* A real small plan over two files on /dev/shm, rate-limited so the
 * figures hold on a loaded machine: a scaling step and a fixed one. */
static void test_plan_model_member(void **state)
{
	const char *dir = *state;
	char plan[2048], path[512], res[600], step[600];
	struct proc_out po;

	snprintf(plan, sizeof(plan),
		 "[global]\nioengine=psync\ndirect=0\nsize=4m\ntime_based\nruntime=1s\n"
		 "rate_iops=%d\n[rand]\nrw=randread\nbs=4k\ntargets=scaling\nfilename=%s/t0:%s/t1\n"
		 "[one]\nrw=randread\nbs=4k\nruntime=300ms\nfilename=%s/t0\n",
		 RATE, dir, dir, dir);
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	fixture_write(path, plan, strlen(plan));
	run_iochar(&po, dir, 0, ARGS("plan", path, "--out", "out"));
	expect_exit(&po, 0);
	/* the model's line: with its held-out error, or unvalidated and no
	 * bound (below, as results.json's validated says) */
	expect_has(po.out, "model: rand: ");
	char line[400];
	snprintf(line, sizeof(line), "%s", strstr(po.out, "model: rand: "));
	proc_out_free(&po);

	snprintf(res, sizeof(res), "%s/out/results.json", dir);
	char *text = fixture_slurp(res, NULL);
	/* still iochar's layout: a later plan --out may write over it */
	assert_int_equal(strncmp(text, "{\n  \"iochar_version\": ", 22), 0);
	free(text);
	json_object *r = json_object_from_file(res);
	assert_non_null(r);
	json_object *s0 = step_of(r, 0), *m = jget(s0, "model");
	assert_string_equal(json_object_get_string(jget(m, "metric")), "iops");
	assert_int_equal(jget_u64(m, "targets"), 2);
	expect_bound(json_object_get_string(jget(m, "bound_by")));
	assert_in_range((int64_t)(jget_double(m, "utilization") * 1000), 0, 1000);
	assert_int_equal(json_object_array_length(jget(m, "points")), 2);
	/* every point at the job's rate (on a quiet machine): each predicted
	 * by the model fitted on the two others is right but the 2-target
	 * one, from the 1-target points alone: twice. A loaded machine can
	 * slow the short "one" step, and then the model is unvalidated. */
	const char *why = json_object_get_string(jget(m, "why"));
	if (json_object_get_boolean(jget(m, "validated"))) {
		expect_has(json_object_get_string(jget(m, "validation")),
			   "(median; each of 3 points predicted by the model fitted on the others)");
		expect_has(why, "bound by ");
		expect_has(line, "(held-out error ");
	} else {
		expect_has(json_object_get_string(jget(m, "validation")), "unvalidated: held-out error ");
		expect_has(why, "no bound stated");
		assert_null(strstr(why, "bound by"));
		assert_null(strstr(line, "bound by"));
	}
	double e1 = jget_double(json_object_array_get_idx(jget(m, "points"), 1), "held_out_error_pct");
	if (fabs(e1 - 100) > STATED_ERROR * 100)
		fail_msg("held-out error on 2 targets %.1f %%, not ~100 %%", e1);
	/* the knee: the job's thread binds from the first or second target on */
	assert_in_range(jget_u64(m, "knee_targets"), 1, 2);
	expect_bound(json_object_get_string(jget(m, "knee_cause")));
	/* predicted beside what the step measured on two targets */
	json_object *pts = jget(s0, "scaling.points");
	double got = jget_double(json_object_array_get_idx(pts, 1), "iops");
	double pred = jget_double(m, "predicted");
	if (fabs(pred - got) > STATED_ERROR * got)
		fail_msg("model.predicted %.0f IOPS on 2 targets, measured %.0f", pred, got);
	/* only scaling steps carry it, and only results.json */
	assert_false(json_object_object_get_ex(step_of(r, 1), "model", NULL));
	json_object_put(r);
	snprintf(step, sizeof(step), "%s/out/steps/000.json", dir);
	r = json_object_from_file(step);
	assert_non_null(r);
	assert_false(json_object_object_get_ex(r, "model", NULL));
	json_object_put(r);

	/* the reader takes it (results.json read as a file has its steps) */
	run_iochar(&po, dir, 0, ARGS("compare", "out/results.json", "out", "--predicted"));
	expect_exit(&po, 0);
	expect_has(po.out, "rand (2 targets)");
	proc_out_free(&po);
	/* and refuses a model member of the wrong shape with one line */
	r = json_object_from_file(res);
	json_object_object_add(jget(step_of(r, 0), "model"), "targets",
			       json_object_new_string("two"));
	snprintf(path, sizeof(path), "%s/broken.json", dir);
	assert_int_equal(json_object_to_file(path, r), 0);
	json_object_put(r);
	run_iochar(&po, dir, 0, ARGS("compare", "broken.json", "--predicted"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "model.targets");
	proc_out_free(&po);

	/* JSON output: the member is written, no model lines in the JSON */
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--out", "out2", "--output-format=json"));
	expect_exit(&po, 0);
	assert_null(strstr(po.out, "model: rand"));
	proc_out_free(&po);
	snprintf(res, sizeof(res), "%s/out2/results.json", dir);
	r = json_object_from_file(res);
	assert_non_null(r);
	assert_true(json_object_object_get_ex(step_of(r, 0), "model", NULL));
	json_object_put(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_compare_predicted, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_compare_fit, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_fit, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_model_member, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

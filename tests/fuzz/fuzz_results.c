/* fuzz_results.c - libFuzzer target for the results reader
 * (report/results_read.h) and what is drawn from what it reads.
 *
 * The input is one document: a plan's results.json (with its steps), a
 * run JSON, a network result ("kind": "net") or an application run
 * ("iochar_app": 1, rendered with a synthetic plan's shapes beside it). Besides the sanitizers,
 * the target checks the reader's contract: a refusal is a usage error with a one-line message naming the
 * file; an accepted set renders as a whole HTML page, and compares with
 * itself in every format, model side included, whatever numbers it holds
 * (NaN, huge, zero).
 *
 *     make fuzz && build-fuzz/fuzz_results tests/fuzz/corpus/results
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/report.h"
#include "report/app_text.h"
#include "report/report_app.h"
#include "report/report_preds.h"
#include "report/results_read.h"

#include "fuzz.h"

/* Predictions for every step and target set of s, as cmd/ makes them
 * with the model (here: 1.5 x the headline, whatever it holds), so the
 * model side's matching and writers see every shape the reader takes.
 * 0 or -ENOMEM; p is freed by report_preds_free in every case. */
static int fake_preds(const struct rs_set *s, struct report_preds *p)
{
	memset(p, 0, sizeof(*p));
	if (!(p->steps = calloc(s->nr_steps ? s->nr_steps : 1, sizeof(*p->steps))))
		return -ENOMEM;
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		struct report_pred_step *ps = &p->steps[p->nr_steps++];
		unsigned n = st->nr_sets ? st->nr_sets : 1;
		ps->step = i;
		ps->iops = rs_step_is_random(st);
		ps->nr_sets = st->nr_sets;
		ps->predicted = calloc(n, sizeof(*ps->predicted));
		ps->bound = calloc(n, sizeof(*ps->bound));
		ps->util = calloc(n, sizeof(*ps->util));
		if (!ps->predicted || !ps->bound || !ps->util)
			return -ENOMEM;
		for (unsigned k = 0; k < st->nr_sets; k++) {
			const struct rs_point *h = rs_tset_headline(st, &st->sets[k]);
			ps->predicted[k] = h ? 1.5 * (ps->iops ? h->total.iops : h->total.bw_bytes) : 0;
			snprintf(ps->bound[k], sizeof(ps->bound[k]), "drives");
			ps->util[k] = 0.5;
		}
	}
	return 0;
}

/* Two sides of copies of one set: every output writes, nothing differs
 * beyond its noise, nothing is not comparable; with the model's side too. */
static void compare_check(const struct rs_set *sets, const unsigned *runs)
{
	struct cmp_table t;
	struct report_preds preds[3];
	char *buf = NULL;
	size_t len = 0;
	if (compare_build_sides(sets, runs, 2, &t))
		return;
	int ret = 0;
	for (unsigned i = 0; i < 3; i++)
		ret |= fake_preds(&sets[0], &preds[i]);
	if (!ret)
		ret = compare_add_predictions(&t, preds);
	for (unsigned i = 0; i < 3; i++)
		report_preds_free(&preds[i]);
	if (ret) {
		compare_free(&t);
		return;
	}
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	CHECK(compare_write_text(&t, f) == 0);
	CHECK(compare_write_json(&t, f) == 0);
	CHECK(compare_write_csv(&t, f) == 0);
	CHECK(fclose(f) == 0);
	free(buf);
	for (unsigned r = 0; r < t.nr_rows; r++) {
		CHECK(t.rows[r].v[1].verdict != CMP_SIGNIFICANT);
		CHECK(t.rows[r].v[1].verdict != CMP_NOT_COMPARABLE);
	}
	compare_free(&t);
}

static void render(const struct rs_set *set)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	/* an app run's trace against two shapes, as cmd/ makes them */
	static const struct report_shape shapes[2] = {
		{"data", 0.7, 1, {8192}, {1}},
		{"redo", 0, 2, {4096, 16384}, {0.5, 0.5}},
	};
	static const unsigned one = 1;
	const struct report_app_extras x = {.shapes_plan = "oltp", .shapes = shapes,
					    .nr_shapes = 2};
	int ret = report_write_html_ext(set, 1, &one, 1, NULL, &x, f);
	CHECK(fclose(f) == 0);
	if (ret != -ENOMEM) {
		CHECK(ret == 0);
		CHECK(len > 15 && !strcmp(buf + len - 15, "</body></html>\n"));
	}
	free(buf);
	if (set->app) { /* iochar report --output-format=text */
		buf = NULL;
		f = open_memstream(&buf, &len);
		CHECK(f);
		CHECK(report_app_write_text(set->name, set->app, f) == 0);
		CHECK(fclose(f) == 0);
		free(buf);
	}

	/* against itself, as single runs and as a side of two repeats */
	struct rs_set three[3] = {*set, *set, *set};
	static const unsigned singles[2] = {1, 1}, repeats[2] = {2, 1};
	compare_check(three, singles);
	compare_check(three, repeats);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ioc_err err = {0};
	struct rs_set s;

	int ret = results_read_text((const char *)data, size, "in.json", &s, &err);
	if (ret) {
		CHECK(ret < 0);
		if (ret != -ENOMEM) {
			CHECK(err.usage == 1);
			CHECK(!strncmp(err.msg, "in.json: ", 9));
			CHECK(!strchr(err.msg, '\n'));
		}
	} else {
		render(&s);
	}
	rs_set_free(&s);
	return 0;
}

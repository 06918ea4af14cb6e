/* test_report.c - `iochar report` end to end: bad inputs are refused with
 * one line naming the file (exit 2, no report left behind); the report of
 * a real plan has every chart with as many data points as the results
 * hold, nothing fetched from anywhere; its command lines run; run JSON
 * files are read too. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "report_fixture.h"

static unsigned dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* iochar report INPUT -o DIR/out/r.html must fail with exit 2 and one
 * line holding want, leaving DIR/out empty. */
static void expect_refused(const char *dir, const char *input, const char *want)
{
	char out[4400], outdir[4200];
	struct proc_out po;
	snprintf(outdir, sizeof(outdir), "%s/out", dir);
	mkdir(outdir, 0755);
	snprintf(out, sizeof(out), "%s/r.html", outdir);
	run_iochar(&po, dir, 0, ARGS("report", input, "-o", out));
	expect_exit(&po, 2);
	if (count_lines(po.err) != 1)
		fail_msg("%s: want one line, got: %s", input, po.err);
	expect_has(po.err, want);
	assert_int_equal(dir_entries(outdir), 0);
	proc_out_free(&po);
	/* compare refuses it alike */
	run_iochar(&po, dir, 0, ARGS("compare", input, input));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, want);
	proc_out_free(&po);
}

static void make_dir_with(const char *dir, const char *name, const char *results,
			  size_t len)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/%s/results.json", dir, name);
	fixture_write(p, results, len);
}

static void test_bad_inputs(void **state)
{
	const char *dir = *state;
	char p[4400], good[4400];
	size_t len;

	expect_refused(dir, "no-such-dir", "no-such-dir: No such file or directory");
	snprintf(p, sizeof(p), "%s/empty", dir);
	mkdir(p, 0755);
	expect_refused(dir, "empty", "empty: no results.json: not an iochar results directory");

	/* a real results directory, then damaged copies of its files */
	fixture_plan(dir, "good");
	snprintf(good, sizeof(good), "%s/good/results.json", dir);
	char *text = fixture_slurp(good, &len);
	make_dir_with(dir, "trunc", text, len / 2);
	expect_refused(dir, "trunc", "trunc/results.json: truncated");
	make_dir_with(dir, "garbage", "{\"iochar_version\": [1,,]}", 25);
	expect_refused(dir, "garbage", "garbage/results.json: not JSON");
	make_dir_with(dir, "zero", "", 0);
	expect_refused(dir, "zero", "zero/results.json: empty");
	make_dir_with(dir, "foreign", "{\"name\": \"x\", \"steps\": []}", 26);
	expect_refused(dir, "foreign", "foreign/results.json: not iochar's results");

	char *newer = strdup(text);
	char *v = strstr(newer, "\"format_version\": 1");
	assert_non_null(v);
	v[strlen("\"format_version\": ")] = '9';
	make_dir_with(dir, "newer", newer, len);
	expect_refused(dir, "newer", "newer/results.json: format_version 9 is newer");
	free(newer);

	/* a step file cut short: the directory is refused, naming the step */
	snprintf(p, sizeof(p), "cp -R %s/good %s/badstep", dir, dir);
	assert_int_equal(system(p), 0);
	snprintf(p, sizeof(p), "%s/badstep/steps/001.json", dir);
	char *step = fixture_slurp(p, &len);
	fixture_write(p, step, len - 10);
	free(step);
	expect_refused(dir, "badstep", "badstep/steps/001.json: truncated");

	/* a member of the wrong type, named with its path */
	snprintf(p, sizeof(p), "%s/badstep/steps/001.json", dir);
	const char *bad_member =
		"{\"index\": 1, \"label\": \"x\", \"mode\": \"fixed\", \"options\": {}, \"sets\": []}";
	fixture_write(p, bad_member, strlen(bad_member));
	expect_refused(dir, "badstep", "badstep/steps/001.json: options.name: missing");

	/* run JSON files */
	snprintf(p, sizeof(p), "%s/run.json", dir);
	const char *run_bad = "{\"iochar_version\": \"0.1.0\", \"options\": [], \"total\": 5}";
	fixture_write(p, run_bad, strlen(run_bad));
	expect_refused(dir, "run.json", "run.json: options: no job");
	fixture_write(p, "[1, 2]", 6);
	expect_refused(dir, "run.json", "run.json: not iochar's results");
	free(text);
}

/* report (and compare) of INPUT, killed if it hangs: exit 2, one line
 * naming what. */
static void expect_refused_soon(const char *dir, const char *cmd, const char *input,
				const char *what)
{
	struct proc_out po;
	if (!strcmp(cmd, "report"))
		run_iochar_signal(&po, dir, SIGKILL, 10000, ARGS(cmd, input, "-o", "r.html"));
	else
		run_iochar_signal(&po, dir, SIGKILL, 10000, ARGS(cmd, input, input));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, what);
	expect_has(po.err, "not a regular file");
	proc_out_free(&po);
}

/* Issue 37 H13: a results.json (or a results file) that is a FIFO is
 * refused at once, not waited on for a writer that never comes. */
static void test_fifo_refused(void **state)
{
	const char *dir = *state;
	char p[4400];
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/fifo/results.json", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/run.json", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	expect_refused_soon(dir, "report", "fifo", "fifo/results.json");
	expect_refused_soon(dir, "compare", "fifo", "fifo/results.json");
	expect_refused_soon(dir, "report", "run.json", "run.json");
	snprintf(p, sizeof(p), "%s/r.html", dir);
	assert_int_not_equal(access(p, F_OK), 0);
}

/* dir/name: "[" then n copies of item, ','-separated, then "]". */
static void write_array(const char *dir, const char *name, const char *item, unsigned n)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputc('[', f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : "", item);
	fputc(']', f);
	assert_int_equal(fclose(f), 0);
}

/* `iochar report NAME` in dir under ulimit -v kib (0: none): its exit status, and
 * its one line of stderr must hold want; no report written. */
static void expect_report_fails(const char *dir, const char *name, unsigned kib,
				int status, const char *want)
{
	char p[4400], cmd[9000];
	size_t len;
	char limit[64] = "";
	if (kib)
		snprintf(limit, sizeof(limit), "ulimit -v %u; ", kib);
	snprintf(cmd, sizeof(cmd), "cd '%s' && (%sexec '%s' report %s -o r.html) 2>err; "
		 "echo $? >rc", dir, limit, iochar_path(), name);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof(p), "%s/err", dir);
	char *err = fixture_slurp(p, &len);
	assert_int_equal(count_lines(err), 1);
	expect_has(err, want);
	free(err);
	snprintf(p, sizeof(p), "%s/rc", dir);
	char *rc = fixture_slurp(p, &len);
	assert_int_equal(atoi(rc), status);
	free(rc);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	assert_int_not_equal(access(p, F_OK), 0);
}

/* Issue 37 H7: json-c failing to allocate was told as "not JSON: success
 * at byte N", and a document's tree could cost hundreds of times its
 * size. A million {} in 3 MB (about 800 MB as json-c's tree) is refused
 * before parsing, with its cost; 3 million numbers in 6 MB (about 220
 * MB) under a 150 MB address-space limit run out: one line, out of
 * memory, naming the file. */
static void test_json_memory_bounded(void **state)
{
	const char *dir = *state;
	write_array(dir, "dense.json", "{}", 1000000);
	expect_report_fails(dir, "dense.json", 0, 2, "more than 40 times its 3000001 bytes");
#if defined(__SANITIZE_ADDRESS__)
	skip(); /* AddressSanitizer reserves terabytes: ulimit -v breaks it */
#else
	write_array(dir, "nums.json", "1", 3000000);
	expect_report_fails(dir, "nums.json", 150000, 1, "nums.json: out of memory reading it");
#endif
}

/* Sum of what the report must draw, counted from results.json itself. */
struct expect {
	unsigned bars_charts, bars_points;
	unsigned curve_charts, curve_points;
	unsigned curve_maxes, not_reached; /* curve steps' target sets; points not reached */
	unsigned pct_points, series_charts, series_points;
	unsigned scaling_charts, scaling_points;
};

static void count_expected(json_object *r, struct expect *e)
{
	json_object *steps = jget(r, "steps");
	bool any_iops = false, any_bw = false;
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < json_object_array_length(steps); i++) {
		json_object *st = json_object_array_get_idx(steps, i);
		const char *mode = json_object_get_string(jget(st, "mode"));
		bool rnd = !strncmp(json_object_get_string(jget(st, "options.rw")), "rand", 4);
		json_object *sets = jget(st, "sets");
		for (size_t k = 0; k < json_object_array_length(sets); k++) {
			json_object *set = json_object_array_get_idx(sets, k), *head = NULL;
			if (!strcmp(mode, "fixed"))
				head = jget(set, "fixed");
			else if (!strcmp(mode, "search")) {
				head = jget(set, "best");
				e->curve_charts++;
				json_object *pts = jget(set, "points");
				e->curve_points += json_object_array_length(pts);
				/* a point run twice: its other run drawn too */
				for (size_t q = 0; q < json_object_array_length(pts); q++)
					e->curve_points += json_object_object_get_ex(
					    json_object_array_get_idx(pts, q), "other_run", NULL);
			} else if (!strcmp(mode, "curve")) {
				head = jget(set, "max");
				e->curve_charts++;
				e->curve_maxes++;
				json_object *cv = jget(set, "curve");
				for (size_t q = 0; q < json_object_array_length(cv); q++)
					e->not_reached += !json_object_get_boolean(
						jget(json_object_array_get_idx(cv, q), "reached"));
				e->curve_points += 1 + json_object_array_length(jget(set, "curve"));
				json_object *again; /* the maximum re-measured: a square of its own */
				if (json_object_object_get_ex(set, "max_again", &again) && again)
					e->curve_points++;
			}
			if (!head)
				continue;
			/* a bar and its latency point */
			e->bars_points += 2;
			any_iops |= rnd;
			any_bw |= !rnd;
			e->pct_points += 6;
			/* a series of 3 seconds with I/O or more is drawn: fewer is
			 * a dot or two */
			json_object *iv = jget(head, "intervals");
			unsigned busy = 0;
			for (size_t q = 0; q < json_object_array_length(iv); q++)
				busy += json_object_get_double(jget(json_object_array_get_idx(iv, q), "iops")) > 0;
			if (busy >= 3) {
				e->series_charts++;
				e->series_points += 2 * json_object_array_length(iv);
			}
		}
		json_object *sc;
		if (json_object_object_get_ex(st, "scaling", &sc)) {
			e->scaling_charts++;
			/* the total and the latency at each count */
			e->scaling_points += 2 * json_object_array_length(jget(sc, "points"));
		}
	}
	e->bars_charts = any_iops + any_bw;
}

struct drawn {
	unsigned charts, points;
};

/* Every <svg class="chart" data-chart=KIND data-points=N>: N must equal
 * the data marks inside it; sums per kind. */
static struct drawn count_drawn(const char *html, const char *kind)
{
	struct drawn d = {0, 0};
	char want[64];
	snprintf(want, sizeof(want), "data-chart=\"%s\" data-points=\"", kind);
	for (const char *p = strstr(html, want); p; p = strstr(p + 1, want)) {
		unsigned n = (unsigned)strtoul(p + strlen(want), NULL, 10);
		const char *end = strstr(p, "</svg>");
		assert_non_null(end);
		unsigned marks = 0;
		for (const char *q = strstr(p, "class=\"dp "); q && q < end;
		     q = strstr(q + 1, "class=\"dp "))
			marks++;
		if (marks != n)
			fail_msg("%s chart says %u points, draws %u", kind, n, marks);
		d.charts++;
		d.points += n;
	}
	return d;
}

static void expect_drawn(const char *html, const char *kind, unsigned charts,
			 unsigned points)
{
	struct drawn d = count_drawn(html, kind);
	if (d.charts != charts || d.points != points)
		fail_msg("%s: %u charts with %u points, want %u with %u", kind, d.charts,
			 d.points, charts, points);
}

static void test_report_content(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct proc_out po;
	struct expect e;

	fixture_plan(dir, "res");
	run_iochar(&po, dir, 0, ARGS("report", "res", "-o", "r.html"));
	expect_exit(&po, 0);
	expect_has(po.err, "r.html");
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/res/results.json", dir);
	json_object *r = json_object_from_file(p);
	assert_non_null(r);
	count_expected(r, &e);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	char *html = fixture_slurp(p, NULL);

	/* the plan has every kind of chart */
	assert_true(e.curve_charts >= 2 && e.scaling_charts == 1 && e.bars_charts == 2);
	expect_drawn(html, "bars", e.bars_charts, e.bars_points);
	expect_drawn(html, "curve", e.curve_charts, e.curve_points);
	/* seven workloads a chart, one colour each */
	expect_drawn(html, "percentiles", (e.pct_points / 6 + 6) / 7, e.pct_points);
	expect_drawn(html, "series", e.series_charts, e.series_points);
	expect_drawn(html, "scaling", e.scaling_charts, e.scaling_points);
	/* the chosen points and the saturation are marked */
	struct drawn c = count_drawn(html, "curve");
	unsigned chosen = 0;
	for (const char *q = strstr(html, "class=\"chosen\""); q; q = strstr(q + 1, "class=\"chosen\""))
		chosen++;
	assert_true(chosen >= c.charts);
	json_object *steps = jget(r, "steps"), *sc = NULL;
	for (size_t i = 0; i < json_object_array_length(steps) && !sc; i++)
		json_object_object_get_ex(json_object_array_get_idx(steps, i), "scaling", &sc);
	assert_non_null(sc);
	expect_has(html, json_object_get_string(jget(sc, "message")));
	/* a curve's closed-loop maximum is a square of its own, its points
	 * carry their %; a search's points their QDxjobs, one line per job
	 * count; an open-loop point not reached is hollow */
	unsigned squares = 0, hollow = 0, notreached = 0;
	for (const char *q = strstr(html, "class=\"dp pt square"); q; q = strstr(q + 1, "class=\"dp pt square"))
		squares++;
	for (const char *q = strstr(html, "class=\"dp pt hollow"); q; q = strstr(q + 1, "class=\"dp pt hollow"))
		hollow++;
	for (const char *q = strstr(html, ", not reached"); q; q = strstr(q + 1, ", not reached"))
		notreached++;
	assert_int_equal(squares, e.curve_maxes);
	assert_int_equal(notreached, e.not_reached);
	assert_true(hollow >= notreached); /* and the search's points over the limit */
	expect_has(html, "<text class=\"pt-label\"");
	/* a scaling step's target sets are named by their size */
	expect_has(html, "seq (1 target)");
	expect_has(html, "seq (2 targets)");
	assert_null(strstr(html, "seq #2"));
	expect_has(html, "1\u00d71</text>");
	expect_has(html, "closed-loop maximum</text>");
	json_object *sat = NULL;
	if (json_object_object_get_ex(sc, "saturation_targets", &sat) && sat)
		expect_has(html, "stops growing after");
	/* the latency on the second axis, each count's runs in its tooltip */
	expect_has(html, "mean latency</text>");
	expect_has(html, " runs), mean latency ");
	/* the fixture's targets are files of one directory: one device */
	expect_has(html, "targets at once, on 1 device</text>");

	/* self-contained: nothing to fetch, no script */
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, " src="));
	assert_null(strstr(html, "@import"));
	expect_has(html, "@media print");

	/* the summary table, the environment rendered from its JSON, the plan */
	expect_has(html, "<table class=\"summary\">");
	const char *host = json_object_get_string(jget(r, "environment.hostname"));
	expect_has(html, "<th>hostname</th>");
	expect_has(html, host);
	expect_has(html, "<th>logical_block_size</th>");
	expect_has(html, "[crv]");
	/* one section per step's parameters with a command line per target set */
	unsigned cmds = 0;
	for (const char *q = strstr(html, "<pre class=\"cmd\">"); q;
	     q = strstr(q + 1, "<pre class=\"cmd\">"))
		cmds++;
	unsigned want = 0;
	for (size_t i = 0; i < json_object_array_length(steps); i++)
		want += json_object_array_length(jget(json_object_array_get_idx(steps, i), "sets"));
	assert_int_equal(cmds, want);
	json_object_put(r);
	free(html);
}

/* The command line shown for a fixed step runs and does what the step did. */
static void test_rerun_command(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct proc_out po;

	fixture_plan(dir, "res");
	run_iochar(&po, dir, 0, ARGS("report", "res", "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	char *html = fixture_slurp(p, NULL);
	const char *cmd = strstr(html, "<pre class=\"cmd\">iochar run");
	assert_non_null(cmd);
	cmd += strlen("<pre class=\"cmd\">iochar run");
	const char *end = strstr(cmd, "</pre>");
	assert_non_null(end);
	char *line = strndup(cmd, (size_t)(end - cmd));
	expect_has(line, "--ioengine=null");
	expect_has(line, "--rw=randread");
	expect_has(line, "--runtime=300ms");
	expect_has(line, "--time_based");
	assert_null(strchr(line, '&')); /* no HTML escapes in a plain command */
	char sh[9000], bin[4096];
	assert_non_null(realpath(iochar_path(), bin));
	snprintf(sh, sizeof(sh), "cd %s && %s run%s --output-format=json > rerun.json", dir,
		 bin, line);
	assert_int_equal(system(sh), 0);
	snprintf(p, sizeof(p), "%s/rerun.json", dir);
	json_object *o = json_object_from_file(p);
	assert_non_null(o);
	json_object *job = json_object_array_get_idx(jget(o, "options"), 0);
	assert_string_equal(json_object_get_string(jget(job, "rw")), "randread");
	assert_int_equal(jget_u64(job, "runtime_ns"), 300000000);
	assert_int_equal(jget_u64(job, "size"), 4u << 20);
	assert_int_equal(jget_u64(o, "format_version"), 1);
	json_object_put(o);
	free(line);
	free(html);
}

/* Run JSON files are result sets too; several make a comparison. */
static void test_report_of_runs(void **state)
{
	const char *dir = *state;
	char p[4400], fn[4400];
	struct proc_out po;

	snprintf(fn, sizeof(fn), "--filename=%s/f", dir);
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "--output=%s/run%d.json", dir, i);
		run_iochar(&po, dir, 0, ARGS("run", fn, "--ioengine=null", "--size=1m",
					     "--rw=randread", "--runtime=300ms", "--time_based",
					     i ? "--iodepth=4" : "--iodepth=1",
					     "--output-format=json", p));
		expect_exit(&po, 0);
		proc_out_free(&po);
	}
	run_iochar(&po, dir, 0, ARGS("report", "run0.json", "run1.json", "-o", "runs.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/runs.html", dir);
	char *html = fixture_slurp(p, NULL);
	/* one workload, a bar and a latency point per run */
	expect_drawn(html, "bars", 1, 4);
	expect_drawn(html, "percentiles", 2, 12);
	expect_has(html, "<section id=\"compare\">");
	expect_has(html, "<td>job0 (randread 4K)</td>");
	expect_has(html, "(a single run)");
	free(html);

	/* usage errors: no -o, no input; nothing written */
	run_iochar(&po, dir, 0, ARGS("report", "run0.json"));
	expect_exit(&po, 2);
	expect_has(po.err, "-o OUT.html is required");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "-o", "x.html"));
	expect_exit(&po, 2);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/x.html", dir);
	assert_int_not_equal(access(p, F_OK), 0);
}

/* The environment grouped: a file the plan creates is recorded by each
 * step (empty by those before its pre-write) and listed once, at its real
 * size; the host and the disk groups are there; the raw record is folded. */
static void test_environment_groups(void **state)
{
	const char *dir = *state;
	char p[4400], fn[4400];
	struct proc_out po;

	snprintf(p, sizeof(p), "%s/e.ini", dir);
	const char plan[] = "[global]\nioengine=psync\nsize=1m\nruntime=200ms\n"
			    "[a]\nrw=randread\n[b]\nrw=read\nbs=64k\n";
	fixture_write(p, plan, strlen(plan));
	snprintf(fn, sizeof(fn), "--filename=%s/made-by-the-plan", dir);
	run_iochar(&po, dir, 0, ARGS("plan", "e.ini", fn, "--out", "res"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "res", "-o", "env.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/env.html", dir);
	char *html = fixture_slurp(p, NULL);
	expect_has(html, "<h4>Host</h4>");
	expect_has(html, "<h4>Targets</h4>");
	char *t = strstr(html, "<h4>Targets</h4>");
	char *end = t ? strstr(t, "</table>") : NULL;
	assert_non_null(end);
	unsigned rows = 0;
	for (char *q = t; (q = strstr(q, "made-by-the-plan")) && q < end; q++)
		rows++;
	assert_int_equal(rows, 1);
	char *size = strstr(t, "<td>1 MiB</td>");
	if (!size || size > end)
		fail_msg("the target's real size is not in its row");
	expect_has(html, "<details><summary>Everything recorded</summary>");
	free(html);
}

/* text with the number after the first `"key": ` following anchor replaced
 * by val (malloc'd). */
static char *replace_number(const char *text, const char *anchor, const char *key,
			    const char *val)
{
	char k[64];
	const char *a = strstr(text, anchor);
	assert_non_null(a);
	snprintf(k, sizeof(k), "\"%s\": ", key);
	const char *v = strstr(a, k);
	assert_non_null(v);
	v += strlen(k);
	size_t n = strspn(v, "0123456789.eE+-");
	assert_true(n > 0);
	char *out = malloc(strlen(text) + strlen(val) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(v - text), text, val, v + n);
	return out;
}

/* Figures out of range, not finite or negative are refused by report and
 * compare (exit 2), naming the JSON path: they used to give exit 0, a
 * negative rate shown as huge IOPS. */
static void test_nonsense_figures(void **state)
{
	static const struct {
		const char *anchor, *key, *val, *want;
	} bad[] = {
	    {"\"total\": {", "iops", "1e400", "run.json: total.iops: not a finite number"},
	    {"\"total\": {", "iops", "-1e300", "run.json: total.iops: negative"},
	    {"\"total\": {", "bw_bytes", "1e300", "run.json: total.bw_bytes: out of range"},
	    {"\"total\": {", "ios", "1e40", "run.json: total.ios: expected an integer"},
	    {"\"read\": {", "p99", "18446744073709551616", "run.json: read.lat_ns.p99: out of range"},
	};
	const char *dir = *state;
	char p[4400];
	struct proc_out po;
	size_t len;

	snprintf(p, sizeof(p), "--output=%s/good.json", dir);
	run_iochar(&po, dir, 0, ARGS("run", "--ioengine=null", "--size=1m",
				     "--output-format=json", p));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/good.json", dir);
	char *text = fixture_slurp(p, &len);
	snprintf(p, sizeof(p), "%s/run.json", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = replace_number(text, bad[i].anchor, bad[i].key, bad[i].val);
		fixture_write(p, t, strlen(t));
		expect_refused(dir, "run.json", bad[i].want);
		free(t);
	}
	free(text);
}

/* -o never goes over a file the report reads: a results directory's
 * results.json or a step file; a new page inside the directory is fine. */
static void test_output_not_over_input_dir(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct proc_out po;

	fixture_plan(dir, "res");
	static const char *const inside[] = {"res/results.json", "res/steps/001.json"};
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, inside[i]);
		uint64_t before = file_hash(p);
		run_iochar(&po, dir, 0, ARGS("report", "res", "-o", inside[i]));
		expect_exit(&po, 2);
		expect_has(po.err, "input res reads it");
		assert_true(file_hash(p) == before);
		proc_out_free(&po);
	}
	run_iochar(&po, dir, 0, ARGS("report", "res", "-o", "res/report.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

/* A precondition step has no best point: its rounds get their chart. */
static void test_precondition_rounds(void **state)
{
	const char *dir = *state;
	char plan[4200], fn[4300], p[4400];
	struct proc_out po;
	static const char text[] = "[global]\nsize=4m\nioengine=psync\n"
				   "[pre]\nmode=precondition\nfill_passes=1\n"
				   "max_rounds=6\nround_time=100ms\n";

	snprintf(plan, sizeof(plan), "%s/pre.ini", dir);
	fixture_write(plan, text, strlen(text));
	snprintf(fn, sizeof(fn), "--filename=%s/pre.dat", dir);
	run_iochar(&po, dir, 0, ARGS("plan", plan, fn, "--out", "pre"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("report", "pre", "-o", "pre.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/pre/results.json", dir);
	json_object *r = json_object_from_file(p);
	assert_non_null(r);
	json_object *set = json_object_array_get_idx(
		jget(json_object_array_get_idx(jget(r, "steps"), 0), "sets"), 0);
	unsigned rounds = (unsigned)json_object_array_length(jget(set, "rounds_iops"));
	assert_true(rounds >= 1);
	snprintf(p, sizeof(p), "%s/pre.html", dir);
	char *html = fixture_slurp(p, NULL);
	expect_drawn(html, "rounds", 1, rounds);
	expect_has(html, "after");
	/* a window of 5 is judged from round 5 on: its band is drawn */
	assert_true(rounds >= 5);
	expect_has(html, "<rect class=\"steady-band\"");
	expect_has(html, "last 5 rounds: average \u00b110 %");
	free(html);
	json_object_put(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_inputs, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_fifo_refused, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_json_memory_bounded, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_report_content, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_rerun_command, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_nonsense_figures, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_output_not_over_input_dir, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_report_of_runs, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_precondition_rounds, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_environment_groups, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

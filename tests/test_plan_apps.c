/* test_plan_apps.c - the application-shaped built-in plans and the
 * multi-workload step (plan key workloads=, docs/workloads.md):
 * - every built-in application plan runs briefly on a file; a
 *   multi-workload step's workloads add up to its total (I/Os exactly,
 *   IOPS within rounding) and each has its rows in results.json,
 *   results.csv and the HTML report; on two targets at once, each
 *   target's total is over both workloads;
 * - the OLTP redo log issues one fdatasync per log write (strace), as
 *   fio does with the same options (fio under strace too);
 * - a search of the OLTP plan marks a point inside exactly when the data
 *   reads and the log commits (write + fdatasync) each meet the limit;
 * - bad workloads= plans exit 2 naming FILE:LINE, nothing created.
 * Runs are 200-300 ms each: the file takes 6-12 s (loaded machine). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

#define PATHLEN 4200
/* LeakSanitizer cannot run under ptrace: a sanitizer build traced skips it */
#define UNDER_STRACE "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "

/* A 64 MiB target written by iochar itself (a plan refuses to write a
 * file it did not create). */
static void make_target(const char *dir, char *path)
{
	struct proc_out po;
	char fn[PATHLEN];
	snprintf(path, PATHLEN, "%s/target", dir);
	snprintf(fn, sizeof(fn), "--filename=%s", path);
	run_iochar(&po, NULL, 0,
		   ARGS("run", "--name=mk", fn, "--size=64m", "--rw=write", "--bs=1m"));
	expect_exit(&po, 0);
	proc_out_free(&po);
}

static json_object *load_json(const char *path)
{
	json_object *o = json_object_from_file(path);
	if (!o)
		fail_msg("%s: not JSON", path);
	return o;
}

/* iochar plan NAME on target into DIR/NAME, extra options appended. */
static void run_plan(const char *dir, const char *target, const char *name,
		     const char *const *extra, unsigned nr_extra, char *out)
{
	char fn[PATHLEN];
	const char *args[24] = {"plan", name, "--out", out, fn, "--ramp_time=0"};
	unsigned n = 6;
	struct proc_out po;
	snprintf(out, PATHLEN, "%s/%s", dir, name);
	snprintf(fn, sizeof(fn), "--filename=%s", target);
	for (unsigned i = 0; i < nr_extra && n < 23; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 0);
	proc_out_free(&po);
}

/* The point's workloads add up to its total; each is in the CSV. */
static void check_sums(json_object *pt, json_object *step, const char *csv,
		       unsigned want_wl)
{
	json_object *wl = NULL, *names = NULL;
	json_object_object_get_ex(pt, "per_workload", &wl);
	json_object_object_get_ex(step, "workloads", &names);
	if (!want_wl) {
		assert_null(wl);
		return;
	}
	assert_non_null(wl);
	assert_int_equal(json_object_array_length(wl), want_wl);
	assert_int_equal(json_object_array_length(names), want_wl);
	uint64_t ios = 0;
	double iops = 0, total_iops = jget_double(pt, "total.iops");
	for (unsigned k = 0; k < want_wl; k++) {
		json_object *w = json_object_array_get_idx(wl, k);
		const char *name = json_object_get_string(jget(w, "workload"));
		char row[128];
		assert_string_equal(name, json_object_get_string(
						  jget(json_object_array_get_idx(names, k), "workload")));
		assert_true(jget_u64(w, "total.ios") > 0);
		assert_int_equal(jget_u64(w, "total.ios"),
				 jget_u64(w, "read.ios") + jget_u64(w, "write.ios"));
		ios += jget_u64(w, "total.ios");
		iops += jget_double(w, "iops");
		snprintf(row, sizeof(row), ",workload %s,", name);
		expect_has(csv, row);
	}
	assert_int_equal(ios, jget_u64(pt, "total.ios"));
	/* rates are over each workload's own elapsed time: within 3 % */
	assert_true(iops > 0.97 * total_iops && iops < 1.03 * total_iops);
}

static void test_builtins_run_briefly(void **state)
{
	static const struct {
		const char *name;
		unsigned nr_wl;
	} plans[] = {{"oltp", 2},	{"oracle", 2},	  {"sql-server", 3},
		     {"dss", 2},	{"vdi-boot", 0}, {"vdi-login", 0}};
	const char *dir = *state;
	char target[PATHLEN], out[PATHLEN], path[PATHLEN + 64];
	make_target(dir, target);
	for (unsigned i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		run_plan(dir, target, plans[i].name,
			 ARGS("--mode=fixed", "--runtime=200ms"), 2, out);
		snprintf(path, sizeof(path), "%s/results.json", out);
		json_object *doc = load_json(path);
		json_object *step = json_object_array_get_idx(jget(doc, "steps"), 0);
		json_object *pt = jget(json_object_array_get_idx(jget(step, "sets"), 0), "fixed");
		snprintf(path, sizeof(path), "%s/results.csv", out);
		char *csv = file_slurp(path, NULL);
		assert_non_null(csv);
		assert_true(jget_u64(pt, "total.ios") > 0);
		check_sums(pt, step, csv, plans[i].nr_wl);
		free(csv);
		json_object_put(doc);
	}
}

/* Two targets at once: each target's total is over both workloads, and
 * targets, workloads and the point all count the same I/Os. */
static void test_parallel_targets_sum(void **state)
{
	const char *dir = *state;
	char a[PATHLEN], b[PATHLEN], sub[PATHLEN], two[2 * PATHLEN + 16], out[PATHLEN],
		path[PATHLEN + 64];
	snprintf(sub, sizeof(sub), "%s/a", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	make_target(sub, a);
	snprintf(sub, sizeof(sub), "%s/b", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	make_target(sub, b);
	snprintf(two, sizeof(two), "%s:%s", a, b);
	run_plan(dir, two, "oltp", ARGS("--mode=fixed", "--runtime=200ms", "--targets=parallel"),
		 3, out);
	snprintf(path, sizeof(path), "%s/results.json", out);
	json_object *doc = load_json(path);
	json_object *step = json_object_array_get_idx(jget(doc, "steps"), 0);
	json_object *pt = jget(json_object_array_get_idx(jget(step, "sets"), 0), "fixed");
	json_object *tg = jget(pt, "per_target");
	assert_int_equal(json_object_array_length(tg), 2);
	uint64_t ios = 0;
	for (unsigned t = 0; t < 2; t++) {
		uint64_t n = jget_u64(json_object_array_get_idx(tg, t), "total.ios");
		assert_true(n > 0);
		ios += n;
	}
	assert_int_equal(ios, jget_u64(pt, "total.ios"));
	snprintf(path, sizeof(path), "%s/results.csv", out);
	char *csv = file_slurp(path, NULL);
	check_sums(pt, step, csv, 2);
	free(csv);
	json_object_put(doc);
}

/* The HTML report of a multi-workload step has its workloads' table. */
static void test_report_has_workloads(void **state)
{
	const char *dir = *state;
	char target[PATHLEN], out[PATHLEN], html[PATHLEN + 64];
	struct proc_out po;
	make_target(dir, target);
	run_plan(dir, target, "sql-server", ARGS("--mode=fixed", "--runtime=200ms"), 2, out);
	snprintf(html, sizeof(html), "%s/r.html", dir);
	run_iochar(&po, NULL, 0, ARGS("report", out, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char *text = file_slurp(html, NULL);
	assert_non_null(text);
	expect_has(text, "<table class=\"workloads\">");
	expect_has(text, ">sql-pages<");
	expect_has(text, ">sql-readahead<");
	expect_has(text, ">sql-log<");
	free(text);
}

/* Counts of a strace -f trace: writes of bs bytes, and fdatasyncs. */
static void count_trace(const char *path, const char *bs, unsigned *writes,
			unsigned *syncs)
{
	char *t = file_slurp(path, NULL), want[32], done[32];
	assert_non_null(t);
	snprintf(want, sizeof(want), ", %s, ", bs);
	snprintf(done, sizeof(done), "= %s", bs);
	*writes = *syncs = 0;
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		if (strstr(line, "pwrite64(") && strstr(line, want) && strstr(line, done))
			(*writes)++;
		else if (strstr(line, "fdatasync(") && strstr(line, "= 0"))
			(*syncs)++;
	}
	free(t);
}

static int sh(const char *fmt, ...)
{
	char cmd[3 * PATHLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* The redo log: one fdatasync after each 4K write (the data files go
 * through io_uring and never pwrite), as fio does for the same job. */
static void test_redo_fdatasync_per_write(void **state)
{
	const char *dir = *state;
	char target[PATHLEN], out[PATHLEN], tr[PATHLEN + 64];
	unsigned w, s;
	if (!side_have("strace"))
		skip(); /* SKIP: strace is not installed */
	side_need_fio();
	make_target(dir, target);
	snprintf(out, sizeof(out), "%s/oltp", dir);
	snprintf(tr, sizeof(tr), "%s/iochar.trace", dir);
	assert_int_equal(sh("" UNDER_STRACE "timeout 60 strace -f -qq -e trace=pwrite64,fdatasync -o '%s' '%s' "
			    "plan oltp --out '%s' --filename='%s' --mode=fixed --runtime=300ms "
			    "--ramp_time=0 >/dev/null 2>&1",
			    tr, iochar_path(), out, target),
			 0);
	count_trace(tr, "4096", &w, &s);
	assert_true(w >= 10);
	/* the run's end may fall between the last write and its flush, in
	 * fio too (checked below): that flush alone may be missing */
	assert_true(s == w || s + 1 == w);
	/* what the results say: every redo write flushed */
	snprintf(tr, sizeof(tr), "%s/results.json", out);
	json_object *doc = load_json(tr);
	json_object *step = json_object_array_get_idx(jget(doc, "steps"), 0);
	json_object *pt = jget(json_object_array_get_idx(jget(step, "sets"), 0), "fixed");
	json_object *redo = json_object_array_get_idx(jget(pt, "per_workload"), 1);
	assert_true(jget_u64(redo, "sync.total_ios") + 1 >= jget_u64(redo, "write.ios") &&
		    jget_u64(redo, "sync.total_ios") <= jget_u64(redo, "write.ios"));
	assert_int_equal(jget_u64(redo, "read.ios"), 0);
	json_object_put(doc);
	/* fio, the same log job alone */
	snprintf(tr, sizeof(tr), "%s/fio.trace", dir);
	assert_int_equal(sh("cd '%s' && " UNDER_STRACE "timeout 60 strace -f -qq -e trace=pwrite64,fdatasync -o '%s' "
			    "fio --name=redo --filename=fio.log --size=1m --rw=write --bs=4k "
			    "--ioengine=psync --fdatasync=1 --direct=1 >/dev/null 2>&1",
			    dir, tr),
			 0);
	unsigned fw, fs, iw, is;
	count_trace(tr, "4096", &fw, &fs);
	assert_int_equal(fw, 256);
	/* iochar's run of that job flushes exactly as fio (which skips the
	 * flush after the last write of a sized job) */
	snprintf(tr, sizeof(tr), "%s/iochar-run.trace", dir);
	assert_int_equal(sh("cd '%s' && " UNDER_STRACE "timeout 60 strace -f -qq -e trace=pwrite64,fdatasync -o '%s' "
			    "'%s' run --name=redo --filename=iochar.log --size=1m --rw=write --bs=4k "
			    "--ioengine=psync --fdatasync=1 --direct=1 >/dev/null 2>&1",
			    dir, tr, iochar_path()),
			 0);
	count_trace(tr, "4096", &iw, &is);
	assert_int_equal(iw, fw);
	assert_int_equal(is, fs);
	assert_true(fs + 1 >= fw);
	/* fio time-based, as the plan runs: every write flushed but maybe the last */
	assert_int_equal(sh("cd '%s' && " UNDER_STRACE "timeout 60 strace -f -qq -e trace=pwrite64,fdatasync -o '%s' "
			    "fio --name=redo --filename=fio.log --size=1m --rw=write --bs=4k "
			    "--ioengine=psync --fdatasync=1 --direct=1 --time_based --runtime=200ms "
			    ">/dev/null 2>&1",
			    dir, tr),
			 0);
	count_trace(tr, "4096", &fw, &fs);
	assert_true(fw >= 10);
	assert_true(fs == fw || fs + 1 == fw);
}

/* A point's verdict from its workloads: every judged one within limit. */
static bool all_judged_within(json_object *pt, double limit)
{
	json_object *wl = jget(pt, "per_workload");
	bool ok = true;
	for (size_t k = 0; k < json_object_array_length(wl); k++) {
		json_object *w = json_object_array_get_idx(wl, k);
		const char *judge = json_object_get_string(jget(w, "latency_judge"));
		if (!json_object_get_boolean(jget(w, "judged")))
			continue;
		double j = jget_double(w, "judged_lat_ns.mean");
		/* the judge's directions: the data reads, the log's commits */
		if (!strcmp(judge, "read"))
			assert_true(j == jget_double(w, "read.lat_ns.mean"));
		else if (!strcmp(judge, "write"))
			assert_true(j >= jget_double(w, "write.lat_ns.mean") +
						 jget_double(w, "sync.lat_mean_ns") - 1);
		ok &= j <= limit;
	}
	return ok;
}

static void test_oltp_search_judges_each_workload(void **state)
{
	const char *dir = *state;
	char target[PATHLEN], out[PATHLEN], path[PATHLEN + 64];
	make_target(dir, target);
	run_plan(dir, target, "oltp",
		 ARGS("--runtime=300ms", "--max_iodepth=4", "--max_numjobs=1"), 3, out);
	snprintf(path, sizeof(path), "%s/results.json", out);
	json_object *doc = load_json(path);
	json_object *step = json_object_array_get_idx(jget(doc, "steps"), 0);
	json_object *set = json_object_array_get_idx(jget(step, "sets"), 0);
	double limit = (double)jget_u64(step, "latency_limit_ns");
	json_object *pts = jget(set, "points"), *best = NULL;
	assert_int_equal(limit, 2e6);
	assert_true(json_object_array_length(pts) >= 1);
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		bool inside = json_object_get_boolean(jget(p, "inside"));
		bool partial = json_object_get_boolean(jget(p, "partial"));
		json_object *rm = NULL; /* the best whose confirming repeat missed is out */
		bool missed = json_object_object_get_ex(p, "repeat_missed", &rm) &&
			      json_object_get_boolean(rm);
		assert_true(inside == (!partial && !missed && all_judged_within(p, limit)));
	}
	if (json_object_object_get_ex(set, "best", &best) && !json_object_is_type(best, json_type_null)) {
		assert_true(all_judged_within(best, limit));
		assert_true(jget_double(best, "judged_lat_mean_ns") <= limit);
	}
	json_object_put(doc);
}

/* One bad plan: exit 2, "p.ini:LINE:" and want in the message, the
 * target never created. */
static void expect_bad(const char *dir, const char *text, unsigned line, const char *want)
{
	char ini[PATHLEN], out[PATHLEN], tgt[PATHLEN], where[64];
	struct proc_out po;
	snprintf(ini, sizeof(ini), "%s/p.ini", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(tgt, sizeof(tgt), "%s/never", dir);
	FILE *f = fopen(ini, "w");
	assert_non_null(f);
	fprintf(f, "[global]\nfilename=%s\nsize=8m\nruntime=100ms\ntime_based\n%s", tgt, text);
	fclose(f);
	run_iochar(&po, NULL, 0, ARGS("plan", ini, "--out", out));
	expect_exit(&po, 2);
	snprintf(where, sizeof(where), "p.ini:%u:", line);
	expect_has(po.err, where);
	expect_has(po.err, want);
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	assert_false(file_exists(tgt));
}

static void test_bad_workload_plans_exit_2(void **state)
{
	const char *dir = *state;
	/* lines: 1-5 are the global's */
	expect_bad(dir, "[s]\nworkloads=a:nope\n[a]\nrw=read\n", 7, "no such section [nope]");
	expect_bad(dir, "[s]\nworkloads=s\n", 7, "its own workload");
	expect_bad(dir, "[s]\nworkloads=a\n[a]\nrw=read\nbs=4k,8k\n", 10, "a list in a workload section");
	expect_bad(dir, "[s]\nworkloads=a\n[a]\nrw=read\nmode=search\n", 10, "plan key in a workload");
	expect_bad(dir, "[s]\nworkloads=a\nbs=8k\n[a]\nrw=read\n", 8, "set workload options in its workload");
	expect_bad(dir, "[s]\nrw=read\nlatency_judge=read\n", 8, "only a workload section");
	expect_bad(dir, "[s]\nworkloads=a\n[a]\nlatency_judge=writes\n", 9, "latency_judge");
	expect_bad(dir, "[s]\nworkloads=a\n[a]\nrw=read\nbs=4q\n", 10, "bs");
	expect_bad(dir, "[s]\nmode=precondition\nworkloads=a\n[a]\nrw=randwrite\n", 8, "workloads=");
	expect_bad(dir, "[s]\nmode=curve\nworkloads=a\n[a]\nrw=randread\n", 8, "not curve");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_workload_plans_exit_2, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_builtins_run_briefly, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_report_has_workloads, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_parallel_targets_sum, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_redo_fdatasync_per_write, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_oltp_search_judges_each_workload,
						tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

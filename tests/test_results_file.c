/* test_results_file.c - results and report files never overwrite data
 * iochar did not write and are never left empty or half written: a foreign
 * file is refused (exit 2, one line, untouched) unless --force, a results
 * file iochar wrote is replaced, a missing directory is exit 2 before any
 * I/O, SIGHUP/SIGTERM end the run in order with the (partial) results in
 * --output, SIGPIPE does not kill the run, a full disk leaves the old file
 * as it was (results on stdout instead), --output=/dev/stdout appends to
 * the caller's redirection, and `report -o` refuses its own input. */
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
#include <sys/xattr.h>
#include <unistd.h>

#include "harness.h"

struct fixture {
	struct scratch sc; /* first: the directory and a tmpfs mounted in it */
	char out[4200];	   /* the --output path */
	char out_opt[4300];
};

static int setup(void **state)
{
	return scratch_setup(state, sizeof(struct fixture));
}

static void set_out(struct fixture *f, const char *name)
{
	snprintf(f->out, sizeof(f->out), "%s/%s", f->sc.dir, name);
	snprintf(f->out_opt, sizeof(f->out_opt), "--output=%s", f->out);
}

/* Entries in dir whose name starts with prefix (temporary files left?). */
static unsigned count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	closedir(d);
	return n;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "re");
	if (!fp)
		fail_msg("%s: cannot open", path);
	char *buf = calloc(1, 1 << 22);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 22) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* The results in f->out, as JSON (fails the test if they are not whole). */
static json_object *load_out(struct fixture *f)
{
	struct proc_out po = {0};
	po.out = slurp(f->out);
	json_object *o = parse_json(&po);
	free(po.out);
	return o;
}

static void run_null(struct proc_out *po, struct fixture *f, int sig,
		     int after_ms, const char *runtime, const char *extra)
{
	char rt[64];
	snprintf(rt, sizeof(rt), "--runtime=%s", runtime);
	run_iochar_signal(po, f->sc.dir, sig, after_ms,
			  ARGS("run", "--ioengine=null", "--size=64m", rt,
			       "--time_based", "--output-format=json",
			       f->out_opt, extra));
}

static void test_foreign_file_refused(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	set_out(f, "notes.txt");
	make_file(f->out, 4096);
	uint64_t before = file_hash(f->out);
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, f->out);
	expect_has(po.err, "--force");
	assert_true(file_hash(f->out) == before);
	proc_out_free(&po);
	/* --force replaces it, with the results */
	run_null(&po, f, 0, 0, "50ms", "--force");
	expect_exit(&po, 0);
	json_object_put(load_out(f));
	proc_out_free(&po);
}

/* A plan's --out DIR holding a results.json iochar did not write is
 * refused before any step (exit 2, the file as it was); --force lets it. */
static void test_plan_out_over_foreign_file(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	char dir[4200], path[4300];
	snprintf(dir, sizeof(dir), "%s/plan-out", f->sc.dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	make_file(path, 4096);
	uint64_t before = file_hash(path);
	char plan[4300];
	snprintf(plan, sizeof(plan), "%s/one.ini", f->sc.dir);
	FILE *pf = fopen(plan, "w");
	assert_non_null(pf);
	fputs("[one]\nioengine=null\nrw=randread\nsize=1m\nruntime=100ms\n", pf);
	fclose(pf);
	run_iochar(&po, f->sc.dir, 0, ARGS("plan", plan, "--out", dir));
	expect_exit(&po, 2);
	expect_has(po.err, "results.json: an existing file that is not a results file");
	assert_true(file_hash(path) == before);
	proc_out_free(&po);
	run_iochar(&po, f->sc.dir, 0, ARGS("plan", plan, "--out", dir, "--force"));
	expect_exit(&po, 0);
	assert_true(file_hash(path) != before);
	proc_out_free(&po);
}

/* A second run over its own results file needs no --force; so does a
 * results file without the mark (written before the mark existed). */
static void test_own_results_replaced(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	set_out(f, "r.json");
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 0);
	proc_out_free(&po);
	assert_int_equal(removexattr(f->out, "user.iochar"), 0);
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 0);
	proc_out_free(&po);
	json_object_put(load_out(f));
	assert_int_equal(count_prefixed(f->sc.dir, "r.json.tmp"), 0);
}

/* --output naming the run's own target is refused before anything is
 * created (the data, then the results, would go to one file). */
static void test_output_is_target(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	char target[4300];
	set_out(f, "t.dat");
	snprintf(target, sizeof(target), "--filename=%s", f->out);
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", target, "--rw=write", "--size=1m", f->out_opt));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "also a target");
	assert_false(file_exists(f->out));
	proc_out_free(&po);
}

/* A missing directory is found before anything runs: exit 2, one line. */
static void test_missing_directory(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	char target[4300];
	set_out(f, "nodir/r.json");
	snprintf(target, sizeof(target), "--filename=%s/t.dat", f->sc.dir);
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", target, "--rw=write", "--size=1m", f->out_opt));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "nodir");
	snprintf(target, sizeof(target), "%s/t.dat", f->sc.dir);
	assert_false(file_exists(target));
	proc_out_free(&po);
}

/* SIGHUP and SIGTERM: the run stops in order, exit 130, and --output holds
 * the whole (partial) results; never a 0-byte file. */
static void check_stop_signal(struct fixture *f, int sig)
{
	struct proc_out po;
	set_out(f, sig == SIGHUP ? "hup.json" : "term.json");
	run_null(&po, f, sig, 1000, "10s", "--rw=read"); /* after the start, even slowed (SAN) */
	expect_exit(&po, 130);
	json_object *o = load_out(f);
	assert_true(json_object_get_boolean(jget(o, "partial")));
	assert_true(jget_u64(o, "total.ios") > 0);
	json_object_put(o);
	proc_out_free(&po);
}

static void test_sighup_keeps_results(void **state)
{
	check_stop_signal(*state, SIGHUP);
}

static void test_sigterm_keeps_results(void **state)
{
	check_stop_signal(*state, SIGTERM);
}

/* SIGPIPE (a closed pipe on stdout) does not end the run: it runs its
 * course and writes whole results. */
static void test_sigpipe_does_not_kill(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	set_out(f, "pipe.json");
	run_null(&po, f, SIGPIPE, 500, "1500ms", "--rw=read");
	expect_exit(&po, 0);
	json_object *o = load_out(f);
	assert_false(json_object_get_boolean(jget(o, "partial")));
	json_object_put(o);
	proc_out_free(&po);
}

/* A full filesystem: the old results stay as they were, no temporary file
 * is left, the new results go to stdout, exit 1. */
static void test_full_disk_keeps_old_file(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	if (!is_root())
		skip(); /* mounting a tmpfs needs root */
	if (!scratch_mount(&f->sc, "small", "tmpfs", "tmpfs", "size=256k"))
		skip();
	set_out(f, "small/r.json");
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 0);
	proc_out_free(&po);
	uint64_t before = file_hash(f->out);
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "dd if=/dev/zero of='%s/fill' bs=4k 2>/dev/null",
		 f->sc.mnt);
	assert_int_not_equal(system(cmd), 0); /* dd stops at ENOSPC */
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 1);
	expect_has(po.err, "No space left");
	assert_true(file_hash(f->out) == before);
	assert_int_equal(count_prefixed(f->sc.mnt, "r.json.tmp"), 0);
	json_object_put(parse_json(&po));
	proc_out_free(&po);
}

/* --output=/dev/stdout writes where the caller's redirection points, even
 * a regular file, without truncating it: `>> log` keeps the log. */
static void test_output_to_stdout_alias(void **state)
{
	struct fixture *f = *state;
	char cmd[8600], bin[4096];
	set_out(f, "all.log");
	FILE *fp = fopen(f->out, "we");
	assert_non_null(fp);
	fputs("earlier line\n", fp);
	fclose(fp);
	assert_non_null(realpath(iochar_path(), bin));
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && '%s' run --ioengine=null --size=1m "
		 "--output=/dev/stdout >> '%s' 2>/dev/null",
		 f->sc.dir, bin, f->out);
	assert_int_equal(system(cmd), 0);
	char *log = slurp(f->out);
	assert_true(strncmp(log, "earlier line\niochar ", 20) == 0);
	expect_has(log, "IOPS=");
	free(log);
}

/* report -o: never over its own input; a missing directory is exit 2. */
static void test_report_output_checks(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	char html[4300];
	set_out(f, "in.json");
	run_null(&po, f, 0, 0, "50ms", "--rw=read");
	expect_exit(&po, 0);
	proc_out_free(&po);
	uint64_t before = file_hash(f->out);
	run_iochar(&po, f->sc.dir, 0, ARGS("report", f->out, "-o", f->out));
	expect_exit(&po, 2);
	expect_has(po.err, "input");
	assert_true(file_hash(f->out) == before);
	proc_out_free(&po);
	run_iochar(&po, f->sc.dir, 0, ARGS("compare", f->out, f->out, "-o", f->out));
	expect_exit(&po, 2);
	assert_true(file_hash(f->out) == before);
	proc_out_free(&po);
	snprintf(html, sizeof(html), "%s/nodir/r.html", f->sc.dir);
	run_iochar(&po, f->sc.dir, 0, ARGS("report", f->out, "-o", html));
	expect_exit(&po, 2);
	expect_has(po.err, "nodir");
	proc_out_free(&po);
	/* a foreign file is refused, --force replaces it */
	snprintf(html, sizeof(html), "%s/page.html", f->sc.dir);
	make_file(html, 1000);
	before = file_hash(html);
	run_iochar(&po, f->sc.dir, 0, ARGS("report", f->out, "-o", html));
	expect_exit(&po, 2);
	expect_has(po.err, "--force");
	assert_true(file_hash(html) == before);
	proc_out_free(&po);
	run_iochar(&po, f->sc.dir, 0, ARGS("report", f->out, "-o", html, "--force"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	run_iochar(&po, f->sc.dir, 0, ARGS("report", f->out, "-o", html));
	expect_exit(&po, 0); /* now it is iochar's */
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_foreign_file_refused, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_own_results_replaced, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_plan_out_over_foreign_file, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_missing_directory, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_output_is_target, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_sighup_keeps_results, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_sigterm_keeps_results, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_sigpipe_does_not_kill, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_full_disk_keeps_old_file, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_output_to_stdout_alias, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_report_output_checks, setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

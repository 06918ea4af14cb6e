/* test_plan_resume.c - `plan --resume DIR` continues on the targets DIR's
 * results record (issue 37 H6): without --filename it did every step
 * again on the scratch file (1 GiB made), over the finished steps'
 * results, and said complete. A --filename naming other files is refused
 * (exit 2, one line, nothing written); the same file spelt otherwise is
 * the same target. A step file that is not a regular file (a FIFO waited
 * for a writer for ever, H13) is refused before anything is read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "report_fixture.h"

static const char two_steps[] = "[global]\nioengine=psync\nsize=1m\nbs=4k\ntime_based\n"
				"runtime=1\n[a]\nrw=randread\n[b]\nrw=randwrite\n";

static void write_at(const char *dir, const char *name, const char *text)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fixture_write(p, text, strlen(text));
}

static char *slurp_at(const char *dir, const char *name)
{
	char p[4400];
	size_t len;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return fixture_slurp(p, &len);
}

static bool exists_at(const char *dir, const char *name)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* A finished two-step run on t.dat with its second step lost, as a crash
 * in it leaves the directory. */
static void run_then_lose_step_b(const char *dir, const char *fn)
{
	struct proc_out po;
	write_at(dir, "p.ini", two_steps);
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", fn, "--out", "res"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "rm %s/res/steps/001.*", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_resume_keeps_targets(void **state)
{
	const char *dir = *state;
	char fn[4300], other[4300];
	struct proc_out po;
	snprintf(fn, sizeof(fn), "--filename=%s/t.dat", dir);
	snprintf(other, sizeof(other), "--filename=%s/other.dat", dir);
	run_then_lose_step_b(dir, fn);
	char *a_before = slurp_at(dir, "res/steps/000.json");
	char *res_before = slurp_at(dir, "res/results.json");

	/* another target: refused, naming both, nothing written */
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--resume", "res", other));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "t.dat");
	expect_has(po.err, "other.dat");
	proc_out_free(&po);
	assert_false(exists_at(dir, "other.dat"));
	assert_false(exists_at(dir, "res/steps/001.json"));
	char *now = slurp_at(dir, "res/results.json");
	assert_string_equal(now, res_before);
	free(now);

	/* no --filename: the recorded target, step a kept, no scratch file */
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--resume", "res"));
	expect_exit(&po, 0);
	expect_has(po.err, "step 1 of 2, a: done earlier, kept");
	proc_out_free(&po);
	assert_false(exists_at(dir, "iochar-data"));
	now = slurp_at(dir, "res/steps/000.json");
	assert_string_equal(now, a_before);
	free(now);
	now = slurp_at(dir, "res/steps/001.key");
	expect_has(now, fn + strlen("--filename="));
	free(now);

	/* the same file spelt otherwise: the same target, every step kept */
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--resume", "res", "--filename=./t.dat"));
	expect_exit(&po, 0);
	expect_has(po.err, "step 1 of 2, a: done earlier, kept");
	expect_has(po.err, "step 2 of 2, b: done earlier, kept");
	proc_out_free(&po);
	free(a_before);
	free(res_before);
}

/* The README's example: the plan file names the target, --out then
 * --resume. */
static void test_resume_plan_file_target(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char text[512];
	snprintf(text, sizeof(text), "[global]\nfilename=t.dat\n%s", two_steps + 9);
	write_at(dir, "p.ini", text);
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--out", "res"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "rm %s/res/steps/001.*", dir);
	assert_int_equal(system(cmd), 0);
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--resume", "res"));
	expect_exit(&po, 0);
	expect_has(po.err, "step 1 of 2, a: done earlier, kept");
	proc_out_free(&po);
	assert_true(exists_at(dir, "res/steps/001.json"));
	assert_false(exists_at(dir, "iochar-data"));
}

/* Steps on targets of their own: a step not run yet keeps its own. */
static void test_resume_steps_own_targets(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char text[512];
	snprintf(text, sizeof(text), "%.*sfilename=t1.dat\n[b]\nrw=randwrite\nfilename=t2.dat\n",
		 (int)(strstr(two_steps, "[b]") - two_steps), two_steps);
	write_at(dir, "p.ini", text);
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--out", "res"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "rm %s/res/steps/001.* %s/t2.dat", dir, dir);
	assert_int_equal(system(cmd), 0);
	run_iochar(&po, dir, 0, ARGS("plan", "p.ini", "--resume", "res"));
	expect_exit(&po, 0);
	expect_has(po.err, "step 1 of 2, a: done earlier, kept");
	proc_out_free(&po);
	char *key = slurp_at(dir, "res/steps/001.key");
	expect_has(key, "\"filename\":\"t2.dat\"");
	free(key);
	assert_true(exists_at(dir, "t2.dat"));
}

/* H13 in a results directory: --resume waited for ever on a FIFO at
 * steps/000.json (rebuilding results.json) or steps/001.key (reading the
 * recorded targets; step b's, lost). Now exit 2 at once, naming it,
 * nothing rewritten. */
static void test_resume_refuses_fifo(void **state)
{
	static const char *const names[] = {"res/steps/000.json", "res/steps/001.key"};
	const char *dir = *state;
	struct proc_out po;

	run_then_lose_step_b(dir, "--filename=t.dat");
	char *before = slurp_at(dir, "res/results.json");
	for (unsigned i = 0; i < 2; i++) {
		char p[4400];
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		char *kept = exists_at(dir, names[i]) ? slurp_at(dir, names[i]) : NULL;
		unlink(p);
		assert_int_equal(mkfifo(p, 0600), 0);
		/* SIGKILL after 20 s: a hang fails as exit 137 */
		run_iochar_signal(&po, dir, SIGKILL, 20000,
				  ARGS("plan", "p.ini", "--resume", "res"));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, names[i]);
		expect_has(po.err, "is not a regular file");
		proc_out_free(&po);
		run_iochar_signal(&po, dir, SIGKILL, 20000,
				  ARGS("plan", "p.ini", "--resume", "res", "--dry-run"));
		expect_exit(&po, 2);
		proc_out_free(&po);
		unlink(p); /* as it was, for the next one's run */
		if (kept)
			write_at(dir, names[i], kept);
		free(kept);
	}
	char *after = slurp_at(dir, "res/results.json");
	assert_string_equal(before, after);
	free(before);
	free(after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resume_keeps_targets, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_resume_plan_file_target, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_resume_steps_own_targets, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_resume_refuses_fifo, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_fio_exitall.c - exitall and exit_what (examples/exitwhat.fio)
 * against fio 3.33 itself: a short job's end stops a 10 s time-based one
 * of its group in both (its runtime within 0.5 s of the short one's,
 * fio's likewise); exit_what=all stops the job behind a stonewall before
 * it starts (0 I/Os in both), exit_what=stonewall lets it run its I/Os
 * after (the same count). SKIP when fio is missing.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

/* The entry of jobs[] of doc named name. */
static json_object *entry(json_object *doc, const char *name)
{
	json_object *jobs = jget(doc, "jobs");
	for (size_t k = 0; jobs && k < json_object_array_length(jobs); k++) {
		json_object *e = json_object_array_get_idx(jobs, k), *n;
		if (json_object_object_get_ex(e, "jobname", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return e;
	}
	fail_msg("no job %s", name);
	return NULL;
}

/* exitall, in a job file (fio's command line prints its job lines before
 * a later --output-format): the long job ends with the short one, and
 * the job after the stonewall runs or not as exit_what says, in both. */
static void test_exitall(void **state)
{
	static const struct {
		const char *what;
		unsigned next_ios;
	} cases[] = {{"group", 50}, {"stonewall", 50}, {"all", 0}};
	const char *dir = *state;
	char text[1024], path[4200];

	side_need_fio();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_object *doc[2];
		snprintf(text, sizeof(text),
			 "[global]\nfilename=data\nsize=4m\nbs=4k\n"
			 "ioengine=psync\nexitall=1\n"
			 "[short]\nrw=read\nnumber_ios=100\nthinktime=2ms\n"
			 "exit_what=%s\n"
			 "[long]\nrw=randread\ntime_based\nruntime=10s\n"
			 "[next]\nstonewall\nrw=read\nnumber_ios=50\n",
			 cases[c].what);
		side_write_job(dir, "exit.fio", text, path, sizeof(path));
		side_run_both_json(dir, path, &doc[0], &doc[1]);
		for (int t = 0; t < 2; t++) {
			const char *tool = t ? "iochar" : "fio";
			double s = jget_double(entry(doc[t], "short"), "job_runtime");
			double l = jget_double(entry(doc[t], "long"), "job_runtime");
			double n = jget_double(entry(doc[t], "next"), "read.total_ios");
			if (l > s + 500 || l < 100)
				fail_msg("%s, exit_what=%s: long ran %g ms, short %g ms",
					 tool, cases[c].what, l, s);
			if (n != cases[c].next_ios)
				fail_msg("%s, exit_what=%s: next did %g I/Os, not %u",
					 tool, cases[c].what, n, cases[c].next_ios);
			json_object_put(doc[t]);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_exitall, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_autogroup.c - the CPU weight of iochar's autogroup (util/autogroup.h)
 * against fio 3.33's own sessions: fio runs each job not marked `thread`
 * as a process in a session of its own, so with autogroups each is a
 * scheduler group; iochar gives its one autogroup that many groups'
 * weight for the run and puts the old nice back after it, and leaves it
 * alone for `thread` jobs and one worker. Every run is in a session the
 * test makes (setsid), never the suite's own. SKIP without root (a
 * negative nice needs CAP_SYS_NICE), autogroups, setsid or fio.
 */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fio_side.h"
#include "harness.h"
#include "util/autogroup.h"

static void test_nice_for(void **state)
{
	(void)state;
	assert_int_equal(autogroup_nice_for(0), 0);
	assert_int_equal(autogroup_nice_for(1), 0);
	/* nearest by ratio in the kernel's table: 1991 for 2048, 3121 for
	 * 3072, 3906 for 4096, 7620 for 8192 */
	assert_int_equal(autogroup_nice_for(2), -3);
	assert_int_equal(autogroup_nice_for(3), -5);
	assert_int_equal(autogroup_nice_for(4), -6);
	assert_int_equal(autogroup_nice_for(8), -9);
	assert_int_equal(autogroup_nice_for(1000), -20);
	for (unsigned g = 1; g < 100; g++)
		assert_true(autogroup_nice_for(g + 1) <= autogroup_nice_for(g));
}

static void need_autogroups(void)
{
	if (!is_root()) {
		printf("SKIP: needs root (a negative autogroup nice needs CAP_SYS_NICE)\n");
		skip();
	}
	char *on = file_slurp("/proc/sys/kernel/sched_autogroup_enabled", NULL);
	bool enabled = on && on[0] == '1';
	free(on);
	if (!enabled) {
		printf("SKIP: kernel.sched_autogroup_enabled is not 1 (no autogroups)\n");
		skip();
	}
	if (system("command -v setsid >/dev/null 2>&1") != 0) {
		printf("SKIP: setsid not found (util-linux)\n");
		skip();
	}
}

/* The nice of "/autogroup-N nice K" in dir/name. */
static int nice_in(const char *dir, const char *name)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *s = file_slurp(path, NULL);
	assert_non_null(s);
	const char *p = strstr(s, " nice ");
	assert_non_null(p);
	int nice = atoi(p + 6);
	free(s);
	return nice;
}

/* Run `iochar run ARGS` (paced null jobs, 1 s) in a new session whose
 * autogroup first gets `nice` (0: left as it is): the session's nice
 * before, iochar's autogroup mid-run, the session's after, in dir/before,
 * dir/during, dir/after. */
static void weigh_run(const char *dir, int nice, const char *args)
{
	char cmd[8192], set[64] = "";
	if (nice)
		snprintf(set, sizeof(set), "echo %d > /proc/self/autogroup; ", nice);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && setsid -w sh -c '%scat /proc/self/autogroup > before; "
		 "%s run --ioengine=null --size=4m --time_based --runtime=1 "
		 "--rate_iops=2000 %s > out 2> err & p=$!; sleep 0.5; "
		 "cat /proc/$p/autogroup > during; wait $p; echo $? > rc; "
		 "cat /proc/self/autogroup > after'",
		 dir, set, iochar_path(), args);
	assert_int_equal(system(cmd), 0);
	char path[4200];
	snprintf(path, sizeof(path), "%s/rc", dir);
	char *rc = file_slurp(path, NULL);
	assert_non_null(rc);
	assert_int_equal(atoi(rc), 0);
	free(rc);
}

/* The run's "sched_autogroup" record in dir/out (--output-format=json):
 * its groups, and its nice in *nice; 0 when there is none. */
static unsigned sched_record(const char *dir, int *nice)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/out", dir);
	json_object *doc = json_object_from_file(path), *rec, *v;
	assert_non_null(doc);
	unsigned groups = 0;
	if (json_object_object_get_ex(doc, "sched_autogroup", &rec)) {
		assert_true(json_object_object_get_ex(rec, "groups", &v));
		groups = (unsigned)json_object_get_int(v);
		assert_true(json_object_object_get_ex(rec, "nice", &v));
		*nice = json_object_get_int(v);
	}
	json_object_put(doc);
	return groups;
}

/* fio 3.33's process jobs: the autogroups its 4 jobs run in, mid-run,
 * counted distinct (each job's /proc/PID/autogroup, its children). */
static unsigned fio_groups(const char *dir, const char *opts)
{
	char cmd[8192], path[4200];
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && setsid -w sh -c 'fio --name=a --ioengine=null --size=4m "
		 "--time_based --runtime=1 --rate_iops=2000 --numjobs=4 %s "
		 "--output=fio.out & p=$!; sleep 0.7; "
		 "for t in $p $(pgrep -P $p); do cat /proc/$t/autogroup; done "
		 "| cut -d\" \" -f1 | sort -u | wc -l > groups; wait $p'",
		 dir, opts);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/groups", dir);
	char *s = file_slurp(path, NULL);
	assert_non_null(s);
	unsigned n = (unsigned)atoi(s);
	free(s);
	return n;
}

/* 4 workers without `thread`: fio makes 4 autogroups of its jobs (5 with
 * its main process, in the session's own), iochar weighs its one as
 * the jobs' 4 while it runs and as before after it. */
static void test_weighs_as_fio_processes(void **state)
{
	const char *dir = *state;
	need_autogroups();
	side_need_fio();
	unsigned groups = fio_groups(dir, "");
	assert_int_equal(groups, 5);
	weigh_run(dir, 0, "--name=a --numjobs=4 --output-format=json");
	int before = nice_in(dir, "before"), nice = 1;
	assert_int_equal(before, 0);
	assert_int_equal(nice_in(dir, "during"), autogroup_nice_for(groups - 1));
	assert_int_equal(nice_in(dir, "after"), before);
	/* and the run's JSON says so */
	assert_int_equal(sched_record(dir, &nice), groups - 1);
	assert_int_equal(nice, autogroup_nice_for(groups - 1));
}

/* `thread`: fio's 4 threads are in its main process's one group, and
 * iochar leaves its nice alone; so it does for one worker. */
static void test_threads_weigh_as_one(void **state)
{
	const char *dir = *state;
	need_autogroups();
	side_need_fio();
	assert_int_equal(fio_groups(dir, "--thread"), 1);
	weigh_run(dir, 0, "--name=a --numjobs=4 --thread --output-format=json");
	assert_int_equal(nice_in(dir, "during"), 0);
	int nice;
	assert_int_equal(sched_record(dir, &nice), 0);
	weigh_run(dir, 0, "--name=a");
	assert_int_equal(nice_in(dir, "during"), 0);
}

/* Two jobs of two workers, one of them threads: 2 process groups and
 * the threads' one. A nice the session already has (the user's, or
 * another iochar's running in it) is kept, lower or higher. */
static void test_mixed_and_user_nice(void **state)
{
	const char *dir = *state;
	need_autogroups();
	weigh_run(dir, 0, "--name=p --numjobs=2 --name=t --numjobs=2 --thread");
	assert_int_equal(nice_in(dir, "during"), autogroup_nice_for(3));

	weigh_run(dir, -15, "--name=a --numjobs=4");
	assert_int_equal(nice_in(dir, "before"), -15);
	assert_int_equal(nice_in(dir, "during"), -15);
	assert_int_equal(nice_in(dir, "after"), -15);
	weigh_run(dir, 5, "--name=a --numjobs=4");
	assert_int_equal(nice_in(dir, "during"), 5);
	assert_int_equal(nice_in(dir, "after"), 5);
}

/* Two runs at once in one session: the first weighs the group, the
 * second finds it weighed and leaves it, and after both the group is at
 * its old nice again (no run puts back what another set). */
static void test_two_runs_one_session(void **state)
{
	const char *dir = *state;
	char cmd[8192];
	need_autogroups();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && setsid -w sh -c '"
		 "R=\"%s run --ioengine=null --size=4m --time_based --rate_iops=2000\"; "
		 "$R --runtime=1 --name=a --numjobs=4 > a.out 2>&1 & a=$!; sleep 0.3; "
		 "$R --runtime=1500ms --name=b --numjobs=8 > b.out 2>&1 & b=$!; sleep 0.3; "
		 "cat /proc/$b/autogroup > during; wait $a; wait $b; "
		 "cat /proc/self/autogroup > after'",
		 dir, iochar_path());
	assert_int_equal(system(cmd), 0);
	assert_int_equal(nice_in(dir, "during"), autogroup_nice_for(4));
	assert_int_equal(nice_in(dir, "after"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_for),
		cmocka_unit_test_setup_teardown(test_weighs_as_fio_processes, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_threads_weigh_as_one, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_mixed_and_user_nice, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_two_runs_one_session, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_app_args.c - `iochar app` refuses bad input with one line naming
 * the culprit and exit 2, before it makes anything: no output directory,
 * no data directory, no server, and a device without --force not written
 * (its bytes hashed before and after). The device case needs root (a
 * loop device); the rest runs as anyone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

struct fixture {
	char *dir;
	char out[4200], outarg[4300], dirarg[4300];
	char dev[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = shmdir_make();
	snprintf(f->out, sizeof(f->out), "%s/out", f->dir);
	snprintf(f->outarg, sizeof(f->outarg), "--out=%s", f->out);
	snprintf(f->dirarg, sizeof(f->dirarg), "--directory=%s", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->dev[0])
		loop_detach(f->dev);
	tmpdir_remove(f->dir);
	free(f);
	return 0;
}

/* Only what the test made is in the scratch directory. */
static void expect_nothing_made(const struct fixture *f, const char *keep)
{
	DIR *d = opendir(f->dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    (!keep || strcmp(e->d_name, keep)))
			fail_msg("%s/%s was made by a refused run", f->dir, e->d_name);
	closedir(d);
}

static void refused(const struct fixture *f, const char *const *args, const char *want)
{
	expect_usage_line(args, want);
	expect_nothing_made(f, "disk.img");
}

static void test_unknown_bench(void **state)
{
	struct fixture *f = *state;

	refused(f, ARGS("app", "hammerdb", f->dirarg, f->outarg), "unknown bench 'hammerdb'");
	refused(f, ARGS("app", f->dirarg, f->outarg), "needs BENCH");
}

static void test_bad_threads(void **state)
{
	struct fixture *f = *state;

	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, "--threads=1,x", f->outarg),
		"--threads=1,x: 'x' is no thread count");
	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, "--threads=0", f->outarg),
		"'0' is no thread count");
	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, "--threads=4,2", f->outarg),
		"rising");
	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, "--threads=", f->outarg),
		"--threads");
}

static void test_bad_workload_and_values(void **state)
{
	struct fixture *f = *state;

	refused(f, ARGS("app", "sysbench-write", f->dirarg, "--workload=read_only", f->outarg),
		"--workload=read_only: sysbench-write runs write_only");
	refused(f, ARGS("app", "pgbench", f->dirarg, "--workload=read_write", f->outarg),
		"tpcb-like, select-only, simple-update");
	refused(f, ARGS("app", "pgbench", f->dirarg, "--memory-ratio=zero", f->outarg),
		"--memory-ratio=zero");
	refused(f, ARGS("app", "pgbench", f->dirarg, "--output-format=xml", f->outarg),
		"--output-format=xml");
	refused(f, ARGS("app", "pgbench", f->dirarg, "--time=0", f->outarg), "time");
}

static void test_bad_target(void **state)
{
	struct fixture *f = *state;
	char missing[4300], file[4300], filearg[4400];

	snprintf(missing, sizeof(missing), "--directory=%s/nowhere", f->dir);
	refused(f, ARGS("app", "sysbench-oltp", missing, f->outarg), "nowhere");
	refused(f, ARGS("app", "sysbench-oltp", f->outarg), "--directory=DIR or --filename");
	snprintf(file, sizeof(file), "%s/disk.img", f->dir);
	make_file(file, 4096);
	snprintf(filearg, sizeof(filearg), "--directory=%s", file);
	refused(f, ARGS("app", "sysbench-oltp", filearg, f->outarg), "not a directory");
	snprintf(filearg, sizeof(filearg), "--filename=%s", file);
	refused(f, ARGS("app", "sysbench-oltp", filearg, "--force", f->outarg),
		"not a block device");
	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, filearg, f->outarg), "give one");
	/* a data set bigger than the file system */
	refused(f, ARGS("app", "sysbench-oltp", f->dirarg, "--tables=1024",
			"--table-size=1000000000", f->outarg), "MiB free");
}

static void test_device_needs_force(void **state)
{
	struct fixture *f = *state;
	char backing[4300], devarg[128];

	if (!is_root()) {
		print_message("SKIP: a loop device needs root\n");
		skip();
	}
	snprintf(backing, sizeof(backing), "%s/disk.img", f->dir);
	if (!loop_attach(backing, 64ull << 20, 512, f->dev, sizeof(f->dev)))
		skip();
	uint64_t before = file_hash(backing);
	snprintf(devarg, sizeof(devarg), "--filename=%s", f->dev);
	refused(f, ARGS("app", "sysbench-oltp", devarg, f->outarg), "--force");
	assert_true(file_hash(backing) == before);
	/* with --force, still refused when too small: nothing written either */
	refused(f, ARGS("app", "sysbench-oltp", devarg, "--force", f->outarg), "MiB");
	assert_true(file_hash(backing) == before);
}

/* PostgreSQL runs as another user: a directory that user cannot get
 * into is refused before anything is made. */
static void test_postgres_user_cannot_enter(void **state)
{
	struct fixture *f = *state;
	char inner[4300], arg[4400];

	if (!is_root() || system("ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1")) {
		print_message("SKIP: needs root and PostgreSQL (scripts/deps.sh)\n");
		skip();
	}
	chmod(f->dir, 0700);
	snprintf(inner, sizeof(inner), "%s/inner", f->dir);
	assert_int_equal(mkdir(inner, 0777), 0);
	snprintf(arg, sizeof(arg), "--directory=%s", inner);
	expect_usage_line(ARGS("app", "pgbench", arg, f->outarg), "who cannot get into it");
	expect_nothing_made(f, "inner");
	assert_true(file_exists(inner));
	DIR *d = opendir(inner);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n++;
	closedir(d);
	assert_int_equal(n, 2); /* . and .. only */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unknown_bench, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_workload_and_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_needs_force, setup, teardown),
		cmocka_unit_test_setup_teardown(test_postgres_user_cannot_enter, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_file_id.c - one file however its path is spelled
 * (util/file_id.h): `J`, `./J`, `sub/../J`, `//dir/J`, a symlink to J
 * and a chain of them, dangling too (J not made yet), are J; another
 * name, or J in another directory, is not. The journal's identity and
 * --output's check rest on it (issue 37 H5, H10). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "util/file_id.h"

/* Runs in a fresh /dev/shm directory, the cwd for relative spellings. */
static int setup(void **state)
{
	char *dir = shmdir_make();
	char *real = realpath(dir, NULL);
	assert_non_null(real);
	assert_int_equal(chdir(real), 0);
	assert_int_equal(mkdir("sub", 0755), 0);
	assert_int_equal(symlink("J", "l1"), 0);      /* dangling */
	assert_int_equal(symlink("l1", "sub/l2"), 0); /* relative to sub/ */
	assert_int_equal(symlink("../l1", "sub/l3"), 0);
	free(real);
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	assert_int_equal(chdir("/"), 0);
	tmpdir_remove(*state);
	return 0;
}

static void check_spellings(void)
{
	static const char *const same[] = {"./J", "sub/../J", ".//J",
					   "l1",  "sub/l3",   "sub/./../l1"};
	for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (!file_same("J", same[i]))
			fail_msg("J and %s are one file", same[i]);
	assert_false(file_same("J", "K"));
	assert_false(file_same("J", "sub/J"));
	assert_false(file_same("J", "sub/l2")); /* sub/l1, not J */
	assert_false(file_same("J", "nodir/J"));
}

static void test_before_and_after_creation(void **state)
{
	char cwd[PATH_MAX], want[PATH_MAX + 4], got[PATH_MAX];
	(void)state;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/J", cwd);
	assert_int_equal(path_resolve("sub/l3", got, sizeof(got)), 0);
	assert_string_equal(got, want);
	assert_int_equal(path_resolve("nodir/J", got, sizeof(got)), -ENOENT);
	check_spellings(); /* J does not exist yet */
	FILE *f = fopen("J", "we");
	assert_non_null(f);
	fclose(f);
	check_spellings(); /* the same once it does */
}

/* A symlink loop is no file, and is the same as nothing. */
static void test_loop(void **state)
{
	char got[PATH_MAX];
	(void)state;

	assert_int_equal(symlink("loop2", "loop1"), 0);
	assert_int_equal(symlink("loop1", "loop2"), 0);
	assert_int_equal(path_resolve("loop1", got, sizeof(got)), -ELOOP);
	assert_false(file_same("loop1", "J"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_before_and_after_creation,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
	};
	return cmocka_run_group_tests_name("file_id", tests, NULL, NULL);
}

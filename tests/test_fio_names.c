/* test_fio_names.c - where a job's files go, against fio 3.33: the same
 * job through both tools, each in its own directory, and the files each
 * left compared by path: directory= with an absolute filename= (fio puts
 * it under the directory, making the directories its name needs), a
 * filename= whose directories do not exist yet (made, as fio's
 * create_work_dirs), a ':'-separated directory list spreading numjobs
 * clones, filename_format with $jobnum, $filenum, $jobname. SKIP without
 * fio. */
#define _GNU_SOURCE
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

#include "fio_side.h"
#include "harness.h"
#include "iolog_ops.h"

/* The regular files under dir/sub (but the runs' own), sorted. */
static char *files_of(const char *dir, const char *sub)
{
	char cmd[4400], path[4300];

	snprintf(path, sizeof(path), "%s/%s.files", dir, sub);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/%s' && find . -type f ! -name out.json ! -name err.txt "
		 "! -name rc | sort > '%s'", dir, sub, path);
	assert_int_equal(system(cmd), 0);
	char *s = file_slurp(path, NULL);
	assert_non_null(s);
	return s;
}

static void same_files(const char *dir, const char *opts, const char *want)
{
	char cmd[4400];
	int rf, ri;

	iolog_ops_fresh(dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/fio/d1' '%s/fio/d2' "
		 "'%s/iochar/d1' '%s/iochar/d2'", dir, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	side_run_both(dir, opts, &rf, &ri);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	char *f = files_of(dir, "fio"), *i = files_of(dir, "iochar");
	if (strcmp(f, i))
		fail_msg("%s:\nfio:\n%siochar:\n%s", opts, f, i);
	expect_has(f, want);
	print_message("%s: %u files, the same\n", opts, count_lines(f));
	free(f);
	free(i);
}

static void test_names_as_fio(void **state)
{
	side_need_fio();
	same_files(*state, "--name=j --directory=d1 --filename=/abs/x.dat "
			   "--size=64k --rw=write", "./d1/abs/x.dat");
	same_files(*state, "--name=j --filename=new/sub/x.dat --size=64k "
			   "--rw=read", "./new/sub/x.dat");
	same_files(*state, "--name=j --directory=d1:d2 --nrfiles=2 --numjobs=3 "
			   "--size=64k --rw=write", "./d2/j.1.1");
	same_files(*state, "--name=j --directory=d1 --nrfiles=2 --numjobs=2 "
			   "--filename_format=f.\\$jobnum.\\$filenum.\\$jobname "
			   "--size=64k --rw=write", "./d1/f.1.1.j");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_names_as_fio, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

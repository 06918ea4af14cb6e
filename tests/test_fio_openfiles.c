/* test_fio_openfiles.c - openfiles and file_service_type against fio
 * 3.33 on the same job:
 * fio serves at most openfiles files at once (the first ones in turn, a
 * file joining when its turn comes with room, leaving when the service
 * next finds it done), so the order of a job's I/Os over its files
 * changes. Each job runs through both tools (psync, write_iolog=;
 * random jobs with lfsr, whose offsets are fio's) and the logs are the
 * same I/O for I/O: round robin, round robin:2, sequential, files of
 * their own sizes (filesize=LOW-HIGH), one file at a time; and
 * file_service_type=random (and random:N), whose draws are fio's own
 * generator seeded as fio's, with and without openfiles. SKIP without
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

static void test_order_as_fio(void **state)
{
	static const char *const jobs[] = {
	    "--rw=randread --random_generator=lfsr --nrfiles=3 --size=96k "
	    "--openfiles=2",
	    "--rw=read --nrfiles=3 --size=96k --openfiles=1",
	    "--rw=write --nrfiles=3 --filesize=16k-64k --openfiles=2",
	    "--rw=randread --random_generator=lfsr --nrfiles=3 "
	    "--filesize=16k-64k --openfiles=2",
	    "--rw=randread --random_generator=lfsr --nrfiles=5 --size=96k "
	    "--openfiles=2 --file_service_type=roundrobin:2",
	    "--rw=write --nrfiles=3 --filesize=16k-64k --openfiles=2 "
	    "--file_service_type=sequential",
	    "--rw=write --nrfiles=6 --filesize=8k-64k --openfiles=3",
	    "--rw=randread --random_generator=lfsr --nrfiles=3 --size=96k "
	    "--file_service_type=random",
	    "--rw=randread --random_generator=lfsr --nrfiles=3 --size=96k "
	    "--file_service_type=random:3 --randseed=42",
	    "--rw=randread --random_generator=lfsr --nrfiles=3 --size=96k "
	    "--file_service_type=random --openfiles=2",
	    "--rw=read --nrfiles=5 --filesize=8k-32k --file_service_type=random",
	};
	static struct iolog_ops f, i;
	const char *dir = *state;

	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char opts[512];
		json_object *fd, *id;
		iolog_ops_fresh(dir);
		snprintf(opts, sizeof(opts), "--name=j --bs=4k --ioengine=psync "
			 "--write_iolog=log.txt %s", jobs[k]);
		side_run_both_json(dir, opts, &fd, &id);
		json_object_put(fd);
		json_object_put(id);
		iolog_ops_read(dir, "fio", &f);
		iolog_ops_read(dir, "iochar", &i);
		assert_true(f.n > 0);
		if (f.n != i.n)
			fail_msg("%s: fio %u I/Os, iochar %u", jobs[k], f.n, i.n);
		for (unsigned n = 0; n < f.n; n++)
			if (strcmp(f.o[n].file, i.o[n].file) || f.o[n].off != i.o[n].off)
				fail_msg("%s: I/O %u: fio %s %llu, iochar %s %llu",
					 jobs[k], n, f.o[n].file, f.o[n].off,
					 i.o[n].file, i.o[n].off);
		print_message("%s: %u I/Os, the same\n", jobs[k], f.n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_order_as_fio, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

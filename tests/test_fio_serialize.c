/* test_fio_serialize.c - serialize_overlap against fio 3.33 on the same
 * job: random 4k writes over two blocks (norandommap), io_uring at depth
 * 8. Without it both tools keep 8 in flight (fio's iodepth_level: most
 * at 8); with it no I/O overlaps one in flight, so neither goes past 2
 * (only two blocks), and about half the I/Os are issued beside another.
 * A job that only reads is left alone (fio's fixup_options turns the
 * option off): iochar keeps 8 in flight. fio's own reads of these page
 * cache blocks through io_uring stay at depth 1-2 with or without the
 * option, so that case is iochar's alone. SKIP without fio. */
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

/* The percentage of I/Os fio's iodepth_level puts at level (a key). */
static double level(json_object *doc, const char *key)
{
	json_object *job = json_object_array_get_idx(jget(doc, "jobs"), 0);
	char path[64];

	snprintf(path, sizeof(path), "iodepth_level.%s", key);
	return jget_double(job, path);
}

static void run(const char *dir, const char *rw, int serialize,
		json_object **f, json_object **i)
{
	char opts[512];

	iolog_ops_fresh(dir);
	snprintf(opts, sizeof(opts),
		 "--name=j --filename=d.dat --size=8k --io_size=4m --bs=4k "
		 "--rw=%s --norandommap --ioengine=io_uring --iodepth=8 "
		 "--serialize_overlap=%d", rw, serialize);
	side_run_both_json(dir, opts, f, i);
}

/* SKIP when io_uring is switched off on this machine. */
static void need_io_uring(void)
{
	FILE *k = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int off = 0;

	if (k) {
		if (fscanf(k, "%d", &off) != 1)
			off = 0;
		fclose(k);
	}
	if (off) {
		printf("SKIP: io_uring is disabled here (io_uring_disabled=%d)\n", off);
		skip();
	}
}

static void test_serialized_as_fio(void **state)
{
	static const char *const deep[] = {"4", "8", "16", "32", ">=64"};
	json_object *d[2];

	side_need_fio();
	need_io_uring();
	run(*state, "randwrite", 1, &d[0], &d[1]);
	for (int t = 0; t < 2; t++) {
		for (size_t k = 0; k < sizeof(deep) / sizeof(deep[0]); k++)
			if (level(d[t], deep[k]) != 0)
				fail_msg("%s: %.2f%% of I/Os at depth %s with "
					 "serialize_overlap=1", t ? "iochar" : "fio",
					 level(d[t], deep[k]), deep[k]);
		assert_true(level(d[t], "2") > 20);
		print_message("%s: depth 1 %.1f%%, 2 %.1f%%\n", t ? "iochar" : "fio",
			      level(d[t], "1"), level(d[t], "2"));
		json_object_put(d[t]);
	}
	run(*state, "randwrite", 0, &d[0], &d[1]);
	for (int t = 0; t < 2; t++) {
		assert_true(level(d[t], "8") > 50);
		json_object_put(d[t]);
	}
	run(*state, "randread", 1, &d[0], &d[1]);
	assert_true(level(d[1], "8") > 50);
	json_object_put(d[0]);
	json_object_put(d[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_serialized_as_fio, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

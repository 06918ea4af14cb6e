/* test_fio_io_uring_depth.c - iodepth on io_uring against fio 3.33
 * (Debian's): iochar keeps the depth asked outstanding where fio rounds it
 * up to a power of two. SKIP without fio.
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

/* The mean number of I/Os outstanding by Little's law: read IOPS x mean
 * latency, of job 0. */
static double outstanding(json_object *doc)
{
	json_object *rd, *lat;
	assert_true(json_object_object_get_ex(side_job_at(doc, 0), "read", &rd));
	assert_true(json_object_object_get_ex(rd, "lat_ns", &lat));
	return side_num(rd, "iops") * side_num(lat, "mean") / 1e9;
}

/* iodepth=3 with io_uring: iochar keeps 3 outstanding; fio 3.33 rounds
 * its io_uring depth up to a power of two (fio_ioring_init) and keeps 4
 * while reporting 3 (docs/fio-compat.md's general differences). On the
 * disk, direct, so that the queue is the device's and stays full. */
static void test_io_uring_depth_kept(void **state)
{
	const char *dir = *state;
	json_object *f, *i;
	side_need_fio();
	side_run_both_json(dir, SIDE_JSON_FIRST "--name=q --filename=data --size=64m --direct=1 "
		 "--ioengine=io_uring --rw=randread --bs=4k --iodepth=3 "
		 "--norandommap --time_based --runtime=1", &f, &i);
	double fo = outstanding(f), io = outstanding(i);
	side_expect_within("fio's outstanding I/Os at iodepth=3", fo, 3.3, 4.05);
	side_expect_within("iochar's outstanding I/Os at iodepth=3", io, 2.0, 3.05);
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_io_uring_depth_kept, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

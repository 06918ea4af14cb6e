/* test_fio_gtod_reduce.c - gtod_reduce (examples/null.fio) against fio
 * 3.33 itself: both run the same I/Os and report bandwidth and IOPS, and
 * fio's layout has no latency (clat, lat N 0, no percentiles) and no
 * bw/iops samples, as fio's. SKIP when fio is missing.
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

/* null.fio's job: the same I/Os; gtod_reduce leaves latency and samples
 * out of both reports, bandwidth and IOPS in. */
static void test_gtod_reduce(void **state)
{
	static const char *const zero[] = {
	    "read.clat_ns.N", "read.lat_ns.N", "read.slat_ns.N",
	    "read.bw_samples", "read.iops_samples", "read.bw_mean",
	    "latency_us.2", "latency_ns.2",
	};
	const char *dir = *state;
	json_object *f, *i;

	side_need_fio();
	side_run_both_json(dir, "--name=null --ioengine=null --size=16m --bs=4k "
		      "--rw=randread --norandommap --gtod_reduce=1", &f, &i);
	assert_int_equal(side_job0(f, "read.total_ios"), 4096);
	assert_int_equal(side_job0(i, "read.total_ios"), 4096);
	assert_true(side_job0(f, "read.iops") > 0 && side_job0(i, "read.iops") > 0);
	for (size_t k = 0; k < sizeof(zero) / sizeof(zero[0]); k++) {
		if (side_job0(f, zero[k]) != 0)
			fail_msg("fio's %s is %g", zero[k], side_job0(f, zero[k]));
		if (side_job0(i, zero[k]) != 0)
			fail_msg("iochar's %s is %g, fio's 0", zero[k], side_job0(i, zero[k]));
	}
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_gtod_reduce, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

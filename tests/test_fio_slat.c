/* test_fio_slat.c - fio's slat_ns, clat_ns and lat_ns as fio defines them,
 * checked against fio 3.33 on the same size-bounded job (run through
 * both at once): with an engine that queues (io_uring, libaio) both split
 * every I/O (slat, clat and lat each count every I/O; slat + clat = lat,
 * mean by mean; slat a small part of lat); with a synchronous one (psync)
 * neither has slat (N 0), clat counts every I/O. The values themselves are
 * each tool's own cost and device time, so only their relations are
 * compared. SKIP without fio; an engine this machine cannot run (io_uring
 * disabled) is skipped alone, saying so. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

#define IOS 2048 /* 8 MiB of 4 KiB reads */

static void split_holds(json_object *doc, const char *who, bool queues)
{
	json_object *r = jget(json_object_array_get_idx(jget(doc, "jobs"), 0), "read");
	uint64_t ios = jget_u64(r, "total_ios");
	uint64_t ns = jget_u64(r, "slat_ns.N"), nc = jget_u64(r, "clat_ns.N");
	double ms = jget_double(r, "slat_ns.mean"), mc = jget_double(r, "clat_ns.mean");
	double ml = jget_double(r, "lat_ns.mean");
	printf("%s: %llu I/Os, slat N %llu mean %.0f ns, clat N %llu mean %.0f ns, lat mean "
	       "%.0f ns\n", who, (unsigned long long)ios, (unsigned long long)ns, ms,
	       (unsigned long long)nc, mc, ml);
	assert_int_equal(ios, IOS);
	assert_int_equal(nc, ios);
	assert_int_equal(jget_u64(r, "lat_ns.N"), ios);
	if (!queues) {
		assert_int_equal(ns, 0);
		return;
	}
	assert_int_equal(ns, ios);
	assert_true(jget_u64(r, "slat_ns.min") <= ms && ms <= jget_u64(r, "slat_ns.max"));
	/* per I/O lat = slat + clat, so the means add up (rounding aside) */
	assert_true(fabs(ms + mc - ml) <= 0.01 * ml + 2);
	assert_true(ms < ml);
}

static void one_engine(const char *dir, const char *engine, bool queues)
{
	char opts[512];
	int rf, ri;
	snprintf(opts, sizeof(opts),
		 "--name=s --filename=f.dat --size=8m --rw=randread --bs=4k --direct=1 "
		 "--ioengine=%s --iodepth=%d", engine, queues ? 8 : 1); /* fio notes a cap on stdout */
	side_run_both(dir, opts, &rf, &ri);
	if (rf != 0 && ri != 0) {
		printf("SKIP: %s: neither tool could run it here\n", engine);
		return;
	}
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	json_object *f = side_json(dir, "fio"), *i = side_json(dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	split_holds(f, "fio", queues);
	split_holds(i, "iochar", queues);
	json_object_put(f);
	json_object_put(i);
}

static void test_io_uring(void **state)
{
	side_need_fio();
	one_engine(*state, "io_uring", true);
}

static void test_libaio(void **state)
{
	side_need_fio();
	one_engine(*state, "libaio", true);
}

static void test_psync(void **state)
{
	side_need_fio();
	one_engine(*state, "psync", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_io_uring, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_libaio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_psync, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

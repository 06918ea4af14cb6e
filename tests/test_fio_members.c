/* test_fio_members.c - the fio members iochar's fio layout gained: ctx,
 * majf, minf (the process's counts over the measured phase, a share per
 * job), latency_ns/us/ms and iodepth_level/submit/complete, checked
 * against real fio 3.33 on the same
 * job (null engine, then psync on /dev/shm): the same keys in the same
 * order and of the same JSON types, the latency shares summing to 100 as
 * fio's do. SKIP when fio is not installed (scripts/deps.sh). */
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
#include <unistd.h>

#include "harness.h"

static json_object *first_job(json_object *doc)
{
	return json_object_array_get_idx(jget(doc, "jobs"), 0);
}

static json_object *fio_doc(const char *engine, const char *file)
{
	char cmd[4096], out[] = "/tmp/iochar-fio-members-XXXXXX";
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "fio --name=m --filename=%s --size=4m --rw=randread --bs=4k --ioengine=%s "
		 "--output-format=json --output=%s >/dev/null 2>&1", file, engine, out);
	assert_int_equal(system(cmd), 0);
	json_object *o = json_object_from_file(out);
	unlink(out);
	assert_non_null(o);
	return o;
}

static json_object *iochar_doc(const char *engine, const char *file)
{
	char fe[64], ff[4200];
	struct proc_out po;
	snprintf(fe, sizeof(fe), "--ioengine=%s", engine);
	snprintf(ff, sizeof(ff), "--filename=%s", file);
	run_iochar(&po, NULL, 0, ARGS("run", "--name=m", ff, "--size=4m", "--rw=randread",
				      "--bs=4k", fe, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	proc_out_free(&po);
	return o;
}

/* fio writes a share as a double, 0 included: so must iochar */
static bool same_type(json_object *a, json_object *b)
{
	return json_object_get_type(a) == json_object_get_type(b);
}

/* Member key of both jobs: the same keys, in the same order. */
static void same_map(json_object *f, json_object *i, const char *key)
{
	json_object *fm = jget(f, key), *im = jget(i, key);
	struct json_object_iterator fi = json_object_iter_begin(fm), fe = json_object_iter_end(fm);
	struct json_object_iterator ii = json_object_iter_begin(im), ie = json_object_iter_end(im);
	for (; !json_object_iter_equal(&fi, &fe);
	     json_object_iter_next(&fi), json_object_iter_next(&ii)) {
		if (json_object_iter_equal(&ii, &ie))
			fail_msg("%s: iochar has fewer keys than fio", key);
		assert_string_equal(json_object_iter_peek_name(&fi),
				    json_object_iter_peek_name(&ii));
		assert_true(same_type(json_object_iter_peek_value(&fi),
				      json_object_iter_peek_value(&ii)));
	}
	assert_true(json_object_iter_equal(&ii, &ie));
}

static double map_sum(json_object *j, const char *key)
{
	double sum = 0;
	json_object_object_foreach(jget(j, key), k, v) {
		(void)k;
		sum += json_object_get_double(v);
	}
	return sum;
}

static void check_engine(const char *engine, const char *file)
{
	json_object *f = fio_doc(engine, file), *i = iochar_doc(engine, file);
	json_object *fj = first_job(f), *ij = first_job(i);
	static const char *const counts[] = {"ctx", "majf", "minf"};
	for (int k = 0; k < 3; k++) {
		assert_int_equal(json_object_get_type(jget(fj, counts[k])), json_type_int);
		assert_int_equal(json_object_get_type(jget(ij, counts[k])), json_type_int);
	}
	static const char *const maps[] = {"latency_ns", "latency_us", "latency_ms"};
	double fsum = 0, isum = 0;
	for (int k = 0; k < 3; k++) {
		same_map(fj, ij, maps[k]);
		fsum += map_sum(fj, maps[k]);
		isum += map_sum(ij, maps[k]);
	}
	/* fio leaves out shares below 0.01 %: its sum may be a little short */
	assert_true(fabs(isum - 100) < 0.01);
	assert_true(fsum > 99 && fsum < 100.01);
	json_object_put(f);
	json_object_put(i);
}

/* The depth maps on io_uring at depth 16 (/dev/shm): fio's keys in fio's
 * order, and the same bucket holding most I/Os (16: every commit carries
 * the whole depth once the queue is full). */
static void test_depth_maps(void **state)
{
	(void)state;
	static const char *const maps[] = {"iodepth_level", "iodepth_submit",
					   "iodepth_complete"};
	const char *file = "/dev/shm/iochar-fio-members-depth.dat";
	char cmd[4096], out[] = "/tmp/iochar-fio-members-XXXXXX", fe[4200];
	struct proc_out po;

	if (system("command -v fio >/dev/null 2>&1"))
		skip();
	int fd = mkstemp(out);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "fio --name=m --filename=%s --size=16m --rw=randread --bs=4k --ioengine=io_uring "
		 "--iodepth=16 --output-format=json --output=%s >/dev/null 2>&1", file, out);
	if (system(cmd)) { /* io_uring refused here (seccomp, old kernel) */
		unlink(out);
		skip();
	}
	json_object *f = json_object_from_file(out);
	unlink(out);
	assert_non_null(f);
	snprintf(fe, sizeof(fe), "--filename=%s", file);
	run_iochar(&po, NULL, 0, ARGS("run", "--name=m", fe, "--size=16m", "--rw=randread",
				      "--bs=4k", "--ioengine=io_uring", "--iodepth=16",
				      "--output-format=json"));
	expect_exit(&po, 0);
	json_object *i = parse_json(&po);
	proc_out_free(&po);
	json_object *fj = first_job(f), *ij = first_job(i);
	for (int k = 0; k < 3; k++)
		same_map(fj, ij, maps[k]);
	assert_true(fabs(map_sum(ij, "iodepth_level") - 100) < 0.01);
	assert_true(jget_double(fj, "iodepth_level.16") > 90);
	assert_true(jget_double(ij, "iodepth_level.16") > 90);
	json_object_put(f);
	json_object_put(i);
	unlink(file);
}

static void test_null_engine(void **state)
{
	(void)state;
	if (system("command -v fio >/dev/null 2>&1"))
		skip();
	check_engine("null", "/dev/shm/iochar-fio-members-null");
}

static void test_psync_shm(void **state)
{
	(void)state;
	if (system("command -v fio >/dev/null 2>&1"))
		skip();
	check_engine("psync", "/dev/shm/iochar-fio-members.dat");
	unlink("/dev/shm/iochar-fio-members.dat");
	unlink("/dev/shm/iochar-fio-members-null");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_psync_shm),
		cmocka_unit_test(test_depth_maps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

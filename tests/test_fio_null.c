/* test_fio_null.c - the null engine's sizes against fio 3.33 on the same
 * job: fio sizes a diskless engine's files from size= (split over
 * nrfiles, the first files a block more for what does not divide) or
 * filesize= (fixed, or LOW-HIGH drawn per clone with fio's seeds) less
 * offset= and the clone's offset_increment, then size=N% of that, and the
 * job moves the smaller of size=
 * and all its files hold (or io_size=). Each job runs through both tools;
 * every job entry's read and write io_bytes and total_ios, and its error,
 * are the same, and both leave stderr empty.
 *
 * Without size= or filesize= fio refuses the job ("you need to specify
 * size=", exit 1), time_based or not, with size=N% or nrfiles=; iochar
 * too, with the same exit status and one line naming size=. SKIP without
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
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

static void expect_empty_stderr(const char *dir, const char *sub,
				const char *opts)
{
	char path[4200];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s/err.txt", dir, sub);
	char *s = file_slurp(path, &len);
	assert_non_null(s);
	if (len)
		fail_msg("%s: %s: stderr: %s", opts, sub, s);
	free(s);
}

/* A mixed job's split is each tool's own draw: its sum then. */
static uint64_t both_dirs(json_object *job, const char *key)
{
	char r[64], w[64];

	snprintf(r, sizeof(r), "read.%s", key);
	snprintf(w, sizeof(w), "write.%s", key);
	return jget_u64(job, r) + jget_u64(job, w);
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Clones of different sizes: fio lists them in an order of its own, so
 * their bytes are compared as a sorted list. */
static void same_clones(json_object *f, json_object *i, const char *opts)
{
	json_object *fj = jget(f, "jobs"), *ij = jget(i, "jobs");
	size_t n = json_object_array_length(fj);
	uint64_t a[16], b[16];

	assert_int_equal(n, json_object_array_length(ij));
	assert_true(n <= 16);
	for (size_t k = 0; k < n; k++) {
		a[k] = both_dirs(json_object_array_get_idx(fj, k), "io_bytes");
		b[k] = both_dirs(json_object_array_get_idx(ij, k), "io_bytes");
	}
	qsort(a, n, sizeof(a[0]), by_value);
	qsort(b, n, sizeof(b[0]), by_value);
	for (size_t k = 0; k < n; k++)
		if (a[k] != b[k])
			fail_msg("%s: clone bytes %zu: fio %llu, iochar %llu", opts,
				 k, (unsigned long long)a[k], (unsigned long long)b[k]);
}

static void same_jobs(json_object *f, json_object *i, const char *opts)
{
	if (strstr(opts, "offset_increment")) {
		same_clones(f, i, opts);
		return;
	}
	bool mixed = strstr(opts, "rw=randrw") != NULL;
	static const char *const keys[] = {"read.io_bytes", "read.total_ios",
					   "write.io_bytes", "write.total_ios",
					   "error"};
	json_object *fj = jget(f, "jobs"), *ij = jget(i, "jobs");

	assert_int_equal(json_object_array_length(fj), json_object_array_length(ij));
	for (size_t n = 0; n < json_object_array_length(fj); n++) {
		json_object *a = json_object_array_get_idx(fj, n);
		json_object *b = json_object_array_get_idx(ij, n);
		if (mixed) {
			assert_int_equal(both_dirs(a, "io_bytes"), both_dirs(b, "io_bytes"));
			assert_int_equal(both_dirs(a, "total_ios"), both_dirs(b, "total_ios"));
			assert_true(jget_u64(b, "read.total_ios") > 0);
			assert_true(jget_u64(b, "write.total_ios") > 0);
		}
		for (size_t k = mixed ? 4 : 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (jget_u64(a, keys[k]) != jget_u64(b, keys[k]))
				fail_msg("%s: job %zu: %s: fio %llu, iochar %llu",
					 opts, n, keys[k],
					 (unsigned long long)jget_u64(a, keys[k]),
					 (unsigned long long)jget_u64(b, keys[k]));
	}
}

static void test_sizes_as_fio(void **state)
{
	static const char *const jobs[] = {
	    "--size=1m --rw=randread",
	    /* fio ignores a size's tail: its own t/strided.py writes this */
	    "--size=65536 --io_size=65536 '--filesize=65536)' --rw=randread",
	    "--filesize=1m --rw=write",
	    "--filesize=1m --nrfiles=4 --rw=write",
	    "--filesize=1m-2m --nrfiles=4 --rw=write",
	    "--filesize=1m-2m --nrfiles=4 --rw=randwrite --numjobs=3",
	    "--size=2m --filesize=256k --nrfiles=2 --rw=write",
	    "--size=1m --filesize=4m --rw=read",
	    "--filesize=1m --size=3m --nrfiles=2 --rw=read",
	    "--filename=foo --filesize=512k --rw=read",
	    "--filesize=1m --offset=256k --rw=read",
	    "--size=50% --filesize=1m --rw=read",
	    "--size=1m --nrfiles=3 --rw=read",
	    "--size=1m --nrfiles=3 --rw=randrw",
	    "--size=1m --offset=25% --rw=read",
	    "--filesize=64k --nrfiles=200 --rw=randwrite",
	    "--filesize=64k --nrfiles=3 --rw=randwrite --norandommap "
	    "--io_size=1m",
	    "--filesize=1m --numjobs=3 --offset_increment=256k --rw=read",
	    "--filesize=1m --numjobs=3 --offset_increment=256k --nrfiles=2 "
	    "--offset=64k --rw=randread",
	};
	const char *dir = *state;

	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char opts[512], cmd[4200];
		json_object *f, *i;
		snprintf(cmd, sizeof(cmd), "rm -rf '%s/fio' '%s/iochar'", dir, dir);
		assert_int_equal(system(cmd), 0);
		snprintf(opts, sizeof(opts), "--name=j --ioengine=null --bs=4k %s",
			 jobs[k]);
		side_run_both_json(dir, opts, &f, &i);
		expect_empty_stderr(dir, "fio", opts);
		expect_empty_stderr(dir, "iochar", opts);
		same_jobs(f, i, opts);
		print_message("%s: %.0f bytes\n", jobs[k],
			      side_jobs_sum(i, "read", "io_bytes") +
				  side_jobs_sum(i, "write", "io_bytes"));
		json_object_put(f);
		json_object_put(i);
	}
}

static unsigned file_lines(const char *dir, const char *sub)
{
	char path[4200];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s/err.txt", dir, sub);
	char *s = file_slurp(path, &len);
	assert_non_null(s);
	unsigned n = count_lines(s);
	if (!strstr(s, "size="))
		fail_msg("%s: stderr does not name size=: %s", sub, s);
	free(s);
	return n;
}

static void test_no_size(void **state)
{
	static const char *const jobs[] = {
	    "--name=j --ioengine=null --rw=read",
	    "--name=j --ioengine=null --rw=randread --time_based --runtime=1",
	    "--name=j --ioengine=null --rw=read --size=50%",
	    "--name=j --ioengine=null --rw=write --nrfiles=2",
	};
	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char dir[4200];
		int rf, ri;

		snprintf(dir, sizeof(dir), "%s/%zu", (const char *)*state, k);
		assert_int_equal(mkdir(dir, 0700), 0);
		side_run_both(dir, jobs[k], &rf, &ri);
		if (rf == 0)
			fail_msg("%s: fio 3.33 ran it (its refusal is what is "
				 "tested)", jobs[k]);
		if (ri != rf)
			fail_msg("%s: exit %d, fio's %d", jobs[k], ri, rf);
		file_lines(dir, "fio");
		assert_int_equal(file_lines(dir, "iochar"), 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_sizes_as_fio, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_no_size, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_fio_clones.c - filesize= with offset_increment against fio 3.33:
 * fio's clone k starts its files at offset + k x offset_increment and
 * moves what is left of filesize (f->io_size = filesize - file_offset),
 * the files laid out filesize long. The same jobs through both tools
 * (psync, each clone its own files, or one file shared): the clones'
 * bytes (fio lists clones in an order of its own: compared sorted) and
 * the files left, name and size, are the same. SKIP without fio. */
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

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The clones' bytes moved, sorted, into v (at most 16); their number. */
static size_t clone_bytes(json_object *doc, uint64_t v[16])
{
	json_object *jobs = jget(doc, "jobs");
	size_t n = json_object_array_length(jobs);

	assert_true(n <= 16);
	for (size_t k = 0; k < n; k++) {
		json_object *j = json_object_array_get_idx(jobs, k);
		v[k] = jget_u64(j, "read.io_bytes") + jget_u64(j, "write.io_bytes");
	}
	qsort(v, n, sizeof(v[0]), by_value);
	return n;
}

/* "NAME SIZE" of the data files under dir/sub, sorted; malloc'd. */
static char *sizes_of(const char *dir, const char *sub)
{
	char cmd[4400], path[4300];

	snprintf(path, sizeof(path), "%s/%s.sizes", dir, sub);
	snprintf(cmd, sizeof(cmd), "cd '%s/%s' && find . -type f ! -name out.json "
		 "! -name err.txt ! -name rc -printf '%%p %%s\\n' | sort > '%s'",
		 dir, sub, path);
	assert_int_equal(system(cmd), 0);
	char *s = file_slurp(path, NULL);
	assert_non_null(s);
	return s;
}

static void test_clones_as_fio(void **state)
{
	static const char *const jobs[] = {
	    "--rw=read --filesize=1m --numjobs=3 --offset_increment=256k",
	    "--rw=randwrite --filename=shared.dat --filesize=1m --numjobs=3 "
	    "--offset_increment=256k",
	    "--rw=write --nrfiles=2 --filesize=512k --numjobs=2 "
	    "--offset_increment=128k --offset=64k",
	};
	const char *dir = *state;

	side_need_fio();
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		char opts[512];
		json_object *f, *i;
		uint64_t a[16], b[16];
		iolog_ops_fresh(dir);
		snprintf(opts, sizeof(opts), "--name=j --bs=4k --ioengine=psync %s",
			 jobs[k]);
		side_run_both_json(dir, opts, &f, &i);
		size_t n = clone_bytes(f, a);
		assert_int_equal(clone_bytes(i, b), n);
		for (size_t c = 0; c < n; c++)
			if (a[c] != b[c])
				fail_msg("%s: clone bytes %zu: fio %llu, iochar %llu",
					 jobs[k], c, (unsigned long long)a[c],
					 (unsigned long long)b[c]);
		assert_true(a[0] < a[n - 1]); /* the later clones move less */
		char *fs = sizes_of(dir, "fio"), *is = sizes_of(dir, "iochar");
		if (strcmp(fs, is))
			fail_msg("%s: files:\nfio:\n%siochar:\n%s", jobs[k], fs, is);
		free(fs);
		free(is);
		json_object_put(f);
		json_object_put(i);
		print_message("%s: the same\n", jobs[k]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_clones_as_fio, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

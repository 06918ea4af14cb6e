/* test_fio_filesize.c - fio's filesize=LOW-HIGH (issue 14) against fio
 * 3.33 on the same job (nrfiles=4 filesize=64k-1m, bs=4k, psync), each
 * tool in its own empty directory, compared with what fio did, never with
 * values written here:
 *  - the files each creates, names and sizes: fio's draw is reproducible
 *    from its seed (randrepeat=1 default, randseed=N, randrepeat=0 with
 *    randseed=N; random_generator=tausworthe64 draws them with fio's
 *    taus258), so the sizes must be the same; with randrepeat=0 and no
 *    seed fio takes the system's RNG: then only in range, bs-aligned and
 *    each tool's I/O bytes its files' sum;
 *  - the I/O counts of size-bounded jobs (exact), without size= (the
 *    files' sum) and with size=1m;
 *  - the (file, offset, length) set of write_iolog (both tools write fio's
 *    v3 log) for sequential and random-map jobs: every block of each file
 *    once, the same set as fio's;
 *  - without the random map (norandommap, random_distribution=zoned):
 *    the files take turns until io_size, as fio's (each file's I/O count
 *    exactly fio's), each I/O inside its own file (the offsets are
 *    iochar's own draws, not fio's sequence);
 *  - io_size=3m past the files' sum with unlink=1: the passes wrap over
 *    each file as fio's (the same I/O multiset) and the files are gone;
 *  - numjobs=2: each clone's files drawn with its own seed, as fio;
 *  - bad ranges (HIGH below LOW, not a number) refused with FILE:LINE
 *    each, exit 2, nothing created (iochar only: fio 3.33 takes both
 *    without a word).
 * SKIP when fio is not installed. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

#define BASE "--name=job --ioengine=psync --bs=4k --nrfiles=4 " \
	     "--filesize=64k-1m --write_iolog=log "
#define LOW (64 * 1024)
#define HIGH (1024 * 1024)

/* "name size\n" of the job's files in dir/sub, sorted (malloc'd), and
 * their sizes' sum in *sum; each is checked to be in range, bs-aligned. */
static char *sizes(const char *dir, const char *sub, uint64_t *sum)
{
	char path[4200], *names;
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	names = side_listing(path, "");
	assert_non_null(names);
	char *out = calloc(1, 8192);
	assert_non_null(out);
	*sum = 0;
	for (char *p = names, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		*nl = '\0';
		if (strncmp(p, "job.", 4))
			continue;
		char file[4400];
		struct stat st;
		snprintf(file, sizeof(file), "%s/%s", path, p);
		assert_int_equal(stat(file, &st), 0);
		uint64_t sz = (uint64_t)st.st_size;
		if (sz < LOW || sz > HIGH || sz % 4096)
			fail_msg("%s: %llu bytes, not a 4k multiple in 64k-1m", file,
				 (unsigned long long)sz);
		*sum += sz;
		size_t l = strlen(out);
		snprintf(out + l, 8192 - l, "%s %llu\n", p, (unsigned long long)sz);
	}
	free(names);
	return out;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The I/Os of dir/sub/log (fio's v3 write_iolog: "TIME FILE ACTION OFFSET
 * LEN"), as sorted "FILE OFFSET LEN" lines (malloc'd); *n of them. The
 * direction is left out: both run one. */
static char *io_set(const char *dir, const char *sub, unsigned *n)
{
	char path[4200], line[512], file[256], act[32];
	unsigned long long t, off, len;
	snprintf(path, sizeof(path), "%s/%s/log", dir, sub);
	FILE *f = fopen(path, "re");
	if (!f)
		fail_msg("%s: no write_iolog", path);
	size_t cap = 4096;
	char **v = calloc(cap, sizeof(*v));
	assert_non_null(v);
	*n = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu %255s %31s %llu %llu", &t, file, act, &off,
			   &len) == 5 &&
		    (!strcmp(act, "read") || !strcmp(act, "write"))) {
			assert_true(*n < cap);
			assert_true(asprintf(&v[(*n)++], "%s %012llu %llu", file, off,
					     len) > 0);
		}
	fclose(f);
	qsort(v, *n, sizeof(*v), by_str);
	size_t total = 1;
	for (unsigned i = 0; i < *n; i++)
		total += strlen(v[i]) + 1;
	char *out = calloc(1, total);
	assert_non_null(out);
	for (unsigned i = 0; i < *n; i++) {
		strcat(out, v[i]);
		strcat(out, "\n");
		free(v[i]);
	}
	free(v);
	return out;
}

/* Both tools on opts: the same files (names, sizes), the same exact I/O
 * count and bytes in dir ("read" or "write"); the sizes' sum in *sum and
 * the I/O bytes in *bytes. */
static void same_job(const char *base, const char *opts, const char *dir,
		     uint64_t *sum, uint64_t *bytes)
{
	json_object *f, *i;
	uint64_t sf, si;

	side_run_both_json(base, opts, &f, &i);
	char *a = sizes(base, "fio", &sf), *b = sizes(base, "iochar", &si);
	if (strcmp(a, b))
		fail_msg("%s: fio made\n%siochar made\n%s", opts, a, b);
	assert_int_equal(side_jobs_sum(i, dir, "total_ios"),
			 side_jobs_sum(f, dir, "total_ios"));
	assert_int_equal(side_jobs_sum(i, dir, "io_bytes"),
			 side_jobs_sum(f, dir, "io_bytes"));
	*bytes = (uint64_t)side_jobs_sum(i, dir, "io_bytes");
	*sum = si;
	free(a);
	free(b);
	json_object_put(f);
	json_object_put(i);
}

/* Both tools' logs hold the same I/O set, each block of bs once (no line
 * twice), *n I/Os. */
static void same_blocks(const char *base, unsigned *n)
{
	unsigned nf, ni;
	char *a = io_set(base, "fio", &nf), *b = io_set(base, "iochar", &ni);
	if (strcmp(a, b))
		fail_msg("I/O sets differ: fio %u I/Os, iochar %u", nf, ni);
	for (char *p = b, *nl; (nl = strchr(p, '\n')) && nl[1]; p = nl + 1) {
		size_t l = (size_t)(nl - p);
		if (!strncmp(p, nl + 1, l) && nl[1 + l] == '\n')
			fail_msg("block used twice: %.*s", (int)l, p);
	}
	*n = ni;
	free(a);
	free(b);
}

/* Sequential write, size from the files: each file whole, once. */
static void test_seq_write(void **state)
{
	uint64_t sum, bytes;
	unsigned n;
	side_need_fio();
	same_job(*state, BASE "--rw=write", "write", &sum, &bytes);
	assert_int_equal(bytes, sum); /* size defaults to the files' sum */
	same_blocks(*state, &n);
	assert_int_equal((uint64_t)n * 4096, sum);
}

/* The random map over files of their own sizes: every block once. */
static void test_randread_map(void **state)
{
	uint64_t sum, bytes;
	unsigned n;
	side_need_fio();
	same_job(*state, BASE "--rw=randread", "read", &sum, &bytes);
	assert_int_equal(bytes, sum);
	same_blocks(*state, &n);
	assert_int_equal((uint64_t)n * 4096, sum);
}

/* size= given too: the files keep their drawn sizes, size bounds the I/O
 * (sequential: the same blocks as fio's). */
static void test_size_bounds(void **state)
{
	uint64_t sum, bytes;
	unsigned n;
	side_need_fio();
	same_job(*state, BASE "--rw=read --size=1m", "read", &sum, &bytes);
	assert_int_equal(bytes, 1024 * 1024);
	assert_true(sum > bytes);
	same_blocks(*state, &n);
	assert_int_equal(n, 256);
}

/* randseed=N, randrepeat=0 with randseed=N and tausworthe64: fio's draw
 * from that seed and generator (other sizes than the default's). */
static void test_seeds(void **state)
{
	uint64_t sum, bytes, s0;
	char sub[4200];
	side_need_fio();
	snprintf(sub, sizeof(sub), "%s/default", (char *)*state);
	mkdir(sub, 0755);
	same_job(sub, BASE "--rw=write", "write", &s0, &bytes);
	snprintf(sub, sizeof(sub), "%s/seed", (char *)*state);
	mkdir(sub, 0755);
	same_job(sub, BASE "--rw=randwrite --randseed=1234", "write", &sum, &bytes);
	assert_int_equal(bytes, sum);
	assert_int_not_equal(sum, s0);
	snprintf(sub, sizeof(sub), "%s/norepeat", (char *)*state);
	mkdir(sub, 0755);
	same_job(sub, BASE "--rw=randread --randrepeat=0 --randseed=77", "read",
		 &sum, &bytes);
	assert_int_equal(bytes, sum);
	assert_int_not_equal(sum, s0);
	/* fio's 64-bit generator draws the sizes from the same seed */
	snprintf(sub, sizeof(sub), "%s/taus64", (char *)*state);
	mkdir(sub, 0755);
	same_job(sub, BASE "--rw=write --random_generator=tausworthe64", "write",
		 &sum, &bytes);
	assert_int_equal(bytes, sum);
	assert_int_not_equal(sum, s0);
}

/* randrepeat=0 without a seed: fio's system RNG, not reproducible; each
 * tool's files in range (sizes() checks) and its I/O their sum. */
static void test_unseeded(void **state)
{
	json_object *f, *i;
	uint64_t sf, si;
	side_need_fio();
	side_run_both_json(*state, BASE "--rw=write --randrepeat=0", &f, &i);
	free(sizes(*state, "fio", &sf));
	free(sizes(*state, "iochar", &si));
	assert_int_equal((uint64_t)side_jobs_sum(f, "write", "io_bytes"), sf);
	assert_int_equal((uint64_t)side_jobs_sum(i, "write", "io_bytes"), si);
	json_object_put(f);
	json_object_put(i);
}

/* "FILE COUNT\n" of the I/Os of dir/sub/log per file, sorted (malloc'd);
 * every I/O is checked to lie inside its file. */
static char *per_file(const char *dir, const char *sub)
{
	unsigned n;
	char *set = io_set(dir, sub, &n), *out = calloc(1, 4096);
	char last[256] = "", file[256];
	unsigned long long off, len, count = 0;
	assert_non_null(out);
	for (char *p = set; *p; p = strchr(p, '\n') + 1) {
		assert_int_equal(sscanf(p, "%255s %llu %llu", file, &off, &len), 3);
		char path[4600];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file);
		assert_int_equal(stat(path, &st), 0);
		if (off + len > (unsigned long long)st.st_size)
			fail_msg("%s: I/O at %llu+%llu past its end", path, off, len);
		if (strcmp(file, last) && last[0]) {
			size_t l = strlen(out);
			snprintf(out + l, 4096 - l, "%s %llu\n", last, count);
			count = 0;
		}
		snprintf(last, sizeof(last), "%s", file);
		count++;
	}
	size_t l = strlen(out);
	snprintf(out + l, 4096 - l, "%s %llu\n", last, count);
	free(set);
	return out;
}

/* No random map: the files take turns until io_size, whatever their
 * sizes, as fio's. */
static void test_no_map(void **state)
{
	static const char *const opts[] = {
	    BASE "--rw=randread --norandommap=1",
	    BASE "--rw=randread --random_distribution=zoned:50/10:50/90",
	};
	side_need_fio();
	for (unsigned k = 0; k < 2; k++) {
		char sub[4200];
		uint64_t sum, bytes;
		snprintf(sub, sizeof(sub), "%s/%u", (char *)*state, k);
		mkdir(sub, 0755);
		same_job(sub, opts[k], "read", &sum, &bytes);
		assert_int_equal(bytes, sum);
		char *a = per_file(sub, "fio"), *b = per_file(sub, "iochar");
		if (strcmp(a, b))
			fail_msg("%s: fio's I/Os per file\n%siochar's\n%s", opts[k], a, b);
		free(a);
		free(b);
	}
}

/* io_size past the files: each pass over every file again, as fio's;
 * unlink=1 removes them all. */
static void test_io_size_unlink(void **state)
{
	json_object *f, *i;
	unsigned nf, ni;
	side_need_fio();
	side_run_both_json(*state, BASE "--rw=write --io_size=3m --unlink=1", &f, &i);
	assert_int_equal(side_jobs_sum(i, "write", "total_ios"),
			 side_jobs_sum(f, "write", "total_ios"));
	assert_int_equal(side_jobs_sum(i, "write", "io_bytes"), 3 * 1024 * 1024);
	char *a = io_set(*state, "fio", &nf), *b = io_set(*state, "iochar", &ni);
	if (strcmp(a, b))
		fail_msg("I/O multisets differ: fio %u I/Os, iochar %u", nf, ni);
	free(a);
	free(b);
	for (unsigned k = 0; k < 2; k++) { /* no job.* file left */
		uint64_t sum;
		free(sizes(*state, k ? "iochar" : "fio", &sum));
		assert_int_equal(sum, 0);
	}
	json_object_put(f);
	json_object_put(i);
}

/* numjobs=2: each clone's own files, drawn with its own seed. */
static void test_clones(void **state)
{
	uint64_t sum, bytes;
	side_need_fio();
	same_job(*state, BASE "--rw=read --numjobs=2", "read", &sum, &bytes);
	assert_int_equal(bytes, sum);
}

/* Bad ranges: every culprit with FILE:LINE, exit 2, nothing made. */
static void test_bad_ranges(void **state)
{
	char job[4200];
	snprintf(job, sizeof(job), "%s/bad.fio", (char *)*state);
	FILE *f = fopen(job, "we");
	assert_non_null(f);
	fputs("[global]\nrw=write\nbs=4k\nnrfiles=2\n"
	      "[a]\nfilesize=1m-64k\n"
	      "[b]\nfilesize=64k-abc\n", f);
	assert_int_equal(fclose(f), 0);
	struct proc_out po;
	run_iochar(&po, *state, 0, ARGS("run", "bad.fio"));
	expect_exit(&po, 2);
	expect_has(po.err, "bad.fio:6: filesize=1m-64k");
	expect_has(po.err, "bad.fio:8: filesize=64k-abc");
	assert_int_equal(count_lines(po.err), 2);
	proc_out_free(&po);
	char *l = side_listing(*state, "");
	assert_string_equal(l, "bad.fio\n");
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_seq_write, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_randread_map, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_size_bounds, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_seeds, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_unseeded, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_no_map, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_io_size_unlink, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_clones, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_ranges, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

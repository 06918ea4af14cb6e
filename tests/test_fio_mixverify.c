/* test_fio_mixverify.c - fio's verify phase (do_verify=1 with a verify
 * method) on mixed jobs, and experimental_verify, against fio 3.33 on the
 * same job: each tool writes its own file with write_iolog=, and the
 * logs are read as (file, direction, offset, length).
 *
 * A size-bounded job does size/bs I/Os, then its verify phase reads. In
 * both tools that phase is what fio's log of writes says: the writes in
 * the order issued (fio's list: a random job with its random map, and
 * experimental_verify, which draws the job again and skips its reads),
 * or (fio's sorted log: sequential jobs, norandommap) each block once,
 * the newest write of it, by (file, offset). Random offsets are each
 * tool's own, so those are compared as that rule; sequential ones are
 * compared call for call. The JSON counts are the log's (read.total_ios
 * = the job's reads + the phase's), iochar checked every block the phase
 * read and none of the job's own reads (fio checks those only in a job
 * that does not write), and stderr is empty as fio's.
 *
 * fio 3.33 fails its own verify phase of a mixed job whose log is
 * sorted ("bad header rand_seed": it checks the seeds in the order it
 * wrote, and reads in another); iochar checks the data, not the seed
 * (docs/fio-compat.md). SKIP without fio. */
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

static int by_file_offset(const void *pa, const void *pb)
{
	const struct iolog_op *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->off < b->off ? -1 : a->off > b->off;
}

static bool overlap(const struct iolog_op *a, const struct iolog_op *b)
{
	return !strcmp(a->file, b->file) && a->off < b->off + b->len &&
	       b->off < a->off + a->len;
}

/* What fio's log of the first n I/Os holds at the phase: the writes in
 * order, or (sorted) those no later write overlaps, by (file, offset). */
static void expected_phase(const struct iolog_ops *all, unsigned n, bool sorted,
			   struct iolog_ops *want)
{
	want->n = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct iolog_op *x = &all->o[i];
		bool gone = false;
		if (x->dir != 'w')
			continue;
		for (unsigned k = i + 1; sorted && k < n && !gone; k++)
			gone = all->o[k].dir == 'w' && overlap(&all->o[k], x);
		if (!gone)
			want->o[want->n++] = *x;
	}
	if (sorted)
		qsort(want->o, want->n, sizeof(want->o[0]), by_file_offset);
}

/* The tool's log: n I/Os of the job, then its verify phase as the rule
 * says. Returns the phase's reads. */
static unsigned expect_phase(const char *tool, const struct iolog_ops *all,
			     unsigned n, bool sorted)
{
	static struct iolog_ops want;

	assert_true(all->n >= n);
	expected_phase(all, n, sorted, &want);
	if (all->n - n != want.n)
		fail_msg("%s: %u reads after the job's %u I/Os, its log holds %u",
			 tool, all->n - n, n, want.n);
	for (unsigned i = 0; i < want.n; i++) {
		const struct iolog_op *g = &all->o[n + i], *w = &want.o[i];
		if (g->dir != 'r' || strcmp(g->file, w->file) || g->off != w->off ||
		    g->len != w->len)
			fail_msg("%s: verify read %u: %c %s %llu+%llu, want the "
				 "write of %s %llu+%llu", tool, i, g->dir, g->file,
				 g->off, g->len, w->file, w->off, w->len);
	}
	return want.n;
}

static unsigned count(const struct iolog_ops *o, unsigned n, char dir)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n && i < o->n; i++)
		c += o->o[i].dir == dir;
	return c;
}

static void expect_empty_stderr(const char *dir, const char *sub)
{
	char path[4200];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s/err.txt", dir, sub);
	char *s = file_slurp(path, &len);
	assert_non_null(s);
	if (len)
		fail_msg("%s: stderr: %s", sub, s);
	free(s);
}

/* The job's JSON counts are its log's: reads (its own and the phase's),
 * writes; iochar's verify counts: every phase read checked, the job's
 * own reads not. */
static void expect_counts(json_object *doc, const struct iolog_ops *o, unsigned n,
			  unsigned phase, bool iochar)
{
	json_object *job = json_object_array_get_idx(jget(doc, "jobs"), 0);

	assert_int_equal(jget_u64(job, "error"), 0);
	assert_int_equal(jget_u64(job, "read.total_ios"), count(o, n, 'r') + phase);
	assert_int_equal(jget_u64(job, "write.total_ios"), count(o, n, 'w'));
	if (!iochar)
		return;
	assert_int_equal(jget_u64(doc, "verify.checked_units"), phase);
	assert_int_equal(jget_u64(doc, "verify.failures"), 0);
	assert_int_equal(jget_u64(doc, "verify.unverified_units"), count(o, n, 'r'));
}

/* Run opts (a job of n I/Os) through both; both must pass with empty
 * stderr and follow fio's log (sorted or not). Returns iochar's phase
 * length. */
static unsigned both_follow_the_log(const char *dir, const char *opts,
				    unsigned n, bool sorted)
{
	static struct iolog_ops f, i;
	json_object *fd, *id;
	char all[1024];

	snprintf(all, sizeof(all),
		 "--name=j --bs=4k --ioengine=psync --write_iolog=log.txt %s", opts);
	iolog_ops_fresh(dir);
	side_run_both_json(dir, all, &fd, &id);
	expect_empty_stderr(dir, "fio");
	expect_empty_stderr(dir, "iochar");
	iolog_ops_read(dir, "fio", &f);
	iolog_ops_read(dir, "iochar", &i);
	unsigned pf = expect_phase("fio", &f, n, sorted);
	unsigned pi = expect_phase("iochar", &i, n, sorted);
	print_message("%s: fio read back %u, iochar %u\n", opts, pf, pi);
	assert_true(pi > 0);
	expect_counts(fd, &f, n, pf, false);
	expect_counts(id, &i, n, pi, true);
	json_object_put(fd);
	json_object_put(id);
	return pi;
}

/* randrw with its random map: the writes in order (fio's list);
 * readwrite: ascending (fio's sorted log, the same here). */
static void test_mixed(void **state)
{
	side_need_fio();
	both_follow_the_log(*state, "--filename=d.dat --size=256k --rw=randrw "
				    "--verify=crc32c", 64, false);
	both_follow_the_log(*state, "--filename=d.dat --size=256k --rw=readwrite "
				    "--rwmixread=40 --verify=md5", 64, true);
}

/* A write job's phase is fio's log too: sequential over three files, by
 * file (not as written, round robin); random without the random map,
 * each block once by offset. */
static void test_write_jobs(void **state)
{
	static struct iolog_ops f, i;

	side_need_fio();
	both_follow_the_log(*state, "--nrfiles=3 --size=48k --rw=write "
				    "--verify=crc32c", 12, true);
	/* sequential: the same calls in the same order */
	iolog_ops_read(*state, "fio", &f);
	iolog_ops_read(*state, "iochar", &i);
	assert_int_equal(f.n, i.n);
	for (unsigned k = 0; k < f.n; k++)
		if (f.o[k].dir != i.o[k].dir || strcmp(f.o[k].file, i.o[k].file) ||
		    f.o[k].off != i.o[k].off)
			fail_msg("I/O %u: fio %c %s %llu, iochar %c %s %llu", k,
				 f.o[k].dir, f.o[k].file, f.o[k].off, i.o[k].dir,
				 i.o[k].file, i.o[k].off);
	both_follow_the_log(*state, "--filename=d.dat --size=256k "
				    "--rw=randwrite --norandommap --verify=md5",
			    64, true);
}

/* experimental_verify: no log; the job drawn again, its writes read in
 * the order written, its reads skipped. */
static void test_experimental(void **state)
{
	side_need_fio();
	both_follow_the_log(*state, "--filename=d.dat --size=256k --rw=randrw "
				    "--verify=crc32c --experimental_verify=1",
			    64, false);
	both_follow_the_log(*state, "--filename=d.dat --size=128k "
				    "--rw=randwrite --verify=md5 "
				    "--experimental_verify=1", 32, false);
}

/* A mixed job with fio's sorted log: fio 3.33 fails its own phase on the
 * header's seed; iochar reads the sorted log and finds the data good. */
static void test_mixed_sorted(void **state)
{
	static struct iolog_ops f, i;
	int rf, ri;
	const char *dir = *state;

	side_need_fio();
	side_run_both(dir, "--name=j --bs=4k --ioengine=psync "
			   "--write_iolog=log.txt --filename=d.dat --size=256k "
			   "--rw=randrw --norandommap --verify=crc32c", &rf, &ri);
	assert_int_equal(ri, 0);
	iolog_ops_read(dir, "iochar", &i);
	unsigned phase = expect_phase("iochar", &i, 64, true);
	json_object *id = side_json(dir, "iochar");
	assert_non_null(id);
	expect_counts(id, &i, 64, phase, true);
	json_object_put(id);
	/* fio's first read back is the lowest block written, as iochar's */
	iolog_ops_read(dir, "fio", &f);
	static struct iolog_ops want;
	expected_phase(&f, 64, true, &want);
	assert_true(f.n > 64 && want.n > 0);
	assert_int_equal(f.o[64].off, want.o[0].off);
	char p[4200];
	snprintf(p, sizeof(p), "%s/fio/err.txt", dir);
	char *err = file_slurp(p, NULL);
	assert_non_null(err);
	if (rf == 0)
		print_message("fio passed its sorted phase this time\n");
	else
		expect_has(err, "bad header rand_seed");
	free(err);
}

/* Two verifying jobs on one file, the second after a stonewall (fio's
 * t/jobs/t0026.fio, without its time_based): they never run together,
 * and both tools run them, exit 0, stderr empty, both jobs without
 * error. Without the stonewall iochar refuses them (they would write
 * each other's blocks while checking them): one line, exit 2. */
static void test_stonewalled(void **state)
{
	const char *dir = *state;
	char job[4200], opts[4300];
	int rf, ri;

	side_need_fio();
	for (int wall = 1; wall >= 0; wall--) {
		snprintf(job, sizeof(job), "%s/j%d.fio", dir, wall);
		FILE *f = fopen(job, "w");
		assert_non_null(f);
		fprintf(f, "[job1]\nfilename=t.dat\nsize=256k\nrw=randwrite\n"
			   "loops=2\ndo_verify=1\nverify=md5\n"
			   "experimental_verify=1\n"
			   "[job2]\nstonewall=%d\nfilename=t.dat\nsize=256k\n"
			   "rw=randrw\ndo_verify=1\nverify=md5\n", wall);
		fclose(f);
		snprintf(opts, sizeof(opts), "%s", job);
		if (!wall) {
			struct proc_out po;
			run_iochar(&po, dir, 0, ARGS("run", job));
			expect_exit(&po, 2);
			expect_has(po.err, "job2");
			assert_int_equal(count_lines(po.err), 1);
			proc_out_free(&po);
			continue;
		}
		side_run_both(dir, opts, &rf, &ri);
		assert_int_equal(rf, 0);
		assert_int_equal(ri, 0);
		expect_empty_stderr(dir, "fio");
		expect_empty_stderr(dir, "iochar");
		json_object *id = side_json(dir, "iochar");
		assert_non_null(id);
		assert_int_equal(json_object_array_length(jget(id, "jobs")), 2);
		for (int k = 0; k < 2; k++) {
			json_object *jb = json_object_array_get_idx(jget(id, "jobs"), k);
			assert_int_equal(jget_u64(jb, "error"), 0);
			assert_true(jget_u64(jb, "write.io_bytes") >= 64 * 1024);
		}
		json_object_put(id);
	}
}

/* dir/sub/out.json from its first '{' (fio warns on stdout first). */
static json_object *doc_after_noise(const char *dir, const char *sub)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s/out.json", dir, sub);
	char *t = file_slurp(p, NULL);
	assert_non_null(t);
	char *brace = strchr(t, '{');
	assert_non_null(brace);
	json_object *doc = json_tokener_parse(brace);
	free(t);
	assert_non_null(doc);
	return doc;
}

/* A write-only time_based job with do_verify (no verify_backlog): fio
 * 3.33 warns that its read phase never starts and runs the writes; so
 * does iochar (the warning a note, in its JSON): both exit 0, stderr
 * empty, writes and no reads. */
static void test_time_based_writes(void **state)
{
	const char *dir = *state;
	int rf, ri;

	side_need_fio();
	side_run_both(dir, "--name=j --filename=t.dat --size=64k --bs=4k "
			   "--rw=randwrite --time_based --runtime=1 "
			   "--do_verify=1 --verify=md5", &rf, &ri);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	expect_empty_stderr(dir, "fio");
	expect_empty_stderr(dir, "iochar");
	for (int k = 0; k < 2; k++) {
		json_object *doc = doc_after_noise(dir, k ? "iochar" : "fio");
		json_object *jb = json_object_array_get_idx(jget(doc, "jobs"), 0);
		assert_int_equal(jget_u64(jb, "error"), 0);
		assert_int_equal(jget_u64(jb, "read.total_ios"), 0);
		assert_true(jget_u64(jb, "write.total_ios") > 16);
		json_object_put(doc);
	}
}

/* experimental_verify with iochar's own verify=1 (its journal's check):
 * one line naming it, exit 2, nothing written. */
static void test_refused(void **state)
{
	struct proc_out po;

	run_iochar(&po, *state, 0,
		   ARGS("run", "--name=j", "--filename=d.dat", "--size=64k",
			"--rw=randrw", "--verify=1", "--experimental_verify=1"));
	expect_exit(&po, 2);
	expect_has(po.err, "experimental_verify=1");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	char p[4200];
	snprintf(p, sizeof(p), "%s/d.dat", (char *)*state);
	assert_false(file_exists(p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_mixed, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_write_jobs, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_experimental, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_mixed_sorted, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_refused, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_stonewalled, shmdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_time_based_writes, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

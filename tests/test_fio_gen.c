/* test_fio_gen.c - the generator's options against the real fio: the same
 * tiny job runs through fio (Debian's, 3.33) and iochar, both with
 * ioengine=psync on a small file in /dev/shm, both under strace, and the
 * pread64/pwrite64 calls each made on that file (per thread: strace -ff)
 * are compared: exact counts of size-bounded jobs, the same offsets for
 * sequential jobs and holes, the same set of offsets for random-map jobs,
 * size histograms (bssplit, bsrange; fio's iometer and JESD219 example
 * patterns) and zone shares within stated tolerances, clones' start
 * offsets (offset_increment), rw=randread:8's runs. Skips, saying why,
 * without fio or strace.
 */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <dirent.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define FILE_BYTES (16u << 20)
#define MAX_IOS 20000
#define MAX_THREADS 8
#define RUN_TIMEOUT_MS 20000

struct io {
	bool write;
	uint64_t off, len;
};

/* What one tool did to the file: the I/Os of each thread that made any,
 * in issue order. */
struct trace {
	unsigned nthreads;
	unsigned n[MAX_THREADS];
	struct io *ios[MAX_THREADS];
	unsigned total;
};

struct fixture {
	char dir[64];
	char file[128];
};

static bool have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/dev/shm/iochar-fiogen.XXXXXX");
	if (!mkdtemp(f->dir)) {
		snprintf(f->dir, sizeof(f->dir), "/tmp/iochar-fiogen.XXXXXX");
		if (!mkdtemp(f->dir))
			return -1;
	}
	snprintf(f->file, sizeof(f->file), "%s/data", f->dir);
	make_file(f->file, FILE_BYTES);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	DIR *d = opendir(f->dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char p[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", f->dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void trace_free(struct trace *t)
{
	for (unsigned i = 0; i < t->nthreads; i++)
		free(t->ios[i]);
	memset(t, 0, sizeof(*t));
}

/* One strace line "pread64(3</path>, ""..., LEN, OFF) = RES" on path. */
static bool parse_line(const char *line, const char *path, struct io *io)
{
	char want[256];
	const char *call = strstr(line, "pread64(");
	bool write = false;

	if (!call && (call = strstr(line, "pwrite64(")))
		write = true;
	if (!call)
		return false;
	snprintf(want, sizeof(want), "<%s>", path);
	if (!strstr(call, want))
		return false;
	const char *end = strstr(call, ") = ");
	if (!end)
		return false;
	/* back from ") = ": ", LEN, OFF" */
	const char *p = end;
	int commas = 0;
	while (p > call && commas < 2)
		if (*--p == ',')
			commas++;
	unsigned long long len, off;
	if (commas < 2 || sscanf(p, ", %llu, %llu", &len, &off) != 2)
		return false;
	io->write = write;
	io->len = len;
	io->off = off;
	return true;
}

static void read_thread_file(struct trace *t, const char *file, const char *path)
{
	FILE *fp = fopen(file, "r");
	char line[4096];
	struct io *ios = NULL;
	unsigned n = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		struct io io;
		if (!parse_line(line, path, &io))
			continue;
		if (!ios)
			ios = calloc(MAX_IOS, sizeof(*ios));
		assert_non_null(ios);
		assert_true(n < MAX_IOS);
		ios[n++] = io;
	}
	fclose(fp);
	if (!n)
		return;
	assert_true(t->nthreads < MAX_THREADS);
	t->ios[t->nthreads] = ios;
	t->n[t->nthreads++] = n;
	t->total += n;
}

/* Run argv under strace -ff (output to dir/tag.PID), bounded in time, and
 * collect the I/Os on path. The tool must exit 0. */
static void traced(const struct fixture *f, const char *tag,
		   const char *const *argv, struct trace *t)
{
	char prefix[256], out[256];
	const char *args[64];
	int n = 0;

	snprintf(prefix, sizeof(prefix), "%s/%s", f->dir, tag);
	snprintf(out, sizeof(out), "%s/%s.out", f->dir, tag);
	args[n++] = "strace";
	args[n++] = "-ff";
	args[n++] = "-qq";
	args[n++] = "--seccomp-bpf"; /* stop only at the traced calls: fast */
	args[n++] = "-y";
	args[n++] = "-s0";
	args[n++] = "-etrace=pread64,pwrite64";
	args[n++] = "-o";
	args[n++] = prefix;
	for (int i = 0; argv[i] && n < 62; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		/* LeakSanitizer cannot run under ptrace: an ASan build of
		 * iochar is checked for leaks by the rest of the suite */
		char asan[512];
		const char *was = getenv("ASAN_OPTIONS");
		snprintf(asan, sizeof(asan), "%s%sdetect_leaks=0", was ? was : "",
			 was && *was ? ":" : "");
		setenv("ASAN_OPTIONS", asan, 1);
		execvp("strace", (char *const *)args);
		_exit(127);
	}
	int status = 0;
	for (int ms = 0;; ms += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (ms > RUN_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fail_msg("%s: still running after %d ms", tag, RUN_TIMEOUT_MS);
		}
		usleep(10000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char cmd[512];
		snprintf(cmd, sizeof(cmd), "cat %s >&2", out);
		if (system(cmd)) {
		}
		fail_msg("%s exited with status %d", tag, status);
	}
	memset(t, 0, sizeof(*t));
	DIR *d = opendir(f->dir);
	struct dirent *e;
	size_t tl = strlen(tag);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, tag, tl) || e->d_name[tl] != '.' ||
		    !strcmp(e->d_name + tl, ".out"))
			continue;
		char p[512];
		snprintf(p, sizeof(p), "%s/%s", f->dir, e->d_name);
		read_thread_file(t, p, f->file);
		unlink(p);
	}
	if (d)
		closedir(d);
}

#define MAX_OPTS 16

/* The same job through fio and iochar: opts are "--key=value" strings
 * both take. */
static void run_both(const struct fixture *f, const char *const *opts,
		     struct trace *fio, struct trace *ioc)
{
	char fname[192];
	const char *fa[MAX_OPTS + 8], *ia[MAX_OPTS + 12];
	int nf = 0, ni = 0;

	snprintf(fname, sizeof(fname), "--filename=%s", f->file);
	fa[nf++] = "fio";
	fa[nf++] = "--name=j";
	fa[nf++] = "--ioengine=psync";
	fa[nf++] = "--output=/dev/null";
	fa[nf++] = fname;
	ia[ni++] = iochar_path();
	ia[ni++] = "run";
	ia[ni++] = "--name=j";
	ia[ni++] = "--ioengine=psync";
	ia[ni++] = "--direct=0";
	ia[ni++] = "--force=1"; /* the test's own file */
	ia[ni++] = fname;
	for (int i = 0; opts[i] && i < MAX_OPTS; i++) {
		fa[nf++] = opts[i];
		ia[ni++] = opts[i];
	}
	fa[nf] = ia[ni] = NULL;
	traced(f, "fio", fa, fio);
	traced(f, "iochar", ia, ioc);
}

#define SKIP_WITHOUT_TOOLS()                                                   \
	do {                                                                   \
		if (!have_tool("fio") || !have_tool("strace")) {               \
			printf("SKIP: needs fio and strace (scripts/deps.sh)\n"); \
			skip();                                                \
		}                                                              \
	} while (0)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Thread 0's offsets, sorted when sorted is true (a caller-owned array). */
static uint64_t *offsets(const struct trace *t, unsigned th, bool sorted)
{
	uint64_t *o = calloc(t->n[th] + 1, sizeof(*o));

	assert_non_null(o);
	for (unsigned i = 0; i < t->n[th]; i++)
		o[i] = t->ios[th][i].off;
	if (sorted)
		qsort(o, t->n[th], sizeof(*o), cmp_u64);
	return o;
}

static void expect_same_offsets(const struct trace *a, const struct trace *b,
				bool as_set)
{
	assert_int_equal(a->nthreads, 1);
	assert_int_equal(b->nthreads, 1);
	assert_int_equal(a->n[0], b->n[0]);
	uint64_t *x = offsets(a, 0, as_set), *y = offsets(b, 0, as_set);
	for (unsigned i = 0; i < a->n[0]; i++)
		if (x[i] != y[i])
			fail_msg("I/O %u: fio at %llu, iochar at %llu", i,
				 (unsigned long long)x[i], (unsigned long long)y[i]);
	free(x);
	free(y);
}

static void test_sequential_same_offsets(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=read", "--bs=4k", "--size=256k"), &fio, &ioc);
	assert_int_equal(fio.total, 64);
	expect_same_offsets(&fio, &ioc, false);
	trace_free(&fio);
	trace_free(&ioc);
}

/* The random map: every block once, in an order that is not sequential. */
static void test_random_map_each_block_once(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=1m"), &fio, &ioc);
	assert_int_equal(fio.total, 256);
	expect_same_offsets(&fio, &ioc, true);
	uint64_t *o = offsets(&ioc, 0, true);
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(o[i], i * 4096ull); /* each block once */
	free(o);
	unsigned ascending = 0;
	for (unsigned i = 1; i < ioc.n[0]; i++)
		ascending += ioc.ios[0][i].off == ioc.ios[0][i - 1].off + 4096;
	assert_true(ascending < 32);
	trace_free(&fio);
	trace_free(&ioc);
}

/* randrw: reads and writes share the map, each block once in either. */
static void test_random_map_mixed(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randrw", "--bs=4k", "--size=1m"), &fio, &ioc);
	assert_int_equal(fio.total, 256);
	expect_same_offsets(&fio, &ioc, true);
	unsigned w = 0;
	for (unsigned i = 0; i < 256; i++)
		w += ioc.ios[0][i].write;
	assert_true(w > 80 && w < 176); /* rwmixread=50 */
	trace_free(&fio);
	trace_free(&ioc);
}

/* norandommap: blocks may repeat, the count is still size / bs. */
static void test_norandommap_repeats(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=1m",
			      "--norandommap"), &fio, &ioc);
	assert_int_equal(fio.total, 256);
	assert_int_equal(ioc.total, 256);
	uint64_t *o = offsets(&ioc, 0, true);
	unsigned dups = 0;
	for (unsigned i = 1; i < 256; i++)
		dups += o[i] == o[i - 1];
	free(o);
	assert_true(dups > 10); /* 256 draws of 256 blocks: ~94 repeats */
	trace_free(&fio);
	trace_free(&ioc);
}

static void test_write_holes_same_offsets(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=write:4k", "--bs=4k", "--size=128k"), &fio,
		 &ioc);
	assert_true(fio.total > 0 && fio.ios[0][0].write);
	expect_same_offsets(&fio, &ioc, false);
	trace_free(&fio);
	trace_free(&ioc);
}

/* The same where the file ends with the region: fio's holes then wrap to
 * the start and the job goes on until size bytes are written. */
static void test_write_holes_wrap_at_file_end(void **state)
{
	struct fixture *f = *state;
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	assert_int_equal(truncate(f->file, 128 * 1024), 0);
	run_both(f, ARGS("--rw=write:4k", "--bs=4k", "--size=128k"), &fio, &ioc);
	assert_int_equal(fio.total, 32);
	expect_same_offsets(&fio, &ioc, false);
	assert_int_equal(ioc.ios[0][16].off, 0); /* the second round */
	trace_free(&fio);
	trace_free(&ioc);
}

/* rw=read:-8k: backwards (fio's examples/backwards-read.fio), the same
 * offsets as fio. */
static void test_backward_holes_same_offsets(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=read:-8k", "--bs=4k", "--size=64k"), &fio,
		 &ioc);
	assert_int_equal(fio.total, 16);
	expect_same_offsets(&fio, &ioc, false);
	assert_int_equal(ioc.ios[0][1].off, 56 * 1024); /* from the end */
	trace_free(&fio);
	trace_free(&ioc);
}

/* Does every I/O of t whose index is not 7 mod 8 continue into the next,
 * and does the last one end the region (fio ends the job when a
 * sequential I/O reaches the region's end, random map or not)? */
static void expect_runs_of_8(const struct trace *t, const char *who,
			     uint64_t region)
{
	assert_true(t->n[0] > 8);
	for (unsigned i = 0; i + 1 < t->n[0]; i++)
		if (i % 8 != 7 &&
		    t->ios[0][i + 1].off != t->ios[0][i].off + 4096)
			fail_msg("%s: I/O %u breaks a run of 8", who, i + 1);
	const struct io *last = &t->ios[0][t->n[0] - 1];
	if (last->off + last->len != region)
		fail_msg("%s: the last I/O ends at %llu, not at the region's end",
			 who, (unsigned long long)(last->off + last->len));
}

/* randread:8: a random offset, then 7 sequential I/Os, as fio; the job
 * ends where fio's does, when a run reaches the region's end (so fewer
 * than size / bs I/Os). */
static void test_randread_8_runs(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread:8", "--bs=4k", "--size=2m"), &fio,
		 &ioc);
	expect_runs_of_8(&fio, "fio", 2u << 20);
	expect_runs_of_8(&ioc, "iochar", 2u << 20);
	assert_true(fio.total < 512 && ioc.total < 512);
	trace_free(&fio);
	trace_free(&ioc);
}

/* Share (percent) of the I/Os of t of length len. */
static double share_of_len(const struct trace *t, uint64_t len)
{
	unsigned c = 0;

	for (unsigned i = 0; i < t->n[0]; i++)
		c += t->ios[0][i].len == len;
	return 100.0 * c / t->n[0];
}

static uint64_t bytes_of(const struct trace *t)
{
	uint64_t b = 0;

	for (unsigned i = 0; i < t->n[0]; i++)
		b += t->ios[0][i].len;
	return b;
}

/* bssplit: each size's share within 9 points of fio's (about 590 I/Os
 * each: the difference of two shares has a standard deviation under 3
 * points; both tools' seeds are fixed, so the result is repeatable), the
 * same bytes (the last I/O may overshoot). */
static void test_bssplit_histogram(void **state)
{
	static const uint64_t sizes[] = {4096, 16384, 65536};
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--size=16m", "--norandommap",
			      "--bssplit=4k/20:16k/50:64k/30"), &fio, &ioc);
	for (size_t i = 0; i < 3; i++) {
		double a = share_of_len(&fio, sizes[i]), b = share_of_len(&ioc, sizes[i]);
		if (a - b > 9 || b - a > 9)
			fail_msg("%llu: fio %.1f%%, iochar %.1f%%",
				 (unsigned long long)sizes[i], a, b);
	}
	double a = 0, b = 0;
	for (size_t i = 0; i < 3; i++) {
		a += share_of_len(&fio, sizes[i]);
		b += share_of_len(&ioc, sizes[i]);
	}
	assert_true(a > 99.9 && b > 99.9); /* no other size */
	assert_true(bytes_of(&fio) >= 16u << 20 && bytes_of(&ioc) >= 16u << 20);
	assert_true(bytes_of(&fio) < (16u << 20) + 65536);
	assert_true(bytes_of(&ioc) < (16u << 20) + 65536);
	trace_free(&fio);
	trace_free(&ioc);
}

/* bssplit with the random map: an I/O that would run into a used block
 * is cut short, so the I/Os tile the region, each 4k once, in both. */
static void test_bssplit_random_map_tiles(void **state)
{
	struct trace fio, ioc;
	const unsigned units = (4u << 20) / 4096;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--size=4m",
			      "--bssplit=4k/30:64k/70"), &fio, &ioc);
	const struct trace *ts[] = {&fio, &ioc};
	for (int k = 0; k < 2; k++) {
		unsigned char *hit = calloc(units, 1);
		assert_non_null(hit);
		for (unsigned i = 0; i < ts[k]->n[0]; i++) {
			const struct io *io = &ts[k]->ios[0][i];
			assert_int_equal(io->off % 4096, 0);
			assert_int_equal(io->len % 4096, 0);
			for (uint64_t u = io->off / 4096; u < (io->off + io->len) / 4096; u++) {
				assert_true(u < units);
				if (hit[u]++)
					fail_msg("%s: 4k unit %llu read twice",
						 k ? "iochar" : "fio", (unsigned long long)u);
			}
		}
		for (unsigned u = 0; u < units; u++)
			assert_int_equal(hit[u], 1);
		free(hit);
	}
	trace_free(&fio);
	trace_free(&ioc);
}

/* bsrange: multiples of the smallest in the range, and fio's skew to the
 * largest (min + U[0, max) capped at max) within 8 points. */
static void test_bsrange_sizes(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--size=4m", "--norandommap",
			      "--bsrange=4k-16k"), &fio, &ioc);
	const struct trace *ts[] = {&fio, &ioc};
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < ts[k]->n[0]; i++) {
			uint64_t l = ts[k]->ios[0][i].len;
			if (l < 4096 || l > 16384 || l % 4096 || ts[k]->ios[0][i].off % 4096)
				fail_msg("%s: I/O of %llu at %llu", k ? "iochar" : "fio",
					 (unsigned long long)l,
					 (unsigned long long)ts[k]->ios[0][i].off);
		}
	for (uint64_t l = 4096; l <= 16384; l += 4096) {
		double a = share_of_len(&fio, l), b = share_of_len(&ioc, l);
		if (a - b > 8 || b - a > 8)
			fail_msg("%llu: fio %.1f%%, iochar %.1f%%",
				 (unsigned long long)l, a, b);
	}
	trace_free(&fio);
	trace_free(&ioc);
}

/* bs_unaligned with bsrange=1k-9k: any size in the range; most are not
 * multiples of 1k, and the largest takes fio's share (draws past it are
 * capped) within 5 points. */
static void test_bs_unaligned(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--size=4m", "--norandommap",
			      "--bsrange=1k-9k", "--bs_unaligned"), &fio, &ioc);
	const struct trace *ts[] = {&fio, &ioc};
	double odd[2], top[2];
	for (int k = 0; k < 2; k++) {
		unsigned o = 0;
		for (unsigned i = 0; i < ts[k]->n[0]; i++) {
			uint64_t l = ts[k]->ios[0][i].len;
			assert_true(l >= 1024 && l <= 9216);
			o += l % 1024 != 0;
		}
		odd[k] = 100.0 * o / ts[k]->n[0];
		top[k] = share_of_len(ts[k], 9216);
	}
	assert_true(odd[0] > 50 && odd[1] > 50);
	if (top[0] - top[1] > 5 || top[1] - top[0] > 5)
		fail_msg("9k: fio %.1f%%, iochar %.1f%%", top[0], top[1]);
	trace_free(&fio);
	trace_free(&ioc);
}

/* zoned:60/10:30/20:10/ (the last zone: the rest, 70%): each zone's share of the I/Os within 4 points
 * of fio's (2048 I/Os). */
static void test_zoned_shares(void **state)
{
	/* KiB of 8m: fio's zones start at share x blocks / 100 */
	static const uint64_t edge[] = {0, 816, 2456, 8192};
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=8m",
			      "--norandommap",
			      "--random_distribution=zoned:60/10:30/20:10/"),
		 &fio, &ioc);
	assert_int_equal(fio.total, 2048);
	assert_int_equal(ioc.total, 2048);
	for (int z = 0; z < 3; z++) {
		unsigned cf = 0, ci = 0;
		for (unsigned i = 0; i < 2048; i++) {
			uint64_t kf = fio.ios[0][i].off / 1024, ki = ioc.ios[0][i].off / 1024;
			cf += kf >= edge[z] && kf < edge[z + 1];
			ci += ki >= edge[z] && ki < edge[z + 1];
		}
		double a = 100.0 * cf / 2048, b = 100.0 * ci / 2048;
		if (a - b > 4 || b - a > 4)
			fail_msg("zone %d: fio %.1f%%, iochar %.1f%%", z, a, b);
	}
	trace_free(&fio);
	trace_free(&ioc);
}

/* offset_increment: clone c starts at offset + c x increment, as in fio,
 * and each clone reads its own region once. */
static void test_offset_increment_starts(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=read", "--bs=4k", "--size=64k",
			      "--numjobs=3", "--offset=8k",
			      "--offset_increment=100k"), &fio, &ioc);
	assert_int_equal(fio.nthreads, 3);
	assert_int_equal(ioc.nthreads, 3);
	uint64_t sf[3], si[3];
	for (int c = 0; c < 3; c++) {
		assert_int_equal(fio.n[c], 16);
		assert_int_equal(ioc.n[c], 16);
		sf[c] = fio.ios[c][0].off;
		si[c] = ioc.ios[c][0].off;
		for (unsigned i = 0; i < 16; i++)
			assert_int_equal(ioc.ios[c][i].off, si[c] + i * 4096ull);
	}
	qsort(sf, 3, sizeof(sf[0]), cmp_u64);
	qsort(si, 3, sizeof(si[0]), cmp_u64);
	for (int c = 0; c < 3; c++)
		assert_int_equal(sf[c], si[c]);
	assert_int_equal(si[2], 8192 + 200 * 1024);
	trace_free(&fio);
	trace_free(&ioc);
}

/* io_size beyond size loops over the region (sequential: the same list
 * again; random: the map starts over); number_ios stops early. */
static void test_io_size_and_number_ios(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=read", "--bs=4k", "--size=64k",
			      "--io_size=256k"), &fio, &ioc);
	assert_int_equal(fio.total, 64);
	expect_same_offsets(&fio, &ioc, false);
	trace_free(&fio);
	trace_free(&ioc);
	/* random: the map starts over each pass, each block once a pass */
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=64k",
			      "--io_size=256k"), &fio, &ioc);
	assert_int_equal(fio.total, 64);
	expect_same_offsets(&fio, &ioc, true);
	uint64_t *o = offsets(&ioc, 0, true);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(o[i], i / 4 * 4096ull);
	free(o);
	trace_free(&fio);
	trace_free(&ioc);
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=64k",
			      "--number_ios=10"), &fio, &ioc);
	assert_int_equal(fio.total, 10);
	assert_int_equal(ioc.total, 10);
	trace_free(&fio);
	trace_free(&ioc);
}

/* bs=R,W: reads of R, writes of W, in both, with and without the random
 * map. With it, fio indexes its map (4k units here) with each direction's
 * own block number and marks a write as one bit, so writes are never cut
 * short, and the job ends once a write's next free block lies past the
 * region: short of size=1m with these fixed seeds, in both (fio: some 25
 * I/Os and 244 KiB). */
static void test_bs_per_direction(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	for (int map = 0; map < 2; map++) {
		run_both(*state, map ? ARGS("--rw=randrw", "--bs=4k,16k", "--size=1m")
				     : ARGS("--rw=randrw", "--bs=4k,16k", "--size=1m",
					    "--norandommap"),
			 &fio, &ioc);
		const struct trace *ts[] = {&fio, &ioc};
		for (int k = 0; k < 2; k++) {
			unsigned r = 0, w = 0;
			for (unsigned i = 0; i < ts[k]->n[0]; i++) {
				const struct io *io = &ts[k]->ios[0][i];
				if (io->len != (io->write ? 16384u : 4096u) ||
				    io->off % io->len)
					fail_msg("%s: %s of %llu at %llu", k ? "iochar" : "fio",
						 io->write ? "write" : "read",
						 (unsigned long long)io->len,
						 (unsigned long long)io->off);
				r += !io->write;
				w += io->write;
			}
			assert_true(r > 10 && w > 10);
			if (map && bytes_of(ts[k]) >= 1u << 20)
				fail_msg("%s: the map let the job do all of size", k ? "iochar" : "fio");
		}
		trace_free(&fio);
		trace_free(&ioc);
	}
}

/* size=50%: half the file; offset=N%: from N% of it, rounded up to the
 * block size; as fio. */
static void test_size_percent(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=read", "--bs=64k", "--size=50%"), &fio, &ioc);
	assert_int_equal(fio.total, FILE_BYTES / 2 / 65536);
	expect_same_offsets(&fio, &ioc, false);
	trace_free(&fio);
	trace_free(&ioc);
	run_both(*state, ARGS("--rw=randread", "--bs=64k", "--offset=33%",
			      "--size=1m"), &fio, &ioc);
	assert_int_equal(fio.total, 16);
	expect_same_offsets(&fio, &ioc, true);
	uint64_t *o = offsets(&ioc, 0, true);
	/* 33% of 16 MiB is 5536481.28 bytes: up to 85 x 64k */
	assert_int_equal(o[0], 85 * 65536ull);
	free(o);
	trace_free(&fio);
	trace_free(&ioc);
}

/* rw_sequencer=identical with randread:4: each offset four times, in both. */
static void test_sequencer_identical(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread:4", "--rw_sequencer=identical",
			      "--bs=4k", "--size=256k"), &fio, &ioc);
	assert_int_equal(fio.total, 64);
	assert_int_equal(ioc.total, 64);
	const struct trace *ts[] = {&fio, &ioc};
	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < 64; i++)
			if (ts[k]->ios[0][i].off != ts[k]->ios[0][i - i % 4].off)
				fail_msg("%s: I/O %u is not its group's offset",
					 k ? "iochar" : "fio", i);
	trace_free(&fio);
	trace_free(&ioc);
}

/* blockalign=16k, bs=4k: offsets multiples of 16k (the random map off). */
static void test_blockalign(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--blockalign=16k",
			      "--size=1m"), &fio, &ioc);
	assert_int_equal(fio.total, 256);
	assert_int_equal(ioc.total, 256);
	for (unsigned i = 0; i < 256; i++) {
		assert_int_equal(fio.ios[0][i].off % 16384, 0);
		assert_int_equal(ioc.ios[0][i].off % 16384, 0);
	}
	trace_free(&fio);
	trace_free(&ioc);
}

/* Share (percent) of t's I/Os that start where the previous one ended. */
static double continuing_share(const struct trace *t)
{
	unsigned c = 0;

	for (unsigned i = 1; i < t->n[0]; i++)
		c += t->ios[0][i].off == t->ios[0][i - 1].off + t->ios[0][i - 1].len;
	return 100.0 * c / (t->n[0] - 1);
}

/* percentage_random=30: about 70% of the I/Os continue the previous one,
 * within 8 points of fio's share (1024 I/Os). */
static void test_percentage_random(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=4m",
			      "--percentage_random=30"), &fio, &ioc);
	double a = continuing_share(&fio), b = continuing_share(&ioc);
	if (a - b > 8 || b - a > 8)
		fail_msg("continuing: fio %.1f%%, iochar %.1f%%", a, b);
	assert_true(b > 50 && b < 90);
	trace_free(&fio);
	trace_free(&ioc);
}

/* zoned_abs:70/1m:30/7m: the first MiB's share within 4 points of fio's. */
static void test_zoned_abs_share(void **state)
{
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--bs=4k", "--size=8m",
			      "--norandommap",
			      "--random_distribution=zoned_abs:70/1m:30/7m"),
		 &fio, &ioc);
	assert_int_equal(fio.total, 2048);
	assert_int_equal(ioc.total, 2048);
	unsigned cf = 0, ci = 0;
	for (unsigned i = 0; i < 2048; i++) {
		cf += fio.ios[0][i].off < (1u << 20);
		ci += ioc.ios[0][i].off < (1u << 20);
	}
	double a = 100.0 * cf / 2048, b = 100.0 * ci / 2048;
	if (a - b > 4 || b - a > 4)
		fail_msg("first MiB: fio %.1f%%, iochar %.1f%%", a, b);
	trace_free(&fio);
	trace_free(&ioc);
}

/* Share (percent) of the I/Os of t of length len starting in [lo, hi). */
static double share_in(const struct trace *t, uint64_t len, uint64_t lo,
		       uint64_t hi, unsigned *n)
{
	unsigned c = 0;

	*n = 0;
	for (unsigned i = 0; i < t->n[0]; i++) {
		const struct io *io = &t->ios[0][i];
		if (io->off < lo || io->off >= hi)
			continue;
		(*n)++;
		c += io->len == len;
	}
	return *n ? 100.0 * c / *n : 0;
}

/* bssplit where the drawn size does not fit before the region's end: fio
 * walks its entries in order of share (options.c sorts them so), taking
 * the next one that fits, else draws again. 64k/50:4k/20:16k/30 at offsets
 * with room for 16k but not 64k: fio's order 4k, 16k, 64k draws again when
 * 64k does not fit, so 4k takes 20/50 = 40 % there (in the order given,
 * 64k's draws would fall to 4k: 70 %). Within 15 points of fio's (some 340
 * I/Os there each: 4 standard errors of the difference). */
static void test_bssplit_fallback_by_share(void **state)
{
	struct trace fio, ioc;
	unsigned nf, ni;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randread", "--size=256k", "--io_size=64m",
			      "--norandommap", "--bssplit=64k/50:4k/20:16k/30"),
		 &fio, &ioc);
	double a = share_in(&fio, 4096, 193 << 10, 241 << 10, &nf);
	double b = share_in(&ioc, 4096, 193 << 10, 241 << 10, &ni);
	assert_true(nf > 150 && ni > 150);
	if (a - b > 15 || b - a > 15)
		fail_msg("4k near the end: fio %.1f%% of %u, iochar %.1f%% of %u",
			 a, nf, b, ni);
	trace_free(&fio);
	trace_free(&ioc);
}

/* n, mean and standard deviation of the sizes of t's reads or writes. */
static void size_stats(const struct trace *t, bool write, unsigned *n,
		       double *mean, double *sd)
{
	double s = 0, ss = 0;

	*n = 0;
	for (unsigned i = 0; i < t->n[0]; i++) {
		const struct io *io = &t->ios[0][i];
		if (io->write != write)
			continue;
		(*n)++;
		s += (double)io->len;
		ss += (double)io->len * (double)io->len;
	}
	*mean = *n ? s / *n : 0;
	*sd = *n > 1 ? sqrt((ss - s * s / *n) / (*n - 1)) : 0;
}

/* fio's iometer-file-access-server.fio pattern (randrw 80 % reads over the
 * random map, bssplit from 512 to 64k): an I/O that runs into a used block
 * is cut short in both (fio's mark_random_map), so reads and writes tile
 * the region, each 512-byte unit once, and each direction's mean size is
 * fio's within 4 standard errors of the difference (from both traces'
 * spread). */
static void test_bssplit_random_map_mixed(void **state)
{
	struct trace fio, ioc;
	const unsigned units = (8u << 20) / 512;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randrw", "--rwmixread=80", "--size=8m",
			      "--bssplit=512/10:1k/5:2k/5:4k/60:8k/2:16k/4:32k/4:64k/10"),
		 &fio, &ioc);
	const struct trace *ts[] = {&fio, &ioc};
	unsigned char *hit = calloc(units, 1);
	assert_non_null(hit);
	for (int k = 0; k < 2; k++) {
		memset(hit, 0, units);
		for (unsigned i = 0; i < ts[k]->n[0]; i++) {
			const struct io *io = &ts[k]->ios[0][i];
			for (uint64_t u = io->off / 512; u < (io->off + io->len) / 512; u++)
				if (u >= units || hit[u]++)
					fail_msg("%s: unit %llu twice or outside", k ? "iochar" : "fio",
						 (unsigned long long)u);
		}
		for (unsigned u = 0; u < units; u++)
			assert_int_equal(hit[u], 1);
	}
	free(hit);
	for (int w = 0; w < 2; w++) {
		unsigned n[2];
		double m[2], sd[2];
		for (int k = 0; k < 2; k++)
			size_stats(ts[k], w, &n[k], &m[k], &sd[k]);
		double se = sqrt(sd[0] * sd[0] / n[0] + sd[1] * sd[1] / n[1]);
		assert_true(n[0] > 100 && n[1] > 100);
		if (fabs(m[0] - m[1]) > 4 * se)
			fail_msg("mean %s size: fio %.0f (%u), iochar %.0f (%u), 4 SE %.0f",
				 w ? "write" : "read", m[0], n[0], m[1], n[1], 4 * se);
	}
	trace_free(&fio);
	trace_free(&ioc);
}

/* fio's jesd219.fio pattern (randrw 40 % reads, norandommap, zoned
 * 50/5:30/15:20/80, blockalign=4k, bssplit of 12 sizes from 512 to 64k;
 * seeds fixed here, randrepeat=0 aside): every offset a multiple of 4k,
 * every size one of bssplit's, and each size's share of each direction
 * within 4 standard errors of the difference of fio's (some 2000 I/Os). */
static void test_jesd219_sizes(void **state)
{
	static const uint64_t sizes[] = {512, 1024, 1536, 2048, 2560, 3072,
					 3584, 4096, 8192, 16384, 32768, 65536};
	struct trace fio, ioc;

	SKIP_WITHOUT_TOOLS();
	run_both(*state, ARGS("--rw=randrw", "--rwmixread=40", "--norandommap",
			      "--size=16m", "--blockalign=4k",
			      "--random_distribution=zoned:50/5:30/15:20/80",
			      "--bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:"
			      "3584/1:4k/67:8k/10:16k/7:32k/3:64k/3"),
		 &fio, &ioc);
	const struct trace *ts[] = {&fio, &ioc};
	for (int w = 0; w < 2; w++) {
		unsigned n[2] = {0, 0}, c[2][12] = {{0}};
		for (int k = 0; k < 2; k++)
			for (unsigned i = 0; i < ts[k]->n[0]; i++) {
				const struct io *io = &ts[k]->ios[0][i];
				if (io->write != w)
					continue;
				size_t z = 0;
				while (z < 12 && sizes[z] != io->len)
					z++;
				if (z == 12 || io->off % 4096)
					fail_msg("%s: %llu at %llu", k ? "iochar" : "fio",
						 (unsigned long long)io->len,
						 (unsigned long long)io->off);
				n[k]++;
				c[k][z]++;
			}
		assert_true(n[0] > 500 && n[1] > 500);
		for (size_t z = 0; z < 12; z++) {
			double a = (double)c[0][z] / n[0], b = (double)c[1][z] / n[1];
			double p = (double)(c[0][z] + c[1][z]) / (n[0] + n[1]);
			double se = sqrt(p * (1 - p) * (1.0 / n[0] + 1.0 / n[1]));
			if (fabs(a - b) > 4 * se + 1e-9)
				fail_msg("%s of %llu: fio %.1f%%, iochar %.1f%%",
					 w ? "writes" : "reads", (unsigned long long)sizes[z],
					 100 * a, 100 * b);
		}
	}
	trace_free(&fio);
	trace_free(&ioc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_sequential_same_offsets, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_random_map_each_block_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_random_map_mixed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_norandommap_repeats, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_holes_same_offsets, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_write_holes_wrap_at_file_end, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_backward_holes_same_offsets, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_randread_8_runs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit_histogram, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit_random_map_tiles, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bsrange_sizes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bs_unaligned, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_zoned_shares, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_offset_increment_starts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_io_size_and_number_ios, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bs_per_direction, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_size_percent, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sequencer_identical, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_blockalign, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_percentage_random, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_zoned_abs_share, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit_fallback_by_share, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit_random_map_mixed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_jesd219_sizes, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

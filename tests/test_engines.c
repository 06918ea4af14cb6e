/* test_engines.c - every engine moves the right bytes to the right place.
 *
 * Each engine in engine_table is driven exactly as a worker drives it
 * (queue until BUSY or out of units, commit, reap at least one, repeat):
 * distinct patterns are written at distinct offsets of a temporary file,
 * read back through the same engine into cleared buffers, and read back
 * again with plain pread to prove they reached the file. The null engine
 * moves no data, so for it only completion bookkeeping is checked.
 * Also covered: O_DIRECT, BUSY past depth, short reads at EOF, errors as
 * results, two files, one instance per thread, and io_uring's fallback
 * when its buffers cannot be registered.
 *
 * Temporary files live in /dev/shm (or /tmp) and, for O_DIRECT, /var/tmp;
 * they are unlinked right after they are opened, so nothing is left behind
 * even when an assertion fails.
 */
#define _GNU_SOURCE /* O_DIRECT */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/engine.h"

#define BS 4096u
#define FILE_SIZE (1u << 20)
#define NR_BLOCKS (FILE_SIZE / BS)

struct tctx {
	const struct engine_ops *ops;
};

/* One engine instance with its units, as a worker would hold it. */
struct rig {
	const struct engine_ops *ops;
	void *st;
	struct io_unit *units;
	unsigned depth;
	bool moves_data;
	bool own_bufs; /* buffers from posix_memalign (else caller's) */
};

/* One I/O the test wants done, and what it must come back with. */
struct op {
	unsigned file;
	enum io_dir dir;
	uint64_t off;
	uint64_t len;
	int64_t expect;  /* result: bytes or -errno */
	uint64_t gen;    /* pattern generation written / expected */
};

/* ---- patterns: every 8-byte word names its file, offset and generation */

static uint64_t pattern_word(unsigned file, uint64_t off, uint64_t gen)
{
	uint64_t x = off ^ ((uint64_t)file << 56) ^ (gen * 0x9e3779b97f4a7c15ull);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void pattern_fill(void *buf, uint64_t len, unsigned file, uint64_t off,
			 uint64_t gen)
{
	for (uint64_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w = pattern_word(file, off + i, gen);

		memcpy((char *)buf + i, &w, 8);
	}
}

/* Offset within buf of the first wrong word, or -1 when all match. */
static int64_t pattern_check(const void *buf, uint64_t len, unsigned file,
			     uint64_t off, uint64_t gen)
{
	for (uint64_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w, want = pattern_word(file, off + i, gen);

		memcpy(&w, (const char *)buf + i, 8);
		if (w != want)
			return (int64_t)i;
	}
	return -1;
}

/* ---- temporary files */

static const char *buffered_dir(void)
{
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/*
 * Create a FILE_SIZE file in dir, reopen it with flags (O_RDWR | extra), and
 * unlink it at once. Returns the fd, or -errno (-EINVAL from open means the
 * filesystem refused the flags, e.g. O_DIRECT on tmpfs).
 */
static int tmpfile_open(const char *dir, int flags)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/iochar-test-engines-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, FILE_SIZE) < 0) {
		ret = -errno;
		goto out;
	}
	ret = open(path, flags);
	if (ret < 0)
		ret = -errno;
out:
	unlink(path);
	close(fd);
	return ret;
}

static int direct_file_or_skip(void)
{
	int fd = tmpfile_open("/var/tmp", O_RDWR | O_DIRECT);

	if (fd == -EINVAL) {
		print_message("SKIP: O_DIRECT not supported on /var/tmp\n");
		skip();
	}
	assert_true(fd >= 0);
	return fd;
}

/* ---- the rig */

static void probe_or_skip(const struct engine_ops *ops)
{
	struct ioc_err err = { 0 };
	int ret = ops->probe(&err);

	if (ret < 0) {
		print_message("SKIP: %s: %s\n", ops->name, err.msg);
		skip();
	}
	assert_string_equal(err.msg, "");
}

/*
 * Set up ops with depth units of buflen bytes over fds. bufs, when not
 * NULL, supplies depth * buflen bytes of buffer memory; otherwise each unit
 * gets a 4096-aligned buffer of its own.
 */
static void rig_init(struct rig *r, const struct engine_ops *ops,
		     const int *fds, unsigned nr_fds, unsigned depth,
		     uint64_t buflen, char *bufs)
{
	struct ioc_err err = { 0 };
	struct engine_params p;

	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->depth = depth;
	r->moves_data = !(ops->flags & ENGINE_NO_TARGET);
	r->own_bufs = bufs == NULL;
	r->units = calloc(depth, sizeof(*r->units));
	assert_non_null(r->units);
	for (unsigned i = 0; i < depth; i++) {
		struct io_unit *u = &r->units[i];

		if (bufs)
			u->buf = bufs + (size_t)i * buflen;
		else
			assert_int_equal(posix_memalign(&u->buf, 4096, buflen),
					 0);
		u->buflen = buflen;
		u->index = i;
	}
	p.fds = r->moves_data ? fds : NULL;
	p.nr_fds = r->moves_data ? nr_fds : 0;
	p.units = r->units;
	p.depth = depth;
	if (ops->init(&p, &r->st, &err) != 0)
		fail_msg("%s: init failed: %s", ops->name, err.msg);
	assert_non_null(r->st);
}

static void rig_free(struct rig *r)
{
	r->ops->cleanup(r->st);
	for (unsigned i = 0; r->own_bufs && i < r->depth; i++)
		free(r->units[i].buf);
	free(r->units);
}

static void unit_setup(struct io_unit *u, const struct op *o)
{
	u->file = o->file;
	u->dir = o->dir;
	u->offset = o->off;
	u->len = o->len;
	u->result = INT64_MIN;
	if (o->dir == DIR_WRITE)
		pattern_fill(u->buf, o->len, o->file, o->off, o->gen);
	else
		memset(u->buf, 0, u->buflen);
}

/* Check one completion against what its op expects. */
static void unit_check(const struct rig *r, const struct io_unit *u,
		       const struct op *o)
{
	int64_t bad;

	if (!r->moves_data) {
		assert_int_equal(u->result, (int64_t)o->len);
		return;
	}
	if (u->result != o->expect)
		fail_msg("%s: %s at %llu len %llu: result %lld, want %lld",
			 r->ops->name, o->dir == DIR_READ ? "read" : "write",
			 (unsigned long long)o->off,
			 (unsigned long long)o->len, (long long)u->result,
			 (long long)o->expect);
	if (o->dir != DIR_READ || u->result < 0)
		return;
	bad = pattern_check(u->buf, (uint64_t)u->result, o->file, o->off,
			    o->gen);
	if (bad >= 0)
		fail_msg("%s: read at %llu: wrong data at +%lld", r->ops->name,
			 (unsigned long long)o->off, (long long)bad);
	/* nothing may land past what the engine says it read */
	for (uint64_t i = (uint64_t)u->result; i < u->buflen; i++)
		if (((const unsigned char *)u->buf)[i] != 0)
			fail_msg("%s: byte %llu past a short read changed",
				 r->ops->name, (unsigned long long)i);
}

/*
 * Run ops[0..n) through the engine the way the worker loop does, with the
 * rig's units as the pool of free slots. Every unit must complete exactly
 * once, with the result its op expects.
 */
static void drive(struct rig *r, const struct op *ops, unsigned n)
{
	const struct engine_ops *e = r->ops;
	unsigned *free_slots = calloc(r->depth, sizeof(*free_slots));
	int *owner = calloc(r->depth, sizeof(*owner)); /* op index or -1 */
	unsigned nr_free = r->depth, next = 0, done = 0, inflight = 0;

	assert_non_null(free_slots);
	assert_non_null(owner);
	for (unsigned i = 0; i < r->depth; i++) {
		free_slots[i] = r->depth - 1 - i;
		owner[i] = -1;
	}
	while (done < n) {
		bool queued = false;

		while (next < n && nr_free) {
			struct io_unit *u = &r->units[free_slots[nr_free - 1]];
			enum engine_queue_ret ret;

			unit_setup(u, &ops[next]);
			ret = e->queue(r->st, u);
			if (ret == ENGINE_BUSY)
				break;
			nr_free--;
			owner[u->index] = (int)next++;
			if (ret == ENGINE_COMPLETED) {
				assert_true(e->flags & ENGINE_SYNC ||
					    u->result < 0);
				unit_check(r, u, &ops[owner[u->index]]);
				owner[u->index] = -1;
				free_slots[nr_free++] = u->index;
				done++;
				continue;
			}
			assert_int_equal(ret, ENGINE_QUEUED);
			inflight++;
			queued = true;
		}
		if (queued)
			assert_int_equal(engine_commit(e, r->st), 0);
		if (!inflight) {
			if (next < n)
				fail_msg("%s: BUSY with nothing in flight",
					 e->name);
			continue;
		}
		int got = engine_getevents(e, r->st, 1);

		if (got < 1 || (unsigned)got > inflight)
			fail_msg("%s: getevents(1) = %d with %u in flight",
				 e->name, got, inflight);
		for (int i = 0; i < got; i++) {
			struct io_unit *u = e->event(r->st, (unsigned)i);

			assert_non_null(u);
			assert_true(u >= r->units && u < r->units + r->depth);
			if (owner[u->index] < 0)
				fail_msg("%s: unit %u completed twice",
					 e->name, u->index);
			unit_check(r, u, &ops[owner[u->index]]);
			owner[u->index] = -1;
			free_slots[nr_free++] = u->index;
			inflight--;
			done++;
		}
	}
	/* drained: a poll finds nothing */
	assert_int_equal(engine_getevents(e, r->st, 0), 0);
	assert_int_equal(nr_free, r->depth);
	free(owner);
	free(free_slots);
}

/* Every block of files[0..nr) in a scattered order (stride coprime to
 * NR_BLOCKS), file by file, as ops of direction dir. */
static struct op *ops_all_blocks(unsigned nr_files, enum io_dir dir,
				 uint64_t gen, unsigned *n)
{
	struct op *ops = calloc((size_t)nr_files * NR_BLOCKS, sizeof(*ops));

	assert_non_null(ops);
	for (unsigned i = 0; i < nr_files * NR_BLOCKS; i++) {
		ops[i].file = i % nr_files;
		ops[i].dir = dir;
		ops[i].off = (uint64_t)((i / nr_files) * 97u % NR_BLOCKS) * BS;
		ops[i].len = BS;
		ops[i].expect = BS;
		ops[i].gen = gen;
	}
	*n = nr_files * NR_BLOCKS;
	return ops;
}

/* The file's first len bytes hold generation gen: checked with pread. */
static void file_check_range(int fd, unsigned file, uint64_t gen,
			     uint64_t len)
{
	void *buf = NULL;

	assert_int_equal(posix_memalign(&buf, 4096, len), 0);
	assert_int_equal(pread(fd, buf, len, 0), (ssize_t)len);
	int64_t bad = pattern_check(buf, len, file, 0, gen);

	free(buf);
	if (bad >= 0)
		fail_msg("file %u: pread finds wrong data at %lld", file,
			 (long long)bad);
}

static void file_check(int fd, unsigned file, uint64_t gen)
{
	file_check_range(fd, file, gen, FILE_SIZE);
}

/* Write every block through the engine, read it back through it, then
 * check the file itself. */
static void roundtrip(const struct engine_ops *ops, const int *fds,
		      unsigned nr_fds, unsigned depth, char *bufs)
{
	struct rig r;
	struct op *w, *rd;
	unsigned n;

	rig_init(&r, ops, fds, nr_fds, depth, BS, bufs);
	w = ops_all_blocks(nr_fds, DIR_WRITE, 7, &n);
	rd = ops_all_blocks(nr_fds, DIR_READ, 7, &n);
	drive(&r, w, n);
	drive(&r, rd, n);
	for (unsigned f = 0; r.moves_data && f < nr_fds; f++)
		file_check(fds[f], f, 7);
	free(rd);
	free(w);
	rig_free(&r);
}

static void roundtrip_buffered(const struct engine_ops *ops, unsigned depth)
{
	int fd = tmpfile_open(buffered_dir(), O_RDWR);

	assert_true(fd >= 0);
	roundtrip(ops, &fd, 1, depth, NULL);
	close(fd);
}

/* ---- tests for every engine */

static void test_find_and_probe(void **state)
{
	const struct tctx *t = *state;

	assert_ptr_equal(engine_find(t->ops->name), t->ops);
	assert_null(engine_find("no-such-engine"));
	assert_non_null(strstr(engine_names(), t->ops->name));
	assert_non_null(t->ops->help);
	probe_or_skip(t->ops);
}

static void test_roundtrip_depth1(void **state)
{
	const struct tctx *t = *state;

	probe_or_skip(t->ops);
	roundtrip_buffered(t->ops, 1);
}

static void test_roundtrip_depth32(void **state)
{
	const struct tctx *t = *state;

	probe_or_skip(t->ops);
	roundtrip_buffered(t->ops, 32);
}

/*
 * Queue one more unit than depth: an async engine must say BUSY without
 * taking it, deliver each of the depth units exactly once (getevents never
 * waits for more than is in flight), then accept the extra one. The extra
 * unit shares slot 0 (buffer, index), as a worker reusing a slot would.
 * depth is not a power of two, so an io_uring SQ ring (rounded up to one)
 * still has room: BUSY must come from the engine's own bound.
 */
#define BUSY_DEPTH 3u

static void test_busy(void **state)
{
	const struct tctx *t = *state;
	const struct engine_ops *e = t->ops;
	bool sync = e->flags & ENGINE_SYNC;
	int fd = tmpfile_open(buffered_dir(), O_RDWR);
	unsigned seen[BUSY_DEPTH] = { 0 }, got_total = 0;
	struct op o[BUSY_DEPTH + 1];
	const struct op *xo = &o[BUSY_DEPTH];
	struct io_unit extra;
	struct rig r;

	probe_or_skip(e);
	assert_true(fd >= 0);
	rig_init(&r, e, &fd, 1, BUSY_DEPTH, BS, NULL);
	for (unsigned i = 0; i <= BUSY_DEPTH; i++)
		o[i] = (struct op){ .file = 0, .dir = DIR_WRITE,
				    .off = (uint64_t)i * BS, .len = BS,
				    .expect = BS, .gen = 3 };
	for (unsigned i = 0; i < BUSY_DEPTH; i++) {
		unit_setup(&r.units[i], &o[i]);
		assert_int_equal(e->queue(r.st, &r.units[i]),
				 sync ? ENGINE_COMPLETED : ENGINE_QUEUED);
	}
	extra = r.units[0];
	if (sync) {
		unit_setup(&extra, xo);
		assert_int_equal(e->queue(r.st, &extra), ENGINE_COMPLETED);
		unit_check(&r, &extra, xo);
		for (unsigned i = 0; i < BUSY_DEPTH; i++)
			unit_check(&r, &r.units[i], &o[i]);
		goto verify;
	}
	/* slot 0 is in flight: do not touch its buffer before BUSY */
	assert_int_equal(e->queue(r.st, &extra), ENGINE_BUSY);
	assert_int_equal(engine_commit(e, r.st), 0);
	while (got_total < BUSY_DEPTH) {
		int got = engine_getevents(e, r.st, 2 * BUSY_DEPTH);

		assert_true(got >= 1 &&
			    (unsigned)got + got_total <= BUSY_DEPTH);
		for (int i = 0; i < got; i++) {
			struct io_unit *u = e->event(r.st, (unsigned)i);

			assert_true(u >= r.units && u < r.units + BUSY_DEPTH);
			assert_int_equal(seen[u->index]++, 0);
			unit_check(&r, u, &o[u->index]);
		}
		got_total += (unsigned)got;
	}
	unit_setup(&extra, xo);
	assert_int_equal(e->queue(r.st, &extra), ENGINE_QUEUED);
	assert_int_equal(engine_commit(e, r.st), 0);
	assert_int_equal(engine_getevents(e, r.st, 1), 1);
	assert_ptr_equal(e->event(r.st, 0), &extra);
	unit_check(&r, &extra, xo);
verify:
	if (r.moves_data) {
		char buf[BS];

		for (unsigned i = 0; i <= BUSY_DEPTH; i++) {
			assert_int_equal(pread(fd, buf, BS, (off_t)i * BS), BS);
			assert_int_equal(pattern_check(buf, BS, 0, i * BS, 3),
					 -1);
		}
	}
	rig_free(&r);
	close(fd);
}

/*
 * Engine instances are independent: several threads, each owning one
 * instance (made, used and destroyed on that thread, as workers do) and
 * one file, move data at the same time. cmocka asserts must stay on the
 * main thread, so each thread reports its first problem as a string.
 */
#define NR_THREADS 4u
#define THREAD_DEPTH 8u

struct thread_job {
	const struct engine_ops *ops;
	int fd;
	unsigned id;
	char problem[IOC_ERR_MAX + 32];
};

/* Queue/commit/reap every unit once; returns 0 or -1 with job->problem. */
static int thread_pass(struct thread_job *j, void *st, struct io_unit *units,
		       enum io_dir dir)
{
	const struct engine_ops *e = j->ops;
	unsigned inflight = 0;

	for (unsigned i = 0; i < THREAD_DEPTH; i++) {
		struct io_unit *u = &units[i];

		u->dir = dir;
		u->offset = (uint64_t)i * BS;
		u->len = BS;
		u->result = INT64_MIN;
		if (dir == DIR_WRITE)
			pattern_fill(u->buf, BS, j->id, u->offset, 11);
		else
			memset(u->buf, 0, BS);
		enum engine_queue_ret ret = e->queue(st, u);

		if (ret == ENGINE_QUEUED)
			inflight++;
		else if (ret != ENGINE_COMPLETED)
			goto bad_queue;
	}
	if (engine_commit(e, st) != 0)
		goto bad_queue;
	while (inflight) {
		int got = engine_getevents(e, st, 1);

		if (got < 1)
			goto bad_queue;
		inflight -= (unsigned)got;
	}
	for (unsigned i = 0; i < THREAD_DEPTH; i++) {
		struct io_unit *u = &units[i];
		bool moves = !(e->flags & ENGINE_NO_TARGET);

		if (u->result != BS ||
		    (moves && dir == DIR_READ &&
		     pattern_check(u->buf, BS, j->id, u->offset, 11) >= 0)) {
			snprintf(j->problem, sizeof(j->problem),
				 "thread %u: unit %u result %lld or data wrong",
				 j->id, i, (long long)u->result);
			return -1;
		}
	}
	return 0;
bad_queue:
	snprintf(j->problem, sizeof(j->problem),
		 "thread %u: queue/commit/getevents failed", j->id);
	return -1;
}

static void *thread_main(void *arg)
{
	struct thread_job *j = arg;
	struct io_unit units[THREAD_DEPTH];
	struct ioc_err err = { 0 };
	struct engine_params p;
	void *st = NULL;
	unsigned nbufs = 0;

	memset(units, 0, sizeof(units));
	for (; nbufs < THREAD_DEPTH; nbufs++) {
		if (posix_memalign(&units[nbufs].buf, 4096, BS) != 0) {
			snprintf(j->problem, sizeof(j->problem), "no memory");
			goto out;
		}
		units[nbufs].buflen = BS;
		units[nbufs].index = nbufs;
	}
	p.fds = (j->ops->flags & ENGINE_NO_TARGET) ? NULL : &j->fd;
	p.nr_fds = p.fds ? 1 : 0;
	p.units = units;
	p.depth = THREAD_DEPTH;
	if (j->ops->init(&p, &st, &err) != 0) {
		snprintf(j->problem, sizeof(j->problem), "init: %s", err.msg);
		goto out;
	}
	if (thread_pass(j, st, units, DIR_WRITE) == 0)
		thread_pass(j, st, units, DIR_READ);
	j->ops->cleanup(st);
out:
	for (unsigned i = 0; i < nbufs; i++)
		free(units[i].buf);
	return NULL;
}

static void test_threads(void **state)
{
	const struct tctx *t = *state;
	struct thread_job jobs[NR_THREADS];
	pthread_t tids[NR_THREADS];

	probe_or_skip(t->ops);
	for (unsigned i = 0; i < NR_THREADS; i++) {
		jobs[i] = (struct thread_job){ .ops = t->ops, .id = i };
		jobs[i].fd = tmpfile_open(buffered_dir(), O_RDWR);
		assert_true(jobs[i].fd >= 0);
	}
	for (unsigned i = 0; i < NR_THREADS; i++)
		assert_int_equal(
			pthread_create(&tids[i], NULL, thread_main, &jobs[i]),
			0);
	for (unsigned i = 0; i < NR_THREADS; i++)
		assert_int_equal(pthread_join(tids[i], NULL), 0);
	for (unsigned i = 0; i < NR_THREADS; i++) {
		if (jobs[i].problem[0])
			fail_msg("%s: %s", t->ops->name, jobs[i].problem);
		if (!(t->ops->flags & ENGINE_NO_TARGET))
			file_check_range(jobs[i].fd, i, 11,
					 (uint64_t)THREAD_DEPTH * BS);
		close(jobs[i].fd);
	}
}

/* ---- tests for engines that move data */

static void test_direct(void **state)
{
	const struct tctx *t = *state;
	int fd;

	probe_or_skip(t->ops);
	fd = direct_file_or_skip();
	roundtrip(t->ops, &fd, 1, 1, NULL);
	roundtrip(t->ops, &fd, 1, 32, NULL);

	/* at EOF, O_DIRECT reads come back empty, not failed */
	struct op eof = { .file = 0, .dir = DIR_READ, .off = FILE_SIZE,
			  .len = BS, .expect = 0 };
	struct rig r;

	rig_init(&r, t->ops, &fd, 1, 1, BS, NULL);
	drive(&r, &eof, 1);
	rig_free(&r);
	close(fd);
}

/* A read at EOF returns 0 bytes and one across EOF the bytes up to it:
 * short results, not errors, and nothing written past them. */
static void test_eof(void **state)
{
	const struct tctx *t = *state;
	int fd = tmpfile_open(buffered_dir(), O_RDWR);
	void *buf = NULL;

	probe_or_skip(t->ops);
	assert_true(fd >= 0);
	assert_int_equal(posix_memalign(&buf, 4096, FILE_SIZE), 0);
	pattern_fill(buf, FILE_SIZE, 0, 0, 5);
	assert_int_equal(pwrite(fd, buf, FILE_SIZE, 0), FILE_SIZE);
	free(buf);

	struct op ops[] = {
		{ .dir = DIR_READ, .off = FILE_SIZE, .len = BS, .expect = 0,
		  .gen = 5 },
		{ .dir = DIR_READ, .off = FILE_SIZE + 8 * BS, .len = BS,
		  .expect = 0, .gen = 5 },
		{ .dir = DIR_READ, .off = FILE_SIZE - 1024, .len = BS,
		  .expect = 1024, .gen = 5 },
		{ .dir = DIR_READ, .off = FILE_SIZE - BS, .len = BS,
		  .expect = BS, .gen = 5 },
	};
	struct rig r;

	rig_init(&r, t->ops, &fd, 1, 4, BS, NULL);
	drive(&r, ops, 4);
	rig_free(&r);
	close(fd);
}

/* Errors come back as results (-errno) through the normal completion path,
 * and do not disturb the I/O around them. */
static void test_error_result(void **state)
{
	const struct tctx *t = *state;
	int fd, rofd;

	probe_or_skip(t->ops);
	fd = tmpfile_open(buffered_dir(), O_RDWR);
	assert_true(fd >= 0);
	void *buf = NULL;

	assert_int_equal(posix_memalign(&buf, 4096, FILE_SIZE), 0);
	pattern_fill(buf, FILE_SIZE, 0, 0, 9);
	assert_int_equal(pwrite(fd, buf, FILE_SIZE, 0), FILE_SIZE);
	free(buf);
	/* a read-only descriptor to the same file */
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rofd = open(path, O_RDONLY);
	assert_true(rofd >= 0);

	struct op ops[] = {
		{ .dir = DIR_WRITE, .off = 0, .len = BS, .expect = -EBADF,
		  .gen = 1 },
		{ .dir = DIR_READ, .off = BS, .len = BS, .expect = BS,
		  .gen = 9 },
		{ .dir = DIR_WRITE, .off = 2 * BS, .len = BS,
		  .expect = -EBADF, .gen = 1 },
		{ .dir = DIR_READ, .off = 3 * BS, .len = BS, .expect = BS,
		  .gen = 9 },
	};
	struct rig r;

	rig_init(&r, t->ops, &rofd, 1, 4, BS, NULL);
	drive(&r, ops, 4);
	rig_free(&r);
	file_check(fd, 0, 9); /* the refused writes changed nothing */
	close(rofd);
	close(fd);
}

/* Units spread over two files: the file index must pick the descriptor
 * (a registered-file index for io_uring). */
static void test_two_files(void **state)
{
	const struct tctx *t = *state;
	int fds[2];

	probe_or_skip(t->ops);
	fds[0] = tmpfile_open(buffered_dir(), O_RDWR);
	fds[1] = tmpfile_open(buffered_dir(), O_RDWR);
	assert_true(fds[0] >= 0 && fds[1] >= 0);
	roundtrip(t->ops, fds, 2, 16, NULL);
	close(fds[1]);
	close(fds[0]);
}

/* ---- io_uring without registered buffers */

/*
 * The engine registers the units' buffers when the kernel lets it and
 * otherwise falls back to plain reads and writes. Force the fallback with
 * buffers the kernel cannot pin long-term: a MAP_SHARED mapping of a file
 * on a filesystem that tracks dirty pages (Linux 6.5+ refuses to pin those
 * for writing). The precondition is checked on a ring of our own first.
 */
static void test_uring_unregistered_buffers(void **state)
{
	const struct tctx *t = *state;
	const unsigned depth = 8;
	struct iovec iov[8];
	struct io_uring ring;
	char *map;
	int mfd, fd, ret;

	probe_or_skip(t->ops);
	mfd = tmpfile_open("/var/tmp", O_RDWR);
	assert_true(mfd >= 0);
	map = mmap(NULL, (size_t)depth * BS, PROT_READ | PROT_WRITE,
		   MAP_SHARED, mfd, 0);
	assert_true(map != MAP_FAILED);
	for (unsigned i = 0; i < depth; i++)
		iov[i] = (struct iovec){ map + (size_t)i * BS, BS };

	assert_int_equal(io_uring_queue_init(4, &ring, 0), 0);
	ret = io_uring_register_buffers(&ring, iov, depth);
	io_uring_queue_exit(&ring);
	if (ret == 0) {
		munmap(map, (size_t)depth * BS);
		close(mfd);
		print_message("SKIP: this kernel pins MAP_SHARED file pages; "
			      "cannot force the unregistered-buffer path\n");
		skip();
	}

	fd = tmpfile_open(buffered_dir(), O_RDWR);
	assert_true(fd >= 0);
	roundtrip(t->ops, &fd, 1, depth, map);
	close(fd);
	fd = tmpfile_open("/var/tmp", O_RDWR | O_DIRECT);
	if (fd >= 0) {
		roundtrip(t->ops, &fd, 1, depth, map);
		close(fd);
	}
	munmap(map, (size_t)depth * BS);
	close(mfd);
}

/* Prefix each test's name with its engine, so the output says which
 * engine a failure belongs to. names must outlive the group's run. */
#define NAME_MAX_LEN 80

static void name_tests(struct CMUnitTest *tests, size_t n,
		       const char *engine, char (*names)[NAME_MAX_LEN])
{
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], NAME_MAX_LEN, "%s: %s", engine,
			 tests[i].name);
		tests[i].name = names[i];
	}
}

#define RUN_GROUP(group, tests, engine)                                        \
	do {                                                                   \
		char names_[sizeof(tests) / sizeof(tests[0])][NAME_MAX_LEN];   \
		name_tests(tests, sizeof(tests) / sizeof(tests[0]), engine,    \
			   names_);                                            \
		failed += cmocka_run_group_tests_name(group, tests, NULL,      \
						      NULL);                   \
	} while (0)

int main(void)
{
	static struct tctx ctx[24];
	int failed = 0;

	for (unsigned i = 0; engine_table[i]; i++) {
		const struct engine_ops *ops = engine_table[i];
		struct tctx *t = &ctx[i];

		if (i >= sizeof(ctx) / sizeof(ctx[0])) {
			fprintf(stderr, "test_engines: too many engines\n");
			return 1;
		}
		t->ops = ops;
		struct CMUnitTest common[] = {
			cmocka_unit_test_prestate(test_find_and_probe, t),
			cmocka_unit_test_prestate(test_roundtrip_depth1, t),
			cmocka_unit_test_prestate(test_roundtrip_depth32, t),
			cmocka_unit_test_prestate(test_busy, t),
			cmocka_unit_test_prestate(test_threads, t),
		};
		struct CMUnitTest data[] = {
			cmocka_unit_test_prestate(test_direct, t),
			cmocka_unit_test_prestate(test_eof, t),
			cmocka_unit_test_prestate(test_error_result, t),
			cmocka_unit_test_prestate(test_two_files, t),
		};
		struct CMUnitTest uring[] = {
			cmocka_unit_test_prestate(
				test_uring_unregistered_buffers, t),
		};

		struct CMUnitTest found[] = {
			cmocka_unit_test_prestate(test_find_and_probe, t),
		};

		/* fio's file-operation engines move no bytes to read back:
		 * tests/test_fio_fileops.c compares them with fio; an engine
		 * that opens a peer (net) needs one: tests/test_fio_net.c */
		if ((ops->flags & ENGINE_NO_DATA) || ops->open) {
			RUN_GROUP("engines moving no data", found, ops->name);
			continue;
		}
		RUN_GROUP("engines", common, ops->name);
		if (ops->flags & ENGINE_NO_TARGET)
			continue;
		RUN_GROUP("engines moving data", data, ops->name);
		if (strcmp(ops->name, "io_uring") == 0)
			RUN_GROUP("io_uring fallbacks", uring, ops->name);
	}
	return failed ? 1 : 0;
}

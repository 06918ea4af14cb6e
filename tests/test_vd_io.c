/* test_vd_io.c - the VD I/O path, driven as a worker drives an engine.
 *
 * Members are small files in a fresh directory under /dev/shm (or /tmp).
 * Covers: every block written through the VD reads back intact with any
 * one (raid5) or any two (raid6) members lost, and through the lost
 * mirror of raid1/raid10; exact member I/O counts for known patterns;
 * concurrent writers to the same stripes leave consistent parity (full
 * tvd_scrub); writes while degraded keep parity right; a rebuilt member is
 * byte-identical to the lost one.
 */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/rng.h"
#include "vd/engine.h"
#include "vd/initmap.h"
#include "vd/members.h"
#include "vd/sync.h"
#include "vd/vd.h"

#include "vd_harness.h"

/* Write everything healthy, then read it all with each loss pattern. */
static void check_losses(const char *level, unsigned n, unsigned max_lost,
			 const char *engine, uint64_t bs)
{
	char text[2048], lost[2048];
	struct tvd t;

	vd_text(text, sizeof(text), level, "64k", n, NULL);
	tvd_open(&t, text, engine, (uint64_t)MEMBER_BYTES * (n - (max_lost ? max_lost : 1)), bs, 8);
	uint64_t cap = t.m.geom.capacity - t.m.geom.capacity % bs;
	tvd_write_all(&t, cap, 7);
	free(tvd_close(&t));
	assert_int_equal(tvd_scrub(text, tvd_member_bytes), 0);

	for (unsigned a = 0; a < n; a++) {
		for (unsigned b = a; b < n; b++) {
			if (b != a && max_lost < 2)
				continue;
			char extra[64];
			if (b == a)
				snprintf(extra, sizeof(extra), "failed=%u", a);
			else
				snprintf(extra, sizeof(extra), "failed=%u:%u", a, b);
			vd_text(lost, sizeof(lost), level, "64k", n, extra);
			struct vd_def *def = malloc(sizeof(*def));
			struct ioc_err err = {0};
			int ok = vd_def_parse(lost, def, &err) == 0;
			free(def);
			if (!ok)
				continue; /* e.g. both halves of a raid10 pair */
			tvd_open(&t, lost, engine, 0, bs, 8);
			tvd_check_all(&t, cap, 7);
			free(tvd_close(&t));
		}
	}
}

static void test_raid5_any_one_lost(void **state)
{
	(void)state;
	check_losses("raid5", 4, 1, "io_uring", 4096);
	check_losses("raid5", 5, 1, "psync", 48 * 1024); /* I/Os across strips */
}

static void test_raid6_any_two_lost(void **state)
{
	(void)state;
	check_losses("raid6", 5, 2, "io_uring", 8192);
	check_losses("raid6", 6, 2, "psync", 256 * 1024); /* several rows per I/O */
}

static void test_mirrors_lost(void **state)
{
	(void)state;
	check_losses("raid1", 3, 2, "io_uring", 4096);
	check_losses("raid10", 4, 1, "psync", 96 * 1024);
}

static void test_raid0_jbod_roundtrip(void **state)
{
	(void)state;
	check_losses("raid0", 3, 0, "io_uring", 12 * 1024);
}

static void test_counts(void **state)
{
	(void)state;
	char text[2048];
	struct tvd t;
	struct rng r;

	vd_text(text, sizeof(text), "raid5", "64k", 4, NULL);
	tvd_open(&t, text, "io_uring", 3 * MEMBER_BYTES, 4096, 1);
	uint64_t cap = t.m.geom.capacity, N = 500;
	rng_seed(&r, 9);
	for (uint64_t i = 0; i < N; i++) {
		t.units[0].dir = DIR_WRITE;
		t.units[0].offset = rng_below(&r, cap / 4096) * 4096;
		t.units[0].len = 4096;
		tvd_run(&t, 1);
	}
	struct vd_stats *s = tvd_close(&t);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 2 * N);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 2 * N);
	assert_int_equal(s->host_ios[DIR_WRITE], N);
	assert_int_equal(s->rmw_rows, N);
	free(s);

	/* full stripes: 3 data strips of 64k per row, written sequentially */
	tvd_open(&t, text, "io_uring", 0, 3 * 65536, 4);
	tvd_write_all(&t, cap, 3);
	s = tvd_close(&t);
	uint64_t rows = cap / (3 * 65536);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 0);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 4 * rows);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(s->member[i].dir[DIR_WRITE].ios, rows);
	assert_int_equal(s->full_rows, rows);
	free(s);
	assert_int_equal(tvd_scrub(text, tvd_member_bytes), 0);

	/* raid5 reads: one member read per aligned 4k read */
	tvd_open(&t, text, "psync", 0, 4096, 1);
	for (uint64_t i = 0; i < 100; i++) {
		t.units[0].dir = DIR_READ;
		t.units[0].offset = rng_below(&r, cap / 4096) * 4096;
		t.units[0].len = 4096;
		tvd_run(&t, 1);
	}
	s = tvd_close(&t);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 100);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 0);
	free(s);
}

/* Host I/Os of n * bs at offset 0, 1 MiB, ... as one unit each. */
static struct vd_stats *run_large(const char *text, enum io_dir d, uint64_t bs,
				  unsigned count, uint64_t size)
{
	struct tvd t;
	tvd_open(&t, text, "io_uring", size, bs, 1);
	for (unsigned i = 0; i < count; i++) {
		t.units[0].dir = d;
		t.units[0].offset = i * bs;
		t.units[0].len = bs;
		if (d == DIR_WRITE)
			tvd_pattern(t.units[0].buf, bs, i, 11);
		tvd_run(&t, 1);
		if (d == DIR_READ) {
			uint8_t *want = malloc(bs);
			tvd_pattern(want, bs, i, 11);
			if (memcmp(want, t.units[0].buf, bs))
				fail_msg("merged read %u of %llu bytes differs", i, (unsigned long long)bs);
			free(want);
		}
	}
	return tvd_close(&t);
}

/* Member I/Os of one host I/O contiguous on a member are one I/O: a
 * RAID 0 1 MiB read over 4 x 64k strips is 4 reads of 256k, not 16; a
 * RAID 5 two-row full-stripe write is one write per member; the bytes
 * are the host's (through the bounce buffer where scattered). */
static void test_merge(void **state)
{
	(void)state;
	char text[2048];
	struct vd_stats *s;

	vd_text(text, sizeof(text), "raid0", "64k", 4, NULL);
	free(run_large(text, DIR_WRITE, 1 << 20, 3, 4 * MEMBER_BYTES));
	s = run_large(text, DIR_READ, 1 << 20, 3, 0);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 4 * 3);
	for (unsigned m = 0; m < 4; m++)
		assert_int_equal(s->member[m].dir[DIR_READ].bytes, 3 * 256 * 1024);
	free(s);

	vd_text(text, sizeof(text), "raid10", "64k", 4, NULL);
	s = run_large(text, DIR_WRITE, 1 << 20, 2, 2 * MEMBER_BYTES);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 4 * 2); /* each copy once */
	free(s);
	s = run_large(text, DIR_READ, 1 << 20, 2, 0);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 2 * 2); /* one copy of each pair */
	free(s);

	/* raid5, 4 members: 2 rows per write, every data strip and P covered */
	vd_text(text, sizeof(text), "raid5", "64k", 4, NULL);
	s = run_large(text, DIR_WRITE, 6 * 65536, 5, 3 * MEMBER_BYTES);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 0);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 4 * 5);
	assert_int_equal(s->full_rows, 2 * 5);
	free(s);
	assert_int_equal(tvd_scrub(text, tvd_member_bytes), 0);
	/* a 1 MiB read from 0 covers rows 0-5; each member's data strips form
	 * two runs around its parity row: 8 reads for 16 strips */
	s = run_large(text, DIR_WRITE, 1 << 20, 1, 0);
	free(s);
	s = run_large(text, DIR_READ, 1 << 20, 1, 0);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 8);
	free(s);
	assert_int_equal(tvd_scrub(text, tvd_member_bytes), 0);
}

struct writer {
	struct vd *vd;
	const char *text;
	unsigned seed;
	const char *engine;
};

/* Random 4k writes confined to the first 2 rows, depth 16. */
static void *writer_main(void *arg)
{
	struct writer *wr = arg;
	struct tvd t;
	struct rng r;
	tvd_open_on(&t, wr->vd, wr->text, wr->engine, 0, 4096, 16);
	rng_seed(&r, wr->seed);
	uint64_t span = 2 * (uint64_t)t.m.geom.k * t.m.geom.strip / 4096;
	for (int round = 0; round < 60; round++) {
		for (unsigned i = 0; i < 16; i++) {
			struct io_unit *u = &t.units[i];
			u->dir = DIR_WRITE;
			u->offset = rng_below(&r, span) * 4096;
			u->len = 4096;
			tvd_pattern(u->buf, 4096, rng_next(&r), 1);
		}
		tvd_run(&t, 16);
	}
	free(tvd_close(&t));
	return NULL;
}

static void test_concurrent_writers(void **state)
{
	(void)state;
	const char *levels[] = {"raid5", "raid6", "raid10"};
	for (unsigned l = 0; l < 3; l++) {
		char text[2048];
		struct tvd t;
		vd_text(text, sizeof(text), levels[l], "16k", 4, NULL);
		tvd_open(&t, text, "io_uring", 2 * MEMBER_BYTES, 4096, 1);
		free(tvd_close(&t));
		struct vd *vd;
		assert_int_equal(vd_create(&t.m.def, tvd_member_bytes, &vd), 0);
		pthread_t th[3];
		struct writer w[3] = {
			{vd, text, 1, "io_uring"}, {vd, text, 2, "io_uring"}, {vd, text, 3, "psync"},
		};
		for (int i = 0; i < 3; i++)
			assert_int_equal(pthread_create(&th[i], NULL, writer_main, &w[i]), 0);
		for (int i = 0; i < 3; i++)
			pthread_join(th[i], NULL);
		vd_destroy(vd);
		if (tvd_scrub(text, tvd_member_bytes))
			fail_msg("%s: parity inconsistent after concurrent writes", levels[l]);
	}
}

/* Writes with a member lost keep the parity right: the data read back
 * with the member lost, and after the member is rebuilt, everything scrubs
 * clean and reads back with another member lost. */
static void test_degraded_writes_and_rebuild(void **state)
{
	(void)state;
	char text[2048], lost[2048], lost2[2048], path[512];
	struct tvd t;
	struct ioc_err err = {0};

	vd_text(text, sizeof(text), "raid6", "16k", 5, NULL);
	vd_text(lost, sizeof(lost), "raid6", "16k", 5, "failed=2");
	vd_text(lost2, sizeof(lost2), "raid6", "16k", 5, "failed=0:4");
	tvd_open(&t, text, "io_uring", 3 * MEMBER_BYTES, 8192, 4);
	uint64_t cap = t.m.geom.capacity;
	tvd_write_all(&t, cap, 1);
	free(tvd_close(&t));
	snprintf(path, sizeof(path), "%s/raid6-m2", vd_dir);
	/* member 2 "fails": it keeps generation-1 data while the VD moves on */
	tvd_open(&t, lost, "psync", 0, 8192, 4);
	tvd_write_all(&t, cap / 2, 2);
	tvd_check_all(&t, cap / 2, 2);
	free(tvd_close(&t));

	/* rebuild member 2 into a new file from the others */
	struct vd_def *def = malloc(sizeof(*def));
	assert_int_equal(vd_def_parse(lost, def, &err), 0);
	struct vd_sync s;
	assert_int_equal(vd_sync_open(&s, def, tvd_member_bytes, false, &err), 0);
	char fresh[600];
	snprintf(fresh, sizeof(fresh), "%s.new", path);
	int fd = open(fresh, O_CREAT | O_RDWR | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(vd_sync_rebuild_rows(&s, 2, fd, 0, vd_sync_rows(&s), &err), 0);
	close(fd);
	vd_sync_close(&s);
	free(def);
	assert_int_equal(rename(fresh, path), 0);
	assert_int_equal(tvd_scrub(text, tvd_member_bytes), 0);
	tvd_open(&t, lost2, "io_uring", 0, 8192, 4);
	tvd_check_all(&t, cap / 2, 2);
	free(tvd_close(&t));
}

/* Rebuilt member byte-identical to the one that was lost, for each level
 * with redundancy. */
static void test_rebuild_identical(void **state)
{
	(void)state;
	const char *levels[] = {"raid5", "raid6", "raid1", "raid10"};
	for (unsigned l = 0; l < 4; l++) {
		char text[2048], path[512], fresh[600];
		struct tvd t;
		struct ioc_err err = {0};
		vd_text(text, sizeof(text), levels[l], "32k", 4, NULL);
		tvd_open(&t, text, "io_uring", MEMBER_BYTES, 16384, 4);
		tvd_write_all(&t, t.m.geom.capacity, 5);
		free(tvd_close(&t));
		struct vd_def *def = malloc(sizeof(*def));
		assert_int_equal(vd_def_parse(text, def, &err), 0);
		for (unsigned m = 0; m < 4; m++) {
			struct vd_sync s;
			snprintf(path, sizeof(path), "%s/%s-m%u", vd_dir, levels[l], m);
			snprintf(fresh, sizeof(fresh), "%s.new", path);
			assert_int_equal(vd_sync_open(&s, def, tvd_member_bytes, false, &err), 0);
			int fd = open(fresh, O_CREAT | O_RDWR | O_TRUNC, 0644);
			assert_true(fd >= 0);
			assert_int_equal(vd_sync_rebuild_rows(&s, m, fd, 0, vd_sync_rows(&s), &err), 0);
			vd_sync_close(&s);
			uint8_t *a = malloc(tvd_member_bytes), *b = malloc(tvd_member_bytes);
			int fa = open(path, O_RDONLY);
			assert_int_equal(pread(fa, a, tvd_member_bytes, 0), tvd_member_bytes);
			assert_int_equal(pread(fd, b, tvd_member_bytes, 0), tvd_member_bytes);
			if (memcmp(a, b, tvd_member_bytes))
				fail_msg("%s: rebuilt member %u differs", levels[l], m);
			close(fa);
			close(fd);
			unlink(fresh);
			free(a);
			free(b);
		}
		free(def);
	}
}

/* write=back: writes are acknowledged from the cache and all of them are
 * on the members once the instance stops ("battery"); parity is right. */
static void test_writeback_flushed_on_stop(void **state)
{
	(void)state;
	char text[2048], plain[2048];
	struct tvd t;
	vd_text(plain, sizeof(plain), "raid5", "16k", 4, NULL);
	vd_text(text, sizeof(text), "raid5", "16k", 4, "write=back,cache=1m");
	tvd_open(&t, text, "io_uring", 3 * MEMBER_BYTES, 8192, 8);
	uint64_t cap = t.m.geom.capacity;
	tvd_write_all(&t, cap, 3);
	tvd_write_all(&t, cap / 2, 4); /* overwrites of dirty data wait for it */
	tvd_check_all(&t, cap / 2, 4); /* reads see the newest data */
	struct vd_stats *s = tvd_close(&t);
	assert_true(s->wb_absorbed > 0);
	free(s);
	assert_int_equal(tvd_scrub(plain, tvd_member_bytes), 0);
	tvd_open(&t, plain, "psync", 0, 8192, 4);
	tvd_check_all(&t, cap / 2, 4);
	free(tvd_close(&t));
	/* the second half still holds generation 3 */
	tvd_open(&t, plain, "psync", 0, 8192, 1);
	uint8_t want[8192];
	for (uint64_t off = cap / 2; off + 8192 <= cap; off += 8192) {
		t.units[0].dir = DIR_READ;
		t.units[0].offset = off;
		t.units[0].len = 8192;
		tvd_run(&t, 1);
		tvd_pattern(want, 8192, off / 8192, 3);
		assert_memory_equal(want, t.units[0].buf, 8192);
	}
	free(tvd_close(&t));
}

/* write=back coalesces sequential and near-sequential writes smaller than
 * a stripe into full-stripe writes: RAID 5 over 4 members with 64k strips
 * (192k rows), 64k writes: no member reads, one write per member per row;
 * also when a row's three writes come out of order; a cache of a few rows
 * bounds what is held (the data and parity still right). */
static void test_writeback_full_stripes(void **state)
{
	(void)state;
	char text[2048], plain[2048];
	struct tvd t;
	const uint64_t bs = 65536;

	vd_text(plain, sizeof(plain), "raid5", "64k", 4, NULL);
	vd_text(text, sizeof(text), "raid5", "64k", 4, "write=back,cache=1m");
	tvd_open(&t, text, "io_uring", 3 * MEMBER_BYTES, bs, 1);
	uint64_t cap = t.m.geom.capacity, rows = cap / (3 * bs);
	tvd_write_all(&t, cap, 21);               /* depth 1, strictly sequential */
	assert_int_equal(vd_engine_flush(t.st), 0); /* fsync: all destaged, counted */
	struct vd_stats *s = tvd_close(&t);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 0);
	for (unsigned m = 0; m < 4; m++)
		assert_int_equal(s->member[m].dir[DIR_WRITE].ios, rows);
	assert_int_equal(s->full_rows, rows);
	assert_int_equal(s->rmw_rows + s->rcw_rows, 0);
	assert_int_equal(s->wb_absorbed, cap / bs);
	free(s);
	assert_int_equal(tvd_scrub(plain, tvd_member_bytes), 0);

	/* near-sequential: each row's strips in the order 2, 0, 1, depth 3 */
	tvd_open(&t, text, "io_uring", 0, bs, 3);
	for (uint64_t r = 0; r < rows; r++) {
		const unsigned order[3] = {2, 0, 1};
		for (unsigned i = 0; i < 3; i++) {
			struct io_unit *u = &t.units[i];
			u->dir = DIR_WRITE;
			u->offset = (r * 3 + order[i]) * bs;
			u->len = bs;
			tvd_pattern(u->buf, bs, u->offset / bs, 22);
		}
		tvd_run(&t, 3);
	}
	assert_int_equal(vd_engine_flush(t.st), 0);
	s = tvd_close(&t);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 0);
	assert_int_equal(s->full_rows, rows);
	free(s);
	assert_int_equal(tvd_scrub(plain, tvd_member_bytes), 0);
	tvd_open(&t, plain, "psync", 0, bs, 4);
	tvd_check_all(&t, cap, 22);
	free(tvd_close(&t));
}

/* Write-back destages in the background: partial rows stay in the cache
 * until they are older than 1 s, and past the high watermark (3/4 of the
 * slots) the oldest go at once, down to half; all before any flush. */
static void test_writeback_background(void **state)
{
	(void)state;
	char text[2048];
	struct tvd t;

	/* 1m of cache over 192k rows: 5 slots */
	vd_text(text, sizeof(text), "raid5", "64k", 4, "write=back,cache=1m");
	tvd_open(&t, text, "psync", 3 * MEMBER_BYTES, 4096, 1);
	for (unsigned i = 0; i < 2; i++) {
		t.units[0].dir = DIR_WRITE;
		t.units[0].offset = i * 3 * 65536;
		t.units[0].len = 4096;
		tvd_run(&t, 1);
	}
	tvd_pump_for(&t, 200);
	struct vd_stats *s = vd_engine_take_stats(t.st);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 0); /* young: still cached */
	free(s);
	tvd_pump_for(&t, 1100);
	s = vd_engine_take_stats(t.st);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 2 * 2); /* aged out: 2 rmw rows */
	assert_int_equal(s->rmw_rows, 2);
	free(s);
	/* 4 fresh partial rows of 5 slots: past 3/4, two oldest destaged now */
	for (unsigned i = 0; i < 4; i++) {
		t.units[0].dir = DIR_WRITE;
		t.units[0].offset = (10 + i) * 3 * 65536;
		t.units[0].len = 4096;
		tvd_run(&t, 1);
	}
	tvd_pump_for(&t, 10);
	s = vd_engine_take_stats(t.st);
	assert_int_equal(s->rmw_rows, 2);
	free(s);
	free(tvd_close(&t));
}

/* A fast-initialized RAID 5 (6 members, 16k strips, k = 5): the first
 * 4k write to a row reads all 5 data strips whole and writes the strip
 * and P whole (the reconstruct-write that initializes the row); the next
 * write to it is a plain read-modify-write (2 + 2); the map left has those
 * rows initialized. */
static void test_fast_init(void **state)
{
	(void)state;
	char text[2048];
	struct tvd t;
	struct ioc_err err = {0};
	const unsigned N = 20;

	vd_text(text, sizeof(text), "raid5", "16k", 6, NULL);
	char withmap[2700], map[600];
	snprintf(map, sizeof(map), "%s/init.map", vd_dir);
	snprintf(withmap, sizeof(withmap), "%s,init_file=%s", text, map);
	tvd_open(&t, withmap, "io_uring", 5 * MEMBER_BYTES, 4096, 1);
	uint64_t rows = t.m.geom.rows, row_bytes = 5 * 16384;
	free(tvd_close(&t));
	assert_int_equal(vd_init_mark_fast(&t.m.def, rows, &err), 0);
	for (int pass = 0; pass < 2; pass++) {
		tvd_open(&t, withmap, "io_uring", 0, 4096, 1);
		for (unsigned i = 0; i < N; i++) {
			t.units[0].dir = DIR_WRITE;
			t.units[0].offset = (uint64_t)i * 3 * row_bytes + 4096 * (i % 20);
			t.units[0].len = 4096;
			tvd_pattern(t.units[0].buf, 4096, i, 1);
			tvd_run(&t, 1);
		}
		struct vd_stats *s = tvd_close(&t);
		assert_int_equal(tvd_member_sum(s, DIR_READ), (pass ? 2 : 5) * N);
		assert_int_equal(tvd_member_sum(s, DIR_WRITE), 2 * N);
		assert_int_equal(s->uninit_rows, pass ? 0 : N);
		free(s);
	}
	uint64_t left = 0;
	assert_int_equal(vd_init_check(&t.m.def, rows, &left, &err), 0);
	assert_int_equal(left, rows - N);
}

/* readahead=on: sequential reads are served from the cache, and a write
 * by another instance of the same VD makes the cached strips stale. */
static void test_readahead_coherent(void **state)
{
	(void)state;
	char text[2048];
	struct tvd a, b;
	vd_text(text, sizeof(text), "raid6", "16k", 5, "readahead=on,cache=4m");
	tvd_open(&b, text, "io_uring", 3 * MEMBER_BYTES, 4096, 1);
	uint64_t cap = b.m.geom.capacity;
	tvd_write_all(&b, cap, 1);
	struct vd *vd = b.vd;
	tvd_open_on(&a, vd, text, "io_uring", 0, 4096, 1);
	tvd_check_all(&a, cap, 1);        /* depth 1: one sequential stream */
	tvd_write_all(&b, cap, 2);
	tvd_check_all(&a, cap, 2);
	struct vd_stats *s = vd_engine_take_stats(a.st);
	assert_true(s->ra_hits > cap / 4096 / 2);
	free(s);
	vd_engine_ops.cleanup(a.st);
	free(a.units);
	free(a.bufs);
	free(tvd_close(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_raid5_any_one_lost, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_raid6_any_two_lost, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_mirrors_lost, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_raid0_jbod_roundtrip, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_counts, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_merge, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_concurrent_writers, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_degraded_writes_and_rebuild, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_rebuild_identical, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_flushed_on_stop, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_full_stripes, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_background, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_fast_init, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_readahead_coherent, vd_setup_dir, vd_teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

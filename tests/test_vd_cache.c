/* test_vd_cache.c - a VD's controller caches against their closed forms,
 * driven as a worker drives the VD engine (a queue kept full, a unit
 * requeued as soon as it completes), members in files under /dev/shm.
 *
 * Read-ahead: a sequential stream of strip-sized reads costs exactly one
 * member read per strip at every queue depth (1, 2, 4, 16, 32), the data
 * right, nothing wasted; at depths whose reads cover less than a stripe
 * row each read is served by read-ahead (one copy out of the cache), at
 * deeper ones only the first few, and the rest go to the members into
 * their own buffers (nothing copied); random reads with
 * readahead=on move a whole strip per miss, with readahead=adaptive only
 * what they ask for (and the accounting adds up either way).
 *
 * Write-back: one cache per VD, shared by its workers (two instances
 * filling the same rows make full stripes); what is still cached at the
 * end is destaged and counted in the amplification.
 */
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

#include "harness.h"
#include "util/rng.h"
#include "vd/engine.h"
#include "vd_harness.h"

/* Next offset of a stream: sequential from 0, or random bs-aligned. */
struct stream {
	bool random;
	uint64_t next, cap, bs;
	struct rng r;
};

static uint64_t stream_next(struct stream *s)
{
	if (s->random)
		return rng_below(&s->r, s->cap / s->bs) * s->bs;
	uint64_t off = s->next;
	s->next += s->bs;
	return off;
}

static void queue_read(struct tvd *t, struct io_unit *u, uint64_t off)
{
	u->dir = DIR_READ;
	u->offset = off;
	u->len = t->bs;
	memset(u->buf, 0, t->bs);
	assert_int_equal(vd_engine_ops.queue(t->st, u), ENGINE_QUEUED);
}

/* n reads of the stream with t->depth of them in flight all the time;
 * with gen set, each read's data is checked against that generation. */
static void read_qd(struct tvd *t, struct stream *s, uint64_t n, uint64_t gen)
{
	uint8_t *want = malloc(t->bs);
	uint64_t queued = 0, done = 0;
	for (unsigned i = 0; i < t->depth && queued < n; i++, queued++)
		queue_read(t, &t->units[i], stream_next(s));
	while (done < n) {
		assert_int_equal(vd_engine_ops.commit(t->st), 0);
		int got = vd_engine_ops.getevents(t->st, 1);
		assert_true(got > 0);
		struct io_unit *fin[64];
		assert_true(got <= 64);
		for (int i = 0; i < got; i++)
			fin[i] = vd_engine_ops.event(t->st, (unsigned)i);
		for (int i = 0; i < got; i++) {
			struct io_unit *u = fin[i];
			assert_int_equal(u->result, (int64_t)u->len);
			if (gen) {
				tvd_pattern(want, t->bs, u->offset / t->bs, gen);
				if (memcmp(want, u->buf, t->bs))
					fail_msg("block at %llu differs", (unsigned long long)u->offset);
			}
			done++;
			if (queued < n) {
				queue_read(t, u, stream_next(s));
				queued++;
			}
		}
	}
	free(want);
}

/* RAID 5 over 4 members, 64k strips, 64k sequential reads over the whole
 * VD: one member read per host read at every depth, no strip wasted. At
 * QD 1 and 2 (less than a row of 3 strips in flight) every read but the
 * first is served by read-ahead, each a copy of its 64k out of the cache;
 * from QD 3 on the host's queue keeps the members busy itself: only the
 * strips read ahead while the queue filled (2 rows past the first read,
 * and one more at the second) are read ahead and served, every later read
 * goes to the members into its own buffer. The first read goes to the
 * members directly with both policies (a whole strip: nothing to cache). */
static void test_readahead_sequential_depths(void **state)
{
	(void)state;
	const unsigned depths[] = {1, 2, 3, 4, 16, 32};
	const uint64_t bs = 65536;
	char plain[2048], text[2048];
	struct tvd t;

	vd_text(plain, sizeof(plain), "raid5", "64k", 4, NULL);
	tvd_open(&t, plain, "io_uring", 6 * MEMBER_BYTES, bs, 8);
	uint64_t cap = t.m.geom.capacity, n = cap / bs;
	tvd_write_all(&t, cap, 5);
	free(tvd_close(&t));
	for (int adaptive = 0; adaptive < 2; adaptive++) {
		vd_text(text, sizeof(text), "raid5", "64k", 4,
			adaptive ? "readahead=adaptive,cache=4m" : "readahead=on,cache=4m");
		for (unsigned d = 0; d < sizeof(depths) / sizeof(*depths); d++) {
			tvd_open(&t, text, "io_uring", 0, bs, depths[d]);
			struct stream s = {.cap = cap, .bs = bs};
			read_qd(&t, &s, n, 5);
			struct vd_stats *st = tvd_close(&t);
			print_message("readahead=%s QD %u: %llu member reads for %llu host reads, "
				      "%llu hits, %llu KiB copied\n",
				      adaptive ? "adaptive" : "on", depths[d],
				      (unsigned long long)tvd_member_sum(st, DIR_READ),
				      (unsigned long long)n, (unsigned long long)st->ra_hits,
				      (unsigned long long)st->ra_copied >> 10);
			uint64_t served = depths[d] < 3 ? n - 1 : 2 * 3 + 1;
			assert_int_equal(st->host_ios[DIR_READ], n);
			assert_int_equal(tvd_member_sum(st, DIR_READ), n);
			assert_int_equal(st->ra_strips, served);
			assert_int_equal(st->ra_hits, served);
			assert_int_equal(st->ra_used, st->ra_strips); /* nothing wasted */
			assert_int_equal(st->ra_copied, served * bs);
			free(st);
		}
	}
}

static uint64_t member_read_bytes(const struct vd_stats *s)
{
	uint64_t b = 0;
	for (unsigned i = 0; i < s->nr_members; i++)
		b += s->member[i].dir[DIR_READ].bytes;
	return b;
}

/* Reads larger than the read-ahead window (256k: 4 strips, the window is
 * 2 rows of 3): each finds some of its strips read ahead and the rest not.
 * The member reads move each byte once (no strip read ahead and then read
 * again by the host read that found only part of its strips), nothing is
 * wasted, the data is right; at QD 1 the strips read ahead are copied,
 * the others too (loaded into the cache with them), at QD 4 read-ahead
 * stands aside once the queue is full. */
static void test_readahead_large_reads(void **state)
{
	(void)state;
	const unsigned depths[] = {1, 4};
	const uint64_t bs = 4 * 65536;
	char plain[2048], text[2048];
	struct tvd t;

	vd_text(plain, sizeof(plain), "raid5", "64k", 4, NULL);
	tvd_open(&t, plain, "io_uring", 6 * MEMBER_BYTES, bs, 8);
	uint64_t cap = t.m.geom.capacity, n = cap / bs;
	tvd_write_all(&t, cap, 7);
	free(tvd_close(&t));
	for (int adaptive = 0; adaptive < 2; adaptive++) {
		vd_text(text, sizeof(text), "raid5", "64k", 4,
			adaptive ? "readahead=adaptive,cache=4m" : "readahead=on,cache=4m");
		for (unsigned d = 0; d < 2; d++) {
			tvd_open(&t, text, "io_uring", 0, bs, depths[d]);
			struct stream s = {.cap = cap, .bs = bs};
			read_qd(&t, &s, n, 7);
			struct vd_stats *st = tvd_close(&t);
			print_message("readahead=%s QD %u, 256k reads: %llu KiB read from members "
				      "for %llu KiB, %llu strips read ahead, %llu KiB copied\n",
				      adaptive ? "adaptive" : "on", depths[d],
				      (unsigned long long)member_read_bytes(st) >> 10,
				      (unsigned long long)(n * bs) >> 10,
				      (unsigned long long)st->ra_strips,
				      (unsigned long long)st->ra_copied >> 10);
			assert_int_equal(st->host_ios[DIR_READ], n);
			assert_int_equal(member_read_bytes(st), n * bs);
			assert_int_equal(st->ra_used, st->ra_strips);
			assert_true(st->ra_strips > 0);
			if (depths[d] == 1)
				assert_int_equal(st->ra_copied, (n - 1) * bs);
			else
				assert_true(st->ra_copied < n * bs / 4);
			free(st);
		}
	}
}

/* Random 4k reads at QD 4 over a VD much larger than the cache:
 * readahead=on reads each missing strip whole (64k moved per miss, every
 * member read a whole strip); adaptive reads 4k per read, and a strip
 * only where two random reads happened to be adjacent. */
static void test_readahead_random(void **state)
{
	(void)state;
	const uint64_t bs = 4096, strip = 65536, n = 3000;
	char plain[2048], text[2048];
	struct tvd t;

	vd_text(plain, sizeof(plain), "raid5", "64k", 4, NULL);
	tvd_open(&t, plain, "io_uring", 48 * MEMBER_BYTES, strip, 8);
	uint64_t cap = t.m.geom.capacity;
	free(tvd_close(&t));
	for (int adaptive = 0; adaptive < 2; adaptive++) {
		vd_text(text, sizeof(text), "raid5", "64k", 4,
			adaptive ? "readahead=adaptive,cache=1m" : "readahead=on,cache=1m");
		tvd_open(&t, text, "io_uring", 0, bs, 4);
		struct stream s = {.random = true, .cap = cap, .bs = bs};
		rng_seed(&s.r, 38);
		read_qd(&t, &s, n, 0);
		struct vd_stats *st = tvd_close(&t);
		uint64_t mr = tvd_member_sum(st, DIR_READ), bytes = member_read_bytes(st);
		print_message("readahead=%s random 4k: %llu member reads, %.1f KiB per host read, "
			      "%llu hits, %llu strips, %llu wasted\n",
			      adaptive ? "adaptive" : "on", (unsigned long long)mr,
			      (double)bytes / (double)n / 1024, (unsigned long long)st->ra_hits,
			      (unsigned long long)st->ra_strips,
			      (unsigned long long)(st->ra_strips - st->ra_used));
		assert_int_equal(st->host_ios[DIR_READ], n);
		if (!adaptive) {
			/* every member read is a strip read ahead, one per miss */
			assert_int_equal(mr, st->ra_strips);
			assert_int_equal(bytes, st->ra_strips * strip);
			/* each miss loads its strip; streams by chance a few more */
			uint64_t misses = n - st->ra_hits;
			assert_true(mr >= misses);
			assert_true(mr - misses <= n / 100);
			/* 16 strips cached of 768: few hits */
			assert_true(st->ra_hits < n / 10);
		} else {
			/* direct 4k reads, plus whole strips for chance streams */
			assert_int_equal(bytes, (mr - st->ra_strips) * bs + st->ra_strips * strip);
			assert_int_equal(mr - st->ra_strips + st->ra_hits, n);
			assert_true(st->ra_strips < n / 100);
		}
		free(st);
	}
}

/* Write data index i of every RAID 5 row (k = 3) for each bit i of mask,
 * t->bs (one strip) each, t->depth at a time. */
static void write_strips(struct tvd *t, uint64_t rows, unsigned mask, uint64_t gen)
{
	unsigned n = 0;
	for (uint64_t r = 0; r < rows; r++)
		for (unsigned i = 0; i < 3; i++) {
			if (!((mask >> i) & 1))
				continue;
			struct io_unit *u = &t->units[n++];
			u->dir = DIR_WRITE;
			u->offset = (r * 3 + i) * t->bs;
			u->len = t->bs;
			tvd_pattern(u->buf, t->bs, u->offset / t->bs, gen);
			if (n == t->depth) {
				tvd_run(t, n);
				n = 0;
			}
		}
	if (n)
		tvd_run(t, n);
}

/* One cache per VD: two instances (two workers) write the strips of the
 * same RAID 5 rows, one strips 0 and 2, the other strip 1. The rows fill
 * up in the one cache and go out as full stripes: no member read, one
 * write per member per row; the parity and data are right. */
static void test_writeback_shared(void **state)
{
	(void)state;
	const uint64_t bs = 65536;
	char plain[2048], text[2048];
	struct tvd a, b;

	vd_text(plain, sizeof(plain), "raid5", "64k", 4, NULL);
	/* 42 slots for 16 rows: under the 3/4 watermark, nothing destaged
	 * before a row is full (a destage finishes on the instance that
	 * issued it, and this test pumps one instance at a time) */
	vd_text(text, sizeof(text), "raid5", "64k", 4, "write=back,cache=8m");
	tvd_open(&a, text, "io_uring", 3 * MEMBER_BYTES, bs, 4);
	tvd_open_on(&b, a.vd, text, "io_uring", 0, bs, 4);
	uint64_t cap = a.m.geom.capacity, rows = cap / (3 * bs);
	write_strips(&a, rows, 5, 9);
	write_strips(&b, rows, 2, 9);
	assert_int_equal(vd_engine_finish(b.st), 0);
	assert_int_equal(vd_engine_finish(a.st), 0);
	struct vd_stats *sb = vd_engine_take_stats(b.st);
	vd_engine_ops.cleanup(b.st);
	free(b.units);
	free(b.bufs);
	struct vd_stats *sa = tvd_close(&a);
	vd_stats_add(sa, sb);
	free(sb);
	assert_int_equal(sa->wb_absorbed, 3 * rows);
	assert_int_equal(tvd_member_sum(sa, DIR_READ), 0);
	assert_int_equal(sa->full_rows, rows);
	assert_int_equal(sa->rmw_rows + sa->rcw_rows, 0);
	for (unsigned m = 0; m < 4; m++)
		assert_int_equal(sa->member[m].dir[DIR_WRITE].ios, rows);
	free(sa);
	assert_int_equal(tvd_scrub(plain, tvd_member_bytes), 0);
	tvd_open(&a, plain, "psync", 0, bs, 4);
	tvd_check_all(&a, cap, 9);
	free(tvd_close(&a));
}

/* What the cache still holds when the run ends is destaged and counted:
 * 64k sequential writes over all rows but the last strip of the last row
 * cost 4 writes per full row (4/3 per host write) plus the last row's
 * reconstruct-write (1 read, 3 writes), done at the end. */
static void test_writeback_end_counted(void **state)
{
	(void)state;
	const uint64_t bs = 65536;
	char text[2048];
	struct tvd t;

	vd_text(text, sizeof(text), "raid5", "64k", 4, "write=back,cache=4m");
	tvd_open(&t, text, "io_uring", 3 * MEMBER_BYTES, bs, 4);
	uint64_t rows = t.m.geom.capacity / (3 * bs);
	tvd_write_all(&t, (3 * rows - 1) * bs, 3);
	assert_int_equal(vd_engine_finish(t.st), 0);
	struct vd_stats *s = tvd_close(&t);
	assert_int_equal(s->host_ios[DIR_WRITE], 3 * rows - 1);
	assert_int_equal(tvd_member_sum(s, DIR_WRITE), 4 * (rows - 1) + 3);
	assert_int_equal(tvd_member_sum(s, DIR_READ), 1);
	assert_int_equal(s->full_rows, rows - 1);
	assert_int_equal(s->rcw_rows, 1);
	assert_true(s->wb_end_bytes >= 2 * bs);
	free(s);
}

/* End to end: write=back with numjobs=2 runs (one cache for both
 * workers), and a 1 s run of 64k sequential writes costs 4/3 member
 * writes per host write, the rows still cached at the end included. */
static void test_writeback_numjobs_run(void **state)
{
	(void)state;
	char vd[2048];
	struct proc_out po;
	vd_text(vd, sizeof(vd) - 8, "raid5", "64k", 4, "write=back");
	char opt[2100];
	snprintf(opt, sizeof(opt), "--vd=%s", vd);
	run_iochar(&po, NULL, 0,
		   ARGS("run", opt, "--size=24m", "--rw=write", "--bs=64k", "--iodepth=4",
			"--numjobs=2", "--ioengine=io_uring", "--runtime=1", "--time_based",
			"--force", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	json_object *v = json_object_array_get_idx(jget(j, "vd"), 0);
	double w = jget_double(v, "amplification.writes_per_host_io");
	print_message("numjobs=2 write=back: %.3f member writes per host write, %llu bytes at the end\n",
		      w, (unsigned long long)jget_u64(v, "cache.writeback_end_bytes"));
	assert_true(w > 4.0 / 3 - 0.01 && w < 4.0 / 3 + 0.01);
	assert_true(jget_double(v, "amplification.reads_per_host_io") < 0.01);
	assert_true(jget_u64(v, "cache.writeback_absorbed") == jget_u64(v, "host_ios"));
	json_object_put(j);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_readahead_sequential_depths, vd_setup_dir,
						vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_readahead_random, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_readahead_large_reads, vd_setup_dir,
						vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_shared, vd_setup_dir, vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_end_counted, vd_setup_dir,
						vd_teardown_dir),
		cmocka_unit_test_setup_teardown(test_writeback_numjobs_run, vd_setup_dir,
						vd_teardown_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

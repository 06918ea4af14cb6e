/* test_journal.c - the crash journal below the CLI: record CRCs, the
 * writer's file read back by the replay, torn and damaged records
 * skipped, bad headers refused, the replay rules (acknowledged, in flight,
 * never completed, a gap in a block's history) and the unit verdicts on
 * synthetic block contents: whole old / whole new / a sector-wise mix
 * (fine while a write was in flight), a sector mixing two writes (torn),
 * an older generation, zeros or an earlier run's unit where an
 * acknowledged write must be (lost), damaged bytes (corrupted), a unit of
 * another offset (misplaced); 4096- and 512-byte units. Also the session
 * feeding a journal, journal_probe and the job checks for journal=. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "harness.h"
#include "util/rng.h"
#include "verify/block.h"
#include "verify/jobs.h"
#include "verify/journal.h"
#include "verify/journal_fmt.h"
#include "verify/session.h"

#define RUN_ID	0x5eed1234u
#define SEED	0x89ull
#define OFFSET	(1ull << 20)
#define NBLOCKS 64

struct jop {
	char type; /* 'I' or 'D' */
	uint64_t block;
	uint8_t gen;
};

struct jbuf {
	char *dir;
	char path[4200];
	uint8_t *buf;
	size_t len;
	uint32_t hlen;
	uint64_t bs;
};

/* The time_ns an INTENT of (block, gen) records in these tests. */
static uint64_t t_of(uint64_t block, uint8_t gen)
{
	return 1700000000000000000ull + block * 1000 + gen;
}

static void set_journal(struct job_spec *j, const char *path)
{
	size_t n = strlen(path);

	assert_true(n < sizeof(j->journal));
	memcpy(j->journal, path, n + 1);
}

static void read_all(const char *path, uint8_t **buf, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	*len = (size_t)st.st_size;
	*buf = malloc(*len ? *len : 1);
	assert_non_null(*buf);
	assert_int_equal(pread(fd, *buf, *len, 0), (ssize_t)*len);
	close(fd);
}

static struct journal_info test_info(uint64_t bs)
{
	static char target[] = "/var/tmp/iochar-journal-test-target";
	struct journal_info info = {
	    .run_id = RUN_ID,
	    .unit_len = vblock_unit_len(bs),
	    .seed = SEED,
	    .bs = bs,
	    .offset = OFFSET,
	    .region = NBLOCKS * bs,
	    .created_ns = 42,
	    .nr_files = 1,
	    .job = "jtest",
	};
	info.files[0] = target;
	return info;
}

/* Write ops to a fresh journal with the real writer, and read the file. */
static void jbuild(struct jbuf *jb, uint64_t bs, const struct jop *ops,
		   unsigned n)
{
	struct journal_info info = test_info(bs);
	struct journal_writer *w;
	struct ioc_err err = {0};

	memset(jb, 0, sizeof(*jb));
	jb->bs = bs;
	jb->dir = tmpdir_make();
	snprintf(jb->path, sizeof(jb->path), "%s/j", jb->dir);
	assert_int_equal(journal_create(jb->path, &info, 4, &w, &err), 0);
	for (unsigned i = 0; i < n; i++) {
		if (ops[i].type == 'I')
			journal_intent(w, 0, ops[i].block, ops[i].gen,
				       t_of(ops[i].block, ops[i].gen));
		else
			journal_done(w, 0, ops[i].block, ops[i].gen);
		if (i % 3 == 2) /* batches of different sizes */
			assert_int_equal(journal_flush(w, &err), 0);
	}
	assert_int_equal(journal_close(w, &err), 0);
	read_all(jb->path, &jb->buf, &jb->len);
	jb->hlen = le_get32(jb->buf + 12);
}

static void jfree(struct jbuf *jb)
{
	free(jb->buf);
	tmpdir_remove(jb->dir);
}

static struct journal_replay *replay(const struct jbuf *jb, size_t len)
{
	struct journal_replay *r = NULL;
	struct ioc_err err = {0};

	if (journal_replay_mem(jb->buf, len, &r, &err))
		fail_msg("replay: %s", err.msg);
	return r;
}

/* The unit of block's first unit as a write of gen stamped it. */
static void unit_of(uint8_t *u, uint64_t bs, uint64_t block, uint8_t gen,
		    uint32_t run_id)
{
	uint32_t unit = vblock_unit_len(bs);
	struct vblock_stamp st = {
	    .seed = SEED,
	    .time_ns = t_of(block, gen),
	    .run_id = run_id,
	    .block_len = (uint32_t)bs,
	    .extent = OFFSET + NBLOCKS * bs, /* what a session stamps */
	    .gen = gen,
	};
	vblock_fill(u, unit, unit, OFFSET + block * bs, &st);
}

static void random_fill(uint8_t *p, size_t n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rng_next(&r);
}

static enum journal_kind check(const struct journal_replay *r, uint64_t bs,
			       uint64_t block, const uint8_t *unit,
			       struct journal_verdict *v)
{
	return journal_check_unit(r, 0, OFFSET + block * bs, unit, v);
}

static void expect_verdict(const struct journal_replay *r, uint64_t bs,
			   uint64_t block, const uint8_t *unit,
			   enum journal_kind kind, enum journal_outcome outcome,
			   const char *map)
{
	struct journal_verdict v;
	enum journal_kind k = check(r, bs, block, unit, &v);

	if (k != kind || v.kind != kind || v.outcome != outcome ||
	    (map && strcmp(v.map, map) != 0))
		fail_msg("block %llu: got %s/%d map '%s' (%s), wanted %s/%d "
			 "map '%s'",
			 (unsigned long long)block, journal_kind_name(k),
			 (int)v.outcome, v.map, v.why, journal_kind_name(kind),
			 (int)outcome, map ? map : "(any)");
}

/* --- records and the file --- */

static void test_record_crc(void **state)
{
	struct journal_rec r =
			       {
				   .type = 'I',
				   .gen = 7,
				   .file = 3,
				   .seq = 99,
				   .run_id = RUN_ID,
				   .block = 123456789,
				   .time_ns = 55,
			       },
			   back;
	uint8_t p[JOURNAL_REC_LEN];
	(void)state;

	journal_rec_encode(p, &r);
	assert_true(journal_rec_decode(p, &back));
	assert_int_equal(back.type, 'I');
	assert_int_equal(back.gen, 7);
	assert_int_equal(back.file, 3);
	assert_int_equal(back.seq, 99);
	assert_int_equal(back.run_id, RUN_ID);
	assert_int_equal(back.block, 123456789);
	assert_int_equal(back.time_ns, 55);
	/* any damaged byte, the CRC's own included, fails the record */
	for (unsigned i = 0; i < JOURNAL_REC_LEN; i++) {
		for (unsigned bit = 0; bit < 8; bit++) {
			p[i] ^= (uint8_t)(1u << bit);
			assert_false(journal_rec_decode(p, &back));
			p[i] ^= (uint8_t)(1u << bit);
		}
	}
	/* the layout of journal.h: type, gen, file, seq, block, time */
	assert_int_equal(p[0], 'I');
	assert_int_equal(p[1], 7);
	assert_int_equal(le_get32(p + 4), 99);
	assert_int_equal(le_get64(p + 8), 123456789);
	assert_int_equal(le_get64(p + 16), 55);
	assert_int_equal(le_get32(p + 24), RUN_ID);
}

static const struct jop round_ops[] = {
    {'I', 0, 1}, {'I', 1, 1}, {'D', 0, 1}, {'I', 2, 1}, {'D', 1, 1},
    {'I', 0, 2}, {'D', 2, 1}, {'D', 0, 2}, {'I', 1, 2},
};
#define NR_ROUND (sizeof(round_ops) / sizeof(round_ops[0]))

static void test_writer_round_trip(void **state)
{
	struct jbuf jb;
	struct ioc_err err = {0};
	struct journal_replay *r = NULL;
	(void)state;

	jbuild(&jb, 4096, round_ops, NR_ROUND);
	/* the header, field by field */
	assert_int_equal(le_get64(jb.buf), JOURNAL_MAGIC);
	assert_memory_equal(jb.buf, "iocjrnl1", 8);
	assert_int_equal(le_get32(jb.buf + 8), JOURNAL_VERSION);
	assert_int_equal(jb.hlen % 512, 0);
	assert_int_equal(le_get32(jb.buf + 16), JOURNAL_REC_LEN);
	assert_int_equal(le_get32(jb.buf + 20), RUN_ID);
	assert_int_equal(le_get64(jb.buf + 24), SEED);
	assert_int_equal(le_get64(jb.buf + 32), 4096);
	assert_int_equal(le_get32(jb.buf + 40), 4096);
	assert_int_equal(le_get32(jb.buf + 44), 1);
	assert_int_equal(le_get64(jb.buf + 48), OFFSET);
	assert_int_equal(le_get64(jb.buf + 56), NBLOCKS * 4096);
	assert_string_equal((char *)jb.buf + 80, "jtest");
	assert_string_equal((char *)jb.buf + 144,
			    "/var/tmp/iochar-journal-test-target");
	/* records follow in order, and the file is pre-zeroed past them */
	assert_true(jb.len >= jb.hlen + (1u << 20));
	struct journal_rec rec = {0};
	for (unsigned i = 0; i < NR_ROUND; i++) {
		assert_true(journal_rec_decode(
		    jb.buf + jb.hlen + i * JOURNAL_REC_LEN, &rec));
		assert_int_equal(rec.seq, i);
		assert_int_equal(rec.type, round_ops[i].type);
		assert_int_equal(rec.block, round_ops[i].block);
		assert_int_equal(rec.gen, round_ops[i].gen);
		assert_int_equal(rec.time_ns, rec.type == 'I'
						  ? t_of(rec.block, rec.gen)
						  : 0);
	}
	for (size_t i = jb.hlen + NR_ROUND * JOURNAL_REC_LEN; i < jb.len; i++)
		if (jb.buf[i])
			fail_msg("byte %zu past the records is not zero", i);

	/* the file reader and the buffer reader agree */
	assert_int_equal(journal_replay_file(jb.path, &r, &err), 0);
	const struct journal_info *info = journal_replay_info(r);
	const struct journal_stats *st = journal_replay_stats(r);
	assert_int_equal(info->run_id, RUN_ID);
	assert_int_equal(info->seed, SEED);
	assert_int_equal(info->bs, 4096);
	assert_int_equal(info->unit_len, 4096);
	assert_int_equal(info->offset, OFFSET);
	assert_int_equal(info->region, NBLOCKS * 4096);
	assert_int_equal(info->created_ns, 42);
	assert_int_equal(info->nr_files, 1);
	assert_string_equal(info->job, "jtest");
	assert_string_equal(info->files[0],
			    "/var/tmp/iochar-journal-test-target");
	assert_int_equal(st->records, NR_ROUND);
	assert_int_equal(st->intents, 5);
	assert_int_equal(st->dones, 4);
	assert_int_equal(st->blocks, 3);
	assert_int_equal(st->bad_records + st->torn_tail + st->unknown, 0);
	journal_replay_free(r);
	r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_stats(r)->records, NR_ROUND);
	journal_replay_free(r);

	/* a new run over the journal truncates it */
	struct journal_info info2 = test_info(4096);
	struct journal_writer *w;
	info2.run_id = 7;
	assert_int_equal(journal_create(jb.path, &info2, 4, &w, &err), 0);
	assert_int_equal(journal_close(w, &err), 0);
	assert_int_equal(journal_replay_file(jb.path, &r, &err), 0);
	assert_int_equal(journal_replay_stats(r)->records, 0);
	assert_int_equal(journal_replay_info(r)->run_id, 7);
	journal_replay_free(r);
	jfree(&jb);
}

static void test_torn_tail_ignored(void **state)
{
	struct jbuf jb;
	struct journal_replay *r;
	struct journal_expect e;
	(void)state;

	jbuild(&jb, 4096, round_ops, NR_ROUND);
	size_t rec_end = jb.hlen + NR_ROUND * JOURNAL_REC_LEN;

	/* a crash mid-append: the last record cut short */
	r = replay(&jb, rec_end - 10);
	assert_int_equal(journal_replay_stats(r)->records, NR_ROUND - 1);
	assert_int_equal(journal_replay_stats(r)->torn_tail, 1);
	assert_int_equal(journal_replay_stats(r)->bad_records, 0);
	/* without the last INTENT (block 1, gen 2), block 1 must hold 1 */
	journal_expect_block(r, 0, 1, &e);
	assert_true(e.known);
	assert_false(e.in_flight);
	assert_int_equal(e.cand[0].gen, 1);
	journal_replay_free(r);

	/* ... or whole but garbled (bytes reached the disk out of order) */
	uint8_t *last = jb.buf + rec_end - JOURNAL_REC_LEN;
	last[12] ^= 0xff;
	r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_stats(r)->records, NR_ROUND - 1);
	assert_int_equal(journal_replay_stats(r)->torn_tail, 1);
	assert_int_equal(journal_replay_stats(r)->bad_records, 0);
	journal_replay_free(r);
	last[12] ^= 0xff;

	/* a damaged record before valid ones is counted as such */
	uint8_t *mid = jb.buf + jb.hlen + 4 * JOURNAL_REC_LEN; /* D(1, 1) */
	mid[1] ^= 1;
	r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_stats(r)->records, NR_ROUND - 1);
	assert_int_equal(journal_replay_stats(r)->bad_records, 1);
	assert_int_equal(journal_replay_stats(r)->torn_tail, 0);
	/* block 1 lost its DONE: both of its writes may be in flight */
	journal_expect_block(r, 0, 1, &e);
	assert_true(e.known && e.in_flight && e.prerun_ok);
	assert_int_equal(e.nr, 2);
	journal_replay_free(r);
	mid[1] ^= 1;

	/* a valid record at the wrong place (seq) is not trusted */
	memcpy(jb.buf + rec_end, jb.buf + jb.hlen, JOURNAL_REC_LEN);
	r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_stats(r)->records, NR_ROUND);
	assert_int_equal(journal_replay_stats(r)->torn_tail, 1);
	journal_replay_free(r);
	jfree(&jb);
}

static void expect_bad(const uint8_t *buf, size_t len, const char *want)
{
	struct journal_replay *r = (void *)1;
	struct ioc_err err = {0};

	assert_int_equal(journal_replay_mem(buf, len, &r, &err), -EINVAL);
	assert_null(r);
	assert_int_equal(err.usage, 1);
	if (!strstr(err.msg, want))
		fail_msg("'%s' not in '%s'", want, err.msg);
}

static void test_bad_headers(void **state)
{
	struct jbuf jb;
	uint8_t junk[4096];
	(void)state;

	memset(junk, 'x', sizeof(junk));
	expect_bad(junk, sizeof(junk), "no journal magic");
	expect_bad(junk, 3, "no journal magic");
	jbuild(&jb, 4096, round_ops, NR_ROUND);
	expect_bad(jb.buf, jb.hlen - 1, "shorter than its header");
	jb.buf[200] ^= 1; /* in the path list: the header CRC catches it */
	expect_bad(jb.buf, jb.len, "header CRC mismatch");
	jb.buf[200] ^= 1;
	le_put32(jb.buf + 8, 3);
	expect_bad(jb.buf, jb.len, "version 3");
	le_put32(jb.buf + 8, 0);
	expect_bad(jb.buf, jb.len, "version 0");
	le_put32(jb.buf + 8, 2);
	le_put32(jb.buf + 12, 100); /* not a multiple of 512 */
	expect_bad(jb.buf, jb.len, "bad header length");
	jfree(&jb);
}

/* --- the replay rules --- */

static const struct jop rule_ops[] = {
    /* block 0: written twice, acknowledged: must hold 2 */
    {'I', 0, 1},
    {'D', 0, 1},
    {'I', 0, 2},
    {'D', 0, 2},
    /* block 1: acknowledged 1, then 2 in flight */
    {'I', 1, 1},
    {'D', 1, 1},
    {'I', 1, 2},
    /* block 2: only an intent: old content or 1 */
    {'I', 2, 1},
    /* block 3: a DONE whose INTENT is missing: a gap */
    {'D', 3, 5},
    /* block 4: a write that failed (no DONE), then the run stopped */
    {'I', 4, 1},
    {'D', 4, 1},
    {'I', 4, 2},
};
#define NR_RULES (sizeof(rule_ops) / sizeof(rule_ops[0]))

static void test_replay_rules(void **state)
{
	struct jbuf jb;
	struct journal_expect e;
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_stats(r)->blocks, 5);
	assert_int_equal(journal_replay_stats(r)->unknown, 1);

	journal_expect_block(r, 0, 0, &e);
	assert_true(e.known);
	assert_false(e.prerun_ok || e.in_flight);
	assert_int_equal(e.nr, 2);
	assert_int_equal(e.cand[0].gen, 2);
	assert_int_equal(e.cand[0].role, 'd');
	assert_true(e.cand[0].acceptable);
	assert_int_equal(e.cand[0].time_ns, t_of(0, 2));
	assert_int_equal(e.cand[1].gen, 1); /* known, not acceptable */
	assert_int_equal(e.cand[1].role, 'p');
	assert_false(e.cand[1].acceptable);

	journal_expect_block(r, 0, 1, &e);
	assert_true(e.known && e.in_flight);
	assert_false(e.prerun_ok);
	assert_int_equal(e.nr, 2);
	assert_int_equal(e.cand[0].role, 'd');
	assert_int_equal(e.cand[0].gen, 1);
	assert_int_equal(e.cand[1].role, 'n');
	assert_int_equal(e.cand[1].gen, 2);
	assert_true(e.cand[1].acceptable);

	journal_expect_block(r, 0, 2, &e);
	assert_true(e.known && e.in_flight && e.prerun_ok);
	assert_int_equal(e.nr, 1);
	assert_int_equal(e.cand[0].role, 'n');

	journal_expect_block(r, 0, 3, &e);
	assert_false(e.known);
	journal_expect_block(r, 0, 5, &e); /* never named */
	assert_false(e.known);
	journal_expect_block(r, 0, NBLOCKS + 5, &e); /* outside */
	assert_false(e.known);
	journal_expect_block(r, 1, 0, &e); /* no such file */
	assert_false(e.known);
	journal_replay_free(r);
	jfree(&jb);
}

/* --- unit verdicts --- */

static void test_check_acknowledged(void **state)
{
	struct jbuf jb;
	uint8_t u[4096], old[4096], mix[4096];
	struct journal_verdict v;
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);

	/* block 0 must hold generation 2 */
	unit_of(u, 4096, 0, 2, RUN_ID);
	expect_verdict(r, 4096, 0, u, JK_OK, JO_ACKED, "dddddddd");
	/* a lost write: the previous generation, whole */
	unit_of(old, 4096, 0, 1, RUN_ID);
	expect_verdict(r, 4096, 0, old, JK_LOST, JO_NONE, "pppppppp");
	check(r, 4096, 0, old, &v);
	assert_int_equal(v.found_gen, 1);
	assert_string_equal(v.expected, "2");
	/* ... or never there at all: zeros, or an earlier run's unit */
	memset(mix, 0, sizeof(mix));
	expect_verdict(r, 4096, 0, mix, JK_LOST, JO_NONE, "ffffffff");
	unit_of(mix, 4096, 0, 2, RUN_ID ^ 1);
	expect_verdict(r, 4096, 0, mix, JK_LOST, JO_NONE, NULL);
	check(r, 4096, 0, mix, &v); /* stamped after the journal was made */
	assert_string_equal(v.why, "written by a later run (the journal's "
				   "run no longer describes the block)");
	struct vblock_stamp early = {.seed = SEED,
				     .time_ns = 41,
				     .run_id = RUN_ID ^ 1,
				     .block_len = 4096,
				     .gen = 2};
	vblock_fill(mix, 4096, 4096, OFFSET, &early);
	check(r, 4096, 0, mix, &v);
	assert_int_equal(v.kind, JK_LOST);
	assert_string_equal(v.why, "written by an earlier run");
	/* an intact unit of this run newer than the journal records: lost,
	 * and said so (a write issued without its intent) */
	struct vblock_stamp late = {.seed = SEED,
				    .time_ns = t_of(0, 2) + 5,
				    .run_id = RUN_ID,
				    .block_len = 4096,
				    .extent = OFFSET + NBLOCKS * 4096,
				    .gen = 3};
	vblock_fill(mix, 4096, 4096, OFFSET, &late);
	check(r, 4096, 0, mix, &v);
	assert_int_equal(v.kind, JK_LOST);
	assert_string_equal(v.why, "a newer write of this run than the journal "
				   "records (written without its intent in the "
				   "journal)");
	/* half the sectors of the acknowledged write missing: lost */
	memcpy(mix, u, 2048);
	memcpy(mix + 2048, old + 2048, 2048);
	expect_verdict(r, 4096, 0, mix, JK_LOST, JO_NONE, "ddddpppp");
	check(r, 4096, 0, mix, &v);
	assert_int_equal(v.first_bad_sector, 4);
	/* a sector mixing the two: torn */
	memcpy(mix, u, 4096);
	memcpy(mix + 512 + 256, old + 512 + 256, 256);
	expect_verdict(r, 4096, 0, mix, JK_TORN, JO_NONE, "dtdddddd");
	/* a flipped byte: corrupted, in its sector */
	memcpy(mix, u, 4096);
	mix[3000] ^= 0x40;
	expect_verdict(r, 4096, 0, mix, JK_CORRUPTED, JO_NONE, "dddddxdd");
	/* in the header's timestamp too (time_ns is rebuilt exactly) */
	memcpy(mix, u, 4096);
	mix[26] ^= 1;
	expect_verdict(r, 4096, 0, mix, JK_CORRUPTED, JO_NONE, "xddddddd");
	/* generation 2 again, but another write of it (the generation
	 * numbers wrap after 255): its time_ns gives it away */
	struct vblock_stamp st = {
	    .seed = SEED,
	    .time_ns = t_of(0, 2) - 1,
	    .run_id = RUN_ID,
	    .block_len = 4096,
	    .extent = OFFSET + NBLOCKS * 4096,
	    .gen = 2,
	};
	vblock_fill(mix, 4096, 4096, OFFSET, &st);
	expect_verdict(r, 4096, 0, mix, JK_LOST, JO_NONE, "ffffffff");
	check(r, 4096, 0, mix, &v);
	assert_int_equal(v.found_gen, 2);
	/* an earlier run's write of the same generation (same offset and
	 * seed, another run id and time) left in any one sector, the
	 * acknowledged write lost there: every sector is this run's own */
	unit_of(old, 4096, 0, 2, RUN_ID ^ 0x77);
	for (unsigned sec = 0; sec < 8; sec++) {
		char map[9] = "dddddddd";
		map[sec] = 'f';
		memcpy(mix, u, 4096);
		memcpy(mix + sec * 512, old + sec * 512, 512);
		expect_verdict(r, 4096, 0, mix, JK_LOST, JO_NONE, map);
	}
	/* the unit of block 9 copied here: misplaced */
	unit_of(mix, 4096, 9, 2, RUN_ID);
	expect_verdict(r, 4096, 0, mix, JK_MISPLACED, JO_NONE, NULL);
	journal_replay_free(r);
	jfree(&jb);
}

static void test_check_in_flight(void **state)
{
	struct jbuf jb;
	uint8_t oldu[4096], newu[4096], mix[4096];
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);

	/* block 1: old = 1 (acknowledged), new = 2 (in flight) */
	unit_of(oldu, 4096, 1, 1, RUN_ID);
	unit_of(newu, 4096, 1, 2, RUN_ID);
	expect_verdict(r, 4096, 1, oldu, JK_OK, JO_OLD, "dddddddd");
	expect_verdict(r, 4096, 1, newu, JK_OK, JO_NEW, "nnnnnnnn");
	/* whole sectors of each: the write was cut between sectors */
	memcpy(mix, newu, 4096);
	memcpy(mix + 1536, oldu + 1536, 4096 - 1536);
	expect_verdict(r, 4096, 1, mix, JK_OK, JO_MIXED, "nnnddddd");
	memcpy(mix, oldu, 4096);
	memcpy(mix + 3584, newu + 3584, 512);
	expect_verdict(r, 4096, 1, mix, JK_OK, JO_MIXED, "dddddddn");
	/* a sector of the header half old, half new: torn */
	memcpy(mix, newu, 4096);
	memcpy(mix + 128, oldu + 128, 384);
	expect_verdict(r, 4096, 1, mix, JK_TORN, JO_NONE, "tnnnnnnn");
	/* zeros in one sector: neither old nor new there */
	memcpy(mix, newu, 4096);
	memset(mix + 1024, 0, 512);
	expect_verdict(r, 4096, 1, mix, JK_LOST, JO_NONE, "nnfnnnnn");
	/* the generation before old is not acceptable either */
	unit_of(mix, 4096, 1, 3, RUN_ID); /* never announced */
	expect_verdict(r, 4096, 1, mix, JK_LOST, JO_NONE, "ffffffff");

	/* block 4 (a failed write, then the stop): old 1 or new 2 */
	unit_of(mix, 4096, 4, 2, RUN_ID);
	expect_verdict(r, 4096, 4, mix, JK_OK, JO_NEW, NULL);
	journal_replay_free(r);
	jfree(&jb);
}

/* Block 2 has an intent and no DONE: its old content is whatever was
 * there before the run, which nothing describes. */
static void test_check_never_completed(void **state)
{
	struct jbuf jb;
	uint8_t prefill[4096], newu[4096], mix[4096];
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);

	random_fill(prefill, sizeof(prefill), 77);
	unit_of(newu, 4096, 2, 1, RUN_ID);
	expect_verdict(r, 4096, 2, prefill, JK_OK, JO_OLD, "oooooooo");
	expect_verdict(r, 4096, 2, newu, JK_OK, JO_NEW, "nnnnnnnn");
	/* an earlier run's unit at that offset is old content too */
	unit_of(mix, 4096, 2, 9, RUN_ID ^ 0xff);
	expect_verdict(r, 4096, 2, mix, JK_OK, JO_OLD, "oooooooo");
	memcpy(mix, newu, 4096);
	memcpy(mix + 2560, prefill + 2560, 4096 - 2560);
	expect_verdict(r, 4096, 2, mix, JK_OK, JO_MIXED, "nnnnnooo");
	/* a sector half new, half something else: torn */
	memcpy(mix, newu, 4096);
	memcpy(mix + 512 + 256, prefill + 512 + 256, 256);
	expect_verdict(r, 4096, 2, mix, JK_TORN, JO_NONE, "ntnnnnnn");
	/* cut at a byte, not a word: still a tear */
	memcpy(mix, newu, 4096);
	memcpy(mix + 512 + 301, prefill + 512 + 301, 512 - 301);
	expect_verdict(r, 4096, 2, mix, JK_TORN, JO_NONE, "ntnnnnnn");
	/* ... or the other way round, old data then new */
	memcpy(mix, newu, 4096);
	memcpy(mix + 1024, prefill + 1024, 200);
	expect_verdict(r, 4096, 2, mix, JK_TORN, JO_NONE, "nntnnnnn");
	/* but a flipped byte is damage, not a tear: in the middle of a
	 * sector, in its first or last word, or in the header's sector */
	static const unsigned flips[] = {1800, 512, 1023, 200, 4095};
	static const char *const maps[] = {"nnnxnnnn", "nxnnnnnn", "nxnnnnnn",
					   "xnnnnnnn", "nnnnnnnx"};
	for (unsigned i = 0; i < 5; i++) {
		memcpy(mix, newu, 4096);
		mix[flips[i]] ^= 0x10;
		expect_verdict(r, 4096, 2, mix, JK_CORRUPTED, JO_NONE, maps[i]);
	}
	/* ... as is damage with new data on both sides */
	memcpy(mix, newu, 4096);
	memcpy(mix + 2048 + 64, prefill + 2048 + 64, 64);
	expect_verdict(r, 4096, 2, mix, JK_CORRUPTED, JO_NONE, "nnnnxnnn");

	/* block 3 (a gap) and blocks the journal never named are checked
	 * on their own: an intact unit passes, prefill is unverified, a
	 * damaged unit is corrupted */
	unit_of(mix, 4096, 3, 5, RUN_ID);
	expect_verdict(r, 4096, 3, mix, JK_OK, JO_UNJOURNALED, "");
	expect_verdict(r, 4096, 10, prefill, JK_UNVERIFIED, JO_NONE, "");
	unit_of(mix, 4096, 10, 1, 1234);
	mix[700] ^= 1;
	expect_verdict(r, 4096, 10, mix, JK_CORRUPTED, JO_NONE, "");
	journal_replay_free(r);
	jfree(&jb);
}

/* A journal of an older iochar (version 1) describes units of block
 * format 1: they are rebuilt in that format, sector by sector. */
static void test_old_journal_format(void **state)
{
	struct jbuf jb;
	uint8_t oldu[4096], newu[4096], mix[4096];
	struct vblock_stamp st = {
	    .seed = SEED, .run_id = RUN_ID, .block_len = 4096, .version = 1};
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	le_put32(jb.buf + JH_VERSION, 1);
	le_put32(jb.buf + JH_CRC, 0);
	le_put32(jb.buf + JH_CRC, crc32c(0, jb.buf, jb.hlen));
	struct journal_replay *r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_info(r)->version, 1);

	/* block 1: acknowledged 1, 2 in flight */
	st.gen = 1, st.time_ns = t_of(1, 1);
	vblock_fill(oldu, 4096, 4096, OFFSET + 4096, &st);
	st.gen = 2, st.time_ns = t_of(1, 2);
	vblock_fill(newu, 4096, 4096, OFFSET + 4096, &st);
	expect_verdict(r, 4096, 1, newu, JK_OK, JO_NEW, "nnnnnnnn");
	memcpy(mix, newu, 4096);
	memcpy(mix + 1536, oldu + 1536, 4096 - 1536);
	expect_verdict(r, 4096, 1, mix, JK_OK, JO_MIXED, "nnnddddd");
	mix[2000] ^= 1;
	expect_verdict(r, 4096, 1, mix, JK_CORRUPTED, JO_NONE, "nnnxdddd");
	journal_replay_free(r);
	jfree(&jb);
}

/* bs=512: one sector per unit, so a unit is all old or all new, or torn. */
static void test_check_small_units(void **state)
{
	struct jbuf jb;
	uint8_t oldu[512], newu[512], mix[512];
	(void)state;

	jbuild(&jb, 512, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);
	assert_int_equal(journal_replay_info(r)->unit_len, 512);

	unit_of(oldu, 512, 1, 1, RUN_ID);
	unit_of(newu, 512, 1, 2, RUN_ID);
	expect_verdict(r, 512, 1, oldu, JK_OK, JO_OLD, "d");
	expect_verdict(r, 512, 1, newu, JK_OK, JO_NEW, "n");
	memcpy(mix, newu, 512);
	memcpy(mix + 256, oldu + 256, 256);
	expect_verdict(r, 512, 1, mix, JK_TORN, JO_NONE, "t");
	unit_of(mix, 512, 0, 1, RUN_ID);
	expect_verdict(r, 512, 0, mix, JK_LOST, JO_NONE, "p");
	journal_replay_free(r);
	jfree(&jb);
}

static void test_counts_and_line(void **state)
{
	struct jbuf jb;
	uint8_t u[4096];
	struct journal_verdict v;
	struct journal_counts c = {0}, sum = {0};
	char line[2048] = "";
	(void)state;

	jbuild(&jb, 4096, rule_ops, NR_RULES);
	struct journal_replay *r = replay(&jb, jb.len);
	unit_of(u, 4096, 0, 2, RUN_ID);
	check(r, 4096, 0, u, &v);
	journal_count(&c, &v);
	unit_of(u, 4096, 0, 1, RUN_ID);
	check(r, 4096, 0, u, &v);
	journal_count(&c, &v);
	assert_int_equal(c.checked_units, 2);
	assert_int_equal(c.acknowledged_units, 1);
	assert_int_equal(c.failures, 1);
	assert_int_equal(c.lost, 1);
	journal_counts_add(&sum, &c);
	journal_counts_add(&sum, &c);
	assert_int_equal(sum.lost, 2);

	FILE *f = tmpfile();
	assert_non_null(f);
	journal_print_failure(f, "/data/f", &v);
	rewind(f);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_non_null(strstr(line, "verify failure: target=/data/f "
				     "offset=1048576 kind=lost why=\""));
	assert_non_null(strstr(line, " expected_gen=2 found_gen=1 "
				     "sectors=pppppppp first_bad_sector=0 "
				     "unit=4096 data=696f6368 61727631"));
	journal_replay_free(r);
	jfree(&jb);
}

/* --- the session writes the journal; probe; job checks --- */

static void test_session_journal(void **state)
{
	char *dir = tmpdir_make();
	char jpath[4200];
	struct job_spec job;
	struct verify_counts counts = {0};
	struct verify_session *s;
	struct ioc_err err = {0};
	struct io_unit u[2];
	uint8_t *bufs = NULL;
	(void)state;

	snprintf(jpath, sizeof(jpath), "%s/j", dir);
	job_spec_init(&job);
	options_set_defaults(&job);
	assert_int_equal(job_spec_set_files(&job, "/tmp/fake"), 0);
	job.bs = 4096;
	job.offset = OFFSET;
	job.verify = true;
	set_journal(&job, jpath);
	assert_int_equal(posix_memalign((void **)&bufs, 4096, 2 * 4096), 0);
	memset(u, 0, sizeof(u));
	for (unsigned i = 0; i < 2; i++) {
		u[i].buf = bufs + i * 4096;
		u[i].buflen = 4096;
		u[i].index = i;
		u[i].dir = DIR_WRITE;
		u[i].len = 4096;
	}
	struct verify_session_params p = {
	    .job = &job,
	    .region = NBLOCKS * 4096,
	    .depth = 2,
	    .counts = &counts,
	    .report = NULL,
	};
	assert_int_equal(verify_session_create(&p, &s, &err), 0);
	/* block 5 written and completed twice; block 7's write in flight */
	for (int round = 0; round < 2; round++) {
		u[0].offset = OFFSET + 5 * 4096;
		assert_true(verify_session_prepare(s, &u[0]));
		assert_int_equal(verify_session_flush(s, &err), 0);
		u[0].result = 4096;
		assert_int_equal(verify_session_complete(s, &u[0], &err), 0);
	}
	u[1].offset = OFFSET + 7 * 4096;
	assert_true(verify_session_prepare(s, &u[1]));
	assert_int_equal(verify_session_flush(s, &err), 0);
	/* the intent is durable before the write would be submitted, and
	 * the DONE queued since the last flush went with it */
	struct journal_replay *r;
	assert_int_equal(journal_replay_file(jpath, &r, &err), 0);
	assert_int_equal(journal_replay_stats(r)->intents, 3);
	assert_int_equal(journal_replay_stats(r)->dones, 2);
	journal_replay_free(r);
	/* a DONE left queued at the end is written by the session's end */
	u[0].offset = OFFSET + 9 * 4096;
	assert_true(verify_session_prepare(s, &u[0]));
	assert_int_equal(verify_session_flush(s, &err), 0);
	assert_int_equal(verify_session_complete(s, &u[0], &err), 0);
	assert_int_equal(journal_replay_file(jpath, &r, &err), 0);
	assert_int_equal(journal_replay_stats(r)->dones, 2);
	journal_replay_free(r);
	verify_session_free(s);

	assert_int_equal(journal_replay_file(jpath, &r, &err), 0);
	const struct journal_stats *st = journal_replay_stats(r);
	assert_int_equal(st->intents, 4);
	assert_int_equal(st->dones, 3);
	assert_string_equal(journal_replay_info(r)->files[0], "/tmp/fake");
	struct journal_expect e;
	journal_expect_block(r, 0, 5, &e);
	assert_true(e.known && !e.in_flight);
	assert_int_equal(e.cand[0].gen, 2);
	journal_expect_block(r, 0, 7, &e);
	assert_true(e.known && e.in_flight && e.prerun_ok);
	/* the unit the session stamped is what the journal rebuilds */
	struct journal_verdict v;
	assert_int_equal(
	    journal_check_unit(r, 0, OFFSET + 7 * 4096, u[1].buf, &v), JK_OK);
	assert_int_equal(v.outcome, JO_NEW);
	assert_int_equal(
	    journal_check_unit(r, 0, OFFSET + 9 * 4096, u[0].buf, &v), JK_OK);
	assert_int_equal(v.outcome, JO_ACKED);
	journal_replay_free(r);
	free(bufs);
	job_spec_free(&job);
	tmpdir_remove(dir);
}

static void expect_probe_refused(const char *path, const char *want)
{
	struct ioc_err err = {0};

	assert_true(journal_probe("journal", path, &err) < 0);
	assert_int_equal(err.usage, 1);
	if (!strstr(err.msg, want))
		fail_msg("'%s' not in '%s'", want, err.msg);
}

static void test_probe(void **state)
{
	char *dir = tmpdir_make();
	char p[4200];
	struct ioc_err err = {0};
	struct jbuf jb;
	(void)state;

	snprintf(p, sizeof(p), "%s/new", dir);
	assert_int_equal(journal_probe("journal", p, &err), 0);
	snprintf(p, sizeof(p), "%s/nodir/j", dir);
	expect_probe_refused(p, "does not exist");
	expect_probe_refused(dir, "not a regular file");
	snprintf(p, sizeof(p), "%s/data", dir);
	make_file(p, 8192);
	uint64_t before = file_hash(p);
	expect_probe_refused(p, "is not an iochar journal; refusing");
	struct journal_info info = test_info(4096);
	struct journal_writer *w = (void *)1;
	assert_true(journal_create(p, &info, 4, &w, &err) < 0);
	assert_null(w);
	assert_int_equal(file_hash(p), before); /* untouched */
	snprintf(p, sizeof(p), "%s/empty", dir);
	close(open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	assert_int_equal(journal_probe("journal", p, &err), 0);
	jbuild(&jb, 4096, round_ops, 2);
	assert_int_equal(journal_probe("journal", jb.path, &err), 0);
	jfree(&jb);
	tmpdir_remove(dir);
}

static struct job_spec jjob(const char *name, const char *file,
			    const char *journal)
{
	struct job_spec j;
	job_spec_init(&j);
	options_set_defaults(&j);
	snprintf(j.name, sizeof(j.name), "%s", name);
	assert_int_equal(job_spec_set_files(&j, file), 0);
	j.rw = RW_RANDWRITE;
	j.verify = true;
	if (journal)
		set_journal(&j, journal);
	return j;
}

static void expect_jobs_refused(const struct io_hooks_job *vj, unsigned n,
				const char *want)
{
	struct ioc_err err = {0};

	assert_true(verify_check_jobs(vj, n, &err) < 0);
	assert_int_equal(err.usage, 1);
	if (!strstr(err.msg, want))
		fail_msg("'%s' not in '%s'", want, err.msg);
}

static void test_job_checks(void **state)
{
	char *dir = tmpdir_make();
	char ja[4200], jb[4200], fa[4200], fb[4200];
	struct ioc_err err = {0};
	(void)state;

	snprintf(ja, sizeof(ja), "%s/ja", dir);
	snprintf(jb, sizeof(jb), "%s/jb", dir);
	snprintf(fa, sizeof(fa), "%s/fa", dir);
	snprintf(fb, sizeof(fb), "%s/fb", dir);
	struct job_spec a = jjob("a", fa, ja), b = jjob("b", fb, jb);
	struct io_hooks_job vj[2] = {
	    {.job = &a, .region = 1 << 20, .moves_data = true},
	    {.job = &b, .region = 1 << 20, .moves_data = true},
	};
	assert_int_equal(verify_check_jobs(vj, 2, &err), 0);
	a.verify = false;
	expect_jobs_refused(vj, 1, "job a: journal=");
	expect_jobs_refused(vj, 1, "needs verify=1");
	a.verify = true;
	set_journal(&b, ja);
	expect_jobs_refused(vj, 2, "one journal per job");
	set_journal(&b, fa);
	expect_jobs_refused(vj, 2, "is a target of job a");
	set_journal(&b, jb);
	make_file(jb, 4096);
	expect_jobs_refused(vj, 2, "job b: journal=");
	expect_jobs_refused(vj, 2, "not an iochar journal");
	job_spec_free(&a);
	job_spec_free(&b);
	tmpdir_remove(dir);
}

static void test_option_row(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};
	char longer[2000];
	(void)state;

	job_spec_init(&s);
	options_set_defaults(&s);
	assert_string_equal(s.journal, "");
	assert_int_equal(options_apply(&s, "journal", "/var/tmp/j", &err), 0);
	assert_string_equal(s.journal, "/var/tmp/j");
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	assert_int_equal(options_apply(&s, "journal", longer, &err), -ERANGE);
	assert_int_equal(err.usage, 1);
	job_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_crc),
	    cmocka_unit_test(test_writer_round_trip),
	    cmocka_unit_test(test_torn_tail_ignored),
	    cmocka_unit_test(test_bad_headers),
	    cmocka_unit_test(test_replay_rules),
	    cmocka_unit_test(test_check_acknowledged),
	    cmocka_unit_test(test_check_in_flight),
	    cmocka_unit_test(test_check_never_completed),
	    cmocka_unit_test(test_check_small_units),
	    cmocka_unit_test(test_old_journal_format),
	    cmocka_unit_test(test_counts_and_line),
	    cmocka_unit_test(test_session_journal),
	    cmocka_unit_test(test_probe),
	    cmocka_unit_test(test_job_checks),
	    cmocka_unit_test(test_option_row),
	};
	return cmocka_run_group_tests_name("journal", tests, NULL, NULL);
}

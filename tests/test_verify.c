/* test_verify.c - data verification below the CLI: CRC-32C (known vectors,
 * every implementation against the table), the unit format (fill then
 * check at many offsets, generations and both unit sizes), each failure
 * kind (corrupted, misplaced, stale, never written) and the unverified
 * verdict for prefill data, the worker session (map, in-flight rule,
 * verify_fatal, report lines), the scan behind `iochar verify`, and the
 * job checks (numjobs, bs, offset, null engine, overlapping jobs). */
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
#include <unistd.h>

#include "cli/options.h"
#include "util/rng.h"
#include "verify/block.h"
#include "verify/crc32c.h"
#include "verify/jobs.h"
#include "verify/report.h"
#include "verify/scan.h"
#include "verify/session.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

static const struct {
	const char *name;
	crc_fn fn;
} impls[] = {
    {"crc32c", crc32c},
    {"sw", crc32c_sw},
    {"sse42", crc32c_sse42},
    {"sse42_3way", crc32c_sse42_3way},
};
#define NR_IMPLS (sizeof(impls) / sizeof(impls[0]))

static void *aligned(size_t len)
{
	void *p = NULL;
	assert_int_equal(posix_memalign(&p, 4096, len), 0);
	return p;
}

static void random_fill(void *buf, size_t len, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (size_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = (uint8_t)rng_next(&r);
}

/* RFC 3720 B.4 and the usual check value. */
static void test_crc_known_vectors(void **state)
{
	uint8_t zeros[32] = {0}, ones[32], inc[32], dec[32];
	(void)state;
	memset(ones, 0xff, sizeof(ones));
	for (int i = 0; i < 32; i++) {
		inc[i] = (uint8_t)i;
		dec[i] = (uint8_t)(31 - i);
	}
	printf("crc32c uses: %s\n", crc32c_impl());
	for (size_t i = 0; i < NR_IMPLS; i++) {
		crc_fn f = impls[i].fn;
		assert_int_equal(f(0, "123456789", 9), 0xE3069283);
		assert_int_equal(f(0, "", 0), 0);
		assert_int_equal(f(0, zeros, 32), 0x8A9136AA);
		assert_int_equal(f(0, ones, 32), 0x62A8AB43);
		assert_int_equal(f(0, inc, 32), 0x46DD794E);
		assert_int_equal(f(0, dec, 32), 0x113FDB5C);
		/* chaining: crc(a|b) == crc(crc(a), b) */
		assert_int_equal(f(f(0, "1234", 4), "56789", 5), 0xE3069283);
	}
}

/* Every path against the table on lengths that exercise each of them:
 * short tails, one short round, long rounds, odd alignments. */
static void test_crc_hw_matches_sw(void **state)
{
	size_t max = 3 * 3 * 1344 + 700;
	uint8_t *buf = aligned(max + 16);
	struct rng r;
	(void)state;
	if (!crc32c_have_sse42())
		printf("note: no SSE4.2 here: the hardware paths fall back to "
		       "the table\n");
	random_fill(buf, max + 16, 42);
	rng_seed(&r, 7);
	static const size_t fixed[] = {
	    0,	 1,   7,    8,	  9,	63,   64,   431,	 432,
	    433, 448, 4032, 4033, 4031, 4096, 8192, 3 * 1344 * 2};
	for (size_t t = 0; t < 400; t++) {
		size_t len = t < sizeof(fixed) / sizeof(fixed[0])
				 ? fixed[t]
				 : (size_t)rng_below(&r, max);
		size_t off = (size_t)rng_below(&r, 16);
		uint32_t seed = (uint32_t)rng_next(&r);
		uint32_t want = crc32c_sw(seed, buf + off, len);
		for (size_t i = 0; i < NR_IMPLS; i++)
			if (impls[i].fn(seed, buf + off, len) != want)
				fail_msg("%s differs from the table at len %zu "
					 "off %zu",
					 impls[i].name, len, off);
	}
	free(buf);
}

static struct vblock_stamp stamp(uint8_t gen)
{
	return (struct vblock_stamp){
	    .seed = 0x89,
	    .time_ns = 1700000000000000000ull,
	    .run_id = 0xabcd1234,
	    .block_len = 16384,
	    .extent = 0x0102030405060708ull,
	    .gen = gen,
	};
}

static struct vexpect expect(uint64_t offset, uint8_t gen)
{
	return (struct vexpect){
	    .offset = offset,
	    .seed = 0x89,
	    .run_id = 0xabcd1234,
	    .gen = gen,
	    .match = VEXP_SEED | VEXP_RUN,
	};
}

static void test_unit_len(void **state)
{
	(void)state;
	assert_int_equal(vblock_unit_len(4096), 4096);
	assert_int_equal(vblock_unit_len(1 << 20), 4096);
	assert_int_equal(vblock_unit_len(512), 512);
	assert_int_equal(vblock_unit_len(2048), 512);
	assert_int_equal(vblock_unit_len(6144), 512);
	assert_int_equal(vblock_unit_len(1000), 0);
	assert_int_equal(vblock_unit_len(0), 0);
}

/* Fill a block, then every unit checks clean at its offset and gen, and
 * its header says what was written. */
static void round_trip(uint32_t unit, uint64_t len)
{
	static const uint64_t offsets[] = {0, 4096, 1ull << 30,
					   (1ull << 40) + 8192};
	static const uint8_t gens[] = {1, 2, 127, 255};
	uint8_t *buf = aligned(len);

	for (size_t o = 0; o < 4; o++) {
		for (size_t g = 0; g < 4; g++) {
			struct vblock_stamp st = stamp(gens[g]);
			vblock_fill(buf, len, unit, offsets[o], &st);
			for (uint64_t pos = 0; pos < len; pos += unit) {
				struct vexpect e =
				    expect(offsets[o] + pos, gens[g]);
				struct vfailure f;
				assert_int_equal(
				    vunit_check(buf + pos, unit, &e, &f),
				    VK_OK);
				assert_int_equal(f.found.offset,
						 offsets[o] + pos);
				assert_int_equal(f.found.gen, gens[g]);
				assert_int_equal(f.found.unit_len, unit);
				assert_int_equal(f.found.block_len, 16384);
				assert_int_equal(f.found.seed, 0x89);
				assert_int_equal(f.found.time_ns, st.time_ns);
				assert_int_equal(f.found.version,
						 VBLOCK_VERSION);
				assert_int_equal(f.found.extent, st.extent);
				/* self-describing check (no expected gen) too
				 */
				e.gen = 0;
				assert_int_equal(
				    vunit_check(buf + pos, unit, &e, NULL),
				    VK_OK);
			}
		}
	}
	/* different gens give different payloads: a block is keyed */
	uint8_t *other = aligned(len);
	struct vblock_stamp s1 = stamp(1), s2 = stamp(2);
	vblock_fill(buf, len, unit, 0, &s1);
	vblock_fill(other, len, unit, 0, &s2);
	assert_memory_not_equal(buf + VBLOCK_HDR_LEN, other + VBLOCK_HDR_LEN,
				unit - VBLOCK_HDR_LEN);
	free(other);
	free(buf);
}

static void test_round_trip_4k(void **state)
{
	(void)state;
	round_trip(4096, 16384);
}

static void test_round_trip_512(void **state)
{
	(void)state;
	round_trip(512, 2048);
	round_trip(512, 512);
}

/* The on-disk layout is fixed: magic bytes, little-endian fields. */
static void test_header_layout(void **state)
{
	uint8_t *buf = aligned(4096);
	struct vblock_stamp st = stamp(7);
	(void)state;
	vblock_fill(buf, 4096, 4096, 0x1122334455667788ull, &st);
	assert_memory_equal(buf, "iocharv1", 8);
	assert_int_equal(buf[8], 0x88);
	assert_int_equal(buf[15], 0x11);
	assert_int_equal(buf[16], 0x89);
	assert_int_equal(buf[36], 0x34); /* run_id 0xabcd1234, LE */
	assert_int_equal(buf[40] | buf[41] << 8, 4096);
	assert_int_equal(buf[48], 7);
	assert_int_equal(buf[49], VBLOCK_VERSION);
	for (int i = 50; i < 56; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(buf[56], 0x08); /* extent, LE */
	assert_int_equal(buf[63], 0x01);
	/* the crc field is the CRC of the unit with that field zeroed */
	uint32_t stored = (uint32_t)buf[32] | (uint32_t)buf[33] << 8 |
			  (uint32_t)buf[34] << 16 | (uint32_t)buf[35] << 24;
	memset(buf + 32, 0, 4);
	assert_int_equal(crc32c_sw(0, buf, 4096), stored);
	free(buf);
}

static void flipped_byte(uint32_t unit, uint64_t len)
{
	uint8_t *buf = aligned(len);
	struct vblock_stamp st = stamp(3);
	uint64_t base = 1 << 20;
	struct vfailure f;

	vblock_fill(buf, len, unit, base, &st);
	uint64_t bad_unit = len / unit - 1, at = bad_unit * unit + 100;
	buf[at] ^= 0x01;
	for (uint64_t pos = 0; pos < len; pos += unit) {
		struct vexpect e = expect(base + pos, 3);
		enum vkind k = vunit_check(buf + pos, unit, &e, &f);
		if (pos / unit != bad_unit) {
			assert_int_equal(k, VK_OK);
			continue;
		}
		assert_int_equal(k, VK_CORRUPTED);
		assert_int_equal(f.offset, base + pos);
		assert_int_equal(f.first_diff, 100);
		assert_string_equal(f.why, "bad CRC");
		/* without an expected gen the same damage is found */
		e.gen = 0;
		assert_int_equal(vunit_check(buf + pos, unit, &e, NULL),
				 VK_CORRUPTED);
	}
	free(buf);
}

static void test_flipped_byte_is_corrupted(void **state)
{
	(void)state;
	flipped_byte(4096, 16384);
	flipped_byte(512, 2048);
}

static void test_damaged_header(void **state)
{
	uint8_t *buf = aligned(4096);
	struct vblock_stamp st = stamp(3);
	struct vexpect e = expect(8192, 3);
	struct vfailure f;
	(void)state;

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[3] ^= 0x20; /* the magic */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 3);
	e.gen = 0; /* a damaged magic is still found when nothing is expected */
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_CORRUPTED);
	/* at offset 0 too: the unit-length field backs the zero offset */
	vblock_fill(buf, 4096, 4096, 0, &st);
	buf[3] ^= 0x20;
	e.offset = 0;
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_CORRUPTED);
	e.offset = 8192;

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[8] ^= 0x01; /* the offset: the CRC catches it */
	e.gen = 3;
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 8);

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[48] = 9; /* the generation */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 48);

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[4095] ^= 0x80; /* the last byte: the whole payload matched before */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 4095);

	vblock_fill(buf, 512, 512, 8192, &st);
	buf[511] ^= 0x80;
	assert_int_equal(vunit_check(buf, 512, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 511);

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[52] = 1; /* a reserved byte */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 52);

	vblock_fill(buf, 4096, 4096, 8192, &st);
	buf[60] ^= 1; /* the extent: caught by the CRC, not placed (like
		       * the time, nothing else says what it should be) */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_string_equal(f.why, "bad CRC");
	free(buf);
}

/* Every sector of a unit belongs to the write that made it: the sectors
 * after the header of two writes of one offset, generation and seed by
 * two runs (or two times) differ, so a unit with one of them reverted to
 * the other write's fails its CRC. (Block format 1 keyed them by offset,
 * generation and seed only: such a revert passed.) */
static void test_sectors_unique_to_the_write(void **state)
{
	uint8_t *a = aligned(4096), *b = aligned(4096), *mix = aligned(4096);
	struct vblock_stamp sa = stamp(5), sb = stamp(5), sc = stamp(5);
	struct vexpect e = expect(8192, 5);
	(void)state;
	sb.run_id ^= 1;	 /* another run */
	sc.time_ns += 1; /* another write of this run */
	vblock_fill(a, 4096, 4096, 8192, &sa);
	for (int other = 0; other < 2; other++) {
		vblock_fill(b, 4096, 4096, 8192, other ? &sc : &sb);
		for (unsigned s = 1; s < 8; s++) {
			assert_memory_not_equal(a + s * 512, b + s * 512, 512);
			memcpy(mix, b, 4096);
			memcpy(mix + s * 512, a + s * 512, 512);
			e.match = 0;
			assert_int_equal(vunit_check(mix, 4096, &e, NULL),
					 VK_CORRUPTED);
		}
	}
	free(mix);
	free(b);
	free(a);
}

/* Units of block format 1 (an older iochar) are still checked, with that
 * format's pattern; a format this iochar does not know is reported. */
static void test_old_format_still_read(void **state)
{
	uint8_t *buf = aligned(4096);
	struct vblock_stamp st = stamp(3);
	struct vexpect e = expect(8192, 3);
	struct vfailure f;
	(void)state;
	st.version = 1;
	vblock_fill(buf, 4096, 4096, 8192, &st);
	assert_int_equal(buf[49], 1);
	for (int i = 50; i < 64; i++) /* no extent in format 1 */
		assert_int_equal(buf[i], 0);
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_OK);
	assert_int_equal(f.found.version, 1);
	assert_int_equal(f.found.extent, 0);
	buf[1000] ^= 4; /* placed with format 1's pattern */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_int_equal(f.first_diff, 1000);

	st.version = VBLOCK_VERSION + 1;
	vblock_fill(buf, 4096, 4096, 8192, &st);
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	assert_string_equal(f.why,
			    "a block format version this iochar does not know");
	free(buf);
}

/* A write without verify may carry what a read left in its buffer:
 * another offset's units, or the units of its own offset. Scrubbed, none
 * of them passes for a verified unit, nor for a damaged one. */
static void test_scrub_leaves_no_unit(void **state)
{
	static const uint64_t to[] = {1 << 20, 8192, (1 << 20) + 100};
	uint8_t *buf = aligned(16384 + 512);
	struct vblock_stamp st = stamp(2);
	(void)state;
	for (size_t t = 0; t < sizeof(to) / sizeof(to[0]); t++) {
		for (uint32_t unit = 512; unit <= 4096; unit *= 8) {
			vblock_fill(buf, 16384, unit, 8192, &st);
			vblock_scrub(buf, 16384, to[t], 42);
			uint64_t first = (512 - to[t] % 512) % 512;
			for (uint64_t pos = first; pos + unit <= 16384;
			     pos += unit) {
				struct vexpect e = {.offset = to[t] + pos};
				struct vfailure f;
				if (vunit_check(buf + pos, unit, &e, &f) !=
				    VK_UNVERIFIED)
					fail_msg("scrubbed for %llu: unit at "
						 "+%llu is %s (%s)",
						 (unsigned long long)to[t],
						 (unsigned long long)pos,
						 vkind_name(f.kind), f.why);
			}
		}
	}
	free(buf);
}

/* A later write of part of a verified unit (bs=512 over a 4 KiB unit,
 * without verify or with it) leaves its header and a bad CRC: the sector
 * it wrote (scrubbed, or an intact 512-byte unit of its own offset) says
 * the unit was overwritten, not corrupted, when nothing is expected; over
 * a write the run itself made it is still a failure. Damage there, or a
 * sector of another offset, is corrupted. */
static void test_partly_overwritten_unit(void **state)
{
	uint8_t *buf = aligned(4096), *w = aligned(512);
	struct vblock_stamp st = stamp(4);
	struct vexpect e = {.offset = 8192};
	struct vfailure f;
	(void)state;
	for (unsigned s = 1; s < 8; s++) {
		vblock_fill(buf, 4096, 4096, 8192, &st);
		memset(w, 0x3c, 512);
		vblock_scrub(w, 512, 8192 + s * 512, 7);
		memcpy(buf + s * 512, w, 512);
		e.gen = 0;
		assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_UNVERIFIED);
		assert_string_equal(f.why,
				    "overwritten in part by a later write");
		e = expect(8192, 4);
		assert_int_equal(vunit_check(buf, 4096, &e, NULL),
				 VK_CORRUPTED);
		/* a sector scrubbed for another offset (misdirected), or
		 * plain damage: corrupted */
		e = (struct vexpect){.offset = 8192};
		vblock_scrub(buf + s * 512, 512, 8192 + s * 512 + 4096, 7);
		assert_int_equal(vunit_check(buf, 4096, &e, NULL),
				 VK_CORRUPTED);
		vblock_fill(buf, 4096, 4096, 8192, &st);
		buf[s * 512 + 3] ^= 1;
		assert_int_equal(vunit_check(buf, 4096, &e, NULL),
				 VK_CORRUPTED);
		/* a later verifying write with bs=512 there: overwritten */
		vblock_fill(buf, 4096, 4096, 8192, &st);
		vblock_fill(buf + s * 512, 512, 512, 8192 + s * 512, &st);
		assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_UNVERIFIED);
		/* ... but a 512-byte unit of another offset is misplaced
		 * data inside this one: corrupted */
		vblock_fill(buf + s * 512, 512, 512, 8192 + s * 512 + 4096,
			    &st);
		assert_int_equal(vunit_check(buf, 4096, &e, NULL),
				 VK_CORRUPTED);
	}
	free(w);
	free(buf);
}

static void test_copied_unit_is_misplaced(void **state)
{
	uint8_t *buf = aligned(4096), *copy = aligned(4096);
	struct vblock_stamp st = stamp(9);
	struct vfailure f;
	(void)state;

	vblock_fill(buf, 4096, 4096, 40960, &st);
	memcpy(copy, buf,
	       4096); /* as if written to 65536 by a misdirected write */
	struct vexpect e = expect(65536, 9);
	assert_int_equal(vunit_check(copy, 4096, &e, &f), VK_MISPLACED);
	assert_int_equal(f.offset, 65536);
	assert_int_equal(f.found.offset, 40960);
	e.gen = 0;
	assert_int_equal(vunit_check(copy, 4096, &e, NULL), VK_MISPLACED);
	free(copy);
	free(buf);
}

static void test_older_write_is_stale(void **state)
{
	uint8_t *buf = aligned(4096);
	struct vblock_stamp st = stamp(4);
	struct vfailure f;
	(void)state;

	vblock_fill(buf, 4096, 4096, 0, &st);
	struct vexpect e = expect(0, 5); /* gen 5 was written, 4 is there */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_STALE);
	assert_int_equal(f.expected_gen, 5);
	assert_int_equal(f.found.gen, 4);
	/* same gen, but left by an earlier run (another run id) */
	e = expect(0, 4);
	e.run_id ^= 1;
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_STALE);
	assert_string_equal(f.why, "written by an earlier run");
	/* ... or by a job with another seed */
	e = expect(0, 4);
	e.seed = 1;
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_STALE);
	/* generations wrap 255 -> 1 and still compare */
	st = stamp(255);
	vblock_fill(buf, 4096, 4096, 0, &st);
	e = expect(0, 1);
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_STALE);
	free(buf);
}

/* Prefill (random) data: never written when a gen was expected, merely
 * unverified when nothing was. */
static void test_prefill_block(void **state)
{
	uint8_t *buf = aligned(4096);
	struct vfailure f;
	(void)state;

	random_fill(buf, 4096, 99);
	struct vexpect e = expect(4096, 2);
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_NEVER_WRITTEN);
	assert_false(f.header);
	e.gen = 0;
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_UNVERIFIED);
	assert_int_equal(vunit_check(buf, 512, &e, NULL), VK_UNVERIFIED);
	memset(buf, 0, 4096); /* a hole reads as zeros, at any offset */
	e.offset = 4096;
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_UNVERIFIED);
	e.offset = 0; /* its zero "offset" field names unit 0: no evidence */
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_UNVERIFIED);
	assert_int_equal(vunit_check(buf, 512, &e, NULL), VK_UNVERIFIED);
	e.gen = 2;
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_NEVER_WRITTEN);
	e.gen = 0;
	/* another program's data at offset 0 with zeros where our offset
	 * field would be (a partition's first sectors) */
	random_fill(buf, 4096, 7);
	memset(buf + 8, 0, 8);
	assert_int_equal(vunit_check(buf, 4096, &e, NULL), VK_UNVERIFIED);
	free(buf);
}

static void test_counts_and_report_line(void **state)
{
	struct verify_counts c = {0};
	uint8_t *buf = aligned(4096);
	struct vblock_stamp st = stamp(3);
	struct vfailure f;
	char line[2048] = "";
	(void)state;

	vreport_count(&c, VK_OK);
	vreport_count(&c, VK_UNVERIFIED);
	vreport_count(&c, VK_CORRUPTED);
	vreport_count(&c, VK_MISPLACED);
	vreport_count(&c, VK_STALE);
	vreport_count(&c, VK_NEVER_WRITTEN);
	assert_int_equal(c.checked_units, 5);
	assert_int_equal(c.unverified_units, 1);
	assert_int_equal(c.failures, 4);
	assert_int_equal(c.corrupted + c.misplaced + c.stale + c.never_written,
			 4);

	vblock_fill(buf, 4096, 4096, 12288, &st);
	buf[200] ^= 0xff;
	struct vexpect e = expect(12288, 3);
	assert_int_equal(vunit_check(buf, 4096, &e, &f), VK_CORRUPTED);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	vreport_print(tmp, "/dev/x", &f);
	rewind(tmp);
	assert_non_null(fgets(line, sizeof(line), tmp));
	fclose(tmp);
	assert_non_null(
	    strstr(line, "target=/dev/x offset=12288 kind=corrupted"));
	assert_non_null(strstr(line, "expected_gen=3 found_gen=3"));
	assert_non_null(strstr(line, "found_offset=12288"));
	assert_non_null(strstr(line, "first_diff=200"));
	assert_non_null(strstr(line, "data=696f6368 61727631 00300000"));
	assert_int_equal(line[strlen(line) - 1], '\n');
	free(buf);
}

/* --- the worker session, driven with hand-made io_units --- */

struct fake {
	struct job_spec job;
	struct verify_session *s;
	struct verify_counts c;
	struct io_unit u[4];
	uint8_t *bufs;
	FILE *report;
};

static void fake_init(struct fake *fk, uint64_t bs, bool fatal)
{
	struct ioc_err err = {0};

	memset(fk, 0, sizeof(*fk));
	job_spec_init(&fk->job);
	options_set_defaults(&fk->job);
	assert_int_equal(job_spec_set_files(&fk->job, "/tmp/fake"), 0);
	fk->job.bs = bs;
	fk->job.offset = 1 << 20;
	fk->job.verify = true;
	fk->job.verify_fatal = fatal;
	fk->bufs = aligned(4 * bs);
	for (unsigned i = 0; i < 4; i++) {
		fk->u[i].buf = fk->bufs + i * bs;
		fk->u[i].buflen = bs;
		fk->u[i].index = i;
	}
	fk->report = tmpfile();
	assert_non_null(fk->report);
	struct verify_session_params p = {
	    .job = &fk->job,
	    .region = 64 * bs,
	    .depth = 4,
	    .counts = &fk->c,
	    .report = fk->report,
	};
	assert_int_equal(verify_session_create(&p, &fk->s, &err), 0);
}

static void fake_free(struct fake *fk)
{
	verify_session_free(fk->s);
	fclose(fk->report);
	free(fk->bufs);
	job_spec_free(&fk->job);
}

static struct io_unit *op(struct fake *fk, unsigned slot, enum io_dir dir,
			  uint64_t block)
{
	struct io_unit *u = &fk->u[slot];
	u->dir = dir;
	u->offset = fk->job.offset + block * fk->job.bs;
	u->len = fk->job.bs;
	u->result = -1;
	return u;
}

/* The "device": one byte array standing for the region. */
static void dev_io(uint8_t *dev, const struct fake *fk, struct io_unit *u)
{
	uint8_t *at = dev + (u->offset - fk->job.offset);
	if (u->dir == DIR_WRITE)
		memcpy(at, u->buf, u->len);
	else
		memcpy(u->buf, at, u->len);
	u->result = (int64_t)u->len;
}

static int do_io(struct fake *fk, uint8_t *dev, unsigned slot, enum io_dir dir,
		 uint64_t block)
{
	struct ioc_err err = {0};
	struct io_unit *u = op(fk, slot, dir, block);
	assert_true(verify_session_prepare(fk->s, u));
	dev_io(dev, fk, u);
	return verify_session_complete(fk->s, u, &err);
}

static void session_round(uint64_t bs)
{
	struct fake fk;
	uint64_t units = bs / vblock_unit_len(bs);
	fake_init(&fk, bs, false);
	uint8_t *dev = aligned(64 * bs);
	random_fill(dev, 64 * bs, 5); /* prefill */

	/* a read of a block this run never wrote: unverified, not checked */
	assert_int_equal(do_io(&fk, dev, 0, DIR_READ, 3), 0);
	assert_int_equal(fk.c.unverified_units, units);
	assert_int_equal(fk.c.checked_units, 0);
	/* written, then read back: checked clean; rewrites bump the gen */
	for (int round = 0; round < 300; round++) /* past the 255 wrap */
		assert_int_equal(do_io(&fk, dev, 1, DIR_WRITE, 3), 0);
	assert_int_equal(do_io(&fk, dev, 2, DIR_READ, 3), 0);
	assert_int_equal(fk.c.checked_units, units);
	assert_int_equal(fk.c.failures, 0);
	struct vblock_hdr h;
	vblock_hdr_decode(dev + 3 * bs, &h);
	assert_int_equal(h.gen, 300 % 255); /* 1..255, then 1.. again */

	/* a lost write: the device keeps the old data */
	struct io_unit *w = op(&fk, 0, DIR_WRITE, 3);
	struct ioc_err err = {0};
	assert_true(verify_session_prepare(fk.s, w));
	w->result = (int64_t)w->len; /* "completed", but never stored */
	assert_int_equal(verify_session_complete(fk.s, w, &err), 0);
	assert_int_equal(do_io(&fk, dev, 1, DIR_READ, 3), 0);
	assert_int_equal(fk.c.stale, units);

	/* a write whose data went to another block: misplaced there, and
	 * the block it was meant for is stale */
	assert_int_equal(do_io(&fk, dev, 0, DIR_WRITE, 10), 0);
	assert_int_equal(do_io(&fk, dev, 0, DIR_WRITE, 11), 0);
	memcpy(dev + 11 * bs, dev + 10 * bs, bs);
	assert_int_equal(do_io(&fk, dev, 2, DIR_READ, 11), 0);
	assert_int_equal(fk.c.misplaced, units);
	/* a flipped byte */
	dev[10 * bs + 77] ^= 4;
	assert_int_equal(do_io(&fk, dev, 2, DIR_READ, 10), 0);
	assert_int_equal(fk.c.corrupted, 1);
	/* a block written, then overwritten by prefill-like data */
	assert_int_equal(do_io(&fk, dev, 0, DIR_WRITE, 20), 0);
	random_fill(dev + 20 * bs, bs, 6);
	assert_int_equal(do_io(&fk, dev, 2, DIR_READ, 20), 0);
	assert_int_equal(fk.c.never_written, units);
	assert_int_equal(fk.c.failures, fk.c.corrupted + fk.c.misplaced +
					    fk.c.stale + fk.c.never_written);

	/* one line per failure on the report stream */
	char line[2048];
	unsigned lines = 0;
	rewind(fk.report);
	while (fgets(line, sizeof(line), fk.report))
		lines++;
	assert_int_equal(lines, fk.c.failures);
	free(dev);
	fake_free(&fk);
}

static void test_session_4k(void **state)
{
	(void)state;
	session_round(4096);
	session_round(65536);
}

static void test_session_512(void **state)
{
	(void)state;
	session_round(512);
	session_round(1536);
}

/* No two I/Os to one block in flight: the second waits. */
static void test_session_in_flight(void **state)
{
	struct fake fk;
	struct ioc_err err = {0};
	(void)state;
	fake_init(&fk, 4096, false);

	struct io_unit *a = op(&fk, 0, DIR_WRITE, 7);
	assert_true(verify_session_prepare(fk.s, a));
	assert_true(verify_session_prepare(fk.s, a)); /* again: already ready */
	struct io_unit *b = op(&fk, 1, DIR_READ, 7);
	assert_false(verify_session_prepare(fk.s, b));
	struct io_unit *c = op(&fk, 2, DIR_WRITE, 7);
	assert_false(verify_session_prepare(fk.s, c));
	struct io_unit *d = op(&fk, 3, DIR_WRITE, 8); /* another block: fine */
	assert_true(verify_session_prepare(fk.s, d));
	a->result = (int64_t)a->len;
	assert_int_equal(verify_session_complete(fk.s, a, &err), 0);
	assert_true(verify_session_prepare(fk.s, b));
	fake_free(&fk);
}

static void test_session_fatal(void **state)
{
	struct fake fk;
	struct ioc_err err = {0};
	(void)state;
	fake_init(&fk, 8192, true);
	uint8_t *dev = aligned(64 * 8192);

	assert_int_equal(do_io(&fk, dev, 0, DIR_WRITE, 5), 0);
	dev[5 * 8192 + 4096 + 300] ^= 1; /* second unit of the block */
	struct io_unit *u = op(&fk, 1, DIR_READ, 5);
	assert_true(verify_session_prepare(fk.s, u));
	dev_io(dev, &fk, u);
	assert_int_equal(verify_session_complete(fk.s, u, &err), -EILSEQ);
	assert_non_null(
	    strstr(err.msg, "verify_fatal: corrupted unit at offset"));
	char want[64];
	snprintf(want, sizeof(want), "offset %llu",
		 (unsigned long long)((1 << 20) + 5 * 8192 + 4096));
	assert_non_null(strstr(err.msg, want));
	assert_int_equal(fk.c.failures, 1);
	/* after a fatal failure nothing more is checked */
	assert_int_equal(do_io(&fk, dev, 2, DIR_READ, 5), 0);
	assert_int_equal(fk.c.failures, 1);
	free(dev);
	fake_free(&fk);
}

/* --- the scan of `iochar verify` --- */

static char *scratch_file(const void *data, size_t len)
{
	char *path = strdup("/tmp/iochar-verify-test-XXXXXX");
	assert_non_null(path);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, data, len, 0), (ssize_t)len);
	close(fd);
	return path;
}

static void test_scan_file(void **state)
{
	size_t len = 64 * 4096;
	uint8_t *data = aligned(len);
	struct verify_counts c = {0};
	struct ioc_err err = {0};
	struct vblock_stamp st = stamp(1);
	(void)state;

	random_fill(data, len, 11);
	vblock_fill(data, 32 * 4096, 4096, 0, &st); /* blocks 0..31 written */
	st.block_len = 512;
	vblock_fill(data + 40 * 4096, 4096, 512, 40 * 4096,
		    &st);				/* 8 small units */
	data[5 * 4096 + 999] ^= 0x10;			/* corrupted */
	memcpy(data + 9 * 4096, data + 2 * 4096, 4096); /* misplaced */
	data[40 * 4096 + 3 * 512 + 100] ^= 1;		/* corrupted 512 */
	char *path = scratch_file(data, len);
	FILE *rep = tmpfile();
	uint64_t printed = 0;
	struct vscan p = {
	    .path = path,
	    .start = 0,
	    .len = len,
	    .unit = 4096,
	    .report = rep,
	    .printed = &printed,
	};
	assert_int_equal(vscan_target(&p, &c, &err), 0);
	assert_int_equal(c.checked_units, 32 + 8);
	assert_int_equal(c.corrupted, 2);
	assert_int_equal(c.misplaced, 1);
	assert_int_equal(c.failures, 3);
	assert_int_equal(c.unverified_units, 64 - 32 - 1);
	assert_int_equal(printed, 3);
	char line[2048];
	rewind(rep);
	assert_non_null(fgets(line, sizeof(line), rep));
	assert_non_null(strstr(line, "offset=20480 kind=corrupted"));
	assert_non_null(fgets(line, sizeof(line), rep));
	assert_non_null(strstr(line, "offset=36864 kind=misplaced"));
	assert_non_null(strstr(line, "found_offset=8192"));
	assert_non_null(fgets(line, sizeof(line), rep));
	assert_non_null(strstr(line, "offset=165376 kind=corrupted"));
	assert_non_null(strstr(line, "unit=512"));

	/* a sub-range, stopping at the first failure */
	memset(&c, 0, sizeof(c));
	p.start = 4096;
	p.len = 16 * 4096;
	p.stop_at_first = true;
	p.report = NULL;
	assert_int_equal(vscan_target(&p, &c, &err), 0);
	assert_int_equal(c.failures, 1);
	assert_int_equal(c.checked_units, 5); /* blocks 1..5 */

	/* a range past the end is a read error with a message */
	p.start = len - 4096;
	p.len = 8192;
	assert_true(vscan_target(&p, &c, &err) < 0);
	assert_non_null(strstr(err.msg, path));
	fclose(rep);
	unlink(path);
	free(path);
	free(data);
}

/* --- which jobs may verify --- */

static struct job_spec vjob(const char *name, const char *file)
{
	struct job_spec j;
	job_spec_init(&j);
	options_set_defaults(&j);
	snprintf(j.name, sizeof(j.name), "%s", name);
	assert_int_equal(job_spec_set_files(&j, file), 0);
	j.verify = true;
	j.rw = RW_RANDRW;
	return j;
}

static void check_jobs_bad(struct io_hooks_job *vj, unsigned n, const char *want)
{
	struct ioc_err err = {0};
	assert_int_equal(verify_check_jobs(vj, n, &err), -EINVAL);
	assert_int_equal(err.usage, 1);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
}

static void test_job_checks(void **state)
{
	struct job_spec a = vjob("a", "/tmp/f1"), b = vjob("b", "/tmp/f1");
	struct io_hooks_job vj[2] = {
	    {.job = &a, .region = 1 << 20, .moves_data = true},
	    {.job = &b, .region = 1 << 20, .moves_data = true},
	};
	struct ioc_err err = {0};
	(void)state;

	assert_int_equal(verify_check_jobs(vj, 1, &err), 0);
	a.numjobs = 2;
	check_jobs_bad(vj, 1, "numjobs=2");
	a.numjobs = 1;
	a.bs = 1000;
	check_jobs_bad(vj, 1, "multiple of 512");
	a.bs = 8192;
	a.offset = 512;
	check_jobs_bad(vj, 1, "offset=512");
	a.bs = 1024;
	assert_int_equal(verify_check_jobs(vj, 1, &err),
			 0); /* 512-byte units */
	a.offset = 0;
	vj[0].moves_data = false;
	check_jobs_bad(vj, 1, "engine that moves data");
	vj[0].moves_data = true;

	/* two jobs on one file: overlapping regions refused, disjoint fine */
	b.verify = false;
	check_jobs_bad(vj, 2, "job b also writes");
	b.offset = 1 << 20;
	assert_int_equal(verify_check_jobs(vj, 2, &err), 0);
	b.offset = 0;
	b.rw = RW_RANDREAD; /* a reader does not disturb the map */
	assert_int_equal(verify_check_jobs(vj, 2, &err), 0);
	job_spec_free(&a);
	job_spec_free(&b);
}

static void test_options(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};
	(void)state;
	job_spec_init(&s);
	options_set_defaults(&s);
	assert_false(s.verify);
	assert_false(s.verify_fatal);
	assert_int_equal(options_apply(&s, "verify", "1", &err), 0);
	assert_true(s.verify);
	assert_int_equal(options_apply(&s, "verify", "0", &err), 0);
	assert_false(s.verify);
	assert_int_equal(options_apply(&s, "verify_fatal", NULL, &err), 0);
	assert_true(s.verify_fatal);
	/* fio's methods are fio's verify_type numbers; iochar's own is 0 */
	assert_int_equal(options_apply(&s, "verify", "md5", &err), 0);
	assert_true(s.verify);
	assert_int_equal(s.verify_type, 2);
	assert_int_equal(options_apply(&s, "verify", "crc32c-intel", &err), 0);
	assert_int_equal(s.verify_type, 5);
	assert_int_equal(options_apply(&s, "verify", "iochar", &err), 0);
	assert_int_equal(s.verify_type, 0);
	assert_int_equal(options_apply(&s, "verify", "md6", &err), -EINVAL);
	assert_int_equal(err.usage, 1);
	assert_non_null(strstr(err.msg, "unknown verify method 'md6'"));
	job_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crc_known_vectors),
	    cmocka_unit_test(test_crc_hw_matches_sw),
	    cmocka_unit_test(test_unit_len),
	    cmocka_unit_test(test_round_trip_4k),
	    cmocka_unit_test(test_round_trip_512),
	    cmocka_unit_test(test_header_layout),
	    cmocka_unit_test(test_flipped_byte_is_corrupted),
	    cmocka_unit_test(test_damaged_header),
	    cmocka_unit_test(test_sectors_unique_to_the_write),
	    cmocka_unit_test(test_old_format_still_read),
	    cmocka_unit_test(test_scrub_leaves_no_unit),
	    cmocka_unit_test(test_partly_overwritten_unit),
	    cmocka_unit_test(test_copied_unit_is_misplaced),
	    cmocka_unit_test(test_older_write_is_stale),
	    cmocka_unit_test(test_prefill_block),
	    cmocka_unit_test(test_counts_and_report_line),
	    cmocka_unit_test(test_session_4k),
	    cmocka_unit_test(test_session_512),
	    cmocka_unit_test(test_session_in_flight),
	    cmocka_unit_test(test_session_fatal),
	    cmocka_unit_test(test_scan_file),
	    cmocka_unit_test(test_job_checks),
	    cmocka_unit_test(test_options),
	};
	return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}

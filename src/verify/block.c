/* block.c - stamping units and checking them. See block.h for the format.
 *
 * The hot paths are vblock_fill (before every write) and vunit_check (after
 * every read of a written block): a header, a pattern loop the compiler
 * can vectorize, and one CRC pass. Working out where a damaged unit first
 * differs is done only for failures.
 */
#include "verify/block.h"

#include <endian.h>
#include <string.h>

#include "util/le.h"

#include "verify/crc32c.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

/* Field offsets in the header. */
enum {
	H_MAGIC = 0,
	H_OFFSET = 8,
	H_SEED = 16,
	H_TIME = 24,
	H_CRC = 32,
	H_RUN = 36,
	H_UNIT = 40,
	H_BLOCK = 44,
	H_GEN = 48,
	H_VERSION = 49,
	H_RESERVED = 50,
	H_EXTENT = 56,
};

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The pattern's key: version 1 from (offset, gen, seed) alone; version 2
 * adds the run id and the write's time, so no two writes share a word. */
static inline uint64_t pattern_key(uint8_t version, uint64_t offset,
				   uint8_t gen, uint64_t seed, uint32_t run_id,
				   uint64_t time_ns)
{
	uint64_t k = offset ^ mix64(seed + gen * GOLDEN);

	if (version >= 2)
		k ^= mix64(time_ns ^ mix64(run_id + GOLDEN));
	return mix64(k);
}

static uint64_t key_of(const struct vblock_hdr *h)
{
	return pattern_key(h->version, h->offset, h->gen, h->seed, h->run_id,
			   h->time_ns);
}

/* A Weyl sequence through an xorshift: each word depends only on the key
 * and its index, so the loop has no carried dependency but the counter. */
static inline uint64_t pattern_word(uint64_t key, uint64_t i)
{
	uint64_t s = key + (i + 1) * GOLDEN;
	return htole64(s ^ (s >> 29));
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef uint64_t v2u64 __attribute__((vector_size(16)));

/* pattern_word for i = 0 .. nwords-1 into p, four words a step in two
 * 128-bit lanes (SSE2 on any x86-64: about 3x the scalar loop, which the
 * compiler does not vectorize at -O2). */
static void pattern_fill(uint8_t *p, uint64_t nwords, uint64_t key)
{
	v2u64 a = {key + GOLDEN, key + 2 * GOLDEN};
	v2u64 b = {key + 3 * GOLDEN, key + 4 * GOLDEN};
	const v2u64 step = {4 * GOLDEN, 4 * GOLDEN};
	uint64_t i = 0;

	for (; i + 4 <= nwords; i += 4) {
		v2u64 oa = a ^ (a >> 29), ob = b ^ (b >> 29);
		memcpy(p + i * 8, &oa, sizeof(oa));
		memcpy(p + i * 8 + 16, &ob, sizeof(ob));
		a += step;
		b += step;
	}
	for (; i < nwords; i++) {
		uint64_t w = pattern_word(key, i);
		memcpy(p + i * 8, &w, sizeof(w));
	}
}
#else
static void pattern_fill(uint8_t *p, uint64_t nwords, uint64_t key)
{
	for (uint64_t i = 0; i < nwords; i++) {
		uint64_t w = pattern_word(key, i);
		memcpy(p + i * 8, &w, sizeof(w));
	}
}
#endif

uint32_t vblock_unit_len(uint64_t bs)
{
	if (bs && bs % VBLOCK_UNIT_LARGE == 0)
		return VBLOCK_UNIT_LARGE;
	if (bs && bs % VBLOCK_UNIT_SMALL == 0)
		return VBLOCK_UNIT_SMALL;
	return 0;
}

static uint8_t stamp_version(const struct vblock_stamp *st)
{
	return st->version ? st->version : VBLOCK_VERSION;
}

static void hdr_encode(uint8_t *p, uint32_t unit_len, uint64_t offset,
		       const struct vblock_stamp *st)
{
	uint8_t version = stamp_version(st);

	le_put64(p + H_MAGIC, VBLOCK_MAGIC);
	le_put64(p + H_OFFSET, offset);
	le_put64(p + H_SEED, st->seed);
	le_put64(p + H_TIME, st->time_ns);
	le_put32(p + H_CRC, 0);
	le_put32(p + H_RUN, st->run_id);
	le_put32(p + H_UNIT, unit_len);
	le_put32(p + H_BLOCK, st->block_len);
	p[H_GEN] = st->gen;
	p[H_VERSION] = version;
	memset(p + H_RESERVED, 0, VBLOCK_HDR_LEN - H_RESERVED);
	if (version >= 2)
		le_put64(p + H_EXTENT, st->extent);
}

void vblock_hdr_decode(const void *unit, struct vblock_hdr *h)
{
	const uint8_t *p = unit;

	h->magic = le_get64(p + H_MAGIC);
	h->offset = le_get64(p + H_OFFSET);
	h->seed = le_get64(p + H_SEED);
	h->time_ns = le_get64(p + H_TIME);
	h->crc = le_get32(p + H_CRC);
	h->run_id = le_get32(p + H_RUN);
	h->unit_len = le_get32(p + H_UNIT);
	h->block_len = le_get32(p + H_BLOCK);
	h->gen = p[H_GEN];
	h->version = p[H_VERSION];
	h->extent = h->version >= 2 ? le_get64(p + H_EXTENT) : 0;
}

uint32_t vblock_unit_crc(const void *unit, uint32_t unit_len)
{
	uint8_t hdr[VBLOCK_HDR_LEN];

	/* the header with its CRC zeroed, then the payload: no copy of the
	 * unit, and the payload keeps the length the fast path likes */
	memcpy(hdr, unit, sizeof(hdr));
	memset(hdr + H_CRC, 0, 4);
	uint32_t c = crc32c(0, hdr, sizeof(hdr));
	return crc32c(c, (const uint8_t *)unit + VBLOCK_HDR_LEN,
		      unit_len - VBLOCK_HDR_LEN);
}

void vblock_fill(void *buf, uint64_t len, uint32_t unit_len, uint64_t offset,
		 const struct vblock_stamp *st)
{
	uint64_t nwords = (unit_len - VBLOCK_HDR_LEN) / 8;

	for (uint64_t pos = 0; pos + unit_len <= len; pos += unit_len) {
		uint8_t *u = (uint8_t *)buf + pos;

		hdr_encode(u, unit_len, offset + pos, st);
		pattern_fill(u + VBLOCK_HDR_LEN, nwords,
			     pattern_key(stamp_version(st), offset + pos,
					 st->gen, st->seed, st->run_id,
					 st->time_ns));
		le_put32(u + H_CRC, vblock_unit_crc(u, unit_len));
	}
}

void vblock_scrub(void *buf, uint64_t len, uint64_t offset, uint64_t salt)
{
	uint64_t pos = (VBLOCK_UNIT_SMALL - offset % VBLOCK_UNIT_SMALL) %
		       VBLOCK_UNIT_SMALL;

	for (; pos + 16 <= len; pos += VBLOCK_UNIT_SMALL) {
		uint8_t *p = (uint8_t *)buf + pos;
		uint64_t at = offset + pos;

		le_put64(p + H_MAGIC, ~at);
		le_put64(p + H_OFFSET, ~at ^ (salt >> 1)); /* never at */
	}
}

/* First byte of the payload that differs from the pattern of key; -1. */
static long payload_diff(const uint8_t *u, uint32_t unit_len, uint64_t key)
{
	uint64_t nwords = (unit_len - VBLOCK_HDR_LEN) / 8;

	for (uint64_t i = 0; i < nwords; i++) {
		uint64_t want = pattern_word(key, i), got;
		const uint8_t *p = u + VBLOCK_HDR_LEN + i * 8;

		memcpy(&got, p, 8);
		if (got == want)
			continue;
		const uint8_t *wb = (const uint8_t *)&want;
		for (int b = 0; b < 8; b++)
			if (p[b] != wb[b])
				return (long)(VBLOCK_HDR_LEN + i * 8 +
					      (uint64_t)b);
	}
	return -1;
}

/* First header byte (the CRC field aside) that differs from a header of
 * offset, gen and seed with the unit's other fields as they are; -1. */
static long header_diff(const uint8_t *u, uint32_t unit_len,
			const struct vblock_hdr *h, uint64_t offset,
			uint8_t gen, uint64_t seed)
{
	struct vblock_stamp st = {
	    .seed = seed,
	    .time_ns = h->time_ns,
	    .run_id = h->run_id,
	    .block_len = h->block_len,
	    .extent = h->extent,
	    .gen = gen,
	    .version = h->version,
	};
	uint8_t want[VBLOCK_HDR_LEN];

	hdr_encode(want, unit_len, offset, &st);
	for (long i = 0; i < VBLOCK_HDR_LEN; i++)
		if ((i < H_CRC || i >= H_CRC + 4) && u[i] != want[i])
			return i;
	return -1;
}

/* Where a unit whose CRC failed first differs from what it should hold.
 * The payload is held against the pattern its header names; when not even
 * its first word matches, the header may be the damaged part, so the
 * pattern of the expected offset (and gen and seed, when known) is tried,
 * and if the payload is that one, the header is compared field by field.
 * -1 when the damage cannot be placed (e.g. in the timestamp). */
static long first_diff(const uint8_t *u, uint32_t unit_len,
		       const struct vblock_hdr *h, const struct vexpect *exp)
{
	uint8_t gen = exp->gen ? exp->gen : h->gen;
	uint64_t seed = exp->match & VEXP_SEED ? exp->seed : h->seed;
	long d = payload_diff(u, unit_len, key_of(h));
	uint64_t want = pattern_key(h->version, exp->offset, gen, seed,
				    h->run_id, h->time_ns);

	if (d == VBLOCK_HDR_LEN && payload_diff(u, unit_len, want) < 0)
		return header_diff(u, unit_len, h, exp->offset, gen, seed);
	if (d >= 0)
		return d;
	return header_diff(u, unit_len, h, exp->offset, gen, seed);
}

/* Was a sector after the header replaced by a later write of its own
 * offset: one without verify (vblock_scrub's mark), or a verifying one
 * with 512-byte units (an intact unit of its own)? */
static bool overwritten(const uint8_t *u, uint32_t unit_len, uint64_t offset)
{
	for (uint32_t s = VBLOCK_UNIT_SMALL; s < unit_len;
	     s += VBLOCK_UNIT_SMALL) {
		const uint8_t *p = u + s;
		if (le_get64(p + H_MAGIC) == ~(offset + s))
			return true;
		if (le_get64(p + H_MAGIC) == VBLOCK_MAGIC &&
		    le_get64(p + H_OFFSET) == offset + s &&
		    le_get32(p + H_UNIT) == VBLOCK_UNIT_SMALL &&
		    le_get32(p + H_CRC) ==
			vblock_unit_crc(p, VBLOCK_UNIT_SMALL))
			return true;
	}
	return false;
}

static enum vkind fail(struct vfailure *f, enum vkind k, const char *why)
{
	f->kind = k;
	f->why = why;
	return k;
}

static bool all_zero(const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

/* Does a unit without magic keep enough of a header to call it damaged?
 * Its offset field must name this unit (random data matches 8 given bytes
 * once in 2^64). Zeros are no such evidence: a hole, a zeroed device or
 * another program's data at offset 0 has a zero "offset" field there, so
 * at offset 0 the unit-length field must name the unit's length too. */
static bool damaged_header(const struct vfailure *f, const struct vexpect *exp)
{
	if (f->found.offset != exp->offset)
		return false;
	return exp->offset != 0 || f->found.unit_len == f->unit_len;
}

/* No magic: a damaged header (see above), else no header at all. An
 * all-zero unit was never written (a hole, a trim, a zeroed device),
 * whatever its offset. */
static enum vkind check_headerless(struct vfailure *f,
				   const struct vexpect *exp)
{
	if (!all_zero(f->data, f->unit_len) && damaged_header(f, exp)) {
		uint64_t magic = htole64(VBLOCK_MAGIC);
		const uint8_t *m = (const uint8_t *)&magic;
		for (int i = 0; i < 8 && f->first_diff < 0; i++)
			if (f->data[H_MAGIC + i] != m[i])
				f->first_diff = H_MAGIC + i;
		return fail(f, VK_CORRUPTED, "damaged magic");
	}
	if (!exp->gen)
		return fail(f, VK_UNVERIFIED, "no iochar header");
	return fail(f, VK_NEVER_WRITTEN, "no iochar header");
}

static enum vkind check_expected(struct vfailure *f, const struct vexpect *exp)
{
	const struct vblock_hdr *h = &f->found;

	if ((exp->match & VEXP_RUN) && h->run_id != exp->run_id)
		return fail(f, VK_STALE, "written by an earlier run");
	if ((exp->match & VEXP_SEED) && h->seed != exp->seed)
		return fail(f, VK_STALE, "written with another seed");
	if (h->gen != exp->gen)
		return fail(f, VK_STALE, "older generation");
	return fail(f, VK_OK, "");
}

enum vkind vunit_check(const void *unit, uint32_t unit_len,
		       const struct vexpect *exp, struct vfailure *f)
{
	struct vfailure scratch;

	if (!f)
		f = &scratch;
	f->offset = exp->offset;
	f->unit_len = unit_len;
	f->expected_gen = exp->gen;
	f->first_diff = -1;
	f->crc = 0;
	f->data = unit;
	vblock_hdr_decode(unit, &f->found);
	f->header = f->found.magic == VBLOCK_MAGIC;
	if (!f->header)
		return check_headerless(f, exp);
	f->crc = vblock_unit_crc(unit, unit_len);
	if (f->found.unit_len != unit_len)
		return fail(f, VK_CORRUPTED, "wrong unit length");
	if (f->crc != f->found.crc) {
		/* only when nothing is expected: over a write this run
		 * made, another write is a failure whatever it was */
		if (!exp->gen && overwritten(unit, unit_len, exp->offset))
			return fail(f, VK_UNVERIFIED,
				    "overwritten in part by a later write");
		f->first_diff = first_diff(unit, unit_len, &f->found, exp);
		return fail(f, VK_CORRUPTED, "bad CRC");
	}
	if (f->found.version < VBLOCK_VERSION_MIN ||
	    f->found.version > VBLOCK_VERSION)
		return fail(f, VK_CORRUPTED,
			    "a block format version this iochar does not know");
	if (f->found.offset != exp->offset)
		return fail(f, VK_MISPLACED, "unit of another offset");
	if (!exp->gen)
		return fail(f, VK_OK, "");
	return check_expected(f, exp);
}

const char *vkind_name(enum vkind k)
{
	switch (k) {
	case VK_OK:
		return "ok";
	case VK_UNVERIFIED:
		return "unverified";
	case VK_CORRUPTED:
		return "corrupted";
	case VK_MISPLACED:
		return "misplaced";
	case VK_STALE:
		return "stale";
	case VK_NEVER_WRITTEN:
		return "never_written";
	}
	return "?";
}

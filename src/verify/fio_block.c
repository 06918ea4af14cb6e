/* fio_block.c - see fio_block.h. */
#include "verify/fio_block.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/le.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

unsigned fio_vhdr_size(enum fio_vtype t)
{
	if (t == FVT_PATTERN_NO_HDR)
		return 0;
	return FIO_HDR_LEN + fio_sum_len(t);
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The pattern repeated from the block's first byte, %o as its offset. */
static void pattern_fill(const struct fio_vcfg *c, uint8_t *buf,
			 uint64_t len, uint64_t block_off)
{
	uint8_t chunk[512];
	uint32_t n = c->pattern_len;

	memcpy(chunk, c->pattern, n);
	for (unsigned i = 0; i < c->nr_fmt; i++) {
		uint8_t le[8];
		le_put64(le, block_off);
		for (unsigned k = 0; k < 8 && c->fmt[i] + k < n; k++)
			chunk[c->fmt[i] + k] = le[k];
	}
	for (uint64_t pos = 0; pos < len; pos += n)
		memcpy(buf + pos, chunk, len - pos < n ? len - pos : n);
}

static void swap_bytes(uint8_t *a, uint8_t *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint8_t t = a[i];
		a[i] = b[i];
		b[i] = t;
	}
}

static void hdr_put(const struct fio_vcfg *c, uint8_t *p, uint64_t off,
		    const struct fio_vstamp *st)
{
	put16(p, FIO_HDR_MAGIC);
	put16(p + 2, (uint16_t)c->type);
	le_put32(p + 4, c->interval);
	le_put64(p + 8, st->rand_seed);
	le_put64(p + 16, off);
	le_put32(p + 24, (uint32_t)(st->time_ns / 1000000000u));
	le_put32(p + 28, (uint32_t)(st->time_ns % 1000000000u));
	put16(p + 32, c->thread);
	put16(p + 34, st->numberio);
	le_put32(p + 36, fio_sum_crc32c(p, FIO_HDR_CRC_OFF));
}

int fio_block_fill(const struct fio_vcfg *c, uint8_t *buf, uint64_t len,
		   uint64_t offset, const struct fio_vstamp *st)
{
	unsigned hs = fio_vhdr_size(c->type);

	if (c->pattern_len) {
		pattern_fill(c, buf, len, offset);
	} else {
		uint64_t s = st->rand_seed;
		for (uint64_t pos = 0; pos + 8 <= len; pos += 8)
			le_put64(buf + pos, splitmix(&s));
	}
	if (c->type == FVT_PATTERN_NO_HDR)
		return 0;
	for (uint64_t pos = 0; pos + c->interval <= len; pos += c->interval) {
		uint8_t *p = buf + pos;
		hdr_put(c, p, offset + pos, st);
		if (fio_sum_len(c->type) &&
		    fio_sum(c->type, p + hs, c->interval - hs, p + FIO_HDR_LEN))
			return -EIO;
		if (c->swap_at)
			swap_bytes(p, p + c->swap_at, hs);
	}
	return 0;
}

static void hex(char *out, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

/* fio's header checks, in its order (verify_header()). */
static int hdr_check(const struct fio_vcfg *c, const uint8_t *p, uint64_t off,
		     struct fio_vfail *f)
{
	uint16_t magic = get16(p);
	uint32_t len = le_get32(p + 4), crc = le_get32(p + 36);
	uint64_t at = le_get64(p + 16);
	uint32_t want_crc = fio_sum_crc32c(p, FIO_HDR_CRC_OFF);

	if (magic != FIO_HDR_MAGIC) {
		snprintf(f->what, sizeof(f->what), "bad magic header");
		snprintf(f->detail, sizeof(f->detail), "%x, wanted %x", magic,
			 FIO_HDR_MAGIC);
	} else if (len != c->interval) {
		snprintf(f->what, sizeof(f->what), "bad header length");
		snprintf(f->detail, sizeof(f->detail), "%u, wanted %u", len,
			 c->interval);
	} else if (at != off) {
		f->misplaced = true;
		snprintf(f->what, sizeof(f->what), "bad header offset");
		snprintf(f->detail, sizeof(f->detail), "%llu, wanted %llu",
			 (unsigned long long)at, (unsigned long long)off);
	} else if (crc != want_crc) {
		snprintf(f->what, sizeof(f->what), "bad header crc");
		snprintf(f->detail, sizeof(f->detail), "%x, calculated %x", crc,
			 want_crc);
	} else {
		return 0;
	}
	return 1;
}

static int pattern_check(const struct fio_vcfg *c, const uint8_t *p,
			 uint64_t off, uint64_t block_off, struct fio_vfail *f)
{
	unsigned hs = fio_vhdr_size(c->type);
	uint8_t want[512];
	uint64_t rel = off - block_off; /* the interval's place in its block */

	pattern_fill(c, want, c->pattern_len, block_off);
	for (uint32_t i = hs; i < c->interval; i++) {
		uint8_t w = want[(rel + i) % c->pattern_len];
		if (p[i] == w)
			continue;
		snprintf(f->what, sizeof(f->what), "pattern");
		snprintf(f->detail, sizeof(f->detail),
			 "got pattern '%02x', wanted '%02x'", p[i], w);
		f->first_diff = (long)i;
		return 1;
	}
	return 0;
}

int fio_interval_check(const struct fio_vcfg *c, uint8_t *p, uint64_t off,
		       uint64_t block_off, struct fio_vfail *f)
{
	unsigned hs = fio_vhdr_size(c->type), n = fio_sum_len(c->type);
	uint8_t sum[FIO_SUM_MAX];

	memset(f, 0, sizeof(*f));
	f->offset = off;
	f->len = c->interval;
	f->first_diff = -1;
	if (c->type == FVT_NULL)
		return 0;
	if (c->swap_at)
		swap_bytes(p, p + c->swap_at, hs);
	if (c->type != FVT_PATTERN_NO_HDR && hdr_check(c, p, off, f))
		return 1;
	if (n) {
		if (fio_sum(c->type, p + hs, c->interval - hs, sum))
			return -EIO;
		if (memcmp(sum, p + FIO_HDR_LEN, n) == 0)
			return 0;
		snprintf(f->what, sizeof(f->what), "%s", fio_sum_name(c->type));
		hex(f->expected, p + FIO_HDR_LEN, n);
		hex(f->got, sum, n);
		return 1;
	}
	if (c->pattern_len)
		return pattern_check(c, p, off, block_off, f);
	return 0;
}

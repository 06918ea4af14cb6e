/* parity.c - P/Q generation and recovery (see parity.h).
 *
 * Q is made by Horner's rule from the highest data index down,
 * Q = (((D[k-1]) * g ^ D[k-2]) * g ^ ...) ^ D0, so only multiplication by
 * g = 2 is needed, done on 8 bytes at once: shift each byte left, and
 * reduce the bytes whose top bit fell out with 0x1d. The word loops have no
 * dependences between iterations, and gcc -O2 (12+) vectorizes them.
 */
#include "vd/parity.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

static uint8_t gf_exp_t[512], gf_log_t[256];
static pthread_once_t gf_once = PTHREAD_ONCE_INIT;

static void gf_build(void)
{
	unsigned x = 1;
	for (unsigned i = 0; i < 255; i++) {
		gf_exp_t[i] = (uint8_t)x;
		gf_log_t[x] = (uint8_t)i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	for (unsigned i = 255; i < 512; i++)
		gf_exp_t[i] = gf_exp_t[i - 255];
}

static void gf_ready(void)
{
	pthread_once(&gf_once, gf_build);
}

uint8_t gf_mul(uint8_t a, uint8_t b)
{
	gf_ready();
	if (!a || !b)
		return 0;
	return gf_exp_t[gf_log_t[a] + gf_log_t[b]];
}

uint8_t gf_exp(unsigned e)
{
	gf_ready();
	return gf_exp_t[e % 255];
}

uint8_t gf_inv(uint8_t a)
{
	gf_ready();
	return gf_exp_t[255 - gf_log_t[a]];
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* 8 bytes at once times g = 2 */
static inline uint64_t mul2_64(uint64_t v)
{
	uint64_t hi = v & 0x8080808080808080ull;
	uint64_t mask = (hi << 1) - (hi >> 7); /* 0xff where the top bit was */
	return ((v << 1) & 0xfefefefefefefefeull) ^ (mask & 0x1d1d1d1d1d1d1d1dull);
}

void parity_xor(void *dst, const void *src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	for (size_t i = 0; i < len; i += 8)
		store64(d + i, load64(d + i) ^ load64(s + i));
}

static void mul_table(uint8_t c, uint8_t t[256])
{
	gf_ready();
	t[0] = 0;
	for (unsigned x = 1; x < 256; x++)
		t[x] = c ? gf_exp_t[gf_log_t[c] + gf_log_t[x]] : 0;
}

void parity_mul_xor(void *dst, const void *src, uint8_t c, size_t len)
{
	uint8_t t[256], *d = dst;
	const uint8_t *s = src;

	if (c == 1) {
		parity_xor(dst, src, len);
		return;
	}
	mul_table(c, t);
	for (size_t i = 0; i < len; i++)
		d[i] ^= t[s[i]];
}

void parity_mul(void *dst, uint8_t c, size_t len)
{
	uint8_t t[256], *d = dst;

	mul_table(c, t);
	for (size_t i = 0; i < len; i++)
		d[i] = t[d[i]];
}

void parity_gen(unsigned k, void *const *data, void *p, void *q, size_t len)
{
	uint8_t *pp = p, *qq = q;

	if (!q) {
		memcpy(pp, data[0], len);
		for (unsigned i = 1; i < k; i++)
			parity_xor(pp, data[i], len);
		return;
	}
	/* one pass per word over all data: P and Q stay in registers */
	for (size_t off = 0; off < len; off += 8) {
		uint64_t d = load64((const uint8_t *)data[k - 1] + off);
		uint64_t pw = d, qw = d;
		for (int i = (int)k - 2; i >= 0; i--) {
			d = load64((const uint8_t *)data[i] + off);
			pw ^= d;
			qw = mul2_64(qw) ^ d;
		}
		store64(pp + off, pw);
		store64(qq + off, qw);
	}
}

/* P or Q of the others, without data index skip1/skip2 (taken as zero). */
static void syndrome_without(unsigned k, void *const *bufs, int skip1,
			     int skip2, uint8_t *p, uint8_t *q, size_t len)
{
	memset(p, 0, len);
	if (q)
		memset(q, 0, len);
	for (int i = (int)k - 1; i >= 0; i--) {
		bool skip = i == skip1 || i == skip2;
		const uint8_t *d = bufs[i];
		for (size_t off = 0; off < len; off += 8) {
			uint64_t dw = skip ? 0 : load64(d + off);
			if (p)
				store64(p + off, load64(p + off) ^ dw);
			if (q)
				store64(q + off, mul2_64(load64(q + off)) ^ dw);
		}
	}
}

int parity_recover(unsigned k, unsigned np, void *const *bufs, int miss1,
		   int miss2, size_t len)
{
	uint8_t **b = (uint8_t **)bufs;
	int P = (int)k, Q = (int)k + 1;

	if (miss1 > miss2) {
		int t = miss1;
		miss1 = miss2;
		miss2 = t;
	}
	if (miss1 < 0) { /* at most one missing: it is miss2 */
		miss1 = miss2;
		miss2 = -1;
	}
	if (miss1 < 0)
		return 0;
	if (miss2 >= 0 && np < 2)
		return -EINVAL;
	if (miss1 >= (int)(k + np) || miss2 >= (int)(k + np))
		return -EINVAL;

	/* parity only: regenerate it */
	if (miss1 >= P) {
		parity_gen(k, bufs, b[P], np == 2 ? b[Q] : NULL, len);
		return 0;
	}
	/* one data strip, P present: XOR of the rest */
	if (miss2 < 0 || miss2 == Q) {
		memcpy(b[miss1], b[P], len);
		for (int i = 0; i < (int)k; i++)
			if (i != miss1)
				parity_xor(b[miss1], b[i], len);
		if (miss2 == Q)
			parity_gen(k, bufs, b[P], b[Q], len);
		return 0;
	}
	/* one data strip x and P: Dx = (Q ^ Qx) * g^-x, Qx = Q without Dx */
	if (miss2 == P) {
		int x = miss1;
		memset(b[x], 0, len);
		syndrome_without(k, bufs, x, -1, b[P], b[x], len); /* b[x] = Qx */
		parity_xor(b[x], b[Q], len);
		parity_mul(b[x], gf_inv(gf_exp((unsigned)x)), len);
		parity_gen(k, bufs, b[P], NULL, len);
		return 0;
	}
	/* two data strips x < y: with Pxy = P ^ P', Qxy = Q ^ Q' (P', Q' of
	 * the others), Dx = A*Pxy ^ B*Qxy where A = g^(y-x) / (g^(y-x) ^ 1)
	 * and B = g^-x / (g^(y-x) ^ 1); then Dy = Pxy ^ Dx. */
	int x = miss1, y = miss2;
	syndrome_without(k, bufs, x, y, b[x], b[y], len);
	parity_xor(b[x], b[P], len);              /* Pxy */
	parity_xor(b[y], b[Q], len);              /* Qxy */
	uint8_t gyx = gf_exp((unsigned)(y - x));
	uint8_t denom = gf_inv(gyx ^ 1);
	uint8_t A = gf_mul(gyx, denom);
	uint8_t B = gf_mul(gf_inv(gf_exp((unsigned)x)), denom);
	uint8_t ta[256], tb[256];
	mul_table(A, ta);
	mul_table(B, tb);
	for (size_t i = 0; i < len; i++) {
		uint8_t pxy = b[x][i], qxy = b[y][i];
		uint8_t dx = ta[pxy] ^ tb[qxy];
		b[x][i] = dx;
		b[y][i] = pxy ^ dx;
	}
	return 0;
}

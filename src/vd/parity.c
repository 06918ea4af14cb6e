/* parity.c - P/Q generation and recovery (see parity.h).
 *
 * Q is made by Horner's rule from the highest data index down,
 * Q = (((D[k-1]) * g ^ D[k-2]) * g ^ ...) ^ D0, so only multiplication by
 * g = 2 is needed, done on many bytes at once: shift each byte left, and
 * reduce the bytes whose top bit fell out with 0x1d. Multiplying by any
 * other constant c is the XOR of c's bits' doublings (at most 8 steps of
 * the same trick). gcc 12 at -O2 vectorizes none of these loops by itself
 * (checked with -fopt-info-vec), so they are written on 16-byte vectors
 * (GCC/clang vector extensions: SSE2 on x86-64, NEON on arm64) with a
 * 64-bit word loop for a tail. Where the CPU has SSSE3, multiplying by a
 * constant uses two 16-entry tables (low and high nibble) and PSHUFB, 16
 * bytes per lookup, chosen at run time.
 */
#include "vd/parity.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

static uint8_t gf_exp_t[512], gf_log_t[256];
static pthread_once_t gf_once = PTHREAD_ONCE_INIT;
static bool have_ssse3;

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
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	have_ssse3 = __builtin_cpu_supports("ssse3");
#endif
}

static void gf_ready(void)
{
	pthread_once(&gf_once, gf_build);
}

void parity_use_simd(bool on)
{
	gf_ready();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	have_ssse3 = on && __builtin_cpu_supports("ssse3");
#else
	(void)on;
#endif
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

typedef uint64_t vec __attribute__((vector_size(16)));
#define VEC_BYTES 16

static inline vec loadv(const uint8_t *p)
{
	vec v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void storev(uint8_t *p, vec v)
{
	memcpy(p, &v, sizeof(v));
}

/* 8 bytes at once times g = 2 */
static inline uint64_t mul2_64(uint64_t v)
{
	uint64_t hi = v & 0x8080808080808080ull;
	uint64_t mask = (hi << 1) - (hi >> 7); /* 0xff where the top bit was */
	return ((v << 1) & 0xfefefefefefefefeull) ^ (mask & 0x1d1d1d1d1d1d1d1dull);
}

/* 16 bytes at once times g = 2 (the same, per 64-bit lane) */
static inline vec mul2_v(vec v)
{
	const vec top = {0x8080808080808080ull, 0x8080808080808080ull};
	const vec keep = {0xfefefefefefefefeull, 0xfefefefefefefefeull};
	const vec poly = {0x1d1d1d1d1d1d1d1dull, 0x1d1d1d1d1d1d1d1dull};
	vec hi = v & top;
	vec mask = (hi << 1) - (hi >> 7);
	return ((v << 1) & keep) ^ (mask & poly);
}

/* c * v, c given as its bits */
static inline vec mulc_v(vec v, uint8_t c)
{
	vec acc = {0, 0};
	for (; c; c >>= 1, v = mul2_v(v))
		if (c & 1)
			acc ^= v;
	return acc;
}

static inline uint64_t mulc_64(uint64_t v, uint8_t c)
{
	uint64_t acc = 0;
	for (; c; c >>= 1, v = mul2_64(v))
		if (c & 1)
			acc ^= v;
	return acc;
}

/* c * x for x = 0..15 and x = 0x00, 0x10 .. 0xf0 */
static void nibble_tables(uint8_t c, uint8_t lo[16], uint8_t hi[16])
{
	for (unsigned n = 0; n < 16; n++) {
		lo[n] = c && n ? gf_exp_t[gf_log_t[c] + gf_log_t[n]] : 0;
		hi[n] = c && n ? gf_exp_t[gf_log_t[c] + gf_log_t[n << 4]] : 0;
	}
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_SSSE3_PATH 1

__attribute__((target("ssse3"))) static inline __m128i
mulc_pshufb(__m128i v, __m128i tl, __m128i th)
{
	const __m128i nib = _mm_set1_epi8(0x0f);
	__m128i l = _mm_and_si128(v, nib);
	__m128i h = _mm_and_si128(_mm_srli_epi64(v, 4), nib);
	return _mm_xor_si128(_mm_shuffle_epi8(tl, l), _mm_shuffle_epi8(th, h));
}

/* dst = c * src (xor_into: dst ^= c * src) over the whole 16-byte part;
 * returns the bytes done */
__attribute__((target("ssse3"))) static size_t
mulc_ssse3(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len, bool xor_into)
{
	uint8_t lo[16], hi[16];
	nibble_tables(c, lo, hi);
	__m128i tl = _mm_loadu_si128((const __m128i *)lo);
	__m128i th = _mm_loadu_si128((const __m128i *)hi);
	size_t i = 0;
	for (; i + 16 <= len; i += 16) {
		__m128i r = mulc_pshufb(_mm_loadu_si128((const __m128i *)(src + i)), tl, th);
		if (xor_into)
			r = _mm_xor_si128(r, _mm_loadu_si128((const __m128i *)(dst + i)));
		_mm_storeu_si128((__m128i *)(dst + i), r);
	}
	return i;
}

/* RAID 6 two-data recovery step: dx = A*pxy ^ B*qxy, dy = pxy ^ dx */
__attribute__((target("ssse3"))) static size_t
recover2_ssse3(uint8_t *bx, uint8_t *by, uint8_t a, uint8_t b, size_t len)
{
	uint8_t alo[16], ahi[16], blo[16], bhi[16];
	nibble_tables(a, alo, ahi);
	nibble_tables(b, blo, bhi);
	__m128i atl = _mm_loadu_si128((const __m128i *)alo);
	__m128i ath = _mm_loadu_si128((const __m128i *)ahi);
	__m128i btl = _mm_loadu_si128((const __m128i *)blo);
	__m128i bth = _mm_loadu_si128((const __m128i *)bhi);
	size_t i = 0;
	for (; i + 16 <= len; i += 16) {
		__m128i pxy = _mm_loadu_si128((const __m128i *)(bx + i));
		__m128i qxy = _mm_loadu_si128((const __m128i *)(by + i));
		__m128i dx = _mm_xor_si128(mulc_pshufb(pxy, atl, ath), mulc_pshufb(qxy, btl, bth));
		_mm_storeu_si128((__m128i *)(bx + i), dx);
		_mm_storeu_si128((__m128i *)(by + i), _mm_xor_si128(pxy, dx));
	}
	return i;
}
#endif

void parity_xor(void *dst, const void *src, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0;
	for (; i + VEC_BYTES <= len; i += VEC_BYTES)
		storev(d + i, loadv(d + i) ^ loadv(s + i));
	for (; i < len; i += 8)
		store64(d + i, load64(d + i) ^ load64(s + i));
}

void parity_mul_xor(void *dst, const void *src, uint8_t c, size_t len)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0;

	if (c == 1) {
		parity_xor(dst, src, len);
		return;
	}
	gf_ready();
#ifdef HAVE_SSSE3_PATH
	if (have_ssse3)
		i = mulc_ssse3(d, s, c, len, true);
#endif
	for (; i + VEC_BYTES <= len; i += VEC_BYTES)
		storev(d + i, loadv(d + i) ^ mulc_v(loadv(s + i), c));
	for (; i < len; i += 8)
		store64(d + i, load64(d + i) ^ mulc_64(load64(s + i), c));
}

void parity_mul(void *dst, uint8_t c, size_t len)
{
	uint8_t *d = dst;
	size_t i = 0;

	gf_ready();
#ifdef HAVE_SSSE3_PATH
	if (have_ssse3)
		i = mulc_ssse3(d, d, c, len, false);
#endif
	for (; i + VEC_BYTES <= len; i += VEC_BYTES)
		storev(d + i, mulc_v(loadv(d + i), c));
	for (; i < len; i += 8)
		store64(d + i, mulc_64(load64(d + i), c));
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
	/* one pass per vector over all data: P and Q stay in registers */
	size_t off = 0;
	for (; off + VEC_BYTES <= len; off += VEC_BYTES) {
		vec d = loadv((const uint8_t *)data[k - 1] + off);
		vec pw = d, qw = d;
		for (int i = (int)k - 2; i >= 0; i--) {
			d = loadv((const uint8_t *)data[i] + off);
			pw ^= d;
			qw = mul2_v(qw) ^ d;
		}
		storev(pp + off, pw);
		storev(qq + off, qw);
	}
	for (; off < len; off += 8) {
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

/* P and Q (either may be NULL) of the others, data indexes skip1 and
 * skip2 taken as zero; p and q may be the skipped indexes' own buffers. */
static void syndrome_without(unsigned k, void *const *bufs, int skip1,
			     int skip2, uint8_t *p, uint8_t *q, size_t len)
{
	size_t off = 0;
	for (; off + VEC_BYTES <= len; off += VEC_BYTES) {
		vec pw = {0, 0}, qw = {0, 0};
		for (int i = (int)k - 1; i >= 0; i--) {
			vec d = {0, 0};
			if (i != skip1 && i != skip2)
				d = loadv((const uint8_t *)bufs[i] + off);
			pw ^= d;
			qw = mul2_v(qw) ^ d;
		}
		if (p)
			storev(p + off, pw);
		if (q)
			storev(q + off, qw);
	}
	for (; off < len; off += 8) {
		uint64_t pw = 0, qw = 0;
		for (int i = (int)k - 1; i >= 0; i--) {
			uint64_t d = i != skip1 && i != skip2 ?
					     load64((const uint8_t *)bufs[i] + off) : 0;
			pw ^= d;
			qw = mul2_64(qw) ^ d;
		}
		if (p)
			store64(p + off, pw);
		if (q)
			store64(q + off, qw);
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
		syndrome_without(k, bufs, x, -1, NULL, b[x], len); /* b[x] = Qx */
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
	size_t i = 0;
#ifdef HAVE_SSSE3_PATH
	if (have_ssse3)
		i = recover2_ssse3(b[x], b[y], A, B, len);
#endif
	for (; i + VEC_BYTES <= len; i += VEC_BYTES) {
		vec pxy = loadv(b[x] + i), qxy = loadv(b[y] + i);
		vec dx = mulc_v(pxy, A) ^ mulc_v(qxy, B);
		storev(b[x] + i, dx);
		storev(b[y] + i, pxy ^ dx);
	}
	for (; i < len; i += 8) {
		uint64_t pxy = load64(b[x] + i), qxy = load64(b[y] + i);
		uint64_t dx = mulc_64(pxy, A) ^ mulc_64(qxy, B);
		store64(b[x] + i, dx);
		store64(b[y] + i, pxy ^ dx);
	}
	return 0;
}

/* test_vd_parity.c - RAID 5/6 parity against a direct reference.
 *
 * The reference multiplies in GF(2^8) bit by bit (shift and add, reduce by
 * 0x11d) and forms Q = sum g^i * Di term by term, independent of the
 * tables and word tricks in vd/parity.c. Random stripes of several widths
 * and lengths; every one and two lost buffers of a row are rebuilt; with
 * the SSSE3 path (where the CPU has it) and with the portable code.
 */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "vd/parity.h"

static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	unsigned r = 0, x = a;
	for (int i = 0; i < 8; i++) {
		if (b & (1u << i))
			r ^= x;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	return (uint8_t)r;
}

static uint8_t ref_pow2(unsigned e)
{
	uint8_t v = 1;
	while (e--)
		v = ref_mul(v, 2);
	return v;
}

static void fill(struct rng *r, uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, 8);
	}
}

static void test_gf(void **state)
{
	(void)state;
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b += 7)
			assert_int_equal(gf_mul((uint8_t)a, (uint8_t)b), ref_mul((uint8_t)a, (uint8_t)b));
	for (unsigned a = 1; a < 256; a++)
		assert_int_equal(ref_mul((uint8_t)a, gf_inv((uint8_t)a)), 1);
	for (unsigned e = 0; e < 300; e++)
		assert_int_equal(gf_exp(e), ref_pow2(e % 255));
}

static void test_pq_reference(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 42);
	for (unsigned k = 1; k <= 20; k += (k < 4 ? 1 : 5)) {
		size_t len = 8 * (1 + rng_next(&r) % 600);
		uint8_t *d[24], *p = malloc(len), *q = malloc(len);
		uint8_t *rp = calloc(1, len), *rq = calloc(1, len);
		for (unsigned i = 0; i < k; i++) {
			d[i] = malloc(len);
			fill(&r, d[i], len);
		}
		parity_gen(k, (void *const *)d, p, q, len);
		for (size_t b = 0; b < len; b++)
			for (unsigned i = 0; i < k; i++) {
				rp[b] ^= d[i][b];
				rq[b] ^= ref_mul(ref_pow2(i), d[i][b]);
			}
		assert_memory_equal(p, rp, len);
		assert_memory_equal(q, rq, len);
		/* P alone is the same XOR */
		memset(p, 0xAA, len);
		parity_gen(k, (void *const *)d, p, NULL, len);
		assert_memory_equal(p, rp, len);
		/* mul_xor against the reference */
		uint8_t c = (uint8_t)rng_next(&r);
		memcpy(rp, rq, len);
		parity_mul_xor(rp, d[0], c, len);
		for (size_t b = 0; b < len; b++)
			rq[b] ^= ref_mul(c, d[0][b]);
		assert_memory_equal(rp, rq, len);
		for (unsigned i = 0; i < k; i++)
			free(d[i]);
		free(p), free(q), free(rp), free(rq);
	}
}

/* every single and double loss of a row of k data + np parity */
static void check_recovery(unsigned k, unsigned np, size_t len, uint64_t seed)
{
	struct rng r;
	unsigned w = k + np;
	uint8_t *orig[24], *work[24];

	rng_seed(&r, seed);
	for (unsigned j = 0; j < w; j++) {
		orig[j] = malloc(len);
		work[j] = malloc(len);
		if (j < k)
			fill(&r, orig[j], len);
	}
	parity_gen(k, (void *const *)orig, orig[k], np == 2 ? orig[k + 1] : NULL, len);
	for (int a = -1; a < (int)w; a++) {
		for (int b = a + 1; b < (int)w; b++) {
			if (a >= 0 && np < 2)
				continue;
			for (unsigned j = 0; j < w; j++)
				memcpy(work[j], orig[j], len);
			if (a >= 0)
				memset(work[a], 0x5a, len);
			memset(work[b], 0xa5, len);
			assert_int_equal(parity_recover(k, np, (void *const *)work, a, b, len), 0);
			for (unsigned j = 0; j < w; j++)
				assert_memory_equal(work[j], orig[j], len);
		}
	}
	for (unsigned j = 0; j < w; j++) {
		free(orig[j]);
		free(work[j]);
	}
}

static void test_recover_raid5(void **state)
{
	(void)state;
	for (unsigned k = 2; k <= 9; k++)
		check_recovery(k, 1, 4096, k);
}

static void test_recover_raid6(void **state)
{
	(void)state;
	for (unsigned k = 2; k <= 12; k += 1)
		check_recovery(k, 2, 1024 + 8 * k, 100 + k);
}

static void test_recover_too_many(void **state)
{
	(void)state;
	uint8_t b[4][64] = {{0}};
	void *bufs[4] = {b[0], b[1], b[2], b[3]};
	assert_int_equal(parity_recover(3, 1, bufs, 0, 1, 64), -22);
}

/* the same checks on the portable vector code (no SSSE3 path) */
static int generic_on(void **state)
{
	(void)state;
	parity_use_simd(false);
	return 0;
}

static int generic_off(void **state)
{
	(void)state;
	parity_use_simd(true);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gf),
		cmocka_unit_test(test_pq_reference),
		cmocka_unit_test(test_recover_raid5),
		cmocka_unit_test(test_recover_raid6),
		cmocka_unit_test(test_recover_too_many),
		cmocka_unit_test_setup_teardown(test_pq_reference, generic_on, generic_off),
		cmocka_unit_test_setup_teardown(test_recover_raid6, generic_on, generic_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

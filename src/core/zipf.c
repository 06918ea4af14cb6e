/* zipf.c - see zipf.h. */
#include "core/zipf.h"

#include <math.h>

/* zeta(n, theta) = sum_{i=1..n} i^-theta. Summed exactly for the first
 * ZIPF_EXACT_TERMS terms; the tail is the integral of x^-theta, whose error is
 * below the size of the first omitted term (< 1e-7 relative at 10M terms). */
static double zeta(uint64_t n, double theta)
{
	uint64_t m = n < ZIPF_EXACT_TERMS ? n : ZIPF_EXACT_TERMS;
	double sum = 0;
	for (uint64_t i = 1; i <= m; i++)
		sum += pow((double)i, -theta);
	if (n > m) {
		double e = 1.0 - theta;
		/* integral from m+0.5 to n+0.5 (midpoint rule) */
		sum += (pow(n + 0.5, e) - pow(m + 0.5, e)) / e;
	}
	return sum;
}

void zipf_init(struct zipf *z, uint64_t n, double theta, uint64_t seed)
{
	z->n = n ? n : 1;
	z->theta = theta;
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zeta(z->n, theta);
	double zeta2 = zeta(2, theta);
	z->eta = (1.0 - pow(2.0 / (double)z->n, 1.0 - theta)) /
		 (1.0 - zeta2 / z->zetan);
	z->half_pow_theta = pow(0.5, theta);

	zipf_init_perm(z, z->n, seed);
}

void zipf_init_perm(struct zipf *z, uint64_t n, uint64_t seed)
{
	z->n = n ? n : 1;
	/* permutation: an affine map modulo the next power of two >= n, walked
	 * until it lands below n (fewer than 2 steps on average) */
	uint64_t mask = 1;
	while (mask < z->n)
		mask <<= 1;
	z->perm_mask = mask - 1;
	struct rng r;
	rng_seed(&r, seed ^ 0x5a17f00dull);
	z->perm_mul = (rng_next(&r) | 1) & z->perm_mask; /* odd: invertible */
	if (z->perm_mul == 0)
		z->perm_mul = 1;
	z->perm_add = rng_next(&r) & z->perm_mask;
}

uint64_t zipf_rank(const struct zipf *z, struct rng *r)
{
	if (z->n == 1)
		return 0;
	double u = rng_unit(r);
	double uz = u * z->zetan;
	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + z->half_pow_theta)
		return 1;
	double v = (double)z->n * pow(z->eta * u - z->eta + 1.0, z->alpha);
	uint64_t rank = (uint64_t)v;
	return rank < z->n ? rank : z->n - 1;
}

uint64_t zipf_permute(const struct zipf *z, uint64_t rank)
{
	uint64_t x = rank;
	do
		x = (x * z->perm_mul + z->perm_add) & z->perm_mask;
	while (x >= z->n);
	return x;
}

/* zipf.h - Zipf-distributed block numbers, for hot-spot workloads
 * (random_distribution=zipf:THETA, as in fio).
 *
 * Ranks follow Gray et al., "Quickly generating billion-record synthetic
 * databases" (SIGMOD '94), the method fio uses. Rank 0 is the hottest. The
 * rank is then put through a fixed permutation of [0, n) so the hot blocks
 * are spread over the region instead of packed at its start, while the size
 * of every hot set stays exact (unlike hashing modulo n, which merges some
 * blocks and leaves others unreachable).
 */
#ifndef IOCHAR_CORE_ZIPF_H
#define IOCHAR_CORE_ZIPF_H

#include <stdint.h>

#include "util/rng.h"

struct zipf {
	uint64_t n;
	double theta, alpha, zetan, eta, half_pow_theta;
	uint64_t perm_mask, perm_mul, perm_add;
};

/* Prepare for n items (n >= 1) with skew theta (> 0, != 1). Costs at most
 * ZIPF_EXACT_TERMS additions; the rest of zeta(n) is integrated. */
void zipf_init(struct zipf *z, uint64_t n, double theta, uint64_t seed);

/* Only the permutation of [0, n) (zipf_permute), for the other skewed
 * distributions (core/distribution.h). */
void zipf_init_perm(struct zipf *z, uint64_t n, uint64_t seed);

/* The rank drawn, before permutation: 0 .. n-1, 0 most frequent. */
uint64_t zipf_rank(const struct zipf *z, struct rng *r);

/* The block for a rank: a permutation of [0, n). */
uint64_t zipf_permute(const struct zipf *z, uint64_t rank);

static inline uint64_t zipf_next(const struct zipf *z, struct rng *r)
{
	return zipf_permute(z, zipf_rank(z, r));
}

#define ZIPF_EXACT_TERMS 10000000ull

#endif

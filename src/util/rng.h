/* rng.h - xoshiro256** pseudo-random numbers: fast, small state, and the
 * same sequence for the same seed on every machine, so runs are repeatable.
 * One per worker; not thread-safe. */
#ifndef IOCHAR_UTIL_RNG_H
#define IOCHAR_UTIL_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Seed the four state words from one 64-bit seed with splitmix64. */
static inline void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		r->s[i] = z ^ (z >> 31);
	}
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias < n / 2^64). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif

/* fio_rand.h - fio's own random numbers where iochar must draw what fio
 * draws (lib/rand.h's taus88, init.c's setup_random_seeds): the same job
 * and seed give the same numbers as fio 3.33: the 32-bit generator (fio's
 * default random_generator=tausworthe, and lfsr's for all but offsets)
 * and tausworthe64's taus258. Header only; no state outside the caller's
 * struct. */
#ifndef IOCHAR_UTIL_FIO_RAND_H
#define IOCHAR_UTIL_FIO_RAND_H

#include <stdint.h>

/* fio's FIO_RAND_*_OFF: which of a job's seeds a generator takes. */
enum fio_seed_slot {
	FIO_SEED_BLOCK = 6,     /* FIO_RAND_BLOCK_OFF: random_generator=lfsr */
	FIO_SEED_FILE_SIZE = 7, /* FIO_RAND_FILE_SIZE_OFF: filesize=LOW-HIGH */
};

struct fio_taus88 {
	uint32_t s1, s2, s3;
};

static inline uint32_t fio_taus88_next(struct fio_taus88 *t)
{
#define FIO_TAUS(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))
	t->s1 = FIO_TAUS(t->s1, 13, 19, 4294967294u, 12);
	t->s2 = FIO_TAUS(t->s2, 2, 25, 4294967288u, 4);
	t->s3 = FIO_TAUS(t->s3, 3, 11, 4294967280u, 17);
#undef FIO_TAUS
	return t->s1 ^ t->s2 ^ t->s3;
}

/* fio's __init_rand32: the seed truncated to 32 bits, an LCG, six cranks.
 * (fio writes the LCG's start as (2^31) + (2^17) + (2^7): C's xor, 53.) */
static inline void fio_taus88_seed(struct fio_taus88 *t, uint64_t seed64)
{
	uint32_t seed = (uint32_t)seed64;
	uint32_t x = 53u * 69069u ^ seed;

	t->s1 = x < 1 ? x + 1 : x;
	x = t->s1 * 69069u ^ seed;
	t->s2 = x < 7 ? x + 7 : x;
	x = t->s2 * 69069u ^ seed;
	t->s3 = x < 15 ? x + 15 : x;
	for (int i = 0; i < 6; i++)
		fio_taus88_next(t);
}

struct fio_taus258 {
	uint64_t s[5];
};

/* fio's __rand64. */
static inline uint64_t fio_taus258_next(struct fio_taus258 *t)
{
	static const struct {
		int a, b, d;
		uint64_t c;
	} k[5] = {
		{1, 53, 10, 18446744073709551614ull},
		{24, 50, 5, 18446744073709551104ull},
		{3, 23, 29, 18446744073709547520ull},
		{5, 24, 23, 18446744073709420544ull},
		{3, 33, 8, 18446744073701163008ull},
	};
	uint64_t r = 0;

	for (int i = 0; i < 5; i++) {
		uint64_t x = ((t->s[i] << k[i].a) ^ t->s[i]) >> k[i].b;
		t->s[i] = ((t->s[i] & k[i].c) << k[i].d) ^ x;
		r ^= t->s[i];
	}
	return r;
}

/* fio's __init_rand64: a 64-bit LCG from 53 (as above), six cranks. */
static inline void fio_taus258_seed(struct fio_taus258 *t, uint64_t seed)
{
	static const uint64_t min[5] = {1, 7, 15, 33, 49};
	uint64_t x = 53;

	for (int i = 0; i < 5; i++) {
		x = x * 6906969069ull ^ seed;
		t->s[i] = x < min[i] ? x + min[i] : x;
		x = t->s[i];
	}
	for (int i = 0; i < 6; i++)
		fio_taus258_next(t);
}

/* fio's FIO_RANDSEED: a random job's block-offset seed with randrepeat=1
 * is it times thread_number (init.c td_fill_rand_seeds_internal). */
#define FIO_RANDSEED_REPEAT 0xb1899bedull

/* fio's setup_random_seeds with randrepeat=1 or randseed= given: the seed
 * of slot for the job's thread_number (1-based, over all jobs and clones
 * in order). */
static inline uint64_t fio_job_seed(uint64_t randseed, unsigned thread_number,
				    unsigned slot)
{
	uint64_t seed = randseed;

	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ull;
	for (unsigned i = 0; i < slot; i++)
		seed *= 0x9e370001ull;
	return seed * thread_number + slot;
}

#endif

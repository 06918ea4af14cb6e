/* lfsr.h - fio's random_generator=lfsr: a maximal-length linear feedback
 * shift register over a file's blocks, so a pass draws every block once
 * and only once, in fio 3.33's order (lib/lfsr.c with spin 0): the
 * smallest register wider than the block count, its taps from the usual
 * table of maximal polynomials, an XNOR step, values past the last block
 * skipped, the register's first value two steps from the seed and every
 * other one step (a new pass too).
 * Seeded as fio seeds it (the job's FIO_RAND_BLOCK_OFF seed), the same
 * job draws the same blocks as fio. No allocation. */
#ifndef IOCHAR_CORE_LFSR_H
#define IOCHAR_CORE_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct lfsr {
	uint64_t state;
	uint64_t last;	   /* the largest block: blocks - 1 */
	uint64_t xormask;
	uint64_t top_bit;  /* the register's top bit */
	uint64_t drawn;	   /* values this pass */
	bool first;	   /* the register's first value takes two steps */
};

/* A register for blocks (>= 1) from seed. false when fio's would not
 * start either: no register that wide, or the seed's low bits all ones
 * (the XNOR register's locked state). */
bool lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed);

/* A new pass from seed, as fio resets a file's register. */
bool lfsr_reset(struct lfsr *l, uint64_t seed);

/* The next block into *b; false once the pass has drawn every block. */
bool lfsr_next(struct lfsr *l, uint64_t *b);

#endif

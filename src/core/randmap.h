/* randmap.h - which blocks of a region a random job has already touched:
 * fio's random map (lib/axmap.c), so that without norandommap every block
 * is hit exactly once per pass, in random order.
 *
 * A bitmap with summary levels above it (a bit set one level up: the 64
 * bits under it are all set), so finding the next free block after a busy
 * one costs a few word scans per level, not a walk over the region.
 */
#ifndef IOCHAR_CORE_RANDMAP_H
#define IOCHAR_CORE_RANDMAP_H

#include <stdbool.h>
#include <stdint.h>

#define RANDMAP_LEVELS 8 /* 64^8 blocks: more than any device holds */

struct randmap {
	uint64_t nblocks;
	uint64_t used;               /* bits set at level 0 */
	unsigned nlevels;
	uint64_t *level[RANDMAP_LEVELS]; /* [0]: one bit per block; owned */
	uint64_t words[RANDMAP_LEVELS];
};

/* Prepare a map of nblocks (>= 1) free blocks. 0 or -ENOMEM. */
int randmap_init(struct randmap *m, uint64_t nblocks);

/* Release the map's memory; m may be NULL or zeroed. */
void randmap_free(struct randmap *m);

/* Every block free again (a new pass). */
void randmap_reset(struct randmap *m);

/* Is block b (< nblocks) free? */
bool randmap_free_at(const struct randmap *m, uint64_t b);

/* The first free block at b or after it, wrapping to the start (as fio's
 * axmap_next_free); UINT64_MAX when every block is used. */
uint64_t randmap_next_free(const struct randmap *m, uint64_t b);

/* Mark up to nr blocks from b used, stopping at the first one already
 * used or at the end of the map. Returns how many were marked (0 when b
 * itself is used), as fio's axmap_set_nr. */
uint64_t randmap_set_nr(struct randmap *m, uint64_t b, uint64_t nr);

#endif

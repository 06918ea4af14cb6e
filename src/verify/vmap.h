/* vmap.h - the generation map of a verifying job: one byte per block.
 *
 * A block is one bs-sized slot of the job's region in one file. Its byte
 * holds the generation of the last write of this run that completed
 * (1..255, wrapping from 255 to 1), or 0 when this run has not written it:
 * a read of such a block cannot be checked. A bitmap beside it marks the
 * blocks with an I/O in flight, so that no two I/Os to one block overlap
 * (see docs/output.md). Owned by one worker thread; no locking.
 */
#ifndef IOCHAR_VERIFY_VMAP_H
#define IOCHAR_VERIFY_VMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vmap {
	uint8_t *gen;	  /* [file * nblocks + block]; owned */
	uint64_t *busy;	  /* one bit per entry of gen; owned */
	uint64_t nblocks; /* blocks per file */
	unsigned nr_files;
};

/* Allocate a map of nr_files x nblocks blocks, all 0 and idle. Returns 0,
 * -ENOMEM, or -EOVERFLOW when it cannot be addressed. */
int vmap_init(struct vmap *m, unsigned nr_files, uint64_t nblocks);

/* Release what vmap_init allocated; m may be NULL. */
void vmap_free(struct vmap *m);

/* The generation after g: 1..255, then 1 again (0 means "never"). */
static inline uint8_t vgen_next(uint8_t g)
{
	return g == 255 ? 1 : (uint8_t)(g + 1);
}

/* Index of block `block` of file `file` (both in range). */
static inline size_t vmap_index(const struct vmap *m, unsigned file,
				uint64_t block)
{
	return (size_t)file * (size_t)m->nblocks + (size_t)block;
}

static inline bool vmap_busy(const struct vmap *m, size_t i)
{
	return m->busy[i / 64] & (1ull << (i % 64));
}

static inline void vmap_set_busy(struct vmap *m, size_t i, bool busy)
{
	if (busy)
		m->busy[i / 64] |= 1ull << (i % 64);
	else
		m->busy[i / 64] &= ~(1ull << (i % 64));
}

#endif

/* blocksize.h - the size of each I/O, per direction, as fio chooses it:
 * bs=R,W, bsrange=a-b (a uniform draw from min + [0, max), aligned down
 * to min and capped at max, as fio's get_next_buflen), bssplit (sizes by
 * weight, the first that fits the room left, walked in ascending order
 * of share as fio's), bs_unaligned. The draws are fio's own: its
 * bsrange_state generator (taus88, or taus258 for tausworthe64) and its
 * arithmetic, so seeded as fio seeds it (gen_seed_as_fio) a job's sizes
 * are fio's, I/O for I/O.
 */
#ifndef IOCHAR_CORE_BLOCKSIZE_H
#define IOCHAR_CORE_BLOCKSIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "util/fio_rand.h"

struct gen_bs {
	uint64_t min, max;
	uint64_t align;            /* random offsets: multiples of this */
	struct job_split split;    /* nr 0: none; a copy (the job may go), by share */
	bool unaligned;
};

/* The sizes direction dir of spec issues (b keeps no pointer to spec). */
void gen_bs_setup(struct gen_bs *b, const struct job_spec *spec,
		  enum io_dir dir);

/* The largest I/O spec can issue in any direction: buffers are this big. */
uint64_t gen_bs_max(const struct job_spec *spec);

/* The smallest I/O spec issues in direction dir. */
uint64_t gen_bs_min(const struct job_spec *spec, enum io_dir dir);

/* Does spec issue I/Os of more than one size? */
bool gen_bs_varies(const struct job_spec *spec);

/* The first size or alignment spec can issue that is not a multiple of
 * align (every bs, bsrange bound, bssplit size, blockalign,
 * offset_increment), or 0 when all are. bs_unaligned sizes can be
 * anything: 1 then (not a multiple of anything above 1). */
uint64_t gen_bs_misaligned(const struct job_spec *spec, uint64_t align);

/* One direction's size generator (fio's td->bsrange_state[ddir]). */
struct bs_rng {
	bool use64;
	struct fio_taus88 t32;
	struct fio_taus258 t64;
};

void bs_rng_seed(struct bs_rng *r, uint64_t seed, bool use64);

/* The size of the next I/O with room bytes before the region's end: 0
 * when not even b->min fits (the pass is over). */
uint64_t gen_bs_next(const struct gen_bs *b, struct bs_rng *r, uint64_t room);

#endif

/* generator.h - the next logical I/O of a job: which file, where, which way.
 *
 * Offsets are aligned to bs inside [offset, offset + region) of each file,
 * where region = size / nr_files rounded down to bs. Files are used round
 * robin (fio's default file_service_type). Sequential modes keep one cursor
 * per file and direction and, without time_based, cover each block of the
 * region exactly once per direction; random modes draw blocks uniformly or
 * from a Zipf distribution. Mixed modes choose reads with probability
 * rwmixread %. Without time_based the job ends after size / bs I/Os (as in
 * fio); with it the generator never ends.
 */
#ifndef IOCHAR_CORE_GENERATOR_H
#define IOCHAR_CORE_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "core/zipf.h"
#include "util/rng.h"

struct gen_op {
	unsigned file;
	enum io_dir dir;
	uint64_t offset;
	uint64_t len;
};

struct generator {
	enum rw_mode rw;
	unsigned rwmixread;
	uint64_t bs;
	uint64_t base;          /* first byte of the region in each file */
	uint64_t nblocks;       /* blocks of bs per file region */
	unsigned nr_files;
	unsigned next_file;
	uint64_t *cursor;       /* [file * 2 + dir]: next sequential block; owned */
	uint64_t issued;
	uint64_t limit;         /* I/Os before the job ends; UINT64_MAX = never */
	bool zipf_on;
	struct zipf zipf;
	struct rng rng;
};

/* Prepare for job spec (files, size per file region already resolved into
 * region_bytes, the usable bytes per file after offset). seed makes each
 * worker's stream distinct yet repeatable. Returns 0, -ENOMEM, or -EINVAL
 * when the region holds no whole block. */
int gen_init(struct generator *g, const struct job_spec *spec,
	     uint64_t region_bytes, uint64_t seed);

/* Release what gen_init allocated; g may be NULL. */
void gen_free(struct generator *g);

/* Fill op with the next I/O. Returns true, or false once the job has issued
 * all it should (never with time_based). */
static inline bool gen_next(struct generator *g, struct gen_op *op);

/* Implementation detail of gen_next, not for callers. */
uint64_t gen_pick_block(struct generator *g, unsigned file, enum io_dir dir);

static inline bool gen_next(struct generator *g, struct gen_op *op)
{
	if (g->issued >= g->limit)
		return false;
	g->issued++;

	unsigned file = g->next_file;
	if (++g->next_file == g->nr_files)
		g->next_file = 0;

	enum io_dir dir;
	if (rw_is_mixed(g->rw))
		dir = rng_below(&g->rng, 100) < g->rwmixread ? DIR_READ : DIR_WRITE;
	else
		dir = rw_writes(g->rw) ? DIR_WRITE : DIR_READ;

	op->file = file;
	op->dir = dir;
	op->len = g->bs;
	op->offset = g->base + gen_pick_block(g, file, dir) * g->bs;
	return true;
}

#endif

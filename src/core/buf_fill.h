/* buf_fill.h - the contents of a job's write buffers with fio's
 * buffer_compress_percentage and dedupe_* options (fio's fill_io_buffer,
 * dedupe.c): each write gets a fresh block made from one 64-bit seed, so
 * a block repeated is the same seed again.
 *   - compress: each chunk (buffer_compress_chunk) is (100 - N) % random
 *     bytes, then zeros, as fio's fill_random_buf_percentage.
 *   - dedupe: N % of the blocks repeat one: the last unique block
 *     (repeat), or one of the first dedupe_working_set_percentage of
 *     size / bs unique blocks of the job's sequence (working_set), with
 *     dedupe_global of the sequences of every worker of the run, in
 *     turn, as fio's init_dedupe_working_set_seeds spreads them.
 * Without any of these options the worker keeps its one random fill. */
#ifndef IOCHAR_CORE_BUF_FILL_H
#define IOCHAR_CORE_BUF_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/job.h"
#include "util/rng.h"

struct buf_fill {
	unsigned compress_pct, dedupe_pct;
	uint64_t chunk;
	bool working_set, global;
	uint64_t base;        /* seeds of every worker's sequence */
	unsigned thread, nr_threads; /* 0-based worker; the run's workers */
	uint64_t ws_pages;    /* working set: unique blocks repeated */
	uint64_t next;        /* the next unique block of the sequence */
	uint64_t last_seed;   /* repeat: the last unique block's */
	struct rng decide;
};

/* Does job j need its write buffers refilled for each write? */
bool buf_fill_wanted(const struct job_spec *j);

/* Set f up for worker thread (0-based) of nr_threads, writing job j
 * whose size (bytes per file, or the region when size= is a share) is
 * size. */
void buf_fill_init(struct buf_fill *f, const struct job_spec *j,
		   unsigned thread, unsigned nr_threads, uint64_t size);

/* Fill buf[0..len) with the next block. */
void buf_fill_next(struct buf_fill *f, void *buf, size_t len);

#endif

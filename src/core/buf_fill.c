/* buf_fill.c - fio's compressible and deduplicable write buffers
 * (buf_fill.h). */
#include "core/buf_fill.h"

#include <string.h>

bool buf_fill_wanted(const struct job_spec *j)
{
	return j->compress_pct || j->dedupe_pct;
}

void buf_fill_init(struct buf_fill *f, const struct job_spec *j,
		   unsigned thread, unsigned nr_threads, uint64_t size)
{
	uint64_t bs = j->bs_range[DIR_WRITE][0] ? j->bs_range[DIR_WRITE][0]
						: j->bs_dir[DIR_WRITE];
	if (!bs)
		bs = j->bs;
	*f = (struct buf_fill){
		.compress_pct = j->compress_pct, .dedupe_pct = j->dedupe_pct,
		.chunk = j->compress_chunk ? j->compress_chunk : 512,
		.working_set = j->dedupe_mode == DEDUPE_WORKING_SET,
		.global = j->dedupe_global,
		.base = j->randseed ^ 0xdede9e5eedull,
		.thread = thread, .nr_threads = nr_threads ? nr_threads : 1,
	};
	f->ws_pages = bs ? size * j->dedupe_ws_pct / 100 / bs : 0;
	if (!f->ws_pages)
		f->ws_pages = 1;
	rng_seed(&f->decide, f->base ^ (0x5bd1e995ull * (thread + 1)));
}

/* The seed of block i of worker t's sequence of unique blocks. */
static uint64_t block_seed(const struct buf_fill *f, unsigned t, uint64_t i)
{
	struct rng r;
	rng_seed(&r, f->base + 0x9e3779b97f4a7c15ull * (t + 1) + (i << 20));
	return rng_next(&r) ^ i;
}

/* Which block of the working set is repeated: fio's pages_per_seed
 * blocks from each worker in turn, from this one's on, when global. */
static uint64_t working_set_seed(struct buf_fill *f)
{
	uint64_t idx = rng_below(&f->decide, f->ws_pages);
	if (!f->global)
		return block_seed(f, f->thread, idx);
	uint64_t per = f->ws_pages / f->nr_threads ? f->ws_pages / f->nr_threads : 1;
	unsigned t = (unsigned)((f->thread + idx / per) % f->nr_threads);
	return block_seed(f, t, idx % per);
}

static uint64_t pick_seed(struct buf_fill *f)
{
	bool dup = f->dedupe_pct &&
		   1 + rng_below(&f->decide, 100) <= f->dedupe_pct &&
		   (f->working_set || f->next);
	if (dup)
		return f->working_set ? working_set_seed(f) : f->last_seed;
	f->last_seed = block_seed(f, f->thread, f->next++);
	return f->last_seed;
}

/* One chunk: (100 - compress) % random words from seed, then zeros. */
static void fill_chunk(uint64_t seed, unsigned compress, char *p, size_t len)
{
	size_t rnd = compress >= 100 ? 0 : len * (100 - compress) / 100;
	struct rng r;
	rng_seed(&r, seed);
	size_t i = 0;
	for (; i + 8 <= rnd; i += 8) {
		uint64_t v = rng_next(&r);
		memcpy(p + i, &v, 8);
	}
	if (i < rnd) {
		uint64_t v = rng_next(&r);
		memcpy(p + i, &v, rnd - i);
	}
	memset(p + rnd, 0, len - rnd);
}

void buf_fill_next(struct buf_fill *f, void *buf, size_t len)
{
	uint64_t seed = pick_seed(f);
	char *p = buf;
	for (uint64_t k = 0; len; k++) {
		size_t n = len < f->chunk ? len : (size_t)f->chunk;
		fill_chunk(seed + 0x632be59bd9b4e019ull * k, f->compress_pct, p, n);
		p += n;
		len -= n;
	}
}

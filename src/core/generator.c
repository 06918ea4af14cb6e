/* generator.c - see generator.h. */
#include "core/generator.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int gen_init(struct generator *g, const struct job_spec *spec,
	     uint64_t region_bytes, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	if (spec->bs == 0 || region_bytes < spec->bs)
		return -EINVAL;
	g->rw = spec->rw;
	g->rwmixread = spec->rwmixread;
	g->bs = spec->bs;
	g->base = spec->offset;
	g->nblocks = region_bytes / spec->bs;
	g->nr_files = spec->nr_files ? spec->nr_files : 1;
	g->limit = spec->time_based ? UINT64_MAX : g->nblocks * g->nr_files;
	rng_seed(&g->rng, seed);
	g->cursor = calloc((size_t)g->nr_files * DIR_COUNT, sizeof(*g->cursor));
	if (!g->cursor)
		return -ENOMEM;
	if (rw_is_random(spec->rw) && spec->dist == DIST_ZIPF) {
		g->zipf_on = true;
		zipf_init(&g->zipf, g->nblocks, spec->zipf_theta, seed);
	}
	return 0;
}

void gen_free(struct generator *g)
{
	if (!g)
		return;
	free(g->cursor);
	g->cursor = NULL;
}

uint64_t gen_pick_block(struct generator *g, unsigned file, enum io_dir dir)
{
	if (rw_is_random(g->rw)) {
		if (g->zipf_on)
			return zipf_next(&g->zipf, &g->rng);
		return rng_below(&g->rng, g->nblocks);
	}
	uint64_t *c = &g->cursor[file * DIR_COUNT + dir];
	uint64_t block = *c;
	if (++*c == g->nblocks)
		*c = 0; /* wrap: only reached with time_based, or in mixed modes */
	return block;
}

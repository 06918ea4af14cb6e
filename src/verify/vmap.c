/* vmap.c - see vmap.h. */
#include "verify/vmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int vmap_init(struct vmap *m, unsigned nr_files, uint64_t nblocks)
{
	memset(m, 0, sizeof(*m));
	if (nr_files == 0 || nblocks == 0 || nblocks > SIZE_MAX / nr_files)
		return -EOVERFLOW;
	size_t n = (size_t)nblocks * nr_files;
	/* calloc of large sizes maps zero pages: only touched blocks cost */
	m->gen = calloc(n, 1);
	m->busy = calloc(n / 64 + 1, sizeof(*m->busy));
	if (!m->gen || !m->busy) {
		vmap_free(m);
		return -ENOMEM;
	}
	m->nblocks = nblocks;
	m->nr_files = nr_files;
	return 0;
}

void vmap_free(struct vmap *m)
{
	if (!m)
		return;
	free(m->gen);
	free(m->busy);
	memset(m, 0, sizeof(*m));
}

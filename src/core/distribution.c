/* distribution.c - see distribution.h. */
#include "core/distribution.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define GAUSS_ITERS 12 /* fio's: enough uniform terms for a bell */

/* Zones in blocks: percent of the region (zoned) or bytes (zoned_abs). */
static int zones_init(struct gen_dist *d, const struct job_split *s,
		      bool abs, uint64_t align, uint64_t region_bytes)
{
	uint64_t first = 0;
	unsigned cum = 0;

	d->nzones = s->nr;
	for (unsigned i = 0; i < s->nr; i++) {
		struct gen_zone *z = &d->zones[i];
		uint64_t nr = abs ? s->val[i] / align : d->n * s->val[i] / 100;
		if (abs && (first + nr) * align > region_bytes)
			return -EINVAL;
		cum += s->perc[i];
		z->cum_perc = cum;
		z->first = first;
		z->nr = nr ? nr : 1;
		if (z->first + z->nr > d->n)
			z->nr = d->n > z->first ? d->n - z->first : 1;
		if (z->first >= d->n)
			z->first = d->n - 1;
		first += nr;
	}
	return 0;
}

int gen_dist_init(struct gen_dist *d, const struct job_spec *spec,
		  enum io_dir dir, uint64_t n, uint64_t align,
		  uint64_t region_bytes, uint64_t seed)
{
	memset(d, 0, sizeof(*d));
	d->kind = spec->dist;
	d->n = n ? n : 1;
	switch (d->kind) {
	case DIST_UNIFORM:
		return 0;
	case DIST_ZIPF:
		zipf_init(&d->zipf, d->n, spec->zipf_theta, seed);
		return 0;
	case DIST_PARETO:
		d->pareto_pow = log(spec->dist_param) / log(1.0 - spec->dist_param);
		break;
	case DIST_NORMAL:
		d->gauss_dev = (uint64_t)ceil((double)d->n * spec->dist_param / 100.0);
		if (d->gauss_dev > d->n / 2)
			d->gauss_dev = d->n / 2;
		break;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return zones_init(d, &spec->zones[dir], d->kind == DIST_ZONED_ABS,
				  align, region_bytes);
	}
	zipf_init_perm(&d->zipf, d->n, seed);
	return 0;
}

static uint64_t gauss_next(const struct gen_dist *d, struct rng *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < GAUSS_ITERS; i++)
		sum += rng_below(r, d->n + 1);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (d->gauss_dev) {
		int64_t dev = (int64_t)rng_below(r, d->gauss_dev) -
			      (int64_t)(d->gauss_dev / 2);
		/* fio halves the deviation until the block is in range */
		for (int i = 0; i < 64 && (int64_t)sum + dev >= (int64_t)d->n; i++)
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum < d->n ? sum : d->n - 1;
}

static uint64_t zoned_next(const struct gen_dist *d, struct rng *r)
{
	unsigned v = (unsigned)rng_below(r, 100);

	for (unsigned i = 0; i < d->nzones; i++)
		if (v < d->zones[i].cum_perc)
			return d->zones[i].first + rng_below(r, d->zones[i].nr);
	return rng_below(r, d->n); /* shares short of 100%: anywhere */
}

uint64_t gen_dist_next(const struct gen_dist *d, struct rng *r)
{
	switch (d->kind) {
	case DIST_ZIPF:
		return zipf_next(&d->zipf, r);
	case DIST_PARETO: {
		uint64_t v = (uint64_t)((double)(d->n - 1) *
					pow(rng_unit(r), d->pareto_pow));
		return zipf_permute(&d->zipf, v < d->n ? v : d->n - 1);
	}
	case DIST_NORMAL:
		return zipf_permute(&d->zipf, gauss_next(d, r));
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		return zoned_next(d, r);
	case DIST_UNIFORM:
		break;
	}
	return rng_below(r, d->n);
}

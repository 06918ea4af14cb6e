/* distribution.h - where random I/Os go when they are not uniform:
 * fio's pareto:h, normal:sigma% (its gauss: a sum of 12 uniform draws,
 * a normal-like bell around the middle of the region, sigma in percent
 * of it), zoned:A/B:... (A% of the accesses to the next B% of the region)
 * and zoned_abs:A/SIZE:... (to the next SIZE bytes). Zipf is core/zipf.h.
 * Hot blocks of pareto and normal are spread over the region by a fixed
 * permutation, as fio spreads them by hashing (fio's exact sequences are
 * not reproduced).
 */
#ifndef IOCHAR_CORE_DISTRIBUTION_H
#define IOCHAR_CORE_DISTRIBUTION_H

#include <stdint.h>

#include "base/job.h"
#include "core/zipf.h"
#include "util/rng.h"

struct gen_zone {
	unsigned cum_perc;   /* accesses up to and including this zone */
	uint64_t first, nr;  /* blocks of the zone */
};

struct gen_dist {
	enum rand_dist kind;
	uint64_t n;          /* blocks */
	struct zipf zipf;    /* zipf; its permutation serves pareto and normal */
	double pareto_pow;
	uint64_t gauss_dev;  /* normal: spread in blocks */
	unsigned nzones;
	struct gen_zone zones[JOB_SPLIT_MAX];
};

/* Prepare kind over n blocks of align bytes (zones of spec's direction
 * dir). Returns 0, or -EINVAL when a zoned_abs zone lies past the region
 * (region_bytes), as fio refuses it. */
int gen_dist_init(struct gen_dist *d, const struct job_spec *spec,
		  enum io_dir dir, uint64_t n, uint64_t align,
		  uint64_t region_bytes, uint64_t seed);

/* The next block, 0 .. n-1 (DIST_UNIFORM: uniform). */
uint64_t gen_dist_next(const struct gen_dist *d, struct rng *r);

#endif

/* blocksize.c - see blocksize.h. */
#include "core/blocksize.h"

/* A job of trims places them as writes (core/generator.c), in
 * bs=R,W,T's T when given; so does randtrimwrite, whose write copies the
 * trim (fio 3.33: the same offset and T bytes). trimwrite's sequential
 * writes part from its trims in fio (W bytes each): refused when T is
 * not W (core/validate.c). */
static uint64_t dir_bs(const struct job_spec *spec, enum io_dir dir)
{
	if (dir == DIR_WRITE && spec->bs_trim && rw_trims(spec->rw) &&
	    spec->rw != RW_TRIMWRITE)
		return spec->bs_trim;
	return spec->bs_dir[dir] ? spec->bs_dir[dir] : spec->bs;
}

/* Entries in ascending order of share, equal shares as given: fio sorts
 * its bssplit so, and a drawn size that does not fit falls to the next
 * entry in that order (split_pick). */
static void sort_by_share(struct job_split *s)
{
	for (unsigned i = 1; i < s->nr && i < JOB_SPLIT_MAX; i++) {
		unsigned p = s->perc[i];
		uint64_t v = s->val[i];
		unsigned j = i;
		for (; j > 0 && s->perc[j - 1] > p; j--) {
			s->perc[j] = s->perc[j - 1];
			s->val[j] = s->val[j - 1];
		}
		s->perc[j] = p;
		s->val[j] = v;
	}
}

void gen_bs_setup(struct gen_bs *b, const struct job_spec *spec,
		  enum io_dir dir)
{
	const struct job_split *s = &spec->bssplit[dir];

	b->min = b->max = dir_bs(spec, dir);
	b->split.nr = 0;
	if (s->nr) {
		b->split = *s;
		sort_by_share(&b->split);
		b->min = UINT64_MAX;
		b->max = 0;
		for (unsigned i = 0; i < s->nr; i++) {
			if (s->val[i] < b->min)
				b->min = s->val[i];
			if (s->val[i] > b->max)
				b->max = s->val[i];
		}
	} else if (spec->bs_range[dir][0]) {
		b->min = spec->bs_range[dir][0];
		b->max = spec->bs_range[dir][1];
	}
	b->align = spec->blockalign[dir] ? spec->blockalign[dir] : b->min;
	b->unaligned = spec->bs_unaligned;
}

uint64_t gen_bs_min(const struct job_spec *spec, enum io_dir dir)
{
	struct gen_bs b;

	gen_bs_setup(&b, spec, dir);
	return b.min;
}

uint64_t gen_bs_max(const struct job_spec *spec)
{
	uint64_t max = 0;

	for (int d = 0; d < DIR_COUNT; d++) {
		struct gen_bs b;
		gen_bs_setup(&b, spec, (enum io_dir)d);
		if (b.max > max)
			max = b.max;
	}
	return max;
}

bool gen_bs_varies(const struct job_spec *spec)
{
	struct gen_bs r, w;

	gen_bs_setup(&r, spec, DIR_READ);
	gen_bs_setup(&w, spec, DIR_WRITE);
	return r.min != r.max || w.min != w.max || r.min != w.min;
}

void bs_rng_seed(struct bs_rng *r, uint64_t seed, bool use64)
{
	r->use64 = use64;
	if (use64)
		fio_taus258_seed(&r->t64, seed);
	else
		fio_taus88_seed(&r->t32, seed);
}

static uint64_t bs_draw(struct bs_rng *r)
{
	return r->use64 ? fio_taus258_next(&r->t64) : fio_taus88_next(&r->t32);
}

static uint64_t bs_rand_max(const struct bs_rng *r)
{
	return r->use64 ? UINT64_MAX : UINT32_MAX;
}

/* One draw of bssplit: the first entry whose cumulative weight covers the
 * draw and that fits; weights are out of 100, as fio's (r / cum <=
 * max / 100: past every weight, the last entry). */
static uint64_t split_pick(const struct job_split *s, const struct bs_rng *rs,
			   uint64_t r, uint64_t room)
{
	uint64_t cum = 0;
	uint64_t len = 0;

	for (unsigned i = 0; i < s->nr; i++) {
		if (!s->perc[i])
			continue;
		len = s->val[i];
		cum += s->perc[i];
		if (r / cum <= bs_rand_max(rs) / 100 && len <= room)
			break;
	}
	return len;
}

uint64_t gen_bs_next(const struct gen_bs *b, struct bs_rng *r, uint64_t room)
{
	if (b->min == b->max)
		return b->min <= room ? b->min : 0;
	if (b->min > room)
		return 0;
	/* bounded: min always fits, and a draw below room is likely */
	for (int tries = 0; tries < 1000; tries++) {
		uint64_t len, v = bs_draw(r);
		if (b->split.nr)
			len = split_pick(&b->split, r, v, room);
		else /* fio's double arithmetic */
			len = b->min + (uint64_t)((double)b->max *
						  ((double)v / ((double)bs_rand_max(r) + 1.0)));
		if (!b->unaligned)
			len -= len % b->min;
		if (len > b->max)
			len = b->max;
		if (len && len <= room)
			return len;
	}
	return b->min;
}

uint64_t gen_bs_misaligned(const struct job_spec *spec, uint64_t align)
{
	if (align <= 1)
		return 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct job_split *sp = &spec->bssplit[d];
		uint64_t v[] = {dir_bs(spec, (enum io_dir)d), spec->bs_range[d][0],
				spec->bs_range[d][1], spec->blockalign[d],
				spec->offset_increment};
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			if (v[i] % align)
				return v[i];
		for (unsigned i = 0; i < sp->nr && i < JOB_SPLIT_MAX; i++)
			if (sp->val[i] % align)
				return sp->val[i];
	}
	return spec->bs_unaligned && gen_bs_varies(spec) ? 1 : 0;
}

/* generator.c - see generator.h. */
#include "core/generator.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Trims are placed and sized as writes (the job's second bs value:
 * iochar keeps no third), then issued as DIR_TRIM. */
static bool places_writes(enum rw_mode rw)
{
	return rw_writes(rw) || rw_trims(rw);
}

/* Random blocks of a direction: the smallest I/O must fit after the last
 * one, as fio's last_block. */
static uint64_t rand_blocks(const struct gen_bs *b, uint64_t region)
{
	uint64_t max = region;

	if (b->min > b->align)
		max -= b->min - b->align < max ? b->min - b->align : max;
	return max / b->align;
}

/* fio turns its map off for blockalign and skewed distributions. */
static bool want_map(const struct job_spec *spec, const struct generator *g)
{
	if (!rw_is_random(spec->rw) || spec->norandommap ||
	    spec->dist != DIST_UNIFORM || spec->random_generator == GEN_LFSR)
		return false;
	for (int d = 0; d < DIR_COUNT; d++)
		if (g->bs[d].align != g->bs[d].min)
			return false;
	return true;
}

/* Regions of their own and a skewed distribution: each file's spans its
 * own blocks, as fio's per-file zipf/pareto/gauss and zoned by io_size. */
static int setup_file_dists(struct generator *g, const struct job_spec *spec,
			    uint64_t seed)
{
	if (!g->per_file || spec->dist == DIST_UNIFORM)
		return 0;
	for (unsigned i = 0; i < g->nr_files; i++) {
		struct gen_file *f = &g->files[i];
		f->dist = calloc(DIR_COUNT, sizeof(*f->dist));
		if (!f->dist)
			return -ENOMEM;
		for (int d = 0; d < DIR_COUNT; d++) {
			if (!(d == DIR_READ ? rw_reads(spec->rw) : places_writes(spec->rw)))
				continue;
			uint64_t n = rand_blocks(&g->bs[d], f->region);
			int ret = n ? gen_dist_init(&f->dist[d], spec, (enum io_dir)d, n,
						    g->bs[d].align, f->region,
						    seed + d + 2ull * (i + 1))
				    : -EINVAL;
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int setup_random(struct generator *g, const struct job_spec *spec,
			uint64_t seed)
{
	if (!rw_is_random(spec->rw))
		return 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		/* only the directions the job issues: zipf's set-up sums
		 * up to ZIPF_EXACT_TERMS powers */
		if (!(d == DIR_READ ? rw_reads(spec->rw) : places_writes(spec->rw)))
			continue;
		uint64_t n = rand_blocks(&g->bs[d], g->region);
		if (n == 0)
			return -EINVAL;
		int ret = gen_dist_init(&g->dist[d], spec, (enum io_dir)d, n,
					g->bs[d].align, g->region, seed + d);
		if (ret)
			return ret;
	}
	int ret = setup_file_dists(g, spec, seed);
	g->map_on = want_map(spec, g);
	if (ret || !g->map_on)
		return ret;
	g->map_unit = g->bs[DIR_READ].min < g->bs[DIR_WRITE].min
			      ? g->bs[DIR_READ].min
			      : g->bs[DIR_WRITE].min;
	g->map_shift = -1;
	if ((g->map_unit & (g->map_unit - 1)) == 0)
		g->map_shift = __builtin_ctzll(g->map_unit);
	/* strided zones: fio's map covers one zone's range (init_random_map) */
	for (unsigned i = 0; i < g->nr_files; i++)
		if (randmap_init(&g->files[i].map,
				 (g->zone_size ? g->zone_range : g->files[i].region) /
				     g->map_unit))
			return -ENOMEM;
	return 0;
}

static void setup_limits(struct generator *g, const struct job_spec *spec)
{
	uint64_t regions = 0;

	for (unsigned i = 0; i < g->nr_files; i++)
		regions += g->files[i].region;

	/* loops: fio's passes, each io_size (default: the regions) again */
	uint64_t passes = spec->loops > 1 ? spec->loops : 1;

	g->limit_ios = spec->number_ios ? spec->number_ios : UINT64_MAX;
	g->limit_bytes = (spec->io_size ? spec->io_size : regions) * passes;
	g->loop = spec->time_based || g->limit_bytes > regions;
	if (spec->time_based) { /* fio: only the clock stops it */
		g->limit_ios = UINT64_MAX;
		g->limit_bytes = UINT64_MAX;
	}
}

/* The files' state: each region its own (regions) or region_bytes, and
 * each file's share of the file service (its region's smallest I/Os). */
static int setup_files(struct generator *g, const struct job_spec *spec,
		       const uint64_t *regions)
{
	const struct gen_bs *fb = &g->bs[places_writes(spec->rw) && !rw_is_mixed(spec->rw)
					       ? DIR_WRITE : DIR_READ];

	/* a file is done after its region's worth of the smallest I/O */
	file_service_init(&g->fsvc, spec, g->region / fb->min);
	g->files = calloc(g->nr_files, sizeof(*g->files));
	if (!g->files)
		return -ENOMEM;
	for (unsigned i = 0; i < g->nr_files; i++) {
		struct gen_file *f = &g->files[i];
		f->base = spec->offset + g->clone_off;
		f->end = UINT64_MAX;
		f->region = regions && regions[i] ? regions[i] : g->region;
		if (f->region > g->region || f->region < fb->min)
			return -EINVAL;
		g->per_file |= f->region != g->region;
		/* fio: a random job without its map never ends a file by its
		 * blocks, only the job's io_size ends it (the files then take
		 * turns as long as the job runs, whatever their sizes) */
		if (!rw_is_random(spec->rw) || want_map(spec, g))
			file_service_set_share(&g->fsvc, i, f->region / fb->min);
	}
	return 0;
}

int gen_init(struct generator *g, const struct job_spec *spec,
	     uint64_t region_bytes, unsigned clone, uint64_t seed)
{
	return gen_init_files(g, spec, region_bytes, NULL, clone, seed);
}

int gen_init_files(struct generator *g, const struct job_spec *spec,
		   uint64_t region_bytes, const uint64_t *regions,
		   unsigned clone, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->rw = spec->rw;
	g->rwmixread = spec->rwmixread;
	g->clone_off = (uint64_t)clone * spec->offset_increment;
	g->offset_pct = spec->offset_pct;
	g->region = region_bytes;
	g->nr_files = spec->nr_files ? spec->nr_files : 1;
	for (int d = 0; d < DIR_COUNT; d++) {
		gen_bs_setup(&g->bs[d], spec, (enum io_dir)d);
		g->perc_seq[d] = spec->percentage_seq[d] <= 100
					 ? spec->percentage_seq[d]
					 : 100;
	}
	if (g->bs[DIR_READ].min == 0 || g->bs[DIR_WRITE].min == 0)
		return -EINVAL;
	if (region_bytes < g->bs[places_writes(spec->rw) && !rw_is_mixed(spec->rw)
					 ? DIR_WRITE
					 : DIR_READ].min)
		return -EINVAL;
	g->bs_is_seq_rand = spec->bs_is_seq_rand;
	g->seq_nr = spec->rw_seq_nr;
	g->seq_left = 1;
	g->sequencer = spec->rw_sequencer;
	g->hole = spec->rw_hole;
	int ret = setup_files(g, spec, regions);
	if (ret)
		return ret;
	setup_limits(g, spec);
	/* fio: with more than one file, no zones (core/validate.c refuses
	 * the rest that iochar does not stride) */
	if (spec->zonemode == ZONE_MODE_STRIDED && spec->zonesize &&
	    g->nr_files == 1) {
		g->zone_size = spec->zonesize;
		g->zone_range = spec->zonerange ? spec->zonerange : spec->zonesize;
		g->zone_skip = spec->zoneskip;
	}
	if (spec->randrepeat_off) { /* fio: a different sequence each run */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed ^= (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	rng_seed(&g->rng, seed);
	for (int d = 0; d < DIR_COUNT; d++)
		bs_rng_seed(&g->rng_bs[d], seed ^ (0xb5b5b5b5ull + (uint64_t)d),
			    spec->random_generator == GEN_TAUSWORTHE64);
	rng_seed(&g->rng_mix, seed ^ 0x3c3c3c3cull);
	g->pct_align = gen_bs_min(spec, DIR_READ) < gen_bs_min(spec, DIR_WRITE)
			       ? gen_bs_min(spec, DIR_READ)
			       : gen_bs_min(spec, DIR_WRITE);
	return setup_random(g, spec, seed);
}

/* pct % of size, rounded up to align (fio's offset=N%). */
static uint64_t pct_offset(unsigned pct, uint64_t align, uint64_t size)
{
	uint64_t off = (uint64_t)((unsigned __int128)size * pct / 100);

	return align ? (off + align - 1) / align * align : off;
}

uint64_t gen_file_offset(const struct job_spec *spec, uint64_t file_size)
{
	uint64_t a = gen_bs_min(spec, DIR_READ), b = gen_bs_min(spec, DIR_WRITE);

	if (!spec->offset_pct)
		return spec->offset;
	return pct_offset(spec->offset_pct, a < b ? a : b, file_size);
}

void gen_set_file_size(struct generator *g, unsigned file, uint64_t size)
{
	if (file >= g->nr_files)
		return;
	struct gen_file *f = &g->files[file];
	if (g->offset_pct)
		f->base = pct_offset(g->offset_pct, g->pct_align, size) + g->clone_off;
	f->end = size > f->base ? size - f->base : 0;
}

void gen_free(struct generator *g)
{
	if (!g)
		return;
	for (unsigned i = 0; g->files && i < g->nr_files; i++) {
		randmap_free(&g->files[i].map);
		free(g->files[i].dist);
	}
	free(g->files);
	g->files = NULL;
}

/* The next sequential offset in f for dir: where the last I/O ended, plus
 * the hole (fio: not before the first I/O). */
static uint64_t seq_pos(const struct generator *g, const struct gen_file *f,
			enum io_dir dir)
{
	uint64_t pos = f->last_pos[dir];

	/* fio wraps a hole to the start only past the file's end; at the
	 * region's end the pass is over (place). Backwards, before the
	 * start: from the end again, as fio */
	if (pos && g->hole > 0) {
		pos += (uint64_t)g->hole;
		if (pos >= f->end)
			pos = 0;
	} else if (pos && g->hole < 0) {
		uint64_t back = (uint64_t)-g->hole;
		uint64_t end = f->end < f->region ? f->end : f->region;
		pos = pos >= back ? pos - back : end >= back ? end - back : 0;
	}
	return pos;
}

/* x / map_unit: a shift for the usual power of two (a 64-bit division
 * costs as much as the rest of an I/O's choice). */
static inline uint64_t in_units(const struct generator *g, uint64_t x)
{
	return g->map_shift >= 0 ? x >> g->map_shift : x / g->map_unit;
}

/* fio's lfsr: the file's next block; a pass that has drawn them all
 * starts again from the seed when the job loops. fio ends the file when
 * the block is no place for this direction's I/O (bs=4k,16k). */
static bool lfsr_pos(struct generator *g, struct gen_file *f, enum io_dir dir,
		     uint64_t *pos)
{
	uint64_t b;

	if (!lfsr_next(&f->lfsr, &b) &&
	    (!g->loop || !lfsr_reset(&f->lfsr, g->lfsr_seed) ||
	     !lfsr_next(&f->lfsr, &b)))
		return false;
	if (b * g->bs[dir].align + g->bs[dir].min > f->region)
		return false;
	*pos = b * g->bs[dir].align;
	return true;
}

void gen_seed_as_fio(struct generator *g, const struct job_spec *spec,
		     unsigned thread)
{
	bool use64 = spec->random_generator == GEN_TAUSWORTHE64;
	uint64_t s[DIR_COUNT];

	for (int d = 0; d < DIR_COUNT; d++)
		s[d] = spec->allrandrepeat
			       ? FIO_RANDSEED_REPEAT * thread + (unsigned)d
			       : fio_job_seed(spec->randseed, thread, (unsigned)d);
	if (spec->verify || spec->verify_type) /* fio: reads check writes */
		s[DIR_WRITE] = s[DIR_READ];
	if (spec->randrepeat_off && spec->randseed == 0x89 && !spec->allrandrepeat)
		return; /* fio: the system's RNG; iochar's seed has the clock */
	for (int d = 0; d < DIR_COUNT; d++)
		bs_rng_seed(&g->rng_bs[d], s[d], use64);
	/* fio's FIO_RAND_FILE_OFF: the random file service's */
	enum { FILE_SLOT = 5 };
	file_service_seed_as_fio(&g->fsvc,
				 spec->allrandrepeat
					 ? FIO_RANDSEED_REPEAT * thread + FILE_SLOT
					 : fio_job_seed(spec->randseed, thread, FILE_SLOT),
				 use64);
}

int gen_start_lfsr(struct generator *g, const struct job_spec *spec,
		   uint64_t fio_seed)
{
	uint64_t unit = g->bs[DIR_READ].min < g->bs[DIR_WRITE].min
				? g->bs[DIR_READ].min
				: g->bs[DIR_WRITE].min;

	if (spec->random_generator != GEN_LFSR || !rw_is_random(spec->rw) ||
	    spec->dist != DIST_UNIFORM)
		return 0;
	g->lfsr_on = true;
	g->lfsr_seed = fio_seed;
	for (unsigned i = 0; i < g->nr_files; i++) {
		struct gen_file *f = &g->files[i];
		uint64_t span = g->zone_size ? g->zone_range : f->region;
		if (!lfsr_init(&f->lfsr, span / unit, fio_seed))
			return -EINVAL;
		file_service_set_share(&g->fsvc, i, f->region / unit);
	}
	return 0;
}

/* A random offset for dir, off the random map when it is on. false: the
 * map is full, or (as fio) its next free block is no place for this
 * direction's I/O, and the job does not loop. fio indexes its map with
 * the block number in the direction's own units (bs=4k,16k: a write's
 * block b is bit b of a map of 4k units) and ends the file when that
 * lands past the region: the same here, so such jobs stop where fio's do. */
static bool rand_pos(struct generator *g, struct gen_file *f, enum io_dir dir,
		     uint64_t *pos)
{
	if (g->lfsr_on)
		return lfsr_pos(g, f, dir, pos);
	/* a file of its own size: uniform over its own blocks, as fio's
	 * offsets are drawn up to the file's last block */
	uint64_t blk = f->dist ? gen_dist_next(&f->dist[dir], &g->rng)
		       : g->per_file && f->region != g->region
			       ? rng_below(&g->rng, rand_blocks(&g->bs[dir], f->region))
			       : gen_dist_next(&g->dist[dir], &g->rng);
	uint64_t p = blk * g->bs[dir].align;

	if (g->map_on) {
		uint64_t b = blk;
		if (!randmap_free_at(&f->map, b))
			b = randmap_next_free(&f->map, b);
		if (b != UINT64_MAX &&
		    b * g->bs[dir].align > f->region - g->bs[dir].min)
			b = UINT64_MAX;
		if (b == UINT64_MAX) {
			if (!g->loop)
				return false;
			randmap_reset(&f->map); /* a new pass */
			b = blk;
		}
		p = b * g->bs[dir].align;
	}
	*pos = p;
	return true;
}

/* Is this I/O a "hit" of rw=MODE:N (a new offset every N I/Os, counted
 * over both directions as fio does)? Always without N. */
static bool seq_hit(struct generator *g)
{
	if (!g->seq_nr)
		return true;
	if (--g->seq_left)
		return false;
	g->seq_left = g->seq_nr;
	return true;
}

/* Where the next I/O of dir goes in f and how long it is; *random: its
 * offset was drawn (the random map marks those only, as fio's). false when
 * the region is done and the job does not loop. */
static bool place(struct generator *g, struct gen_file *f, enum io_dir dir,
		  uint64_t *pos, uint64_t *len, bool *random)
{
	bool hit = seq_hit(g);
	bool fresh = false;
	uint64_t p;

	if (!hit && g->sequencer == RW_SEQ_IDENTICAL)
		p = f->started[dir] ? f->last_start[dir] : 0;
	else if (hit && rw_is_random(g->rw))
		fresh = !g->perc_seq[dir] ||
			rng_below(&g->rng_mix, 100) >= g->perc_seq[dir];
	if (!fresh && !(!hit && g->sequencer == RW_SEQ_IDENTICAL))
		p = seq_pos(g, f, dir);
	for (int tries = 0; tries < 2; tries++) {
		if (fresh && !rand_pos(g, f, dir, &p))
			return false;
		const struct gen_bs *b =
		    &g->bs[g->bs_is_seq_rand ? (fresh ? DIR_WRITE : DIR_READ) : dir];
		uint64_t l = p < f->region ? gen_bs_next(b, &g->rng_bs[b - g->bs],
							 f->region - p)
					   : 0;
		if (l) {
			*pos = p;
			*len = l;
			*random = fresh;
			return true;
		}
		/* a sequential I/O past the region's end: fio ends the pass
		 * there, even in a random mode (time_based: starts over);
		 * a random one that does not fit: drawn again */
		if (!fresh && !g->loop)
			return false;
		if (!fresh)
			p = 0;
	}
	return false;
}

/* A random job's block in the zone (fio: drawn over zonerange's blocks,
 * from the zone's start): its map or lfsr start over each time
 * zonerange bytes went to the zone (fio_file_reset). false: none left
 * (the map full, the register's pass done and the job not looping), or
 * the I/O would pass the file's end (fio ends the job there). */
static bool zone_rand(struct generator *g, struct gen_file *f, enum io_dir dir,
		      uint64_t end, uint64_t *pos, uint64_t *len)
{
	const struct gen_bs *bs = &g->bs[dir];
	uint64_t b;

	if (g->zone_bytes % g->zone_range == 0) {
		if (g->map_on)
			randmap_reset(&f->map);
		if (g->lfsr_on)
			lfsr_reset(&f->lfsr, g->lfsr_seed);
	}
	if (g->lfsr_on) {
		if (!lfsr_next(&f->lfsr, &b) &&
		    (!g->loop || !lfsr_reset(&f->lfsr, g->lfsr_seed) ||
		     !lfsr_next(&f->lfsr, &b)))
			return false;
	} else {
		b = rng_below(&g->rng, rand_blocks(bs, g->zone_range));
		if (g->map_on && !randmap_free_at(&f->map, b * bs->align / g->map_unit)) {
			uint64_t u = randmap_next_free(&f->map, b * bs->align / g->map_unit);
			if (u == UINT64_MAX)
				return false;
			b = u * g->map_unit / bs->align;
		}
	}
	*pos = g->zone_start + b * bs->align;
	if (*pos >= end ||
	    !(*len = gen_bs_next(bs, &g->rng_bs[dir], end - *pos)))
		return false;
	if (g->map_on)
		randmap_set_nr(&f->map, b * bs->align / g->map_unit,
			       (*len + g->map_unit - 1) / g->map_unit);
	g->zone_bytes += *len;
	return true;
}

/* zonemode=strided, as fio's setup_strided_zone_mode: once zonesize
 * bytes went to the zone, the next starts zonerange + zoneskip on (the
 * file's start past its end); inside, sequential from the zone's start
 * again past its range. Offsets may pass the region (fio: up to the
 * file's end); the job still ends after its bytes. false: none fits. */
static bool zone_place(struct generator *g, struct gen_file *f, enum io_dir dir,
		       uint64_t *pos, uint64_t *len)
{
	if (g->zone_bytes >= g->zone_size) {
		g->zone_bytes = 0;
		g->zone_start += g->zone_range + g->zone_skip;
		if (g->zone_start >= f->end)
			g->zone_start = 0;
		f->last_pos[dir] = g->zone_start;
	}
	if (f->last_pos[dir] >= g->zone_start + g->zone_range)
		f->last_pos[dir] = g->zone_start;
	uint64_t end = f->end != UINT64_MAX ? f->end : g->region;
	if (rw_is_random(g->rw))
		return zone_rand(g, f, dir, end, pos, len);
	if (f->last_pos[dir] >= end)
		return false;
	*pos = f->last_pos[dir];
	*len = gen_bs_next(&g->bs[dir], &g->rng_bs[dir], end - *pos);
	g->zone_bytes += *len;
	return *len != 0;
}

/* trimwrite's write of the block just trimmed: outside the limits, as
 * fio's (size=1M: 1M trimmed, then the same 1M written). */
static bool trimwrite_write(struct generator *g, struct gen_op *op)
{
	*op = g->tw_op;
	op->dir = DIR_WRITE;
	g->tw_pending = false;
	return true;
}

bool gen_next(struct generator *g, struct gen_op *op)
{
	if (g->tw_pending)
		return trimwrite_write(g, op);
	if (g->issued >= g->limit_ios || g->bytes >= g->limit_bytes)
		return false;

	unsigned file = file_service_next(&g->fsvc, &g->rng_mix);
	enum io_dir dir;
	if (rw_is_mixed(g->rw))
		dir = rng_below(&g->rng_mix, 100) < g->rwmixread ? DIR_READ : DIR_WRITE;
	else
		dir = places_writes(g->rw) ? DIR_WRITE : DIR_READ;

	struct gen_file *f = &g->files[file];
	uint64_t pos, len;
	bool random = false;
	if (g->zone_size ? !zone_place(g, f, dir, &pos, &len)
			 : !place(g, f, dir, &pos, &len, &random))
		return false;
	if (g->map_on && random) {
		/* fio marks random picks only, in the direction's own units
		 * (mark_random_map), and trims an I/O that would run into a
		 * used block */
		uint64_t unit = g->bs[dir].min;
		uint64_t b = unit == g->map_unit ? in_units(g, pos) : pos / unit;
		uint64_t nr = randmap_set_nr(&f->map, b, (len + unit - 1) / unit);
		if (nr && nr * unit < len)
			len = nr * unit;
	}
	f->last_start[dir] = pos;
	f->last_pos[dir] = pos + len;
	f->started[dir] = true;
	g->issued++;
	g->bytes += len;
	op->file = file;
	op->dir = rw_trims(g->rw) ? DIR_TRIM : dir;
	op->offset = f->base + pos;
	op->len = len;
	if (rw_trimwrite(g->rw)) {
		g->tw_op = *op;
		g->tw_pending = true;
	}
	return true;
}

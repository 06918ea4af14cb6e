/* file_service.c - see file_service.h. */
#include "core/file_service.h"

#include <math.h>
#include <string.h>

#define FSVC_SHIFT 10   /* fio's FIO_FSERVICE_SHIFT: ranges per file */
#define GAUSS_ITERS 12  /* fio's lib/gauss.c */
#define REDRAWS 64      /* draws before a done file passes to the next */

static bool drawn(enum file_service_type t)
{
	return t == FSVC_RANDOM || t >= FSVC_ZIPF;
}

/* fio's zipf/pareto/gauss_init over nr_files << 10 ranges. */
static void nonuniform_init(struct file_service *fs, const struct job_spec *spec)
{
	double v = spec->file_service_param;

	fs->nranges = (uint64_t)fs->nr_files << FSVC_SHIFT;
	if (spec->file_service_centered) {
		double c = spec->file_service_center;
		/* gauss centers on the middle range unshifted; fio's shift
		 * for a center is nranges * (center - 0.5) there */
		fs->rand_off = (uint64_t)((double)fs->nranges *
					  (fs->type == FSVC_GAUSS ? c + 0.5 : c));
		fs->off_drawn = true;
	}
	if (fs->type == FSVC_ZIPF)
		zipf_init(&fs->zipf, fs->nranges, v, 0);
	else if (fs->type == FSVC_PARETO)
		fs->pareto_pow = log(v) / log(1.0 - v);
	else {
		fs->off_drawn = true; /* no random shift for gauss */
		if (v != 0.0)
			fs->gauss_dev = (uint64_t)ceil((double)fs->nranges * v / 100.0);
		if (fs->gauss_dev > fs->nranges / 2)
			fs->gauss_dev = fs->nranges / 2;
	}
}

void file_service_init(struct file_service *fs, const struct job_spec *spec,
		       uint64_t blocks_per_file)
{
	memset(fs, 0, sizeof(*fs));
	fs->type = spec->file_service;
	fs->nr_files = spec->nr_files ? spec->nr_files : 1;
	if (fs->nr_files > JOB_MAX_FILES)
		fs->nr_files = JOB_MAX_FILES;
	uint64_t share = blocks_per_file ? blocks_per_file : 1;
	/* fio: without a random map a random job's file is never done */
	fs->never_done = drawn(fs->type) && spec->norandommap && rw_is_random(spec->rw);
	if (fs->never_done)
		share = UINT64_MAX;
	for (unsigned i = 0; i < fs->nr_files; i++)
		fs->share[i] = share;
	fs->per = spec->file_service_nr ? spec->file_service_nr : 1;
	fs->open_max = spec->openfiles && spec->openfiles < fs->nr_files
			       ? spec->openfiles
			       : fs->nr_files;
	if (fs->type >= FSVC_ZIPF)
		nonuniform_init(fs, spec);
	/* the first choice is file 0 for the ordered services, as fio */
	fs->cur = fs->nr_files - 1;
}

void file_service_set_share(struct file_service *fs, unsigned file,
			    uint64_t blocks)
{
	if (file < fs->nr_files && !fs->never_done)
		fs->share[file] = blocks ? blocks : 1;
}

/* fio's gauss_next with its hash disabled: the mean of 12 uniform
 * draws, plus a deviation halved until in range. */
static uint64_t gauss_rank(const struct file_service *fs, struct rng *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < GAUSS_ITERS; i++)
		sum += rng_below(r, fs->nranges + 1);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (fs->gauss_dev) {
		int64_t dev = (int64_t)rng_below(r, fs->gauss_dev) -
			      (int64_t)(fs->gauss_dev / 2);
		for (int i = 0; i < 64 && (int64_t)sum + dev >= (int64_t)fs->nranges; i++)
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return sum;
}

/* One draw of a file (the drawn services). */
static unsigned draw(struct file_service *fs, struct rng *r)
{
	uint64_t rank;

	if (fs->type == FSVC_RANDOM)
		return (unsigned)rng_below(r, fs->nr_files);
	if (!fs->off_drawn) { /* fio: a random 32-bit shift, from the seed */
		fs->rand_off = rng_next(r) & 0xffffffffu;
		fs->off_drawn = true;
	}
	if (fs->type == FSVC_ZIPF)
		rank = zipf_rank(&fs->zipf, r);
	else if (fs->type == FSVC_PARETO)
		rank = (uint64_t)((double)(fs->nranges - 1) *
				  pow(rng_unit(r), fs->pareto_pow));
	else
		rank = gauss_rank(fs, r);
	return (unsigned)(((rank + fs->rand_off) % fs->nranges) >> FSVC_SHIFT);
}

/* The first file from start on (wrapping) whose share is not done and
 * that is in service or has room to join (openfiles); nr_files when
 * none is. As fio's get_next_file_rr: a file not open while openfiles
 * are is passed (EBUSY), a done one met in service leaves it (closed),
 * so the scan goes round twice at most. */
static unsigned first_open(struct file_service *fs, unsigned start)
{
	for (unsigned i = 0; i < 2 * fs->nr_files; i++) {
		unsigned f = (start + i) % fs->nr_files;
		if (fs->used[f] >= fs->share[f]) {
			if (fs->in_service[f]) {
				fs->in_service[f] = false;
				fs->nr_open--;
			}
			continue;
		}
		if (fs->in_service[f] || fs->nr_open < fs->open_max)
			return f;
	}
	return fs->nr_files;
}

void file_service_seed_as_fio(struct file_service *fs, uint64_t seed,
			      bool use64)
{
	fs->fio_rng = true;
	fs->use64 = use64;
	if (use64)
		fio_taus258_seed(&fs->t64, seed);
	else
		fio_taus88_seed(&fs->t32, seed);
}

/* fio's get_next_file_rand: draw until a file not done that is in
 * service or has room; one drawn with its share done leaves service
 * (fio finds it done then). nr_files when every file is done. */
static unsigned fio_random_pick(struct file_service *fs)
{
	double max = fs->use64 ? 18446744073709551615.0 : 4294967295.0;

	unsigned left = 0;

	for (unsigned f = 0; f < fs->nr_files; f++)
		left += fs->used[f] < fs->share[f];
	if (!left)
		return fs->nr_files;
	/* bounded: a file with room is drawn long before */
	for (unsigned tries = 0; tries < (1u << 20); tries++) {
		uint64_t v = fs->use64 ? fio_taus258_next(&fs->t64)
				       : fio_taus88_next(&fs->t32);
		unsigned f = (unsigned)((double)fs->nr_files * ((double)v / (max + 1.0)));
		if (fs->used[f] >= fs->share[f]) {
			if (fs->in_service[f]) {
				fs->in_service[f] = false;
				fs->nr_open--;
			}
			continue;
		}
		if (fs->in_service[f] || fs->nr_open < fs->open_max)
			return f;
	}
	return first_open(fs, 0);
}

unsigned file_service_choose(struct file_service *fs, struct rng *r)
{
	unsigned want = fs->cur + 1 == fs->nr_files ? 0 : fs->cur + 1;

	fs->left = fs->per;
	if (fs->type == FSVC_RANDOM && fs->fio_rng) {
		unsigned f = fio_random_pick(fs);
		if (f == fs->nr_files) { /* all done: a new pass */
			memset(fs->used, 0, fs->nr_files * sizeof(fs->used[0]));
			memset(fs->in_service, 0, sizeof(fs->in_service));
			fs->nr_open = 0;
			f = fio_random_pick(fs);
		}
		if (!fs->in_service[f]) {
			fs->in_service[f] = true;
			fs->nr_open++;
		}
		return f;
	}
	if (drawn(fs->type) && fs->nr_files > 1) {
		/* fio draws again while the file drawn is done */
		want = draw(fs, r);
		for (int i = 1; i < REDRAWS && fs->used[want] >= fs->share[want]; i++)
			want = draw(fs, r);
	}
	unsigned f = first_open(fs, want);
	if (f == fs->nr_files) { /* all done: a new pass over them all */
		memset(fs->used, 0, fs->nr_files * sizeof(fs->used[0]));
		memset(fs->in_service, 0, sizeof(fs->in_service));
		fs->nr_open = 0;
		f = want;
	}
	if (!fs->in_service[f]) {
		fs->in_service[f] = true;
		fs->nr_open++;
	}
	if (fs->type == FSVC_SEQUENTIAL) /* the whole file, then the next */
		fs->left = fs->share[f];
	return f;
}

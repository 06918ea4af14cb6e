/* file_sizes.c - see file_sizes.h. */
#include "core/file_sizes.h"

#include <stdbool.h>
#include <time.h>

#include "core/blocksize.h"
#include "util/fio_rand.h"

/* random_generator=tausworthe64 (base/job_rows.c's value) */
#define TAUSWORTHE64 2u

/* fio's rw_min_bs: the smallest I/O of any direction. */
static uint64_t min_bs(const struct job_spec *job)
{
	uint64_t r = gen_bs_min(job, DIR_READ), w = gen_bs_min(job, DIR_WRITE);

	return r < w ? r : w;
}

/* fio's file_size_state: taus88, or taus258 for tausworthe64. */
struct size_rng {
	bool use64;
	struct fio_taus88 t32;
	struct fio_taus258 t64;
};

static void seed_clone(const struct job_spec *job, unsigned thread,
		       struct size_rng *t)
{
	uint64_t seed = fio_job_seed(job->randseed, thread, FIO_SEED_FILE_SIZE);

	/* fio: randrepeat=0 without randseed= takes the system's RNG */
	if (job->randrepeat_off && job->randseed == 0x89) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed ^= (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^
			(uint64_t)ts.tv_sec ^ thread;
	}
	t->use64 = job->random_generator == TAUSWORTHE64;
	if (t->use64)
		fio_taus258_seed(&t->t64, seed);
	else
		fio_taus88_seed(&t->t32, seed);
}

/* fio's get_rand_file_size, in its doubles. */
static uint64_t draw(const struct job_spec *job, struct size_rng *t,
		     uint64_t align)
{
	uint64_t r = t->use64 ? fio_taus258_next(&t->t64) : fio_taus88_next(&t->t32);
	double max = t->use64 ? 18446744073709551615.0 : 4294967295.0;
	uint64_t sized = job->filesize_high - job->filesize;
	uint64_t ret = (uint64_t)((double)sized * ((double)r / (max + 1.0)));

	ret += job->filesize;
	return align ? ret - ret % align : ret;
}

void file_sizes_draw(const struct job_spec *job, unsigned first_thread,
		     const uint64_t *existing, uint64_t *sizes)
{
	uint64_t align = min_bs(job);
	struct size_rng t = {0};
	unsigned clone = UINT32_MAX;

	for (unsigned i = 0; i < job->nr_files; i++) {
		if (!job->filesize_high) {
			sizes[i] = job->filesize;
			continue;
		}
		if (existing[i] != UINT64_MAX && existing[i] >= job->filesize &&
		    existing[i] <= job->filesize_high) {
			sizes[i] = existing[i];
			continue;
		}
		/* fio's named files are per clone (files_per_clone); shared
		 * ones are laid out by the first clone */
		unsigned c = job->files_per_clone ? i / job->files_per_clone : 0;
		if (c != clone) {
			clone = c;
			seed_clone(job, first_thread + c, &t);
		}
		sizes[i] = draw(job, &t, align);
	}
}

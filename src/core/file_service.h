/* file_service.h - which file a job's next I/O goes to: fio's
 * file_service_type (io_u.c's get_next_file) over the job's files.
 *
 * roundrobin:N  N I/Os to a file, then the next one (fio's default, N 1);
 * sequential    one file until its share (its region's blocks) is done,
 *               then the next;
 * random:N      N I/Os to a uniformly drawn file, then another draw;
 * zipf, pareto, normal (gauss)
 *               fio's nonuniform draws (init.c, io_u.c): a rank among
 *               nr_files << 10 ranges, unhashed, shifted by a random
 *               offset (zipf, pareto; CENTER places it) or not (normal:
 *               the bell on the middle files), the file its range's.
 * In all, a file whose share is done is passed over until every file's
 * is (then all start again: time_based, mixed modes), and with openfiles
 * so is a file not in service while that many are (fio's files not
 * open: the first openfiles in turn, the next when one is done); the
 * drawn services
 * draw again, as fio. A random job without a random map (norandommap)
 * has no done file in a drawn service: fio's files then end only with
 * the job.
 * Called once per I/O from the generator (core/generator.h).
 */
#ifndef IOCHAR_CORE_FILE_SERVICE_H
#define IOCHAR_CORE_FILE_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "core/zipf.h"
#include "util/fio_rand.h"
#include "util/rng.h"

struct file_service {
	enum file_service_type type;
	unsigned nr_files;
	uint64_t per;   /* I/Os to a file before the next choice */
	uint64_t left;  /* of them, still due to cur; 0 = choose now */
	bool never_done; /* norandommap in a drawn service: no share ends */
	/* I/Os that make each file done (its region's blocks) */
	uint64_t share[JOB_MAX_FILES];
	unsigned cur;
	/* the nonuniform draws: ranges, their shift (drawn at the first
	 * choice when not centered), zipf's constants, pareto's power,
	 * normal's deviation in ranges */
	uint64_t nranges, rand_off;
	bool off_drawn;
	struct zipf zipf;
	double pareto_pow;
	uint64_t gauss_dev;
	/* I/Os given to each file since all were last done: a done file is
	 * passed over, as fio passes over a file whose I/O is complete */
	uint64_t used[JOB_MAX_FILES];
	/* fio's openfiles: at most open_max files in service at once; a
	 * file joins when chosen with room, leaves when the service next
	 * comes to it with its share done (fio opens a file then, and closes
	 * it when its next offset fails; iochar's stay open, unused) */
	unsigned open_max, nr_open;
	bool in_service[JOB_MAX_FILES];
	/* random: fio's next_file_state once seeded as fio's
	 * (file_service_seed_as_fio), else the caller's rng */
	bool fio_rng, use64;
	struct fio_taus88 t32;
	struct fio_taus258 t64;
};

/* Set fs up for spec's files, with blocks_per_file I/Os as a file's
 * share in sequential service. No allocation. */
void file_service_init(struct file_service *fs, const struct job_spec *spec,
		       uint64_t blocks_per_file);

/* File file's share is blocks I/Os (filesize=LOW-HIGH: files of their
 * own sizes; sequential service stays that long on it). After init,
 * before the first choice; no-op past nr_files or without a map. */
void file_service_set_share(struct file_service *fs, unsigned file,
			    uint64_t blocks);

/* random: draw files as fio does (its next_file_state from seed, its
 * arithmetic), so a job's files come in fio's order. */
void file_service_seed_as_fio(struct file_service *fs, uint64_t seed,
			      bool use64);

/* Implementation detail of file_service_next, not for callers. */
unsigned file_service_choose(struct file_service *fs, struct rng *r);

/* The file of the next I/O; r draws the random service's choices. */
static inline unsigned file_service_next(struct file_service *fs,
					 struct rng *r)
{
	if (fs->nr_files == 1) /* the common job: no choice, nothing to count */
		return 0;
	if (fs->left == 0 || fs->used[fs->cur] >= fs->share[fs->cur])
		fs->cur = file_service_choose(fs, r);
	fs->left--;
	fs->used[fs->cur]++;
	return fs->cur;
}

#endif

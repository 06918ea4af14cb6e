/* layout.h - how a validated job sits on its targets: the bytes of each
 * file it may use, and which files must be written before the run.
 * Internal to the runner (validate.c computes it, runner*.c use it). */
#ifndef IOCHAR_CORE_LAYOUT_H
#define IOCHAR_CORE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "engine/engine.h"
#include "target/target_ops.h"
#include "util/err.h"

struct job_layout {
	const struct engine_ops *eops;
	uint64_t region;                  /* usable bytes per file, multiple of bs */
	bool fill[JOB_MAX_FILES];         /* file must be created / extended */
	uint64_t fill_end;                /* ... up to offset + region */
	/* filesize=LOW-HIGH (core/file_sizes.h): each file's own region
	 * (its size - offset, a multiple of bs) and end of layout; region and
	 * fill_end are then their largest. false: every file's is region */
	bool per_file;
	uint64_t file_region[JOB_MAX_FILES];
	uint64_t file_end[JOB_MAX_FILES];
	/* a null job's filesize=LOW-HIGH: each clone draws its own, clone
	 * c's at file_region[c * clone_files] (0: the clones share them) */
	unsigned clone_files;
	const struct target_ops *kind;    /* a job of another target kind (a
					   * RAID VD), else NULL: its files */
	struct target_layout target;      /* kind's: its region, paths, state; owned */
	/* ENGINE_NO_LAYOUT (fio's filecreate): the files that did not exist,
	 * which the engine creates: marked as iochar's after the run */
	bool fresh[JOB_MAX_FILES];
};

/* Check job against its targets without side effects and compute its
 * layout. 0, or -errno with a message naming the option or path. */
int layout_job(const struct job_spec *job, struct job_layout *out,
	       struct ioc_err *err);

/* layout_job for a job whose first clone is fio's thread first_thread
 * (1-based over all jobs' clones in order): filesize=LOW-HIGH draws each
 * file's size with that clone's seed, as fio. layout_job: thread 1. */
int layout_job_at(const struct job_spec *job, unsigned first_thread,
		  struct job_layout *out, struct ioc_err *err);

/* The bytes of file i (of the job's, not a clone's) that l gives, and
 * how far it is laid out. */
static inline uint64_t layout_file_region(const struct job_layout *l,
					  unsigned i)
{
	return l->per_file ? l->file_region[i] : l->region;
}

static inline uint64_t layout_file_end(const struct job_layout *l, unsigned i)
{
	return l->per_file ? l->file_end[i] : l->fill_end;
}

/* Can the process open what the jobs need: each worker's targets and an
 * engine descriptor, plus a margin? If not, the soft RLIMIT_NOFILE is
 * raised up to the hard limit (the only side effect, on this process);
 * beyond that -EMFILE with a usage message saying how many and the limit,
 * so the run is refused before anything is created, not after its
 * pre-write with "Too many open files". */
int layout_check_fds(const struct job_spec *jobs, unsigned nr_jobs,
		     const struct job_layout *layouts, struct ioc_err *err);

/* Release what layout_job allocated in l (not l itself); l may be NULL. */
void layout_release(struct job_layout *l);

#endif

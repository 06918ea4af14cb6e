/* layout.h - how a validated job sits on its targets: the bytes of each
 * file it may use, and which files must be written before the run.
 * Internal to the runner (validate.c computes it, runner.c uses it). */
#ifndef IOCHAR_CORE_LAYOUT_H
#define IOCHAR_CORE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "engine/engine.h"
#include "util/err.h"

struct vd_members;

struct job_layout {
	const struct engine_ops *eops;
	uint64_t region;                  /* usable bytes per file, multiple of bs */
	bool fill[JOB_MAX_FILES];         /* file must be created / extended */
	uint64_t fill_end;                /* ... up to offset + region */
	struct vd_members *vd;            /* VD job: its members (fill[] indexes
					   * them, fill_end is member_bytes); owned */
};

/* Check job against its targets without side effects and compute its
 * layout. 0, or -errno with a message naming the option or path. */
int layout_job(const struct job_spec *job, struct job_layout *out,
	       struct ioc_err *err);

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

/* jobs.h - which jobs can verify: checks made before anything is written.
 *
 * A verifying job keeps one generation map per worker, so it must be the
 * only writer of its blocks: numjobs=1, and no other job of the run may
 * write into its region of the same file. Its bs must cut into whole
 * units (a multiple of 512) and its offset must sit on a unit boundary.
 * A journal (journal=) needs verify=1, belongs to one job, is no target,
 * and may only replace an earlier iochar journal (journal_probe).
 */
#ifndef IOCHAR_VERIFY_JOBS_H
#define IOCHAR_VERIFY_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "engine/io_hooks.h"
#include "util/err.h"

/* Check jobs[0..nr) for verify: each verifying job on its own, then every
 * verifying job against every writing job on a shared file (same path, or
 * same inode when both exist), and every journal=. Returns 0, or -errno
 * with a usage message naming the job and the option to change. Only
 * reads (stat, and the first bytes of an existing journal file). The
 * verification hooks' check_jobs (hooks.h). */
int verify_check_jobs(const struct io_hooks_job *jobs, unsigned nr,
		      struct ioc_err *err);

#endif

/* worker_iolog.h - a worker's fio iologs: the replay it issues
 * (read_iolog, core/replay.h) and the log of what it issued (write_iolog,
 * stats/iolog_write.h). The worker's loop asks these, nothing more; they
 * know the job and the worker's struct worker_iologs, not the worker.
 */
#ifndef IOCHAR_CORE_WORKER_IOLOG_H
#define IOCHAR_CORE_WORKER_IOLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "engine/engine.h"
#include "util/err.h"

struct replay;
struct iolog_writer;

/* fio's iologs of one worker: the replay that is the op source instead
 * of the generator (read_iolog), the log of what was issued
 * (write_iolog); NULL when the job has none. Owned by the worker. */
struct worker_iologs {
	struct replay *replay;
	struct iolog_writer *out;
};

/* Set up l for job j over its files (files[nr]), the log's time from
 * now_ns. Neither without the job's options. 0 or -errno in err. */
int worker_iolog_setup(struct worker_iologs *l, const struct job_spec *j,
		       const char *const *files, unsigned nr, uint64_t now_ns,
		       struct ioc_err *err);

/* Is l's replay timed (its I/Os due on the log's schedule)? */
bool worker_iolog_timed(const struct worker_iologs *l);

/* Unit u is handed to the engine at now_ns: into write_iolog. */
void worker_iolog_issued(struct worker_iologs *l, const struct io_unit *u, uint64_t now_ns);

/* Close write_iolog at now_ns and free both. 0, or the log's write
 * error (-errno, in err). */
int worker_iolog_end(struct worker_iologs *l, uint64_t now_ns, struct ioc_err *err);

#endif

/* worker_iolog.h - a worker's fio iologs: the replay it issues
 * (read_iolog, core/replay.h) and the log of what it issued (write_iolog,
 * stats/iolog_write.h). The worker's loop asks these, nothing more.
 */
#ifndef IOCHAR_CORE_WORKER_IOLOG_H
#define IOCHAR_CORE_WORKER_IOLOG_H

#include "core/worker.h"

/* Set up w's replay and log over its files (files[nr]), the log's time
 * from now_ns. Neither without the job's options. 0 or -errno in err. */
int worker_iolog_setup(struct worker *w, const char *const *files, unsigned nr,
		       uint64_t now_ns, struct ioc_err *err);

/* Is w's replay timed (its I/Os due on the log's schedule)? */
bool worker_iolog_timed(const struct worker *w);

/* Unit u is handed to the engine at now_ns: into write_iolog. */
void worker_iolog_issued(struct worker *w, const struct io_unit *u, uint64_t now_ns);

/* Close write_iolog at now_ns and free both. 0, or the log's write
 * error (-errno, in err). */
int worker_iolog_end(struct worker *w, uint64_t now_ns, struct ioc_err *err);

#endif

/* hooks.h - verification as the worker's per-I/O hooks (engine/io_hooks.h).
 *
 * The program installs verify_io_hooks (core/seams.h); the runner and the
 * worker then reach verification only through them: check_jobs is
 * verify_check_jobs (jobs.h) for runs with verify= or journal=, a worker
 * of a verify=1 job owns a verify_session (session.h) as its hooks'
 * state, and the writes of other jobs get their reused buffers scrubbed
 * (vblock_scrub, block.h).
 */
#ifndef IOCHAR_VERIFY_HOOKS_H
#define IOCHAR_VERIFY_HOOKS_H

#include "engine/io_hooks.h"

extern const struct io_hooks verify_io_hooks;

#endif

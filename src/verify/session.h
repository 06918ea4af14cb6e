/* session.h - verification inside a running job: the worker's hooks.
 *
 * A worker of a job with verify=1 owns one session. Before it queues an
 * I/O it calls verify_session_prepare: writes get their buffer stamped
 * with the block's next generation; an I/O whose block already has one in
 * flight is refused, and the worker holds it until a completion frees the
 * block (so the offset sequence is the generator's, unchanged). After
 * every completion it calls verify_session_complete: a write's generation
 * goes into the map, a read of a block this run wrote is checked unit by
 * unit. Everything runs on the worker's thread.
 *
 * With journal=FILE (journal.h) prepare also queues an INTENT for each
 * write and complete a DONE; verify_session_flush makes the intents
 * durable, and the worker calls it after preparing a pass's I/Os and
 * before it queues any of them, so no write reaches the engine before its
 * intent is durable. When the flush fails, the prepared I/Os are never
 * queued: the worker completes them with -ECANCELED (their blocks' content
 * is then unknown to the map) and stops.
 */
#ifndef IOCHAR_VERIFY_SESSION_H
#define IOCHAR_VERIFY_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "engine/engine.h"
#include "util/err.h"
#include "base/verify_counts.h"

struct verify_session;

struct verify_session_params {
	const struct job_spec *job; /* files, offset, bs, randseed,
				     * verify_fatal; must outlive the session */
	uint64_t region;	    /* bytes per file from job->offset, a
				     * multiple of bs */
	unsigned depth;		    /* io_unit slots (index < depth) */
	struct verify_counts
	    *counts;  /* verdicts are added here; the caller's */
	FILE *report; /* failure lines (stderr) */
};

/* Make a session for p. Returns 0 and *out (free with verify_session_free),
 * or -ENOMEM / -EINVAL (bs has no unit length) with a message in err. */
int verify_session_create(const struct verify_session_params *p,
			  struct verify_session **out, struct ioc_err *err);

/* Release s; s may be NULL. */
void verify_session_free(struct verify_session *s);

/* Ready u (file, dir, offset, len set) to be queued. Returns false when its
 * block has an I/O in flight: hold u and call again after a completion.
 * Calling again for a unit already made ready returns true at once. */
bool verify_session_prepare(struct verify_session *s, struct io_unit *u);

/* Make the journal's queued intents durable (and append its completions)
 * before the writes they announce are submitted. Returns 0 at once
 * without a journal; -errno with a message in err when the journal cannot
 * be written (the run must stop). */
int verify_session_flush(struct verify_session *s, struct ioc_err *err);

/* Account for the completion of u (whatever its result). Returns 0, or
 * -EILSEQ when a unit failed and the job has verify_fatal (err then names
 * it). Failures are counted and printed either way. */
int verify_session_complete(struct verify_session *s, struct io_unit *u,
			    struct ioc_err *err);

#endif

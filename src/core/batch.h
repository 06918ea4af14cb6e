/* batch.h - fio's submission and completion discipline of one worker
 * (iodepth_batch_submit, iodepth_batch_complete_min/_max, iodepth_low),
 * resolved as fio's fixup_options does and applied as its
 * wait_for_completions. Plain values; no state of its own.
 */
#ifndef IOCHAR_CORE_BATCH_H
#define IOCHAR_CORE_BATCH_H

#include <stdbool.h>

#include "base/job.h"

struct batch {
	unsigned submit; /* commit once this many are queued (1..depth) */
	bool submit_now; /* submit < depth: commit in the pass, not at its end */
	unsigned cmin;   /* iodepth_batch_complete_min as given: 0 polls */
	unsigned cmax;   /* most completions per reaping call (cmin..depth) */
	unsigned low;    /* once full, reap down to this (1..depth) */
};

/* The discipline of job j at depth (the worker's iodepth): fio's
 * defaulting of 0s and out-of-range values. */
void batch_init(struct batch *b, const struct job_spec *j, unsigned depth);

/* How many completions a reaping call must wait for with inflight (> 0)
 * I/Os in flight: fio's min_evts, at least 1. */
unsigned batch_reap_min(const struct batch *b, unsigned inflight);

#endif

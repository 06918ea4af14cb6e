/* run_status.h - fio's --status-interval inside the runner: every T while
 * the workers run, the run so far as a struct run_result (cumulative from
 * the start, as fio's "full status dump": each worker's figures as of its
 * last answer, asked for a little ahead, and its elapsed time until now),
 * handed to the caller's status hook. Private to src/core/: the runner's
 * watching thread owns it; the workers only answer (stats_live). */
#ifndef IOCHAR_CORE_RUN_STATUS_H
#define IOCHAR_CORE_RUN_STATUS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/schedule.h"
#include "core/worker.h"
#include "stats/disk_util.h"
#include "stats/result.h"

struct run_status {
	void (*hook)(void *arg, const struct run_result *so_far);
	void *arg;
	uint64_t every_ns, next_ns; /* period; when the next report is due */
	bool asked;                 /* the workers were asked for the next one */
	const struct run_result *r; /* the run's (jobs, start time), borrowed */
	struct worker *w;           /* borrowed; nr of them */
	const struct start_gate *gates; /* by worker: when each was let go */
	const struct sched_worker *sched; /* by worker: whether it was */
	unsigned nr;
	uint64_t start_ns, ramp_ns;
	const struct disk_watch *disks; /* borrowed; may be NULL */
	struct worker_stats *copies;    /* by worker, its last answer; owned */
	uint64_t *copied_ns;            /* by worker, when (fast_ns); owned */
	struct rusage ru0;              /* the process's at the start */
};

/* Set s up for nr workers w (their gates and schedule state: the
 * runner's, read on the watching thread only), the first report due at
 * t0_ns + every_ns (clock_ns: from when the runner began, as fio's from
 * its start; one late by then is made at once); start_ns is the workers'
 * start (fast_ns), the run's elapsed time counts from it. hook NULL or
 * every 0: nothing will be reported. Returns 0 or -ENOMEM. */
int run_status_init(struct run_status *s, void (*hook)(void *, const struct run_result *),
		    void *arg, uint64_t every_ns, uint64_t t0_ns, const struct run_result *r,
		    struct worker *w,
		    unsigned nr, const struct start_gate *gates, const struct sched_worker *sched,
		    uint64_t start_ns, uint64_t ramp_ns, const struct disk_watch *disks);

/* Called by the watching thread at now: asks ahead, reports when due.
 * Returns when it wants to be called next (UINT64_MAX: never). */
uint64_t run_status_poll(struct run_status *s, uint64_t now);

/* Release what s owns; only once no worker can be answering (joined or
 * finished). */
void run_status_free(struct run_status *s);

#endif

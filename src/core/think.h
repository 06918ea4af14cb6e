/* think.h - a job's own idle time (fio's thinktime family) and its
 * minimum-rate watch (rate_min, rate_iops_min over rate_cycle).
 *
 * Think time is the job idling between its I/Os, as fio's
 * handle_thinktime: after thinktime_blocks I/Os (completed or issued), or
 * thinktime_iotime of I/O, the worker lets what is in flight finish, spins
 * thinktime_spin and sleeps the rest of thinktime. No I/O is in flight
 * then, and the next I/O's latency starts when it is issued after the
 * idle time (or later, when it is due), so idling is never counted as
 * device latency. Plain state owned by one worker thread.
 */
#ifndef IOCHAR_CORE_THINK_H
#define IOCHAR_CORE_THINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "util/err.h"

struct think {
	uint64_t last_blocks; /* the counter at the last think */
	uint64_t last_ns;     /* when the last think began (or the start) */
	uint64_t end_ns;      /* the end of the last think; 0: none yet */
	bool blocks_set;      /* thinktime_blocks given (with _iotime) */
	unsigned nr;          /* thinks taken */
};

/* Start watching at start_ns for job j. */
void think_init(struct think *t, const struct job_spec *j, uint64_t start_ns);

/* Is a think due now, issued and completed being the worker's I/O
 * counts so far? Always false without thinktime. */
bool think_due(const struct think *t, const struct job_spec *j,
	       uint64_t issued, uint64_t completed, uint64_t now);

/* Idle as j says (nothing may be in flight): spin, then sleep, never past
 * deadline, looking at stop between sleeps. Books the think in t (counter:
 * the count think_due compared). Returns the time at its end. */
uint64_t think_idle(struct think *t, const struct job_spec *j,
		    uint64_t counter, uint64_t deadline, atomic_bool *stop);

/* rate_min / rate_iops_min: the last look per direction. */
struct rate_watch {
	uint64_t start_ns;
	uint64_t at_ns[DIR_COUNT], bytes[DIR_COUNT], ios[DIR_COUNT];
	bool armed;
};

void rate_watch_init(struct rate_watch *r, const struct job_spec *j,
		     uint64_t start_ns);

/* Has a direction fallen below its minimum over the last rate_cycle, as
 * fio checks (from 2 s after the start, directions that did I/O)? bytes
 * and ios: the worker's totals so far. -EIO with the message fio prints
 * in err, else 0. */
int rate_watch_check(struct rate_watch *r, const struct job_spec *j,
		     uint64_t now, const uint64_t bytes[DIR_COUNT],
		     const uint64_t ios[DIR_COUNT], struct ioc_err *err);

#endif

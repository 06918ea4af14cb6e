/* rate_verdict.h - did a rate-limited run get the rate it asked, and if
 * not, whose was the shortfall: iochar's (it fell behind its schedule),
 * the device's at the queue depth asked (every slot busy: Little's law
 * bounds the rate at iodepth / service time), or the machine's (every
 * CPU busy, the device's kernel threads among them)?
 *
 * Judged from the result alone (jobs, totals, CPU figures), so a run
 * merged from many hosts is judged the same way as one from one host.
 */
#ifndef IOCHAR_CORE_RATE_VERDICT_H
#define IOCHAR_CORE_RATE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/result.h"

/* A rate is reached when at least this share of it was achieved. */
#define RATE_REACHED_SHARE 0.98

struct rate_verdict {
	bool paced;           /* an open-loop run whose jobs asked a rate; nothing else is set otherwise */
	bool bytes;           /* asked and achieved are bytes/s (fio's rate=), else I/Os/s */
	double asked, achieved; /* over all workers, per second of the measured phase */
	bool reached;
	char why[240];        /* "" when reached: the likely cause, one line */
};

/* A rate that keeps this share of a worker's iodepth slots busy on
 * average (Little's law: asked x mean service) leaves I/Os waiting for
 * a slot most of the time: its lag is the queue depth's. */
#define RATE_DEPTH_BUSY 0.9

/* Whether r's rate asks more than its slots carry at the service time
 * measured (RATE_DEPTH_BUSY): its lag behind the schedule is then the
 * depth's, whoever else had the CPUs. */
bool rate_depth_bound(const struct run_result *r);

/* Judge r (after tool_limited_judge). */
void rate_verdict_judge(const struct run_result *r, struct rate_verdict *v);

#endif

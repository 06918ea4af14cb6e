/* tool_limited.h - did a rate-limited run measure the device, or iochar?
 *
 * In an open-loop run the latency counts from each I/O's due time, so when
 * the workers cannot issue on time (more workers than CPUs, CPUs taken by
 * something else) their lateness is in the figures. The tool-lag histogram
 * says how much: the lag of each I/O after a slot was free to issue it (an
 * I/O due while all iodepth slots are busy waits for the device, which is
 * what open-loop latency is meant to show). A direction whose p99 tool lag
 * exceeds TOOL_LIMITED_PCT % of its p99 latency marks the whole run
 * tool-limited, with the likely cause; so does a lag behind the schedule
 * of that share while every CPU was busy (TOOL_LIMITED_BUSY_PCT), unless
 * the rate asks more than the iodepth slots carry (rate_verdict.h).
 */
#ifndef IOCHAR_CORE_TOOL_LIMITED_H
#define IOCHAR_CORE_TOOL_LIMITED_H

#include "stats/result.h"

#define TOOL_LIMITED_PCT 10
/* ... or when the machine's CPUs were at least this busy and the lag
 * behind the schedule (the device's wait included) is such a share: on
 * a saturated machine the measured service times are not the device's
 * alone, so neither is the lag they explain. */
#define TOOL_LIMITED_BUSY_PCT 95

/* Set r->tool_limited and r->tool_limited_reason from r->total (its
 * tool-lag and latency histograms), r->jobs / r->workers (how many are rate-limited),
 * r->cpus_usable, r->machine_busy_pct and the CPU figures. A closed-loop
 * run, or one without I/O, is never tool-limited. */
void tool_limited_judge(struct run_result *r);

#endif

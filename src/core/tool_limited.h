/* tool_limited.h - did a rate-limited run measure the device, or iochar?
 *
 * In an open-loop run the latency counts from each I/O's due time, so when
 * the workers cannot issue on time (more workers than CPUs, CPUs taken by
 * something else) their lateness is in the figures. The lag histogram says
 * how much: a direction whose p99 lag exceeds TOOL_LIMITED_PCT % of its p99
 * latency marks the whole run tool-limited, with the likely cause.
 */
#ifndef IOCHAR_CORE_TOOL_LIMITED_H
#define IOCHAR_CORE_TOOL_LIMITED_H

#include "core/result.h"

#define TOOL_LIMITED_PCT 10

/* Set r->tool_limited and r->tool_limited_reason from r->total (its lag and
 * latency histograms), r->jobs / r->workers (how many are rate-limited),
 * r->cpus_usable, r->machine_busy_pct and the CPU figures. A closed-loop
 * run, or one without I/O, is never tool-limited. */
void tool_limited_judge(struct run_result *r);

#endif

/* replay_verdict.h - the one verdict on a replay (read_iolog) against its
 * log's schedule: the run's note, its text summary, its JSON "replay"
 * member and the HTML report all say it through replay_verdict. */
#ifndef IOCHAR_BASE_REPLAY_VERDICT_H
#define IOCHAR_BASE_REPLAY_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

/* An I/O issued later than this after its time in the log was behind;
 * a replay whose p99 issue lag is past it fell behind its log. */
#define REPLAY_BEHIND_NS 1000000ull

/* NULL for a replay with no schedule (as fast as possible: nothing to
 * keep up with), "kept up" when the p99 issue lag is at most
 * REPLAY_BEHIND_NS, else "behind". */
const char *replay_verdict(bool timed, uint64_t p99_lag_ns);

#endif

/* replay_verdict.c - the one verdict on a replay (base/replay_verdict.h). */
#include "base/replay_verdict.h"

#include <stddef.h>

const char *replay_verdict(bool timed, uint64_t p99_lag_ns)
{
	if (!timed)
		return NULL;
	return p99_lag_ns <= REPLAY_BEHIND_NS ? "kept up" : "behind";
}

/* clocksync.c - how far each rank's wall clock is from rank 0's.
 *
 * Start skew compares the wall clocks (CLOCK_REALTIME) of different hosts
 * at the moment each let its workers go. On one host they are the same
 * clock; across hosts they differ by whatever NTP/PTP left, which can
 * exceed the skew itself. So at start rank 0 exchanges a few ping-pongs
 * with each rank: t0 (rank 0 sends), t1 (the rank's clock on receipt), t2
 * (rank 0 receives); offset = t1 - (t0 + t2) / 2, from the round with the
 * shortest round trip, whose half bounds the error (as NTP does). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm.h"
#include "dist/internal.h"
#include "util/clock.h"

#define SYNC_ROUNDS 8
#define SYNC_TIMEOUT_NS 30000000000ull

/* Spin (yielding) for one small message: the round trip is the error. */
static int recv_now(int from, int tag, int64_t *v)
{
	uint64_t end = clock_ns() + SYNC_TIMEOUT_NS;
	int src;
	size_t len;
	while (!comm_probe(from, tag, &src, &len)) {
		comm_progress();
		if (clock_ns() > end)
			return -ETIMEDOUT;
		sched_yield();
	}
	if (len != sizeof(*v))
		return -EPROTO;
	return comm_take(src, tag, v, sizeof(*v));
}

int dist_clock_sync(struct dist *d, struct ioc_err *err)
{
	int ret = 0;
	if (d->rank != 0) {
		for (int i = 0; i < SYNC_ROUNDS && !ret; i++) {
			int64_t t0, t1;
			ret = recv_now(0, TAG_PING, &t0);
			t1 = dist_wall_ns();
			if (!ret)
				ret = comm_post(0, TAG_PONG, &t1, sizeof(t1));
		}
		goto out;
	}
	for (int r = 1; r < d->size && !ret; r++) {
		uint64_t best = UINT64_MAX;
		for (int i = 0; i < SYNC_ROUNDS && !ret; i++) {
			int64_t t0 = dist_wall_ns(), t1 = 0;
			ret = comm_post(r, TAG_PING, &t0, sizeof(t0));
			if (!ret)
				ret = recv_now(r, TAG_PONG, &t1);
			int64_t t2 = dist_wall_ns();
			if (!ret && (uint64_t)(t2 - t0) < best) {
				best = (uint64_t)(t2 - t0);
				d->clock_offset_ns[r] = t1 - t0 - (t2 - t0) / 2;
				d->clock_error_ns[r] = best / 2;
			}
		}
	}
out:
	while (comm_progress())
		;
	if (ret)
		return err_set(err, -ret, "MPI: clock offset exchange failed: %s",
			       strerror(-ret));
	return 0;
}

/* engine.h - a VD as an I/O engine: the worker queues host I/Os to it as to
 * any engine (engine/engine.h); it turns each into member I/Os, issues them
 * through the job's own engine (io_uring, libaio, psync) on the member
 * descriptors, and completes the host I/O when its last member I/O is done.
 * The worker's clock brackets the whole VD operation, so host latency
 * includes every member read, the parity work and every member write.
 *
 * Ordering: an operation takes its stripe rows' locks (vd.h) before its
 * first member I/O and releases them after its last: writes exclusively,
 * reads shared, so concurrent writes to a row never interleave their
 * read-modify-write and no read sees data and parity from different
 * writes. An operation that finds a row locked waits in a queue (it never
 * blocks the thread) and is retried as others finish.
 */
#ifndef IOCHAR_VD_ENGINE_H
#define IOCHAR_VD_ENGINE_H

#include "base/job.h"
#include "engine/engine.h"
#include "vd/stats.h"
#include "vd/vd.h"

/* Engine table for a VD instance made by vd_engine_init (its own init is
 * not used: instances need the VD). */
extern const struct engine_ops vd_engine_ops;

/* Set up a VD instance for one worker: open the live members (for writing
 * when job writes, O_DIRECT when job->direct), start `inner` on them with
 * enough member units for p->depth host I/Os. p->units are the host units
 * (their index selects the operation slot). *state is released by
 * vd_engine_ops.cleanup. 0 or -errno with a message. */
int vd_engine_init(struct vd *vd, const struct engine_ops *inner,
		   const struct job_spec *job, const struct engine_params *p,
		   void **state, struct ioc_err *err);

/* fsync on the VD: destage all write-back data, wait for every member
 * I/O in flight, then fdatasync the members (the drives' caches). Host
 * I/Os that complete meanwhile stay to be reaped by getevents. Called on
 * the instance's thread. 0 or -errno. */
int vd_engine_flush(void *state);

/* The end of a run (the worker's loop is over, its host I/Os reaped): the
 * write-back data still cached is destaged now and its member I/Os are
 * counted (stats wb_end_bytes), so the amplification is the whole
 * cost of the host writes; the host figures are not touched. 0 or -errno. */
int vd_engine_finish(void *state);

/* Member I/Os and host I/Os completing from ns on are counted. */
void vd_engine_measure_from(void *state, uint64_t ns);

/* The instance's counters; ownership moves to the caller (free()). Call
 * before cleanup; NULL afterwards or when state is NULL. */
struct vd_stats *vd_engine_take_stats(void *state);

/* The first member I/O of this instance that failed, as "member N (PATH):
 * read of LEN bytes at offset OFF: REASON" in buf; false when none did
 * (the host I/O failed for another reason, or none failed). */
bool vd_engine_member_error(void *state, char *buf, size_t len);

#endif

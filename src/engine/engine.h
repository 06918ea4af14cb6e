/* engine.h - the I/O engine contract, one implementation per file.
 *
 * Modelled on fio's ioengine_ops. A worker owns one engine instance and an
 * array of io_units (one per iodepth slot). The worker loop is the same for
 * every engine:
 *
 *     queue(u)        -> ENGINE_COMPLETED: done already (sync engines), u->result set
 *                        ENGINE_QUEUED:    accepted; will be reaped later
 *                        ENGINE_BUSY:      no room now; commit and reap first
 *     commit()        -> hand everything queued to the kernel
 *     getevents(min)  -> wait for at least `min` completions, return how many
 *     event(i)        -> the i-th completed unit of the last getevents
 *
 * Engines never touch statistics, targets' metadata or options: they get file
 * descriptors and buffers in struct engine_params and move bytes.
 *
 * Contract details the worker relies on:
 *   - init, every call and cleanup run on the one worker thread that owns
 *     the instance (io_uring's DEFER_TASKRUN rings and registered ring fds
 *     belong to a thread);
 *   - commit() may leave the actual submission to the next getevents()
 *     (io_uring submits and waits in one system call), so the worker calls
 *     getevents (min 0 is fine) before it sleeps;
 *   - getevents() never waits for more I/Os than are in flight;
 *   - units' buf, buflen and index (< depth) stay fixed from init to cleanup:
 *     engines may register the buffers with the kernel. A unit whose buf is
 *     NULL at init is never registered, and its buf may change per I/O (the
 *     VD layer's member units, vd/engine.h).
 */
#ifndef IOCHAR_ENGINE_ENGINE_H
#define IOCHAR_ENGINE_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/job.h"
#include "base/option.h"
#include "util/err.h"

/* What a unit asks: a read or write (dir), or a flush of its file, as
 * fio's DDIR_SYNC and DDIR_DATASYNC. Zero (IO_OP_RW) is every unit's
 * default: a unit whose op is never set moves data. A flush has len 0 and
 * completes with result 0 or -errno; each engine makes it its own way
 * (fsync(2)/fdatasync(2), IORING_OP_FSYNC, aio_fsync(3), msync(2); a RAID
 * VD destages its cache and flushes its members). */
enum io_op {
	IO_OP_RW = 0,
	IO_OP_FSYNC,
	IO_OP_FDATASYNC,
	/* A trim (fio's DDIR_TRIM): dir DIR_TRIM, offset and len the range,
	 * buf unused; result len or -errno. Every engine does it in queue()
	 * (fio's FIO_ASYNCIO_SYNC_TRIM: async engines alone, none in flight):
	 * BLKDISCARD (sync_io_trim; ENOTTY on a regular file, as fio's), the
	 * falloc engine a punched hole. */
	IO_OP_TRIM,
};

/* One I/O in flight. Owned by the worker; engines may use `engine_data`. */
struct io_unit {
	void *buf;            /* aligned to 4096, buflen bytes */
	uint64_t buflen;
	unsigned index;       /* slot number, 0 .. iodepth-1: also the registered-buffer index */
	unsigned file;        /* index into engine_params.fds */
	enum io_dir dir;      /* IO_OP_RW; a flush's is DIR_WRITE, a trim's DIR_TRIM */
	enum io_op op;
	uint64_t offset;
	uint64_t len;
	int64_t result;       /* bytes moved, or -errno; set when completed */
	uint64_t start_ns;    /* latency origin: submit or scheduled time */
	void *engine_data;
	/* fio's priority value of the I/O (class << 13 | level), for the
	 * logs: the worker sets its job's, an engine's cmdprio may change it */
	unsigned ioprio;
};

struct engine_params {
	const int *fds;       /* open target descriptors; NULL for ENGINE_NO_TARGET */
	unsigned nr_fds;
	/* the worker's files, nr_fds of them (NULL for ENGINE_NO_TARGET and
	 * a target kind's engine); with ENGINE_NO_OPEN every fds[i] is -1 */
	const char *const *paths;
	struct io_unit *units; /* all units, for buffer registration */
	unsigned depth;        /* number of units == most in flight at once */
	/* most completions one getevents may return (fio's
	 * iodepth_batch_complete_max); 0: no limit. Engines that complete
	 * one I/O at a time need not look at it. */
	unsigned reap_max;
	/* For an engine that talks to a peer (net): the job's first
	 * filename as given (a host, a unix socket's path; NULL when none),
	 * its directions, its clone (fio's subjob_number, 0 for the first),
	 * its runtime= (0: none; a wait for the peer ends with it) and the
	 * run's stop flag (a wait gives up when it is set). */
	const char *peer;
	bool job_reads, job_writes;
	unsigned clone;
	uint64_t runtime_ns;
	const atomic_bool *stop;
};

enum engine_queue_ret {
	ENGINE_COMPLETED = 0,
	ENGINE_QUEUED = 1,
	ENGINE_BUSY = 2,
};

enum engine_flags {
	ENGINE_SYNC = 1u << 0,       /* queue() completes the I/O itself */
	ENGINE_NO_TARGET = 1u << 1,  /* moves no data: targets are not opened */
	/* fio's file-operation engines (issue 14, fileng): the worker opens
	 * none of the job's files, the engine works on their paths */
	ENGINE_NO_OPEN = 1u << 2,
	/* the job's files are not laid out before the run (fio's
	 * FIO_DISKLESSIO: filecreate makes them itself) */
	ENGINE_NO_LAYOUT = 1u << 3,
	/* changes its files whatever rw says (falloc's fallocate needs a
	 * writable descriptor, filedelete removes them): opened for writing
	 * and under the destructive-write guard as a write workload */
	ENGINE_MODIFIES = 1u << 4,
	/* its I/Os move no bytes (fio's FIO_FAKEIO: an I/O's result counts
	 * bytes not transferred): nothing to verify */
	ENGINE_NO_DATA = 1u << 5,
	/* the text output gives its rates in bits (fio's FIO_BIT_BASED:
	 * "BW=4000Mibit/s"), its amounts still in bytes */
	ENGINE_BIT_BASED = 1u << 6,
};

struct engine;

struct engine_ops {
	const char *name;
	const char *help;     /* one line for --help */
	unsigned flags;

	/* The engine's own options, as fio's ioengine_ops.options: rows of
	 * scope OPT_SCOPE_ENGINE, {NULL}-terminated (NULL: none), stored at
	 * their offsets in the job's engine_opts (at most JOB_ENGINE_OPTS_MAX
	 * bytes) as the engine's own struct. All zero must mean every
	 * default: a job that names none of them gets them so. */
	const struct option_def *options;

	/* Is the engine usable on this kernel? 0, or -errno with a message in
	 * err (e.g. io_uring disabled by sysctl). Must have no side effects. */
	int (*probe)(struct ioc_err *err);

	/* Optional (NULL: any job): can the engine run job as its options
	 * ask (e.g. polled completions need direct=1)? Called when the job
	 * is validated, before anything is written; 0, or -errno with a
	 * usage message naming the option. No side effects. */
	int (*check)(const struct job_spec *job, struct ioc_err *err);

	/* Set up for p (fds and units stay valid until cleanup). On success
	 * *out is the engine's private state. 0 or -errno with a message. */
	int (*init)(const struct engine_params *p, void **out, struct ioc_err *err);

	/* Optional, for an engine with options: init, as options (the job's
	 * engine_opts: the engine's own struct) ask. NULL: init. Call
	 * engine_init rather than either. */
	int (*init_opts)(const struct engine_params *p, const void *options,
			 void **out, struct ioc_err *err);

	/* Release what init made; state may be NULL. */
	void (*cleanup)(void *state);

	enum engine_queue_ret (*queue)(void *state, struct io_unit *u);

	/* Submit what was queued. 0 or -errno. NULL for a synchronous
	 * engine (ENGINE_SYNC: its queue() completes every I/O), as fio's
	 * td_io_commit treats a NULL commit; so for getevents and event. */
	int (*commit)(void *state);

	/* Optional (NULL: commit): submit what was queued now, not with the
	 * next getevents, for fio's iodepth_batch_submit (the worker calls
	 * it when that many are queued in the middle of a pass). 0 or
	 * -errno. */
	int (*submit)(void *state);

	/* Wait for at least min completions (0 = poll). Returns how many
	 * completed (>= 0) or -errno. */
	int (*getevents)(void *state, unsigned min);

	/* The i-th completion of the last getevents, i < its return value. */
	struct io_unit *(*event)(void *state, unsigned i);

	/* Optional (NULL: the worker polls and naps): getevents(min), but
	 * waiting for the min completions only until the monotonic time
	 * until_ns; returns how many completed by then (0 on time-out) or
	 * -errno; event() as after getevents. A rate-limited worker with I/O
	 * in flight and a free slot sleeps in it until a completion or its
	 * next due I/O, whichever comes first: completions are stamped when
	 * they happen, and no CPU is spent waiting. */
	int (*getevents_until)(void *state, unsigned min, uint64_t until_ns);

	/* Optional (NULL: nothing to do): called by the worker when its job
	 * starts (after startdelay), before the job's time is measured, as
	 * fio's open_file of its net engine (accept the peer's connection,
	 * connect to it): the wait is not the job's. 0 or -errno with a
	 * message. */
	int (*open)(void *state, struct ioc_err *err);

	/* Optional (NULL: never): has the peer ended the stream (fio's
	 * td->done: a tcp end of stream, fio's udp close message)? A unit
	 * that completes with result 0 then ends the job, not as an error,
	 * and is not counted. */
	bool (*ended)(void *state);

	/* Optional (NULL: none): how many blocks the peer sent that never
	 * came (fio's drop_ios of a udp receiver, from its sequence
	 * numbers), asked once when the job's I/O is over. */
	uint64_t (*dropped)(void *state);
};

/* commit and getevents as the worker calls them: an engine without the
 * hook (a synchronous one) has nothing to submit and nothing to reap. */
static inline int engine_commit(const struct engine_ops *e, void *state)
{
	return e->commit ? e->commit(state) : 0;
}

static inline int engine_getevents(const struct engine_ops *e, void *state, unsigned min)
{
	return e->getevents ? e->getevents(state, min) : 0;
}

/* Look up an engine by name; NULL when unknown. */
const struct engine_ops *engine_find(const char *name);

/* All engines, NULL-terminated, in the order --help lists them. */
extern const struct engine_ops *const engine_table[];

/* Comma-separated engine names, for error messages. */
const char *engine_names(void);

/* Set up e for p as options (the job's engine_opts) ask: its init_opts,
 * or its init when it has none (then options are all defaults). As init. */
int engine_init(const struct engine_ops *e, const struct engine_params *p,
		const void *options, void **out, struct ioc_err *err);

/* The engine option row key names, of any engine, and in *owner (may be
 * NULL) the engine that declares it; NULL when no engine has it. */
const struct option_def *engine_option_find(const char *key,
					    const struct engine_ops **owner);

/* As engine_option_find, but the row of engine ioengine (may be NULL)
 * when it has one: several engines have a "hipri" or a "nowait" (fio's
 * io_uring and pvsync2), and a job's option is its engine's. */
const struct option_def *engine_option_resolve(const char *key,
					       const char *ioengine,
					       const struct engine_ops **owner);

/* Can job run on its engine as its engine options ask? The options given
 * must be its engine's (an option of io_uring with ioengine=psync is a
 * usage error naming both), then the engine's check. 0 or -errno with a
 * one-line usage message. No side effects. */
int engine_check_job(const struct job_spec *job, struct ioc_err *err);

#endif

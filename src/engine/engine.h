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

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/job.h"
#include "util/err.h"

/* One I/O in flight. Owned by the worker; engines may use `engine_data`. */
struct io_unit {
	void *buf;            /* aligned to 4096, buflen bytes */
	uint64_t buflen;
	unsigned index;       /* slot number, 0 .. iodepth-1: also the registered-buffer index */
	unsigned file;        /* index into engine_params.fds */
	enum io_dir dir;
	uint64_t offset;
	uint64_t len;
	int64_t result;       /* bytes moved, or -errno; set when completed */
	uint64_t start_ns;    /* latency origin: submit or scheduled time */
	void *engine_data;
};

struct engine_params {
	const int *fds;       /* open target descriptors; NULL for ENGINE_NO_TARGET */
	unsigned nr_fds;
	struct io_unit *units; /* all units, for buffer registration */
	unsigned depth;        /* number of units == most in flight at once */
};

enum engine_queue_ret {
	ENGINE_COMPLETED = 0,
	ENGINE_QUEUED = 1,
	ENGINE_BUSY = 2,
};

enum engine_flags {
	ENGINE_SYNC = 1u << 0,       /* queue() completes the I/O itself */
	ENGINE_NO_TARGET = 1u << 1,  /* moves no data: targets are not opened */
};

struct engine;

struct engine_ops {
	const char *name;
	const char *help;     /* one line for --help */
	unsigned flags;

	/* Is the engine usable on this kernel? 0, or -errno with a message in
	 * err (e.g. io_uring disabled by sysctl). Must have no side effects. */
	int (*probe)(struct ioc_err *err);

	/* Set up for p (fds and units stay valid until cleanup). On success
	 * *out is the engine's private state. 0 or -errno with a message. */
	int (*init)(const struct engine_params *p, void **out, struct ioc_err *err);

	/* Release what init made; state may be NULL. */
	void (*cleanup)(void *state);

	enum engine_queue_ret (*queue)(void *state, struct io_unit *u);

	/* Submit what was queued. 0 or -errno. */
	int (*commit)(void *state);

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
};

/* Look up an engine by name; NULL when unknown. */
const struct engine_ops *engine_find(const char *name);

/* All engines, NULL-terminated, in the order --help lists them. */
extern const struct engine_ops *const engine_table[];

/* Comma-separated engine names, for error messages. */
const char *engine_names(void);

#endif

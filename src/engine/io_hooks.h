/* io_hooks.h - per-I/O hooks of a worker: the seam through which
 * verification (verify/hooks.c) sees every I/O without the worker knowing
 * what it checks.
 *
 * The program installs one set (core/seams.h). Before anything is
 * written the runner shows it all the run's jobs (check_jobs). Each
 * worker then asks for its own state (create); a NULL state means the
 * job has nothing to check, and the worker calls none of the per-I/O
 * hooks but reuse. With a state, on the worker's thread:
 *   prepare   before an I/O is staged; false: hold it and offer it again
 *             after the next completion (its block has one in flight);
 *   flush     after a pass's I/Os are prepared and before any is queued
 *             (a journal's intents become durable); when it fails none of
 *             them is queued: each gets complete() with -ECANCELED and
 *             the worker stops;
 *   complete  after every completion, whatever its result; nonzero stops
 *             the run (a fatal verify failure).
 *   readback  when the generator has ended (optional, may be NULL):
 *             true asks for the job's writes once more, as reads of the
 *             same blocks in the same order (the generator drawn again
 *             from its seed, its reads skipped): fio's experimental_verify.
 *             Asked at most once per worker.
 *   interpose before each I/O the worker would draw from its generator,
 *             and after the generator ended (writes_done) until it says
 *             false (optional, may be NULL): true puts a read of the
 *             hooks' own first (*op): fio's verify_backlog. A read-back
 *             then asks for no replay (readback says false).
 *   admit     the generator's next I/O: false ends the job's I/O.
 * Without a state, reuse is called for each write of such a job, with
 * the unit still holding its last I/O (dir) and the coming I/O's offset
 * and length: a buffer a read filled must not carry that block's stamps
 * into another one's data.
 */
#ifndef IOCHAR_ENGINE_IO_HOOKS_H
#define IOCHAR_ENGINE_IO_HOOKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "base/verify_counts.h"
#include "engine/engine.h"
#include "util/err.h"

/* A job as laid out on its targets, for check_jobs. */
struct io_hooks_job {
	const struct job_spec *job;
	uint64_t region;	/* bytes per file from job->offset */
	bool moves_data;	/* its engine opens targets (null does not) */
};

/* A read the hooks want issued (interpose). */
struct io_hooks_op {
	unsigned file;
	uint64_t offset, len;
};

struct io_hooks_params {
	const struct job_spec *job; /* outlives the state */
	uint64_t region;	    /* bytes per file from job->offset */
	unsigned depth;		    /* io_unit slots (index < depth) */
	struct verify_counts *counts; /* verdicts are added here; the caller's */
	FILE *report;		    /* failure lines */
	unsigned index;		    /* the worker's, 0-based over the run */
};

struct io_hooks {
	/* All the run's jobs, before anything is written: 0, or -errno with
	 * a usage message naming the job and option. */
	int (*check_jobs)(const struct io_hooks_job *jobs, unsigned nr,
			  struct ioc_err *err);
	/* *state for one worker, NULL when its job checks nothing. 0 or
	 * -errno with a message. */
	int (*create)(const struct io_hooks_params *p, void **state,
		      struct ioc_err *err);
	void (*destroy)(void *state); /* state may be NULL */
	bool (*prepare)(void *state, struct io_unit *u);
	int (*flush)(void *state, struct ioc_err *err);
	int (*complete)(void *state, struct io_unit *u, struct ioc_err *err);
	void (*reuse)(struct io_unit *u, uint64_t offset, uint64_t len,
		      uint64_t now_ns);
	bool (*readback)(void *state);
	bool (*interpose)(void *state, bool writes_done, struct io_hooks_op *op);
	/* the generator's next I/O (op; its direction the job's) may be
	 * issued: false ends the job's I/O there (fio's verify_state_load:
	 * past what the state says was written). Optional, may be NULL. */
	bool (*admit)(void *state, const struct io_hooks_op *op);
};

#endif

/* replay.h - read_iolog as the worker's op source, beside the generator
 * (core/generator.h): the log's I/Os in order, each with the time it is
 * due after the replay's start (base/iolog.h says how the log's timing
 * and the replay_* options make it).
 */
#ifndef IOCHAR_CORE_REPLAY_H
#define IOCHAR_CORE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/iolog.h"
#include "base/job.h"
#include "core/generator.h"
#include "engine/engine.h"
#include "stats/result.h"
#include "util/err.h"

struct replay {
	struct iolog log;  /* owned */
	size_t next;       /* the next entry to issue */
	uint64_t start_ns; /* when the replay began (the worker's start) */
};

/* Load job's read_iolog for one worker (the runner checked it already:
 * its files are the job's, in order). 0 or -errno with a message. */
int replay_init(struct replay *r, const struct job_spec *job, struct ioc_err *err);

/* The I/Os are due from start_ns on. */
void replay_start(struct replay *r, uint64_t start_ns);

/* Does the replay keep a schedule (not as fast as possible)? */
bool replay_timed(const struct replay *r);

/* The next I/O: op (file, direction, offset, length), *flush its kind
 * (IO_OP_RW, or IO_OP_FSYNC / IO_OP_FDATASYNC for a sync line, op->file
 * the file) and *due_ns when it is due. false once all are issued. */
bool replay_next(struct replay *r, struct gen_op *op, enum io_op *flush,
		 uint64_t *due_ns);

/* A replay whose p99 issue lag is past this fell behind its log. */
#define REPLAY_BEHIND_NS 1000000ull

/* For each read_iolog job of r that fell behind its log's schedule, one
 * line to f saying so, with its p99 issue lag and whose it was (iochar's
 * tool lag, or the target's). */
void replay_report(const struct run_result *r, FILE *f);

/* Release r's memory; r may be NULL. */
void replay_free(struct replay *r);

#endif

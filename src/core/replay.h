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
#include "base/replay_verdict.h"
#include "core/generator.h"
#include "engine/engine.h"
#include "stats/result.h"
#include "util/err.h"

struct replay {
	struct iolog_reader rd; /* rd.log: the I/Os (all, or the chunk) */
	size_t next;       /* the next entry of rd.log to issue */
	uint64_t start_ns; /* when the replay began (the worker's start) */
	const struct job_spec *job;
	bool chunked;      /* read_iolog_chunked: rd.log.e is IOLOG_CHUNK at most */
	bool timed;        /* some I/O of the whole log is due after the start */
	bool failed;       /* a chunk could not be read: the replay ended early */
	struct ioc_err why;
};

/* Load job's read_iolog for one worker (the runner checked it already:
 * its files are the job's, in order): whole, or its first chunk with
 * read_iolog_chunked (the next ones are read as the replay needs them).
 * 0 or -errno with a message. */
int replay_init(struct replay *r, const struct job_spec *job, struct ioc_err *err);

/* The I/Os are due from start_ns on. */
void replay_start(struct replay *r, uint64_t start_ns);

/* Does the replay keep a schedule (not as fast as possible)? */
bool replay_timed(const struct replay *r);

/* The next I/O: op (file, direction, offset, length), *flush its kind
 * (IO_OP_RW, or IO_OP_FSYNC / IO_OP_FDATASYNC for a sync line, op->file
 * the file) and *due_ns when it is due. false once all are issued, or
 * when the next chunk cannot be read (replay_error says why). */
bool replay_next(struct replay *r, struct gen_op *op, enum io_op *flush,
		 uint64_t *due_ns);


/* The replay figures of job j of r (its workers' together): timed when
 * its I/Os kept a schedule (their issue lag was recorded), the I/Os
 * timed and how many of them were issued more than REPLAY_BEHIND_NS
 * late, the issue-lag, tool-lag and latency histograms, the verdict
 * (replay_verdict). false when job j replays nothing. */
struct replay_figures {
	bool timed;
	uint64_t ios, behind;
	struct hist lag, tool_lag, lat; /* lat: the job's latency, beside */
	const char *verdict; /* NULL: not timed */
};
bool replay_figures_of(const struct run_result *r, unsigned j, struct replay_figures *f);

/* For each read_iolog job of r that fell behind its log's schedule, a
 * note (util/note.h: on stderr when notes are shown, in the JSON's notes)
 * saying so, with its p99 issue lag and whose it was (iochar's tool lag,
 * or the target's). */
void replay_report(const struct run_result *r);

/* Why the replay ended early (a chunk unreadable, or the log changed
 * since the run was checked): 0, or -EIO with the message in err. */
int replay_error(const struct replay *r, struct ioc_err *err);

/* Release r's memory; r may be NULL. */
void replay_free(struct replay *r);

#endif

/* iolog.h - fio's iolog (versions 2 and 3) read into plain data, as fio
 * 3.33's iolog.c read_iolog reads it, but strict: every bad line is
 * refused, named FILE:LINE, all at once, before anything runs.
 *
 * Version 2: "FILE add|open|close", "FILE read|write|trim|sync|datasync OFF LEN",
 * "FILE wait MSEC 0" (the next I/Os wait until MSEC after the job's
 * start). Version 3 (what fio 3.33's write_iolog writes): each line starts
 * with its time in microseconds since the log started; the replay keeps
 * the gaps between lines (scaled by replay_time_scale %), none with
 * replay_no_stall; a gap of a line whose time is before the last one's,
 * or after a line at time 0, is none (fio's delay_since_ttime). The
 * version line again later is a log appended to it (write_iolog appends;
 * fio's reader skips it as a bad line). Offsets
 * are divided by replay_scale, then aligned down to replay_align;
 * replay_redirect sends every file's I/O to that one file; replay_skip
 * leaves out the reads, writes, trims or syncs (not datasyncs, as fio),
 * whose times still count in the schedule. A log is read whole
 * (iolog_load) or a chunk at a time (struct iolog_reader,
 * read_iolog_chunked).
 */
#ifndef IOCHAR_BASE_IOLOG_H
#define IOCHAR_BASE_IOLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/iolog_opts.h"
#include "base/iolog_store.h"
#include "base/job.h"
#include "util/err.h"

/* Read the iolog at path into *log (zeroed first); a blktrace binary
 * file (base/blktrace.h) is read as fio reads one, by its magic. Returns 0; -errno with
 * one line per bad line ("PATH:LINE: why", a usage error) or the reason
 * the file cannot be read. *log is empty on failure. */
int iolog_load(struct iolog *log, const char *path,
	       const struct iolog_replay_opts *o, struct ioc_err *err);

/* iolog_load from the open stream f, named path in messages. */
int iolog_read(struct iolog *log, FILE *f, const char *path,
	       const struct iolog_replay_opts *o, struct ioc_err *err);

/* A log read a chunk at a time (fio's read_iolog_chunked): log.e holds
 * the chunk's I/Os, the rest of log (files, extents, timed, depth) is
 * what the chunks so far made. Bad lines are all named at the end of the
 * file, as iolog_load names them, so a run scans the whole log in chunks
 * before anything is written. The reader does not move once open. */
#define IOLOG_CHUNK 1024 /* I/Os a chunk (fio reads its chunks by the depth) */
struct iolog_reader {
	struct iolog log;
	FILE *f;
	const char *path;          /* the caller's, as long as the reader */
	struct iolog_replay_opts o;
	bool blk, swap, end;
	size_t total;              /* I/Os read so far */
	void *state;               /* the format's parse state */
	struct ioc_err bad;        /* the text log's bad lines so far */
};

/* Open path for reading (a block trace by its magic). 0 or -errno with
 * a message, as iolog_load. */
int iolog_reader_open(struct iolog_reader *rd, const char *path,
		      const struct iolog_replay_opts *o, struct ioc_err *err);

/* Replace the chunk with the next up to max I/Os. 0: a chunk read, more
 * to come; 1: the end (the chunk holds the last I/Os, maybe none);
 * -errno with every bad line at the end, or the read error. */
int iolog_reader_next(struct iolog_reader *rd, size_t max, struct ioc_err *err);

/* Release what the reader holds; rd may be unopened (zeroed). */
void iolog_reader_close(struct iolog_reader *rd);

/* A read_iolog job's files become the log's (fio: free_release_files,
 * then the log's "add" lines), each at least as long as the furthest
 * I/O of any (size= and filesize= only make them longer), the job's
 * block sizes (bs=R,W,T) the largest logged; a block trace's queue depth
 * is the job's unless iodepth_set (fio's). A merge_blktrace_file is
 * merged first, deferred as blktrace_merge_job says when defer_merge.
 * Reads the log; errors as iolog_load. */
int iolog_apply_files(struct job_spec *job, bool iodepth_set, bool defer_merge,
		      struct ioc_err *err);

#endif

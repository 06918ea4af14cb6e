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

#include "base/job.h"
#include "base/option.h"
#include "util/err.h"

/* The flushes last: op >= IOLOG_SYNC moves no data. */
enum iolog_op { IOLOG_READ, IOLOG_WRITE, IOLOG_TRIM, IOLOG_SYNC, IOLOG_DATASYNC };

struct iolog_entry {
	uint64_t offset, len;
	uint64_t due_ns;  /* after the replay's start; 0 with no timing */
	unsigned file;    /* index into iolog.files */
	enum iolog_op op;
};

struct iolog {
	int version;             /* 2 or 3 */
	char **files;            /* as added (or the one redirect); owned */
	unsigned nr_files;
	uint64_t *extent;        /* [nr_files]: end of the furthest I/O */
	struct iolog_entry *e;   /* the I/Os in order; owned */
	size_t nr, cap;
	bool timed;              /* some I/O is due after the start */
	unsigned depth;          /* a block trace's deepest queue; 0: none */
};

/* How the job replays (its replay_* options). */
struct iolog_replay_opts {
	const char *redirect;    /* "" or NULL: none */
	unsigned scale;          /* 0 or 1: offsets as logged */
	uint64_t align;          /* 0: none; else a power of 2 */
	unsigned time_scale;     /* %, >= 1 */
	bool no_stall;
	unsigned skip;           /* 1 << enum iolog_op: left out (replay_skip) */
};

/* replay_time_scale's row: parsed as fio's (1 and up), 0 in a job made
 * without parsing taken as the default, 100. */
int iolog_parse_time_scale(void *obj, const struct option_def *o, const char *v,
			   struct ioc_err *err);
int iolog_show_time_scale(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_time_scale(const void *obj, const struct option_def *o, struct jw *w);

/* replay_skip's row (fio's list "read,write,trim,sync" into the job's
 * mask; shown in that order; left out of the JSON when empty) and
 * merge_blktrace_scalars/_iters' (':'-separated, up to JOB_MAX_MERGE;
 * JSON arrays, left out when empty). base/iolog_opts.c. */
int iolog_parse_skip(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err);
int iolog_show_skip(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_skip(const void *obj, const struct option_def *o, struct jw *w);
int iolog_parse_merge_scalars(void *obj, const struct option_def *o, const char *v,
			      struct ioc_err *err);
int iolog_parse_merge_iters(void *obj, const struct option_def *o, const char *v,
			    struct ioc_err *err);
int iolog_show_merge_list(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_merge_list(const void *obj, const struct option_def *o, struct jw *w);

/* How many traces a merge's read_iolog list names (':'-separated). */
unsigned iolog_merge_count(const char *list);

/* The replay options of job (read_iolog's). */
struct iolog_replay_opts iolog_opts_of(const struct job_spec *job);

/* The checks between the iolog options of job: replay_align a power of
 * 2; write_iolog not a block device; read_iolog without verify (not
 * yet) or vd=; merge_blktrace_file with read_iolog's traces (at most
 * JOB_MAX_MERGE, none of them the output), a scalar and an iteration
 * count a trace when given. 0 or -EINVAL with a usage message. */
int iolog_opts_check(const struct job_spec *job, struct ioc_err *err);

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

/* Building a log (the readers): the index of file name, added when new
 * (-ENOMEM, -E2BIG past JOB_MAX_FILES); entry e appended, the file's
 * extent and the log's timing kept (-ENOMEM). */
int iolog_add_file(struct iolog *log, const char *name);
int iolog_push(struct iolog *log, const struct iolog_entry *e);

/* The schedule after a gap of gap_us at time_scale %: due_ns + the gap,
 * never past IOLOG_DUE_MAX (a century: no sum overflows). */
#define IOLOG_DUE_MAX (100ull * 365 * 86400 * 1000000000ull)
uint64_t iolog_due_add(uint64_t due_ns, uint64_t gap_us, unsigned time_scale);

/* Release what iolog_load made; log may be NULL. */
void iolog_free(struct iolog *log);

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

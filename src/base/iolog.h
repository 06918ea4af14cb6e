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
 * replay_redirect sends every file's I/O to that one file.
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
};

/* replay_time_scale's row: parsed as fio's (1 and up), 0 in a job made
 * without parsing taken as the default, 100. */
int iolog_parse_time_scale(void *obj, const struct option_def *o, const char *v,
			   struct ioc_err *err);
int iolog_show_time_scale(const void *obj, const struct option_def *o, FILE *f);
void iolog_emit_time_scale(const void *obj, const struct option_def *o, struct jw *w);

/* The replay options of job (read_iolog's). */
struct iolog_replay_opts iolog_opts_of(const struct job_spec *job);

/* The checks between the iolog options of job: replay_align a power of
 * 2; write_iolog not a block device; read_iolog without verify (not
 * yet) or vd=. 0 or -EINVAL with a
 * usage message. */
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
 * is the job's unless iodepth_set (fio's). Reads the log; errors as
 * iolog_load. */
int iolog_apply_files(struct job_spec *job, bool iodepth_set, struct ioc_err *err);

#endif

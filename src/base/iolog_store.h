/* iolog_store.h - an iolog in memory: its I/Os in order, its files and
 * their extents, how a job replays it. What every reader fills (the text
 * log's, iolog.c; a block trace's, blktrace.c) and the replay reads;
 * below both readers, so the trace reader needs no text reader. */
#ifndef IOCHAR_BASE_IOLOG_STORE_H
#define IOCHAR_BASE_IOLOG_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Building a log (the readers): the index of file name, added when new
 * (-ENOMEM, -E2BIG past JOB_MAX_FILES); entry e appended, the file's
 * extent and the log's timing kept (-ENOMEM). */
int iolog_add_file(struct iolog *log, const char *name);
/* The index of file name in log, or -1. */
int iolog_file_index(const struct iolog *log, const char *name);
int iolog_push(struct iolog *log, const struct iolog_entry *e);

/* The schedule after a gap of gap_us at time_scale %: due_ns + the gap,
 * never past IOLOG_DUE_MAX (a century: no sum overflows). */
#define IOLOG_DUE_MAX (100ull * 365 * 86400 * 1000000000ull)
uint64_t iolog_due_add(uint64_t due_ns, uint64_t gap_us, unsigned time_scale);

/* Release what iolog_load made; log may be NULL. */
void iolog_free(struct iolog *log);

#endif

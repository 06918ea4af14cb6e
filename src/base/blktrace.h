/* blktrace.h - a blktrace binary file (struct blk_io_trace records, as
 * `blkparse -d` dumps them) read into an iolog (base/iolog.h) as fio
 * 3.33's blktrace.c reads it for read_iolog: the queue events (Q) are the
 * I/Os, in file order, due after the first by their recorded times
 * (replay_time_scale, replay_no_stall), a flush a sync of its device;
 * merges and completions give the deepest queue (capped at 1024, as fio).
 * A device is /dev's block device of its major:minor, or replay_redirect.
 * Offsets are sectors x 512, divided by replay_scale and aligned down to
 * replay_align, lengths aligned up to it (fio's t_bytes_align); a discard
 * is a trim; replay_skip leaves out reads, writes, trims (discards) or
 * syncs (flushes). Records of either byte order. Unlike fio, a bad record
 * (magic, version, a truncated record or payload) refuses the trace,
 * naming the record and its byte offset.
 */
#ifndef IOCHAR_BASE_BLKTRACE_H
#define IOCHAR_BASE_BLKTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/iolog_store.h"
#include "util/err.h"

#define BLKTRACE_MAGIC 0x65617400u  /* "eat" << 8, | version */
#define BLKTRACE_VERSION 0x07
#define BLKTRACE_RECORD 48          /* sizeof(struct blk_io_trace) */

/* The trace categories and actions fio reads (blktrace_api.h). */
enum {
	BLKTRACE_TC_READ = 1 << 0, BLKTRACE_TC_WRITE = 1 << 1,
	BLKTRACE_TC_FLUSH = 1 << 2, BLKTRACE_TC_QUEUE = 1 << 4,
	BLKTRACE_TC_COMPLETE = 1 << 7, BLKTRACE_TC_NOTIFY = 1 << 10,
	BLKTRACE_TC_DISCARD = 1 << 13,
	BLKTRACE_TA_QUEUE = 1, BLKTRACE_TA_BACKMERGE = 2,
	BLKTRACE_TA_FRONTMERGE = 3, BLKTRACE_TA_COMPLETE = 8,
};
#define BLKTRACE_ACT(tc) ((uint32_t)(tc) << 16)

/* One record, in host order. */
struct blktrace_rec {
	uint32_t magic, sequence;
	uint64_t time, sector;   /* ns; 512-byte sectors */
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

/* BLKTRACE_RECORD bytes of the given order as a record. */
void blktrace_decode(const unsigned char *in, bool swap, struct blktrace_rec *rec);

/* Does stream f (at its start) hold a block trace? *swap: its records
 * are of the other byte order. f is back at its start afterwards. */
bool blktrace_is(FILE *f, bool *swap);

/* rec as BLKTRACE_RECORD bytes of the given order (tests build traces
 * with it). */
void blktrace_encode(const struct blktrace_rec *rec, bool swap,
		     unsigned char out[BLKTRACE_RECORD]);

/* A trace read a chunk at a time (base/iolog.h's struct iolog_reader):
 * blktrace_begin keeps log, path and o (which outlive it); NULL without
 * memory. blktrace_more appends records' I/Os to log until it holds max:
 * 0, 1 at the end of the file, -errno (blktrace_error copies the message
 * into err and returns it again). blktrace_end: the whole trace read,
 * total its I/Os: its depth, or the usage error of a trace without I/O. */
struct bt_read;
struct bt_read *blktrace_begin(struct iolog *log, const char *path,
			       const struct iolog_replay_opts *o, bool swap);
int blktrace_more(struct bt_read *r, FILE *f, size_t max);
int blktrace_error(const struct bt_read *r, struct ioc_err *err);
int blktrace_end(struct bt_read *r, size_t total, struct ioc_err *err);
void blktrace_done(struct bt_read *r); /* r may be NULL */

/* Read the trace in f (named path in messages) into *log (zeroed
 * first), as iolog_read. */
int blktrace_read(struct iolog *log, FILE *f, const char *path,
		  const struct iolog_replay_opts *o, bool swap, struct ioc_err *err);

#endif

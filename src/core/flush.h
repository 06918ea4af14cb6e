/* flush.h - when a worker flushes, as fio's fsync=N and fdatasync=N
 * schedule it (fio's get_rw_ddir: before the next I/O, when the writes
 * issued so far are a multiple of N and the last I/O was not a flush;
 * fsync first), and how sync= opens files. */
#ifndef IOCHAR_CORE_FLUSH_H
#define IOCHAR_CORE_FLUSH_H

#include "base/job.h"
#include "engine/engine.h"

struct flush_sched {
	uint64_t writes;  /* issued so far (fio's io_issues[DDIR_WRITE]) */
	bool last_flush;  /* the last I/O was a flush (fio's last_was_sync) */
	unsigned file;    /* of the last write */
};

/* A data I/O of direction d to file was issued. */
void flush_note(struct flush_sched *f, const struct job_spec *j, enum io_dir d,
		unsigned file);

/* The flush due before the next I/O (IO_OP_FSYNC first, as fio checks
 * it first), or IO_OP_RW when none is; one returned counts as issued.
 * Its file is f->file. */
enum io_op flush_due(struct flush_sched *f, const struct job_spec *j);

/* The open(2) flags sync= asks for (O_SYNC, O_DSYNC or 0). */
int flush_open_flags(const struct job_spec *j);

/* Does the job flush its files through the engine when its I/O is done:
 * end_fsync, or fsync_on_close when the files are a target kind's (a VD:
 * the worker closes no descriptor of its own)? Only jobs that write, as
 * fio's should_fsync. (fio 3.33 makes one fsync per file for
 * fsync_on_close, at close: the worker's teardown.) */
bool flush_at_end(const struct job_spec *j, bool kind);

#endif

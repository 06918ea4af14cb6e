/* blktrace_merge.h - several block traces merged into one by time, as
 * fio's merge_blktrace_iologs (blktrace.c, as corrected by fio commit
 * c55d29ef: fio 3.33's merge fails, "iolog short read"): read_iolog's
 * ':'-separated traces go into merge_blktrace_file, which is then
 * replayed. Only the queue events of reads, writes and discards are kept
 * (a flush only if it also reads or writes: fio's t_get_ddir), without
 * their payloads, in host byte order. Each trace's times are scaled by
 * its merge_blktrace_scalars % and the trace repeated
 * merge_blktrace_iters times, each repeat starting where the scaled trace
 * ended (its latest record's scaled time, notifications left out; fio
 * adds the unscaled end before scaling again). The next record written is always the earliest of the
 * traces' next ones, ties as fio breaks them. Unlike fio, a bad record
 * (magic, version, truncation) refuses the merge naming the trace, record
 * and byte, and nothing is written: the output appears whole or not.
 */
#ifndef IOCHAR_BASE_BLKTRACE_MERGE_H
#define IOCHAR_BASE_BLKTRACE_MERGE_H

#include <stdio.h>

#include "base/job.h"
#include "util/err.h"

/* One trace to merge: its stream (at its start; seekable), its name in
 * messages, its time scale in % (> 0) and how many times it runs (>= 1). */
struct blktrace_merge_in {
	FILE *f;
	const char *name;
	double scalar;
	unsigned iters;
};

/* Merge in[0..nr) into out. Returns the records written (>= 1), or
 * -errno with a usage message naming the trace (not a block trace, a bad
 * record, none of its I/Os) or the read/write error. */
long long blktrace_merge(const struct blktrace_merge_in *in, unsigned nr, FILE *out,
			 struct ioc_err *err);

/* job's read_iolog traces merged into its merge_blktrace_file (written
 * whole, atomically), which becomes its read_iolog; merge_blktrace_file
 * is then cleared (fio's), so a second call merges nothing. The checks of
 * iolog_opts_check come first. With defer (a command line being read)
 * the merge goes to an unnamed file in that directory, read through
 * blktrace_merge_reads, and appears under its name only at
 * blktrace_merge_commit: a run refused later leaves nothing behind.
 * 0 or -errno with a message. */
int blktrace_merge_job(struct job_spec *job, bool defer, struct ioc_err *err);

/* The path to read path's contents by: a deferred merge's unnamed file
 * while one is pending for path, else path. Valid until the commit. */
const char *blktrace_merge_reads(const char *path);

/* Every deferred merge written under its name (atomically) and
 * forgotten; call once the run's input is validated, before it starts.
 * 0 or -errno with a message naming the first file that failed. */
int blktrace_merge_commit(struct ioc_err *err);

#endif

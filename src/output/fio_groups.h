/* fio_groups.h - the entries fio's formats report (json_fio.c, terse.c,
 * the text's group lines): one per worker, or, with group_reporting, the
 * workers of a reporting group merged into one, as fio 3.33's stat.c
 * (__show_run_stats, sum_thread_stats) does. Private to src/output/. */
#ifndef IOCHAR_OUTPUT_FIO_GROUPS_H
#define IOCHAR_OUTPUT_FIO_GROUPS_H

#include <stdint.h>

#include "stats/result.h"

struct fio_entry {
	/* the worker, or its members merged: job, clone and name are the
	 * first member's, counts and histograms summed, elapsed_ns the
	 * longest member's (fio's runtime: the max), error the first */
	struct worker_result wr;
	unsigned members;        /* workers in it (fio's "jobs=") */
	uint64_t runtime_sum_ns; /* fio's job_runtime: the members' summed */
	unsigned first;          /* index of its first worker in r->workers */
};

/* The entries of r in fio's order: a worker starts a new entry unless
 * its job has group_reporting and the worker before it is in the same
 * group. *out is owned by the caller (fio_entries_free). Returns 0 or
 * -ENOMEM. */
int fio_entries_make(const struct run_result *r, struct fio_entry **out,
		     unsigned *nr);

/* Release what fio_entries_make made; e may be NULL. */
void fio_entries_free(struct fio_entry *e, unsigned nr);

/* The reporting groups of r: one more than the highest groupid of its
 * workers (0 without workers). */
unsigned fio_group_count(const struct run_result *r);

/* fio's figures of one reporting group and direction (its struct
 * group_run_stats): bytes summed over the entries, the shortest and
 * longest entry's runtime (ms) and bandwidth (bytes/s, each entry's bytes
 * over its runtime), and agg, the group's bytes over the longest runtime.
 * Entries without I/O in the direction do not count. */
struct fio_group_dir {
	uint64_t io_bytes;
	uint64_t min_run_ms, max_run_ms;
	uint64_t min_bw, max_bw, agg_bw;
};

/* Group g's figures of direction d over the entries e[0..nr). */
void fio_group_figures(const struct fio_entry *e, unsigned nr, unsigned g,
		       enum io_dir d, struct fio_group_dir *out);

#endif

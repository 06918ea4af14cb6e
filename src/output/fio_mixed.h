/* fio_mixed.h - one direction's figures as fio's formats show them (a
 * view over a worker's results), and fio's "mixed" direction: every
 * direction summed, for unified_rw_reporting=mixed|both (fio's stat.c
 * sum_thread_stats into direction 0). Private to src/output/. */
#ifndef IOCHAR_OUTPUT_FIO_MIXED_H
#define IOCHAR_OUTPUT_FIO_MIXED_H

#include "output/fio_figures.h"
#include "stats/prio_stats.h"

/* What fio writes for one direction: counts, the time they are over,
 * its latency histograms (NULL: none, written as N 0) and its
 * per-second bandwidth (KiB/s) and IOPS samples. */
struct fio_dir_view {
	uint64_t ios, bytes, elapsed_ns;
	uint64_t drops; /* fio's drop_ios */
	const struct hist *slat, *clat, *lat;
	struct samples bw, iops;
	/* its latency per priority: direction prio_dir of prio (NULL: none) */
	const struct prio_stats *prio;
	enum io_dir prio_dir;
};

/* Direction d of wr; gtod_reduce: no latency, no samples (fio takes
 * none). */
struct fio_dir_view fio_dir_view_of(const struct worker_result *wr, enum io_dir d,
				    bool open_loop, bool gtod_reduce);

/* fio's "mixed": the directions' histograms merged, counts summed, and
 * their bandwidth and IOPS samples summed as fio sums them (min, max,
 * mean and count each added up: the mixed mean is the total rate). */
struct fio_mixed {
	struct hist slat, clat, lat;
	struct prio_stats *prio; /* the directions' merged; NULL: none */
	struct fio_dir_view view; /* over the histograms above */
};

/* A new fio_mixed of wr (fio_mixed_free), or NULL when out of memory. */
struct fio_mixed *fio_mixed_new(const struct worker_result *wr, bool open_loop,
				bool gtod_reduce);
void fio_mixed_free(struct fio_mixed *m);

/* Does job j's unified_rw_reporting show the directions apart, the
 * mixed one? */
bool fio_shows_dirs(const struct job_spec *j);
bool fio_shows_mixed(const struct job_spec *j);

#endif

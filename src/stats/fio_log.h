/* fio_log.h - fio's log files (write_bw_log, write_iops_log,
 * write_lat_log, in fio 3.33's names and line format) for one worker.
 *
 * The worker hands over each measured I/O and, between passes, its
 * running totals; samples are kept in memory and written when the worker
 * ends (as fio does: nothing is written to disk while I/O is measured).
 * A line is "time_ms, value, ddir, bs[, offset], prio": time since the
 * measurement started; with log_avg_msec, a window's mean (or max) per
 * direction, bs and offset 0 for latencies; bandwidth in KiB/s and IOPS
 * per window, or per I/O without averaging (bandwidth then bytes*1e6 /
 * clat in ns, IOPS 1, as fio). write_hist_log: every log_hist_msec, at
 * a completion, "time_ms, ddir, bs, bin0, ..." with the completion
 * latencies since the line before in fio's bins. Plain state owned by
 * one worker thread.
 */
#ifndef IOCHAR_STATS_FIO_LOG_H
#define IOCHAR_STATS_FIO_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/job.h"
#include "util/err.h"

enum fio_log_kind { FLOG_LAT, FLOG_CLAT, FLOG_SLAT, FLOG_BW, FLOG_IOPS, FLOG_COUNT };

struct fio_log_sample {
	uint64_t t_ms, val, bs, off;
	uint8_t dir;
	uint16_t prio;   /* the I/O's priority; a window's line: 0, as fio */
};

struct fio_log {
	char path[4096 + 32];
	struct fio_log_sample *s;
	size_t nr, cap;
	/* log_avg_msec: the open window per direction */
	uint64_t avg_last[DIR_ALL], win_n[DIR_ALL], win_max[DIR_ALL];
	double win_mean[DIR_ALL];
};

/* fio's latency bins (its stat.h: 29 groups of 64, in ns). */
#define FIO_PLAT_BITS 6
#define FIO_PLAT_NR (29u << FIO_PLAT_BITS)

/* fio's bin of a latency of v ns (its plat_val_to_idx). */
unsigned fio_plat_index(uint64_t v);

/* write_hist_log: one line, the bins filled since the line before. */
struct fio_hist_line {
	uint64_t t_ms, bs;
	uint8_t dir;
	uint64_t *bins; /* FIO_PLAT_NR >> coarseness of them */
};

struct fio_hist_log {
	char path[4096 + 32];
	uint64_t every_ms;
	unsigned coarse;
	uint64_t *plat[DIR_ALL], *prev[DIR_ALL]; /* cumulative; at the last line */
	uint64_t last_ms[DIR_ALL];
	bool started[DIR_ALL];
	struct fio_hist_line *l;
	size_t nr, cap;
};

struct fio_logs {
	bool on[FLOG_COUNT];
	struct fio_log log[FLOG_COUNT];
	uint64_t avg_ms, bs;
	bool log_max, log_offset, log_prio, oom;
	bool gz_store;                    /* log_store_compressed: FILE.fz */
	uint64_t gz_chunk;                /* log_compression: bytes per stream */
	bool append;                      /* per_job_logs=0: one file per job */
	unsigned cur_prio;                /* fio_logs_io's I/O's, while it logs */
	struct fio_hist_log *hist;        /* write_hist_log, else NULL */
	uint64_t tick_ms;                 /* bw/iops windows: the last tick */
	uint64_t bytes[DIR_ALL], ios[DIR_ALL]; /* totals at that tick */
};

/* Does job j ask for any fio log (write_hist_log counts with
 * log_hist_msec, as fio writes no lines without it)? */
bool fio_logs_wanted(const struct job_spec *j);

/* Set l up for job j's worker number thread_number (fio's: 1-based over
 * every worker of the run), naming its files as fio. 0, or -ENAMETOOLONG
 * with a message. Nothing is written yet. */
int fio_logs_init(struct fio_logs *l, const struct job_spec *j,
		  unsigned thread_number, struct ioc_err *err);

/* One measured I/O done at t_ns after the measurement start: lat (fio's
 * lat: from its start), clat (from its submission), slat (start to
 * submitted; UINT64_MAX: not measured, as for sync engines), prio its
 * priority value (io_unit.ioprio). */
void fio_logs_io(struct fio_logs *l, uint64_t t_ns, enum io_dir d,
		 uint64_t bs, uint64_t off, uint64_t lat, uint64_t clat,
		 uint64_t slat, unsigned prio);

/* Averaged bw/iops logs: the worker's measured totals at t_ns; a line per
 * direction that moved once log_avg_msec has passed since the last. */
void fio_logs_tick(struct fio_logs *l, uint64_t t_ns,
		   const uint64_t bytes[DIR_ALL], const uint64_t ios[DIR_ALL]);

/* Close the open windows at t_ns and write every file (created or
 * truncated). 0, or -errno with a message naming the file. */
int fio_logs_write(struct fio_logs *l, uint64_t t_ns, struct ioc_err *err);

/* Release l's memory (l may be all zero). */
void fio_logs_free(struct fio_logs *l);

/* fio_log_gz.c: a log kept compressed (log_store_compressed), in fio
 * 3.33's binary form deflated into PATH.fz (fio --inflate-log reads it).
 * Write g's samples to g->path + ".fz" (appended to with append), with
 * fio's offset and priority flags as l says, in streams of chunk bytes
 * (0: one). 0, or -errno with a message naming the file. */
int fio_log_write_gz(const struct fio_logs *l, const struct fio_log *g, uint64_t chunk,
		     struct ioc_err *err);

#endif

/* worker_complete.c - the booking of each finished I/O: the hooks'
 * check, errors and fill_device's end, latency and the per-second series,
 * fio's slat/clat split and logs, the paced run's lag and service times,
 * flushes' sync figures; and the live totals the runner reads
 * (core/worker_int.h). */
#define _GNU_SOURCE
#include "core/worker_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/error_opts.h"
#include "stats/prio_stats.h"

/* A failure the hooks call fatal (verify_fatal) stops every worker of the
 * run, as does any I/O error. */
static bool hooks_complete(struct worker *w, struct io_unit *u)
{
	int ret = w->io->complete(w->io_state, u, &w->err);

	if (!ret)
		return true;
	w->error = ret;
	atomic_store(w->stop, true);
	return false;
}

/* Book a finished flush: fio's "sync" figures, except for the flushes at
 * the end (end_fsync), which fio does not count either. Returns false
 * when the worker must stop (error). */
static bool flush_complete(struct worker *w, struct io_unit *u, uint64_t now)
{
	bool datasync = u->op == IO_OP_FDATASYNC;
	const char *what = datasync ? "fdatasync" : "fsync";

	u->op = IO_OP_RW; /* the unit moves data again when reused */
	if (u->result < 0) {
		w->error = err_set(&w->err, (int)-u->result, "job %s: %s of %s: %s",
				   w->job->name, what,
				   w->kind ? w->kind->name : w->nr_fds ? w->job->files[u->file] : "(null)",
				   strerror((int)-u->result));
		return false;
	}
	if (now >= w->measure_start_ns && !w->flushing_end) {
		w->stats.sync_ios++;
		w->stats.datasync_ios += datasync;
		hist_record(&w->stats.sync_lat, now > u->start_ns ? now - u->start_ns : 0);
	}
	return true;
}

/* fio's logs, in fio's terms as the fio layout of the JSON: lat from the
 * I/O's start, which in a paced run is when it was issued (fio starts an
 * I/O after its rate wait; iochar's own figures count from the due time),
 * clat from the submit call's return for async engines (sync engines do
 * the I/O inside the call: no slat, as in fio), slat between the two. */
static void log_io(struct worker *w, const struct io_unit *u, uint64_t now)
{
	uint64_t start = (w->feat & WF_PACED) ? w->pacing[u->index].issued_ns : u->start_ns;
	uint64_t sub = start, slat = UINT64_MAX;
	if (!(w->eops->flags & ENGINE_SYNC)) {
		sub = w->fio.submitted_ns[u->index];
		slat = sub > start ? sub - start : 0;
	}
	fio_logs_io(w->fio.logs, now - w->measure_start_ns, u->dir, u->len, u->offset,
		    now > start ? now - start : 0, now > sub ? now - sub : 0, slat,
		    u->ioprio);
}

/* fio's latency per priority: clat (from the submit call's return; a
 * synchronous engine's from the I/O's start), lat with lat_percentiles,
 * as fio records its clat_prio stats. */
static void prio_record(struct worker *w, const struct io_unit *u, uint64_t now)
{
	uint64_t from = (w->feat & WF_PACED) ? w->pacing[u->index].issued_ns : u->start_ns;
	if ((w->feat & WF_SPLIT) && !w->job->lat_percentiles)
		from = w->fio.submitted_ns[u->index];
	prio_stats_record(w->prio, u->dir, u->ioprio, now > from ? now - from : 0);
}

/* fill_device: a write that found the file system (or device) full
 * (ENOSPC, EDQUOT, or short: the space ran out inside it) ends the job
 * as fio's, without an error; the partial write is not counted. */
static bool filled_up(const struct worker *w, const struct io_unit *u)
{
	return w->job->fill_device && u->dir == DIR_WRITE &&
	       (u->result >= 0 || u->result == -ENOSPC || u->result == -EDQUOT);
}

/* What a failed I/O's message names: the target kind, or the file. */
static const char *io_target_name(const struct worker *w, const struct io_unit *u)
{
	if (w->kind)
		return w->kind->name;
	return w->nr_fds ? w->job->files[first_file(w) + u->file] : "(null)";
}

/* fio's error count (continue_on_error): how many, and the first. */
static void count_error(struct worker *w, int e)
{
	if (!w->stats.err_total++)
		w->stats.err_first = e;
}

/* continue_on_error: a failed I/O of a class and error the job passes
 * over is counted (fio's total_ios and total_err, no bytes, no latency)
 * and the worker goes on, silently, as fio's. */
static bool error_passed_over(struct worker *w, const struct io_unit *u, uint64_t now)
{
	int e = (int)-u->result;

	if (!w->job->continue_on_error || !error_opts_continues(w->job, u->dir, e))
		return false;
	if (now >= w->measure_start_ns && u->dir < DIR_ALL)
		w->stats.err_ios[u->dir]++;
	count_error(w, e);
	if (w->job->error_dump) /* one line, whole: stdio locks the stream */
		fprintf(stderr, "iochar: job %s: %s of %llu bytes at offset %llu of %s: %s "
			"(passed over: continue_on_error)\n", w->job->name, io_dir_name(u->dir),
			(unsigned long long)u->len, (unsigned long long)u->offset,
			io_target_name(w, u), strerror(e));
	return true;
}

/* A failed I/O that stops the worker: counted as fio counts it, its
 * error the worker's. Returns false (stop). */
static bool io_failed(struct worker *w, struct io_unit *u, uint64_t now)
{
	int e = u->result < 0 ? (int)-u->result : EIO;
	if (w->job->continue_on_error) /* fio counts the one that stops it */
		count_error(w, e);
	/* fio's total_ios counts the I/O that failed too, no bytes */
	if (u->result < 0 && u->dir != DIR_TRIM && now >= w->measure_start_ns)
		w->stats.err_ios[u->dir]++;
	/* fio counts the failed trim (total_ios 1, no bytes): a job on
	 * a file that cannot discard shows it */
	if (u->dir == DIR_TRIM && now >= w->measure_start_ns)
		(void)stats_record(&w->stats, u->dir, 0,
				   now > u->start_ns ? now - u->start_ns : 0,
				   now - w->measure_start_ns);
	const char *what = u->result < 0 ? strerror(e) : "short transfer";
	char member[IOC_ERR_MAX / 2];
	/* a kind (a VD) names the member that failed, with its own error */
	if (w->kind && w->kind->io_error &&
	    w->kind->io_error(w->engine_state, member, sizeof(member)))
		what = member;
	w->error = err_set(&w->err, e, "job %s: %s of %llu bytes at offset %llu of %s: %s",
			   w->job->name, io_dir_name(u->dir),
			   (unsigned long long)u->len, (unsigned long long)u->offset,
			   io_target_name(w, u), what);
	return false;
}

/* A finished I/O that did not move all its bytes: fill_device's end, an
 * error continue_on_error passes over, or a failure. Returns false when
 * the worker must stop. */
static bool incomplete(struct worker *w, struct io_unit *u, uint64_t now)
{
	/* a stream engine's peer ended it (net: the sender closed): fio's
	 * end of the job, not an error */
	if (u->result == 0 && u->len && w->eops->ended && w->eops->ended(w->engine_state)) {
		atomic_store(&w->exit_now, true);
		return false;
	}
	if (filled_up(w, u)) {
		/* fio's end of fill_device, not an error: it counts the
		 * write that failed as an I/O, none of its bytes */
		if (now >= w->measure_start_ns)
			(void)stats_record(&w->stats, u->dir, 0,
					   now > u->start_ns ? now - u->start_ns : 0,
					   now - w->measure_start_ns);
		atomic_store(&w->exit_now, true); /* no more issues */
		return false;
	}
	if (u->result < 0 && error_passed_over(w, u, now))
		return true;
	return io_failed(w, u, now);
}

/* What the job's features book of a finished I/O (WF_ON_COMPLETE), once
 * it is measured: fio's slat/clat, its latency per priority and logs, the
 * paced run's lag, tool lag and service times. */
static void completion_features(struct worker *w, const struct io_unit *u, uint64_t now)
{
	const struct paced_times *t = (w->feat & WF_PACED) ? &w->pacing[u->index] : NULL;
	if (w->feat & WF_SPLIT) { /* fio's slat and clat, as log_io's */
		uint64_t start = t ? t->issued_ns : u->start_ns;
		uint64_t sub = w->fio.submitted_ns[u->index];
		stats_record_split(&w->stats, u->dir, sub > start ? sub - start : 0,
				   now > sub ? now - sub : 0);
	}
	if (w->feat & WF_PRIO)
		prio_record(w, u, now);
	if (w->feat & WF_FIO_LOGS)
		log_io(w, u, now);
	if (t) {
		uint64_t sub = t->issued_ns;
		stats_record_paced(&w->stats, u->dir,
				   sub > u->start_ns ? sub - u->start_ns : 0,
				   sub > t->ideal_ns ? sub - t->ideal_ns : 0,
				   now > sub ? now - sub : 0);
	}
}

/* What the job's features learn of every finished I/O, ramp included:
 * the ideal tool's slot comes free (pacing), the latency search's
 * sample. */
static void completion_seen(struct worker *w, const struct io_unit *u, uint64_t now)
{
	if (w->feat & WF_PACED)
		paced_done(w, u, now);
	if (w->feat & WF_LAT_TARGET) {
		enum lat_step st = lat_target_io(&w->lat_target.search,
						 now > u->start_ns ? now - u->start_ns : 0, now);
		if (st > w->lat_target.pending)
			w->lat_target.pending = st;
	}
}

/* Book a finished I/O. Returns false when the worker must stop (error). */
bool worker_complete(struct worker *w, struct io_unit *u, uint64_t now)
{
	w->free_units[w->nr_free++] = u;
	if (u->op != IO_OP_RW && u->op != IO_OP_TRIM)
		return flush_complete(w, u, now);
	if ((w->feat & WF_HOOKS) && !hooks_complete(w, u))
		return false;
	if (u->result != (int64_t)u->len)
		return incomplete(w, u, now);
	if (w->feat & (WF_PACED | WF_LAT_TARGET))
		completion_seen(w, u, now);
	if (now < w->measure_start_ns)
		return true; /* ramp: not measured */
	uint64_t lat = now > u->start_ns ? now - u->start_ns : 0;
	/* I/Os issued before the deadline but reaped after it belong to the
	 * last second, not to a sliver of an interval of their own */
	uint64_t since = now - w->measure_start_ns;
	if (w->job->runtime_ns && since >= w->job->runtime_ns)
		since = w->job->runtime_ns - 1;
	if (stats_record(&w->stats, u->dir, u->len, lat, since)) {
		w->error = err_set(&w->err, ENOMEM, "out of memory for intervals");
		return false;
	}
	if (w->feat & WF_ON_COMPLETE)
		completion_features(w, u, now);
	return true;
}

void worker_publish_live(struct worker *w)
{
	uint64_t lat = 0;
	for (int d = 0; d < DIR_ALL; d++) {
		atomic_store_explicit(&w->live.ios[d], w->stats.dir[d].ios,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.bytes[d], w->stats.dir[d].bytes,
				      memory_order_relaxed);
		lat += w->stats.dir[d].lat.sum;
	}
	atomic_store_explicit(&w->live.lat_sum, lat, memory_order_relaxed);
	stats_live_answer(&w->live, &w->stats);
}

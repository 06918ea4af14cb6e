/* worker.c - the worker loop shared by every engine: queue, commit, reap.
 *
 * Time is read once per loop pass, not per I/O, from the TSC where it can
 * be trusted (util/clock.h): every I/O queued in a pass
 * is stamped with the time just before the pass's submission, every I/O
 * reaped with the time just after the reaping call returned. Both bracket
 * the real event, so latencies are never under-stated, and the clock costs
 * nothing extra at high queue depths. Sync engines complete inside queue()
 * and are stamped right after it.
 */
#define _GNU_SOURCE
#include "core/worker.h"
#include "core/worker_iolog.h"
#include "core/replay.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/flush.h"
#include "core/ioprio.h"
#include "base/job_options.h"
#include "base/pace_opts.h"
#include "core/pace.h"
#include "core/placement.h"
#include "core/think.h"
#include "target/target.h"
#include "util/clock.h"

#define PAGE_ALIGN 4096
/* longest nap of a rate-limited worker with I/O in flight and a free slot:
 * bounds how late a completion can be stamped */
#define RATE_NAP_NS 20000ull
/* longest sleep between looks at the stop flag */
#define RATE_SLEEP_MAX_NS 50000000ull

static int setup_units(struct worker *w, struct ioc_err *err)
{
	unsigned depth = w->job->iodepth;
	uint64_t bs = gen_bs_max(w->job); /* the largest I/O of any direction */

	w->units = calloc(depth, sizeof(*w->units));
	w->free_units = calloc(depth, sizeof(*w->free_units));
	w->staged = calloc(depth, sizeof(*w->staged));
	if (!w->units || !w->free_units || !w->staged ||
	    posix_memalign(&w->buffers, PAGE_ALIGN, (size_t)(depth * bs)))
		return err_set(err, ENOMEM,
			       "job %s: cannot allocate %u buffers of %llu bytes",
			       w->job->name, depth, (unsigned long long)bs);
	/* Random, not zero, data: compressing and deduplicating devices must
	 * not be flattered; one fill serves the whole run. */
	struct rng r;
	rng_seed(&r, w->job->randseed ^ 0xb0ffe75ull ^ w->clone);
	uint64_t *words = w->buffers;
	for (size_t i = 0; i < depth * bs / 8; i++)
		words[i] = rng_next(&r);
	/* fio's compress/dedupe options: a block made for each write */
	w->refill = buf_fill_wanted(w->job);
	if (w->refill)
		buf_fill_init(&w->fill, w->job, w->thread_number - 1,
			      w->nr_threads, w->job->size ? w->job->size : w->region);
	for (unsigned i = 0; i < depth; i++) {
		struct io_unit *u = &w->units[i];
		u->buf = (char *)w->buffers + i * bs;
		u->buflen = bs;
		u->index = i;
		w->free_units[w->nr_free++] = u;
	}
	return 0;
}

/* fio's named files with numjobs > 1: each clone its own (job.h) */
static unsigned first_file(const struct worker *w)
{
	return w->clone * w->job->files_per_clone;
}

static unsigned worker_nr_files(const struct worker *w)
{
	return w->job->files_per_clone ? w->job->files_per_clone
				       : w->job->nr_files;
}

static int setup_files(struct worker *w, struct ioc_err *err)
{
	if ((w->eops->flags & ENGINE_NO_TARGET) || w->kind)
		return 0; /* a kind's engine opens its targets itself */
	if (w->eops->flags & ENGINE_NO_OPEN) { /* the engine works on paths */
		w->nr_fds = worker_nr_files(w);
		return 0;
	}
	bool write = job_writes(w->job) || (w->eops->flags & ENGINE_MODIFIES);
	const char *const *files = (const char *const *)w->job->files + first_file(w);
	for (unsigned i = 0; i < worker_nr_files(w); i++) {
		int ret = target_open_flags(files[i], write, w->job->direct,
					    flush_open_flags(w->job),
					    &w->fds[i], err);
		if (ret)
			return ret;
		w->nr_fds++;
		/* fio's invalidate=1: a buffered read job reads the device;
		 * pre_read=1 instead fills the cache (and clears invalidate) */
		if (w->job->pre_read &&
		    (ret = target_pre_read(w->fds[i], w->job->offset, w->region,
					   w->buffers, (size_t)w->job->bs)))
			return err_set(err, -ret, "%s: pre_read: %s", files[i],
				       strerror(-ret));
		if (w->job->invalidate && !w->job->pre_read &&
		    (ret = target_invalidate(w->fds[i], w->job->offset, w->region)))
			fprintf(stderr, "note: %s: cache invalidation failed: %s\n",
				files[i], strerror(-ret));
	}
	return 0;
}

/* Rate-limited runs keep, by unit, its I/O's submission time and the
 * ideal tool's (core/pace.h), for the lag, tool-lag and service
 * histograms; the due time is the unit's latency origin. */
static int setup_pacing(struct worker *w, struct ioc_err *err)
{
	if (!pace_job_paced(w->job) && !worker_iolog_timed(w))
		return 0;
	w->paced = calloc(w->job->iodepth, sizeof(*w->paced));
	if (!w->paced)
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Each worker's stream distinct yet repeatable (and drawn again for a
 * read-back). */
static uint64_t gen_seed(const struct worker *w)
{
	return w->job->randseed + 0x9e3779b97f4a7c15ull *
				      (w->job_index * 1024ull + w->clone + 1);
}

/* By unit its submission time (engines that queue: fio's slat and clat,
 * in the figures and the logs), and fio's log files' sample store. */
static int setup_logs(struct worker *w, struct ioc_err *err)
{
	unsigned depth = w->job->iodepth;
	if (!(w->eops->flags & ENGINE_SYNC)) {
		w->submitted_ns = calloc(depth, sizeof(*w->submitted_ns));
		w->log_queued = calloc(depth, sizeof(*w->log_queued));
		if (!w->submitted_ns || !w->log_queued)
			return err_set(err, ENOMEM, "out of memory");
	}
	if (!fio_logs_wanted(w->job))
		return 0;
	w->logs = calloc(1, sizeof(*w->logs));
	if (!w->logs)
		return err_set(err, ENOMEM, "out of memory");
	return fio_logs_init(w->logs, w->job, w->thread_number, err);
}

/* The generator over the clone's own files, limited as fio limits the
 * job (create_only, size under filesize), told each file's size. */
static int start_generator(struct worker *w, uint64_t seed, struct ioc_err *err)
{
	int ret;

	/* the generator sees the clone's own files (a copy: gen_init keeps
	 * no pointer to it) */
	struct job_spec view = *w->job;
	view.nr_files = worker_nr_files(w);
	const uint64_t *regions = w->file_region ? w->file_region + first_file(w)
						 : NULL;
	if ((ret = gen_init_files(&w->gen, &view, w->region, regions, w->clone,
				  seed)))
		return err_set(err, -ret, "job %s: generator: %s", w->job->name,
			       ret == -ENOMEM ? "out of memory (the random map needs a bit per block of each file; norandommap=1 needs none)"
					      : "no whole block fits the region");
	if (w->job->create_only)
		w->gen.limit_ios = 0; /* fio: the setup phase only */
	/* fio: with filesize=, size= is the I/O of the clone, which may be
	 * less than its files hold */
	if (w->job->filesize && w->job->size && !w->job->time_based &&
	    w->job->size < w->gen.limit_bytes)
		w->gen.limit_bytes = w->job->size;
	/* fio's holes wrap at the file's end (a block device's too) */
	for (unsigned i = 0; i < w->nr_fds; i++) {
		uint64_t end = target_fd_size(w->fds[i]);
		if (end > 0)
			gen_set_file_size(&w->gen, i, end);
	}
	return 0;
}

static int worker_setup(struct worker *w)
{
	struct ioc_err *err = &w->err;
	uint64_t seed = gen_seed(w);
	int ret;

	for (unsigned i = 0; i < JOB_MAX_FILES; i++)
		w->fds[i] = -1;
	stats_init(&w->stats);
	uint64_t planned_s = (w->job->ramp_ns + w->job->runtime_ns) / 1000000000ull;
	if ((ret = placement_apply(w->job, w->thread_number - 1, err)) || (ret = setup_units(w, err)) ||
	    (ret = setup_files(w, err)) ||
	    (ret = worker_iolog_setup(w, (const char *const *)w->job->files + first_file(w),
				      worker_nr_files(w), fast_ns(), err)) ||
	    (ret = setup_pacing(w, err)) ||
	    (ret = setup_logs(w, err)))
		return ret;
	if (stats_reserve(&w->stats, (unsigned)planned_s + 1))
		return err_set(err, ENOMEM, "out of memory");
	if ((ret = start_generator(w, seed, err)))
		return ret;
	if (w->io) {
		struct io_hooks_params hp = {
			.job = w->job, .region = w->region,
			.depth = w->job->iodepth, .counts = &w->verify_counts,
			.report = stderr, .index = w->thread_number - 1,
		};
		if ((ret = w->io->create(&hp, &w->io_state, err)))
			return ret;
	}
	batch_init(&w->batch, w->job, w->job->iodepth);
	struct engine_params p = {
		.fds = w->nr_fds ? w->fds : NULL,
		.nr_fds = w->nr_fds,
		.paths = w->nr_fds ? (const char *const *)w->job->files + first_file(w) : NULL,
		.units = w->units,
		.depth = w->job->iodepth,
		.reap_max = w->batch.cmax,
	};
	/* fio sets the priority before the engine starts */
	if ((ret = ioprio_apply(w->job, err)))
		return ret;
	w->ioprio = job_ioprio(w->job);
	if (w->kind) { /* the job's engine moves the kind's own I/Os */
		ret = w->kind->engine_init(w->shared, w->eops, w->job, &p,
					   &w->engine_state, err);
		w->eops = w->kind->engine;
		return ret;
	}
	return engine_init(w->eops, &p, w->job->engine_opts, &w->engine_state,
			   err);
}

static void worker_teardown(struct worker *w)
{
	if (w->kind && w->kind->take_stats && w->engine_state)
		w->target_stats = w->kind->take_stats(w->engine_state);
	if (w->eops && w->engine_state)
		w->eops->cleanup(w->engine_state);
	w->engine_state = NULL;
	for (unsigned i = 0; i < w->nr_fds; i++) {
		if (w->fds[i] < 0) /* ENGINE_NO_OPEN: nothing open */
			continue;
		/* fio's close_file: fsync_on_close flushes again at close */
		if (w->job->fsync_on_close && rw_writes(w->job->rw) &&
		    fsync(w->fds[i]) < 0 && !w->error)
			w->error = err_set(&w->err, errno, "job %s: fsync of %s at close: %s",
					   w->job->name, w->job->files[i], strerror(errno));
		close(w->fds[i]);
	}
	w->nr_fds = 0;
	gen_free(&w->gen);
	struct ioc_err lerr;
	int lret = worker_iolog_end(w, fast_ns(), &lerr);
	if (lret && !w->error) {
		w->error = lret;
		w->err = lerr;
	}
	if (w->io && w->io_state)
		w->io->destroy(w->io_state);
	w->io_state = NULL;
	free(w->buffers);
	free(w->units);
	free(w->free_units);
	free(w->staged);
	free(w->paced);
	w->paced = NULL;
	if (w->logs)
		fio_logs_free(w->logs);
	free(w->logs);
	free(w->submitted_ns);
	free(w->log_queued);
	w->logs = NULL;
	w->submitted_ns = NULL;
	w->log_queued = NULL;
	w->buffers = w->units = NULL;
	w->free_units = w->staged = NULL;
}

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

/* Rate-limited: the ideal tool's slot of u is free again after u's
 * service time (core/pace.h). Ramp I/Os too, so the recursion is right
 * when measuring starts. */
static void paced_done(struct worker *w, const struct io_unit *u, uint64_t now)
{
	struct paced_times *t = &w->paced[u->index];
	t->ideal_free_ns = t->ideal_ns + (now > t->issued_ns ? now - t->issued_ns : 0);
}

/* Book a finished flush: fio's "sync" figures, except for the flushes at
 * the end (end_fsync), which fio does not count either. Returns false
 * when the worker must stop (error). */
static bool flush_complete(struct worker *w, struct io_unit *u, uint64_t now)
{
	const char *what = u->op == IO_OP_FDATASYNC ? "fdatasync" : "fsync";

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
	uint64_t start = w->paced ? w->paced[u->index].issued_ns : u->start_ns;
	uint64_t sub = start, slat = UINT64_MAX;
	if (!(w->eops->flags & ENGINE_SYNC)) {
		sub = w->submitted_ns[u->index];
		slat = sub > start ? sub - start : 0;
	}
	fio_logs_io(w->logs, now - w->measure_start_ns, u->dir, u->len, u->offset,
		    now > start ? now - start : 0, now > sub ? now - sub : 0, slat,
		    u->ioprio);
}

/* fill_device: a write that found the file system (or device) full
 * (ENOSPC, EDQUOT, or short: the space ran out inside it) ends the job
 * as fio's, without an error; the partial write is not counted. */
static bool filled_up(const struct worker *w, const struct io_unit *u)
{
	return w->job->fill_device && u->dir == DIR_WRITE &&
	       (u->result >= 0 || u->result == -ENOSPC || u->result == -EDQUOT);
}

/* Book a finished I/O. Returns false when the worker must stop (error). */
static bool complete(struct worker *w, struct io_unit *u, uint64_t now)
{
	w->free_units[w->nr_free++] = u;
	if (u->op != IO_OP_RW && u->op != IO_OP_TRIM)
		return flush_complete(w, u, now);
	if (w->io_state && !hooks_complete(w, u))
		return false;
	if (u->result != (int64_t)u->len && filled_up(w, u)) {
		/* fio's end of fill_device, not an error: it counts the
		 * write that failed as an I/O, none of its bytes */
		if (now >= w->measure_start_ns)
			(void)stats_record(&w->stats, u->dir, 0,
					   now > u->start_ns ? now - u->start_ns : 0,
					   now - w->measure_start_ns);
		atomic_store(&w->exit_now, true); /* no more issues */
		return false;
	}
	if (u->result != (int64_t)u->len) {
		int e = u->result < 0 ? (int)-u->result : EIO;
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
				   w->kind ? w->kind->name : w->nr_fds ? w->job->files[first_file(w) + u->file] : "(null)",
				   what);
		return false;
	}
	if (w->paced)
		paced_done(w, u, now);
	if (w->lat_on) {
		enum lat_step st = lat_target_io(&w->lat, now > u->start_ns ?
						 now - u->start_ns : 0, now);
		if (st > w->lat_pending)
			w->lat_pending = st;
	}
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
	if (w->submitted_ns) { /* fio's slat and clat, as log_io's */
		uint64_t start = w->paced ? w->paced[u->index].issued_ns : u->start_ns;
		uint64_t sub = w->submitted_ns[u->index];
		stats_record_split(&w->stats, u->dir, sub > start ? sub - start : 0,
				   now > sub ? now - sub : 0);
	}
	if (w->logs)
		log_io(w, u, now);
	if (w->paced) {
		const struct paced_times *t = &w->paced[u->index];
		uint64_t sub = t->issued_ns;
		stats_record_paced(&w->stats, u->dir,
				   sub > u->start_ns ? sub - u->start_ns : 0,
				   sub > t->ideal_ns ? sub - t->ideal_ns : 0,
				   now > sub ? now - sub : 0);
	}
	return true;
}

static void publish_live(struct worker *w)
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

struct loop_state {
	uint64_t now, deadline;
	/* due times: [0] for both directions (rate_iops=N), or one per
	 * direction (fio's rate=R,W, rate_iops=R,W); closed loop: inert */
	struct pace pace[DIR_ALL]; /* trims' paced as writes (loop_pace_init) */
	bool per_dir, paced;
	bool bytes[DIR_ALL];     /* that pace counts bytes (rate=), not I/Os */
	struct gen_op op;        /* the next I/O, drawn before it is due */
	bool have_op;
	struct think think;      /* thinktime */
	struct rate_watch watch; /* rate_min */
	uint64_t issued;         /* I/Os handed to the engine */
	unsigned inflight, pending;
	bool gen_done;
	bool readback;		 /* the hooks' read-back has begun */
	struct flush_sched flush; /* fsync=N, fdatasync=N */
	enum io_op flush_op;	 /* a flush due before op (IO_OP_RW: none) */
	struct io_unit *held;	 /* refused by io->prepare */
	unsigned nr_staged;	 /* in w->staged: prepared, not yet queued */
	bool flow_held;		 /* flow= held the next I/O back */
	/* The job's per-pass features, decided once (loop_features) so that
	 * a job without them pays for none on every pass, paced or not:
	 * between: thinktime, rate_min or fio's logs (think_and_watch);
	 * flow: flow= (flow_admit per I/O); flushes: fsync=N/fdatasync=N
	 * (flush_due/flush_note per I/O); ss: steadystate (its end flag). */
	bool between, flow, flushes, ss;
	/* read_iolog with timing (core/replay.h): op is due at op_due */
	bool replay_timed;
	uint64_t op_due;
};

static struct pace *pace_of(struct loop_state *s, enum io_dir d)
{
	return &s->pace[s->per_dir ? d : 0];
}

/* fio's rate_ddir: a mixed job whose next direction is ahead of its rate
 * does the other one if that is due (or unlimited) or due sooner. */
static void rate_dir(const struct worker *w, struct loop_state *s)
{
	enum io_dir d = s->op.dir, o = d == DIR_READ ? DIR_WRITE : DIR_READ;
	unsigned mix_o = o == DIR_READ ? w->job->rwmixread : 100 - w->job->rwmixread;

	if (!s->per_dir || !rw_is_mixed(w->job->rw) || !mix_o ||
	    pace_due(&s->pace[d], s->now))
		return;
	if (pace_due(&s->pace[o], s->now) || s->pace[o].next_ns < s->pace[d].next_ns)
		s->op.dir = o;
}

/* When the next I/O (s->op) may leave; s->now when it may now. */
static uint64_t next_due_ns(struct loop_state *s)
{
	/* a replay's I/O or sync line waits for its time in the log */
	if (s->replay_timed && (s->have_op || s->flush_op != IO_OP_RW))
		return s->op_due > s->now ? s->op_due : s->now;
	if (!s->have_op)
		return s->now;
	const struct pace *p = pace_of(s, s->op.dir);
	return pace_due(p, s->now) ? s->now : p->next_ns;
}

/* The next I/O's latency origin: its due time, never before the end of
 * the last think (idling is the job's, not the device's), or now in a
 * closed loop. */
static uint64_t take_due(struct loop_state *s, const struct gen_op *op)
{
	struct pace *p = pace_of(s, op->dir);
	if (s->replay_timed) /* the log's schedule */
		return s->op_due > s->think.end_ns ? s->op_due : s->think.end_ns;
	if (!p->rate)
		return s->now;
	uint64_t due = pace_take_n(p, s->bytes[op->dir] ? op->len : 1);
	return due > s->think.end_ns ? due : s->think.end_ns;
}

/* Rate-limited: put on top of the free list the unit whose ideal slot
 * comes free first, as an ideal tool would use it. */
static void pace_pick_unit(struct worker *w)
{
	unsigned best = w->nr_free - 1;
	for (unsigned i = 0; i + 1 < w->nr_free; i++)
		if (w->paced[w->free_units[i]->index].ideal_free_ns <
		    w->paced[w->free_units[best]->index].ideal_free_ns)
			best = i;
	struct io_unit *top = w->free_units[w->nr_free - 1];
	w->free_units[w->nr_free - 1] = w->free_units[best];
	w->free_units[best] = top;
}

/* A verify journal: no write reaches the engine before its intent is
 * durable (engine/io_hooks.h), so the staged I/Os of a pass are queued
 * after one flush. When the journal cannot be written they are never
 * queued: their units go back unused and the run stops. */
static bool stage_flush(struct worker *w, struct loop_state *s)
{
	int ret = w->io->flush(w->io_state, &w->err);

	if (!ret)
		return true;
	for (unsigned i = 0; i < s->nr_staged; i++) {
		struct io_unit *u = w->staged[i];
		struct ioc_err ignored;
		u->result = -ECANCELED; /* its block's content is unchanged */
		w->io->complete(w->io_state, u, &ignored);
		w->free_units[w->nr_free++] = u;
	}
	s->nr_staged = 0;
	w->error = ret;
	atomic_store(w->stop, true);
	return false;
}

static bool commit_call(struct worker *w, struct loop_state *s, bool now);

/* Queue the staged I/Os in order, committing every iodepth_batch_submit
 * of them (fio's td_io_queue); those after an ENGINE_BUSY stay staged.
 * Returns false when the worker must stop. */
static bool queue_staged(struct worker *w, struct loop_state *s)
{
	unsigned i = 0;

	if (s->nr_staged && w->io_state && !stage_flush(w, s))
		return false;
	for (; i < s->nr_staged; i++) {
		struct io_unit *u = w->staged[i];
		/* a sync engine runs the pass's I/Os one after the other:
		 * in a closed loop each counts from its own start */
		if ((w->eops->flags & ENGINE_SYNC) && !pace_of(s, u->dir)->rate &&
		    !s->replay_timed)
			u->start_ns = s->now;
		if (w->paced)
			w->paced[u->index].issued_ns = s->now;
		worker_iolog_issued(w, u, s->now);
		enum engine_queue_ret r = w->eops->queue(w->engine_state, u);
		if (r == ENGINE_BUSY)
			break;
		s->issued++;
		if (r == ENGINE_QUEUED) {
			if (w->log_queued)
				w->log_queued[w->nr_log_queued++] = u->index;
			s->inflight++;
			s->pending++;
			if (w->batch.submit_now && s->pending >= w->batch.submit &&
			    !commit_call(w, s, true)) {
				i++;
				break;
			}
			continue;
		}
		s->now = fast_ns(); /* a sync engine did the I/O in queue() */
		if (w->submitted_ns) /* an engine that queues did it at once */
			w->submitted_ns[u->index] = s->now;
		if (s->now >= w->measure_start_ns) /* fio: one submitted, one reaped */
			depth_sync_io(&w->stats.depth, s->inflight + 1);
		if (!complete(w, u, s->now)) {
			i++;
			break;
		}
	}
	s->nr_staged -= i;
	memmove(w->staged, w->staged + i, s->nr_staged * sizeof(*w->staged));
	return !w->error;
}

/* Make u a flush (op) of file, its latency counted from now. */
static void flush_unit(struct io_unit *u, enum io_op op, unsigned file,
		       uint64_t now)
{
	u->op = op;
	u->file = file;
	u->dir = DIR_WRITE;
	u->offset = 0;
	u->len = 0;
	u->start_ns = now;
}

/* A read the hooks put first (io_hooks.h interpose: verify_backlog). */
static bool interposed(struct worker *w, struct loop_state *s)
{
	struct io_hooks_op op;

	if (!w->io_state || !w->io->interpose ||
	    !w->io->interpose(w->io_state, s->gen_done, &op))
		return false;
	s->op = (struct gen_op){.file = op.file, .dir = DIR_READ,
				.offset = op.offset, .len = op.len};
	s->flush_op = IO_OP_RW; /* fsync=N counts the job's writes only */
	return true;
}

/* May the generator's op be issued (io_hooks.h admit)? */
static bool admitted(struct worker *w, const struct gen_op *g)
{
	struct io_hooks_op op = {.file = g->file, .offset = g->offset, .len = g->len};

	return !w->io_state || !w->io->admit || w->io->admit(w->io_state, &op);
}

/* The replay's next I/O into s->op (read_iolog; a job that verifies
 * replays nothing): a sync line is a flush of its file, with no op after
 * it. false once all are issued. */
static bool replay_op(struct worker *w, struct loop_state *s)
{
	enum io_op flush;

	if (s->gen_done)
		return false;
	if (!(s->have_op = replay_next(w->replay, &s->op, &flush, &s->op_due))) {
		s->gen_done = true;
		return false;
	}
	if (flush != IO_OP_RW) {
		s->have_op = false;
		s->flush_op = flush;
		s->flush.file = s->op.file;
	}
	return true;
}

/* Draw the next I/O into s->op: the replay's, or the hooks' read, else
 * the generator's (at its end the hooks may still have reads). false:
 * none now. */
static bool next_op(struct worker *w, struct loop_state *s)
{
	if (w->replay)
		return replay_op(w, s);
	if (!interposed(w, s)) {
		if (s->gen_done)
			return false;
		if (!gen_next(&w->gen, &s->op) || !admitted(w, &s->op)) {
			s->gen_done = true;
			return (s->have_op = interposed(w, s));
		}
		if (s->flushes)
			s->flush_op = flush_due(&s->flush, w->job);
	}
	return (s->have_op = true);
}

/* Stage as many I/Os as the depth, the generator and the rate allow, at
 * most one depth's worth, and queue them: sync engines free their unit at
 * once, and the caller must look at the clock and the stop flag between
 * batches. Returns false when the worker must stop. */
static bool issue(struct worker *w, struct loop_state *s)
{
	unsigned room = w->job->iodepth;
	if (w->lat_on) /* the depth the latency search is at */
		room = w->lat.qd > s->inflight ? w->lat.qd - s->inflight : 0;
	/* fio thinks after each issued I/O: stop where the next think is due */
	if (w->job->thinktime_ns && w->job->thinktime_blocks_type == THINK_ISSUE) {
		uint64_t every = w->job->thinktime_blocks ? w->job->thinktime_blocks : 1;
		uint64_t left = s->think.last_blocks + every - s->issued;
		if (left < room)
			room = (unsigned)left;
	}
	for (unsigned n = 0; (w->nr_free || s->held) && n < room; n++) {
		struct io_unit *u = s->held;
		if (!u) {
			/* not while a replay's sync waits for its time */
			if (!s->have_op && s->flush_op == IO_OP_RW && !next_op(w, s))
				break;
			if (s->flush_op != IO_OP_RW) { /* a flush first: not a block's, no hooks */
				if (w->replay && next_due_ns(s) > s->now)
					break;
				u = w->free_units[--w->nr_free];
				flush_unit(u, s->flush_op, s->flush.file, s->now);
				s->flush_op = IO_OP_RW;
				w->staged[s->nr_staged++] = u;
				continue;
			}
			rate_dir(w, s);
			if (next_due_ns(s) > s->now)
				break;
			if (s->flow && !flow_admit(&w->flow)) {
				s->flow_held = true;
				break;
			}
			struct gen_op op = s->op;
			s->have_op = false;
			if (w->paced)
				pace_pick_unit(w);
			u = w->free_units[--w->nr_free];
			/* the unit still holds its last I/O (io_hooks.h) */
			if (w->io && !w->io_state && op.dir == DIR_WRITE)
				w->io->reuse(u, op.offset, op.len, s->now);
			u->file = op.file;
			u->dir = op.dir;
			u->op = op.dir == DIR_TRIM ? IO_OP_TRIM : IO_OP_RW;
			u->offset = op.offset;
			u->len = op.len;
			u->ioprio = w->ioprio;
			if (w->refill && op.dir == DIR_WRITE)
				buf_fill_next(&w->fill, u->buf, (size_t)op.len);
			if (s->flushes)
				flush_note(&s->flush, w->job, op.dir, op.file);
			/* open loop: latency counts from when the I/O was due */
			u->start_ns = take_due(s, &op);
			if (w->paced) {
				struct paced_times *t = &w->paced[u->index];
				t->ideal_ns = u->start_ns > t->ideal_free_ns ? u->start_ns
									     : t->ideal_free_ns;
			}
		}
		s->held = NULL;
		/* hooks (verify): an I/O to a block with one in flight waits for it */
		if (w->io_state && !w->io->prepare(w->io_state, u)) {
			s->held = u;
			break;
		}
		w->staged[s->nr_staged++] = u;
	}
	return queue_staged(w, s);
}

/* Reap at least min completions, or (until_ns != 0, and the engine can)
 * what completes before until_ns. Returns false when the worker must stop. */
static bool reap_until(struct worker *w, struct loop_state *s, unsigned min,
		       uint64_t until_ns)
{
	int n = until_ns ? w->eops->getevents_until(w->engine_state, min, until_ns)
			 : w->eops->getevents(w->engine_state, min);
	s->now = fast_ns();
	if (n < 0) {
		w->error = err_set(&w->err, -n, "job %s: %s engine: %s",
				   w->job->name, w->eops->name, strerror(-n));
		return false;
	}
	s->inflight -= (unsigned)n;
	if (n > 0 && s->now >= w->measure_start_ns) /* polls that found none: not reaps */
		w->stats.depth.complete[depth_batch_bucket((unsigned)n)]++;
	bool ok = true;
	for (int i = 0; i < n; i++)
		ok &= complete(w, w->eops->event(w->engine_state, (unsigned)i), s->now);
	return ok;
}

static bool reap(struct worker *w, struct loop_state *s, unsigned min)
{
	return reap_until(w, s, min, 0);
}

/* fio's wait_for_completions, for a closed loop with I/O in flight: wait
 * for iodepth_batch_complete_min of them (0: poll until one), and when
 * every unit was busy go on until no more than iodepth_low are in flight.
 * Returns false when the worker must stop. */
static bool reap_closed(struct worker *w, struct loop_state *s)
{
	bool full = !w->nr_free;
	do {
		if (w->batch.cmin) {
			if (!reap(w, s, batch_reap_min(&w->batch, s->inflight)))
				return false;
			continue;
		}
		/* poll: never sleep in the kernel, as fio's min 0 (bounded
		 * by the stop flag and the deadline) */
		for (unsigned before = s->inflight; s->inflight == before;) {
			if (!reap(w, s, 0))
				return false;
			if (s->now >= s->deadline ||
			    atomic_load_explicit(w->stop, memory_order_relaxed))
				return true;
		}
	} while (full && s->inflight > w->batch.low);
	return true;
}

/* Hand what was queued to the engine: now (the engine's submit: the
 * batch is complete in the middle of a pass), or as the engine likes
 * (its commit: io_uring submits with the next wait). */
static bool commit_call(struct worker *w, struct loop_state *s, bool now)
{
	if (!s->pending)
		return true;
	if (s->now >= w->measure_start_ns) /* fio counts at commit, by the depth then */
		depth_commit(&w->stats.depth, s->inflight, s->pending);
	s->pending = 0;
	int ret = now && w->eops->submit ? w->eops->submit(w->engine_state)
					 : w->eops->commit(w->engine_state);
	if (w->log_queued) { /* slat ends when the submit call returns */
		uint64_t t = fast_ns();
		for (unsigned i = 0; i < w->nr_log_queued; i++)
			w->submitted_ns[w->log_queued[i]] = t;
		w->nr_log_queued = 0;
	}
	if (ret < 0) {
		w->error = err_set(&w->err, -ret, "job %s: %s engine submit: %s",
				   w->job->name, w->eops->name, strerror(-ret));
		return false;
	}
	return true;
}

static bool commit(struct worker *w, struct loop_state *s)
{
	return commit_call(w, s, false);
}

/* Rate-limited, nothing in flight: sleep to the next due I/O (or the
 * deadline; at most RATE_SLEEP_MAX_NS, to see the stop flag). */
static void wait_idle(struct loop_state *s)
{
	uint64_t t = next_due_ns(s);
	const struct pace *p = pace_of(s, s->op.dir);
	uint64_t ios_rate = s->bytes[s->op.dir] && s->op.len ? p->rate / s->op.len : p->rate;

	/* Above 1/PACE_BATCH_NS I/Os per second, wake once per batch, not
	 * once per I/O: a wake-up costs microseconds of CPU (more on a VM),
	 * which at such rates is the whole budget of the other workers. The
	 * batch bounds the sleep (PACE_BATCH_NS less the spin, as before the
	 * lead was learnt), not the spin: what comes due while it sleeps
	 * leaves at the wake-up, without spinning on to the batch's end. */
	uint64_t sleep_min = 0;
	if (ios_rate > 1000000000ull / PACE_BATCH_NS)
		sleep_min = s->now + PACE_BATCH_NS - PACE_SPIN_NS;
	if (t > s->deadline)
		t = s->deadline;
	if (t > s->now + RATE_SLEEP_MAX_NS)
		t = s->now + RATE_SLEEP_MAX_NS;
	if (sleep_min > s->deadline)
		sleep_min = s->deadline;
	s->now = pace_wait(t, sleep_min);
}

/* Rate-limited with I/O in flight. Every slot busy: nothing can leave
 * before a completion, so block for one (the kernel wakes the thread: the
 * stamp is exact and no CPU is spent). A free slot, with an engine that
 * can wait with a time limit: block until a completion or the thread's
 * lead (pace_lead_ns) before the next due I/O, the rest spun by the passes that
 * follow. Otherwise poll, and when nothing completed and the next I/O is
 * not due, nap briefly rather than spin. Returns false when the worker
 * must stop. */
static bool wait_paced(struct worker *w, struct loop_state *s)
{
	if ((!w->nr_free && !s->held) || s->nr_staged) /* staged: the engine was busy */
		return reap(w, s, 1);
	uint64_t next = next_due_ns(s);
	if (w->eops->getevents_until && next > s->now) {
		/* a timed wait wakes as late as a sleep: the thread's lead */
		uint64_t lead = pace_lead_ns();
		uint64_t until = next > lead ? next - lead : 1;
		return reap_until(w, s, 1, until > s->now ? until : 1);
	}
	unsigned before = s->inflight;
	if (!reap(w, s, 0))
		return false;
	if (s->inflight == before && (next = next_due_ns(s)) > s->now) {
		uint64_t nap = s->now + RATE_NAP_NS;
		if (nap < next) { /* no spin: nothing is due at its end */
			clock_sleep_until(nap);
			s->now = fast_ns();
		} else {
			s->now = pace_wait_until(next);
		}
	}
	return true;
}

/* The hooks' read-back (io_hooks.h): the same blocks again, as reads. */
static bool readback_start(struct worker *w, struct loop_state *s)
{
	if (s->readback || !w->io_state || !w->io->readback ||
	    !w->io->readback(w->io_state))
		return false;
	s->readback = true;
	gen_free(&w->gen);
	if ((w->error = start_generator(w, gen_seed(w), &w->err)))
		return false;
	w->gen.rw = rw_is_random(w->gen.rw) ? RW_RANDREAD : RW_READ;
	s->gen_done = false;
	return true;
}

/* end_fsync (and fsync_on_close, as fio): each file flushed through the
 * engine, one after the other, once every I/O is done. A target kind's
 * engine flushes the whole kind (a VD: its cache and members) at once. */
static void end_flush(struct worker *w, struct loop_state *s)
{
	unsigned files = w->kind ? 1 : w->nr_fds;

	w->flushing_end = true;
	for (unsigned f = 0; f < files && !w->error && w->nr_free; f++) {
		struct io_unit *u = w->free_units[--w->nr_free];
		s->now = fast_ns();
		flush_unit(u, IO_OP_FSYNC, f, s->now);
		w->staged[s->nr_staged++] = u;
		if (!queue_staged(w, s) || !commit(w, s))
			break;
		while (s->inflight && reap(w, s, 1))
			;
	}
	w->flushing_end = false;
}

/* rate_ignore_thinktime: go on at the rate after a think of ns, not
 * catch up: fio moves the due times by the think less one I/O's gap, so
 * that one leaves at once (by the whole think when it is shorter). */
static void ignore_think(const struct worker *w, struct loop_state *s, uint64_t ns)
{
	for (int d = 0; d < (s->per_dir ? DIR_ALL : 1); d++) {
		const struct pace *p = &s->pace[d];
		if (!p->rate)
			continue;
		uint64_t gap = (s->bytes[d] ? w->job->bs : 1) * 1000000000ull / p->rate;
		pace_shift(&s->pace[d], ns >= gap ? ns - gap : ns);
	}
}

/* Between passes: fio's thinktime (let what is in flight finish, idle)
 * and its rate_min watch. Returns false when the worker must stop. */
static bool think_and_watch(struct worker *w, struct loop_state *s)
{
	const struct job_spec *j = w->job;
	if (think_due(&s->think, j, s->issued, s->issued - s->inflight, s->now)) {
		if (!commit(w, s))
			return false;
		while (s->inflight)
			if (!reap(w, s, 1))
				return false;
		uint64_t counter = j->thinktime_blocks_type == THINK_ISSUE ?
					   s->issued : s->issued - s->inflight;
		uint64_t t0 = s->now;
		s->now = think_idle(&s->think, j, counter, s->deadline, w->stop);
		if (j->rate_ignore_thinktime)
			ignore_think(w, s, s->now - t0);
	}
	if (s->watch.armed || (w->logs && s->now >= w->measure_start_ns)) {
		uint64_t bytes[DIR_ALL], ios[DIR_ALL];
		for (int d = 0; d < DIR_ALL; d++) {
			bytes[d] = w->stats.dir[d].bytes;
			ios[d] = w->stats.dir[d].ios;
		}
		if (w->logs && s->now >= w->measure_start_ns)
			fio_logs_tick(w->logs, s->now - w->measure_start_ns, bytes, ios);
		int ret = rate_watch_check(&s->watch, j, s->now, bytes, ios, &w->err);
		if (ret) {
			w->error = ret;
			return false;
		}
	}
	return true;
}

/* The pacing of job j from start: iochar's rate_iops over both
 * directions, or fio's rates per direction (bytes for rate=). */
static void loop_pace_init(struct loop_state *s, const struct job_spec *j,
			   uint64_t start, uint64_t seed)
{
	bool poisson = j->rate_process == RATE_POISSON;
	s->per_dir = !j->rate_iops;
	for (int d = 0; d < DIR_ALL; d++) {
		uint64_t rate = j->rate_iops;
		int o = d == DIR_TRIM ? DIR_WRITE : d; /* trims: W, as fio's R,W */
		if (s->per_dir) {
			s->bytes[d] = j->rate_bps[o] != 0;
			rate = s->bytes[d] ? j->rate_bps[o] : j->rate_iops_rw[o];
		}
		pace_init_rate(&s->pace[d], rate, poisson, start, seed + (uint64_t)d);
	}
	s->paced = pace_job_paced(j);
}

/* Held back by flow=: as fio, let what is in flight finish and sleep
 * flow_sleep (in slices, to see the stop flag), or with no flow_sleep
 * retry at once (yielding the CPU when nothing is in flight). Returns
 * false when the worker must stop. */
static bool flow_wait(struct worker *w, struct loop_state *s)
{
	s->flow_held = false;
	if (!w->job->flow_sleep_us) {
		if (!s->inflight) {
			sched_yield();
			s->now = fast_ns();
		}
		return true;
	}
	if (!commit(w, s))
		return false;
	while (s->inflight)
		if (!reap(w, s, 1))
			return false;
	uint64_t until = fast_ns() + w->job->flow_sleep_us * 1000ull;
	if (until > s->deadline)
		until = s->deadline;
	for (uint64_t now = fast_ns(); now < until; now = fast_ns()) {
		if (atomic_load_explicit(w->stop, memory_order_relaxed))
			break;
		uint64_t ns = until - now < 100000000ull ? until - now : 100000000ull;
		struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
				      .tv_nsec = (long)(ns % 1000000000ull)};
		nanosleep(&ts, NULL);
	}
	s->now = fast_ns();
	return true;
}

/* latency_target after reaping: drain when the depth went down, start
 * the statistics over for the last window at the depth found, end when
 * it is done (or failed at depth 1). Returns false when the loop ends. */
static bool lat_step(struct worker *w, struct loop_state *s)
{
	enum lat_step st = w->lat_pending, c = lat_target_check(&w->lat, s->now);
	w->lat_pending = LAT_GO;
	st = c > st ? c : st;
	if (st == LAT_FATAL) {
		w->error = err_set(&w->err, ETIMEDOUT, "job %s: latency over "
				   "latency_target=%lluus at depth 1", w->job->name,
				   (unsigned long long)(w->lat.target_ns / 1000));
		return false;
	}
	if (st == LAT_DONE)
		return false;
	if (st == LAT_GO || !commit(w, s))
		return st == LAT_GO;
	while (s->inflight)
		if (!reap(w, s, 1))
			return false;
	if (st == LAT_FINAL) { /* fio's reset_all_stats: only the depth found counts */
		stats_free(&w->stats);
		stats_init(&w->stats);
		if (stats_reserve(&w->stats, (unsigned)(w->job->runtime_ns / 1000000000ull) + 1)) {
			w->error = err_set(&w->err, ENOMEM, "out of memory");
			return false;
		}
		w->measure_start_ns = s->now = fast_ns();
		w->end_ns = w->measure_start_ns;
		if (w->job->runtime_ns)
			s->deadline = w->measure_start_ns + w->job->runtime_ns;
	}
	return true;
}

/* Reap everything in flight, booking each I/O even after one that ends
 * the job (fill_device's ENOSPC: fio counts the rest too, and with
 * iodepth_batch_complete_max they come one call at a time); stops only
 * when the engine itself fails. */
static void drain(struct worker *w, struct loop_state *s)
{
	while (s->inflight) {
		unsigned before = s->inflight;
		(void)reap(w, s, 1);
		if (s->inflight == before)
			break;
	}
}

/* Which per-pass features job j uses (loop_state). flush_due schedules
 * nothing for a job that does not write or has neither fsync= nor
 * fdatasync=, so skipping it there changes nothing. */
static void loop_features(const struct worker *w, struct loop_state *s)
{
	const struct job_spec *j = w->job;

	s->between = j->thinktime_ns || s->watch.armed || w->logs;
	s->flow = w->flow.flow != NULL;
	s->flushes = rw_writes(j->rw) && (j->fsync_blocks || j->fdatasync_blocks);
	s->ss = j->ss_dur_ns != 0;
}

/* Has someone told this worker to end: the run (stop), another worker's
 * exitall (exit_now), its steady state (ss_end, looked at only when the
 * job has one)? */
static inline bool told_to_end(struct worker *w, const struct loop_state *s)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&w->exit_now, memory_order_relaxed) ||
	       (s->ss && atomic_load_explicit(&w->ss_end, memory_order_relaxed));
}

static void run_loop(struct worker *w, struct loop_state *s)
{
	unsigned pass = 0;
	loop_features(w, s);
	for (;;) {
		/* every pass counts: a sync engine's I/O is done in issue(),
		 * and its passes end at the idle branch below */
		if ((++pass & 63) == 0)
			publish_live(w);
		if (s->now >= s->deadline || told_to_end(w, s))
			break;
		if (!issue(w, s) || !commit(w, s))
			break;
		if (s->between && !think_and_watch(w, s))
			break;
		if (s->flow_held) {
			if (!flow_wait(w, s))
				break;
			if (!s->inflight)
				continue;
		}
		if (s->inflight == 0) {
			if (s->gen_done && !s->held && !s->nr_staged &&
			    !s->have_op && !next_op(w, s) && !readback_start(w, s))
				break;
			if (next_due_ns(s) > s->now)
				wait_idle(s);
			else
				s->now = fast_ns();
			continue;
		}
		/* Closed loop: everything issuable is issued, so wait for one. */
		if (!(s->paced ? wait_paced(w, s) : reap_closed(w, s)))
			break;
		if (w->lat_on && !lat_step(w, s))
			break;
	}
	/* A failing target ends the whole run in order, not just this
	 * worker: the others stop at their next pass. */
	if (w->error)
		atomic_store(w->stop, true);
	/* Let what is in flight finish, so every buffer is back and every
	 * issued I/O is counted. */
	commit(w, s);
	drain(w, s);
	if (!w->error && flush_at_end(w->job, w->kind))
		end_flush(w, s);
	publish_live(w);
}

void start_gate_open(struct start_gate *g, unsigned expected)
{
	pthread_mutex_lock(&g->mu);
	while (g->ready < expected)
		pthread_cond_wait(&g->cv, &g->mu);
	g->start_ns = fast_ns();
	g->open = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	int ret = worker_setup(w);
	if (ret) {
		w->error = ret;
		atomic_store(w->stop, true); /* one failed setup stops them all */
	}
	pthread_mutex_lock(&w->gate->mu);
	w->gate->ready++;
	pthread_cond_broadcast(&w->gate->cv);
	while (!w->gate->open)
		pthread_cond_wait(&w->gate->cv, &w->gate->mu);
	uint64_t start = w->gate->start_ns;
	pthread_mutex_unlock(&w->gate->mu);
	/* fio times each job from its own start: a thread the scheduler runs
	 * late (a starved CPU) would otherwise lose that time from its
	 * runtime, or all of it and issue nothing. */
	uint64_t woke = fast_ns();
	if (woke > start)
		start = woke;
	w->measure_start_ns = start + w->job->ramp_ns;
	w->end_ns = w->measure_start_ns;
	if (w->kind && w->kind->measure_from && w->engine_state)
		w->kind->measure_from(w->engine_state, w->measure_start_ns);

	if (!w->error && !atomic_load(w->stop) && !atomic_load(&w->exit_now)) {
		bool timed = worker_iolog_timed(w);
		if (pace_job_paced(w->job) || timed) /* naps must be short to be accurate */
			pace_thread_init();
		struct loop_state s = {
			.now = fast_ns(),
			.deadline = w->job->runtime_ns ?
					    w->measure_start_ns + w->job->runtime_ns :
					    UINT64_MAX,
		};
		loop_pace_init(&s, w->job, start,
			       w->job->randseed ^ 0xa441ull ^ w->clone);
		if (w->replay) { /* the log's schedule, from the start */
			replay_start(w->replay, start);
			s.replay_timed = timed;
			s.paced |= timed;
		}
		if ((w->lat_on = lat_target_on(w->job)))
			lat_target_init(&w->lat, w->job, s.now);
		think_init(&s.think, w->job, start);
		rate_watch_init(&s.watch, w->job, start);
		run_loop(w, &s);
		w->end_ns = s.now > w->measure_start_ns ? s.now : w->measure_start_ns;
		struct ioc_err lerr;
		int lret = w->logs ? fio_logs_write(w->logs, w->end_ns - w->measure_start_ns,
						    &lerr) : 0;
		if (lret && !w->error) {
			w->error = lret;
			w->err = lerr;
		}
	}
	flow_leave(&w->flow); /* the others of its flow run free of it */
	worker_teardown(w);
	atomic_store(&w->finished, 1);
	return NULL;
}

/* worker_setup.c - a worker's setup and teardown: its units and their
 * buffers, its files (opened, pre-read or invalidated; flushed at close
 * for fsync_on_close), the generator over them, the logs, the hooks'
 * state and the engine (core/worker_int.h). */
#define _GNU_SOURCE
#include "core/worker_int.h"
#include "core/null_layout.h"
#include "util/fio_rand.h"
#include "core/worker_iolog.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ioprio.h"
#include "engine/cmdprio.h"
#include "util/debug_log.h"
#include "stats/prio_stats.h"
#include "base/job_options.h"
#include "base/pace_opts.h"
#include "core/placement.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/note.h"

#define PAGE_ALIGN 4096

static int setup_units(struct worker *w, struct ioc_err *err)
{
	unsigned depth = w->job->iodepth;
	uint64_t bs = gen_bs_max(w->job); /* the largest I/O of any direction */

	w->units = calloc(depth, sizeof(*w->units));
	w->free_units = calloc(depth, sizeof(*w->free_units));
	w->staged = calloc(depth, sizeof(*w->staged));
	/* fio turns serialize_overlap off where nothing can race: a job
	 * that only reads (not replaying a log), or at depth 1 */
	bool serialize = w->job->serialize_overlap && depth > 1 &&
			 (job_writes(w->job) || w->job->read_iolog[0]);
	if (serialize)
		w->free_mark = calloc(depth, 1);
	if (!w->units || !w->free_units || !w->staged || (serialize && !w->free_mark) ||
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
	if (buf_fill_wanted(w->job))
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
		debug_log(DEBUG_FILE, "get file %s", files[i]);
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
			note_once("%s: cache invalidation failed: %s", files[i],
				  strerror(-ret));
	}
	return 0;
}

/* Rate-limited runs keep, by unit, its I/O's submission time and the
 * ideal tool's (core/pace.h), for the lag, tool-lag and service
 * histograms; the due time is the unit's latency origin. */
static int setup_pacing(struct worker *w, struct ioc_err *err)
{
	if (!pace_job_paced(w->job) && !worker_iolog_timed(&w->iolog))
		return 0;
	w->pacing = calloc(w->job->iodepth, sizeof(*w->pacing));
	if (!w->pacing)
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Each worker's stream distinct yet repeatable (and drawn again for a
 * read-back). */
uint64_t worker_gen_seed(const struct worker *w)
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
		w->fio.submitted_ns = calloc(depth, sizeof(*w->fio.submitted_ns));
		w->fio.queued = calloc(depth, sizeof(*w->fio.queued));
		if (!w->fio.submitted_ns || !w->fio.queued)
			return err_set(err, ENOMEM, "out of memory");
	}
	if (!fio_logs_wanted(w->job))
		return 0;
	w->fio.logs = calloc(1, sizeof(*w->fio.logs));
	if (!w->fio.logs)
		return err_set(err, ENOMEM, "out of memory");
	return fio_logs_init(w->fio.logs, w->job, w->thread_number, err);
}

/* The generator over the clone's own files, limited as fio limits the
 * job (create_only, size under filesize), told each file's size. */
/* fio's td->rand_seeds[FIO_RAND_BLOCK_OFF] of a random job: with
 * randrepeat (its default) a constant times thread_number, whatever
 * randseed says; without, randseed's slot, or the system's RNG. */
static uint64_t fio_block_seed(const struct job_spec *j, unsigned thread)
{
	struct timespec ts;

	if (!j->randrepeat_off)
		return FIO_RANDSEED_REPEAT * thread;
	if (j->randseed != 0x89)
		return fio_job_seed(j->randseed, thread, FIO_SEED_BLOCK);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec;
}

int worker_start_generator(struct worker *w, uint64_t seed, struct ioc_err *err)
{
	int ret;

	/* the generator sees the clone's own files (a copy: gen_init keeps
	 * no pointer to it) */
	struct job_spec view = *w->job;
	view.nr_files = worker_nr_files(w);
	if (w->eops->flags & ENGINE_NO_TARGET) /* fio's diskless files */
		view.nr_files = null_nr_files(w->job);
	const uint64_t *regions = w->file_region ? w->file_region + first_file(w)
						 : NULL;
	if ((ret = gen_init_files(&w->gen, &view, w->region, regions, w->clone,
				  seed)))
		return err_set(err, -ret, "job %s: generator: %s", w->job->name,
			       ret == -ENOMEM ? "out of memory (the random map needs a bit per block of each file; norandommap=1 needs none)"
					      : "no whole block fits the region");
	gen_seed_as_fio(&w->gen, w->job, w->thread_number);
	if (gen_start_lfsr(&w->gen, w->job, fio_block_seed(w->job, w->thread_number)))
		return err_usage(err, EINVAL,
				 "job %s: random_generator=lfsr: fio's register "
				 "cannot start from this seed (as fio: failed "
				 "initializing LFSR); give another randseed=",
				 w->job->name);
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

/* fio's latency per priority, for an engine whose cmdprio gives I/Os
 * priorities of their own: the job's first, then cmdprio's, in fio's
 * order (its engines/cmdprio.c clat_prio indexes). */
static int setup_prio(struct worker *w, struct ioc_err *err)
{
	const struct cmdprio_opts *o = cmdprio_of(w->eops, w->job->engine_opts);
	unsigned v[PRIO_STATS_MAX];

	if (!o || !cmdprio_on(o))
		return 0;
	if (!(w->prio = prio_stats_new()))
		return err_set(err, ENOMEM, "out of memory");
	for (int d = 0; d < DIR_COUNT; d++) {
		prio_stats_slot(w->prio, (enum io_dir)d, w->ioprio);
		unsigned n = cmdprio_prios(o, (enum io_dir)d, v, PRIO_STATS_MAX);
		for (unsigned i = 0; i < n; i++)
			prio_stats_slot(w->prio, (enum io_dir)d, v[i]);
	}
	return 0;
}

int worker_setup(struct worker *w)
{
	struct ioc_err *err = &w->err;
	uint64_t seed = worker_gen_seed(w);
	int ret;

	for (unsigned i = 0; i < JOB_MAX_FILES; i++)
		w->fds[i] = -1;
	stats_reset(&w->stats); /* the crew calloc'd it: see stats_reset */
	uint64_t planned_s = (w->job->ramp_ns + w->job->runtime_ns) / 1000000000ull;
	if ((ret = placement_apply(w->job, w->thread_number - 1, err)) || (ret = setup_units(w, err)) ||
	    (ret = setup_files(w, err)) ||
	    (ret = worker_iolog_setup(&w->iolog, w->job,
				      (const char *const *)w->job->files + first_file(w),
				      worker_nr_files(w), fast_ns(), err)) ||
	    (ret = setup_pacing(w, err)) ||
	    (ret = setup_logs(w, err)))
		return ret;
	if (stats_reserve(&w->stats, (unsigned)planned_s + 1))
		return err_set(err, ENOMEM, "out of memory");
	if ((ret = worker_start_generator(w, seed, err)))
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
		.peer = w->job->nr_files ? w->job->files[first_file(w)] : NULL,
		.job_reads = rw_reads(w->job->rw),
		.job_writes = rw_writes(w->job->rw),
		.clone = w->clone,
		.runtime_ns = w->job->runtime_ns,
		.stop = w->stop,
	};
	/* fio sets the priority before the engine starts */
	if ((ret = ioprio_apply(w->job, err)))
		return ret;
	w->ioprio = job_ioprio(w->job);
	if (!w->kind && (ret = setup_prio(w, err)))
		return ret;
	if (w->kind) { /* the job's engine moves the kind's own I/Os */
		ret = w->kind->engine_init(w->shared, w->eops, w->job, &p,
					   &w->engine_state, err);
		w->eops = w->kind->engine;
		return ret;
	}
	debug_log(DEBUG_IO, "load ioengine %s", w->eops->name);
	return engine_init(w->eops, &p, w->job->engine_opts, &w->engine_state,
			   err);
}

void worker_teardown(struct worker *w)
{
	if (w->kind && w->kind->take_stats && w->engine_state)
		w->target_stats = w->kind->take_stats(w->engine_state);
	if (w->eops && w->engine_state) {
		w->eops->cleanup(w->engine_state);
		debug_log(DEBUG_IO, "free ioengine %s", w->eops->name);
	}
	w->engine_state = NULL;
	if (w->nr_fds)
		debug_log(DEBUG_FILE, "close files");
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
	int lret = worker_iolog_end(&w->iolog, fast_ns(), &lerr);
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
	free(w->free_mark);
	w->free_mark = NULL;
	free(w->pacing);
	w->pacing = NULL;
	if (w->fio.logs)
		fio_logs_free(w->fio.logs);
	free(w->fio.logs);
	free(w->fio.submitted_ns);
	free(w->fio.queued);
	w->fio.logs = NULL;
	w->fio.submitted_ns = NULL;
	w->fio.queued = NULL;
	w->buffers = w->units = NULL;
	w->free_units = w->staged = NULL;
}

/* worker.c - the worker loop shared by every engine: queue, commit, reap.
 *
 * Time is read once per loop pass, not per I/O, from the TSC where it can
 * be trusted (util/clock.h): every I/O queued in a pass
 * is stamped with the time just before the pass's submission, every I/O
 * reaped with the time just after the reaping call returned. Both bracket
 * the real event, so latencies are never under-stated, and the clock costs
 * nothing extra at high queue depths. Sync engines complete inside queue()
 * and are stamped right after it.
 *
 * This file is the loop, what ends it (deadline, stop, exitall, steady
 * state, latency_target, flow=, the end's drain and flushes) and the
 * thread; its parts are listed in core/worker_int.h.
 */
#define _GNU_SOURCE
#include "core/worker_int.h"
#include "core/worker_iolog.h"
#include "core/replay.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

#include "base/pace_opts.h"
#include "util/clock.h"

/* The hooks' read-back (io_hooks.h): the same blocks again, as reads. */
static bool readback_start(struct worker *w, struct loop_state *s)
{
	if (s->readback || !w->io_state || !w->io->readback ||
	    !w->io->readback(w->io_state))
		return false;
	s->readback = true;
	gen_free(&w->gen);
	if ((w->error = worker_start_generator(w, worker_gen_seed(w), &w->err)))
		return false;
	/* the job drawn again as it was (its directions' random state
	 * too), its writes read and its reads skipped (worker_next_op), as
	 * fio's experimental_verify */
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
		if (!worker_queue_staged(w, s) || !commit(w, s))
			break;
		while (s->inflight && reap(w, s, 1))
			;
	}
	w->flushing_end = false;
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
			worker_ignore_think(w, s, s->now - t0);
	}
	if (s->watch.armed || (w->fio.logs && s->now >= w->measure_start_ns)) {
		uint64_t bytes[DIR_ALL], ios[DIR_ALL];
		for (int d = 0; d < DIR_ALL; d++) {
			bytes[d] = w->stats.dir[d].bytes;
			ios[d] = w->stats.dir[d].ios;
		}
		if (w->fio.logs && s->now >= w->measure_start_ns)
			fio_logs_tick(w->fio.logs, s->now - w->measure_start_ns, bytes, ios);
		int ret = rate_watch_check(&s->watch, j, s->now, bytes, ios, &w->err);
		if (ret) {
			w->error = ret;
			return false;
		}
	}
	return true;
}

/* Held back by flow=: as fio, let what is in flight finish and sleep
 * flow_sleep (in slices, to see the stop flag), or with no flow_sleep
 * retry at once; with nothing in flight, after another member's next
 * I/O (flow_wait_turn: 20 us of spin, then a futex, 1 ms at most so the
 * stop flag and the deadline are seen). Returns false when the worker
 * must stop. */
static bool flow_wait(struct worker *w, struct loop_state *s)
{
	s->flow_held = false;
	if (!w->job->flow_sleep_us) {
		if (!s->inflight) {
			flow_wait_turn(&w->flow, 20000, 1000000);
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
	enum lat_step st = w->lat_target.pending, c = lat_target_check(&w->lat_target.search, s->now);
	w->lat_target.pending = LAT_GO;
	st = c > st ? c : st;
	if (st == LAT_FATAL) {
		w->error = err_set(&w->err, ETIMEDOUT, "job %s: latency over "
				   "latency_target=%lluus at depth 1", w->job->name,
				   (unsigned long long)(w->lat_target.search.target_ns / 1000));
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
		stats_reset(&w->stats);
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

/* Which optional features worker w uses (enum worker_feature), from its
 * job and what its setup made; decided once, before the loop. flush_due
 * schedules nothing for a job that does not write or has neither fsync=
 * nor fdatasync=, so leaving it out there changes nothing. */
static unsigned worker_features(const struct worker *w, const struct loop_state *s)
{
	const struct job_spec *j = w->job;
	unsigned f = 0;

	f |= (w->pacing ? WF_PACED : 0) | (lat_target_on(j) ? WF_LAT_TARGET : 0);
	f |= (w->io_state ? WF_HOOKS : 0) | (w->fio.submitted_ns ? WF_SPLIT : 0);
	f |= (w->io && !w->io_state ? WF_REUSE : 0);
	f |= (w->fio.logs ? WF_FIO_LOGS : 0) | (w->prio ? WF_PRIO : 0);
	f |= (w->iolog.out ? WF_IOLOG_OUT : 0) | (w->iolog.replay ? WF_REPLAY : 0);
	f |= (buf_fill_wanted(j) ? WF_REFILL : 0) | (w->free_mark ? WF_OVERLAP : 0);
	if (rw_writes(j->rw) && (j->fsync_blocks || j->fdatasync_blocks))
		f |= WF_FLUSHES;
	f |= (w->flow.flow ? WF_FLOW : 0) | (j->ss_dur_ns ? WF_SS : 0);
	if (j->thinktime_ns || s->watch.armed || w->fio.logs)
		f |= WF_BETWEEN;
	return f;
}

/* Has someone told this worker to end: the run (stop), another worker's
 * exitall (exit_now), its steady state (ss_end, looked at only when the
 * job has one)? */
static inline bool told_to_end(struct worker *w, const struct loop_state *s)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&w->exit_now, memory_order_relaxed) ||
	       ((w->feat & WF_SS) && atomic_load_explicit(&w->ss_end, memory_order_relaxed));
}

static void run_loop(struct worker *w, struct loop_state *s)
{
	unsigned pass = 0;
	for (;;) {
		/* every pass counts: a sync engine's I/O is done in
		 * worker_issue(), and its passes end at the idle branch below */
		if ((++pass & 63) == 0)
			worker_publish_live(w);
		if (s->now >= s->deadline || told_to_end(w, s))
			break;
		if (!worker_issue(w, s) || !commit(w, s))
			break;
		if ((w->feat & WF_BETWEEN) && !think_and_watch(w, s))
			break;
		if (s->flow_held) {
			if (!flow_wait(w, s))
				break;
			if (!s->inflight)
				continue;
		}
		if (s->inflight == 0) {
			if (s->gen_done && !s->held && !s->nr_staged &&
			    !s->have_op && !worker_next_op(w, s) && !readback_start(w, s))
				break;
			if (next_due_ns(s) > s->now)
				worker_wait_idle(s);
			else
				s->now = fast_ns();
			continue;
		}
		/* Closed loop: everything issuable is issued, so wait for one. */
		if (!((w->feat & WF_PACED) ? worker_wait_paced(w, s)
					    : worker_reap_closed(w, s)))
			break;
		if ((w->feat & WF_LAT_TARGET) && !lat_step(w, s))
			break;
	}
	/* A failing target ends the whole run in order, not just this
	 * worker: the others stop at their next pass. */
	if (w->error)
		atomic_store(w->stop, true);
	/* Let what is in flight finish, so every buffer is back and every
	 * issued I/O is counted. */
	commit(w, s);
	worker_drain(w, s);
	if (!w->error && flush_at_end(w->job, w->kind))
		end_flush(w, s);
	worker_publish_live(w);
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

/* The CPUs this thread may run on (its job's cpus_allowed, or all). */
static unsigned usable_cpus(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) ? 1 : (unsigned)CPU_COUNT(&set);
}

/* fio's open_file of an engine that waits for its peer (net: accept,
 * connect), when the job starts: the job is timed from its end. */
static void open_at_start(struct worker *w, uint64_t *start)
{
	if (w->error || w->kind || !w->eops->open || atomic_load(w->stop))
		return;
	w->error = w->eops->open(w->engine_state, &w->err);
	uint64_t now = fast_ns();
	if (now > *start)
		*start = now;
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
	open_at_start(w, &start);
	w->measure_start_ns = start + w->job->ramp_ns;
	w->end_ns = w->measure_start_ns;
	if (w->kind && w->kind->measure_from && w->engine_state)
		w->kind->measure_from(w->engine_state, w->measure_start_ns);

	if (!w->error && !atomic_load(w->stop) && !atomic_load(&w->exit_now)) {
		bool timed = worker_iolog_timed(&w->iolog);
		if (w->pacing) { /* naps must be short to be accurate */
			bool spin, slice;
			pace_spin_slice(w->nr_threads, usable_cpus(),
					w->eops->flags & ENGINE_NO_TARGET, &spin, &slice);
			pace_thread_init(spin, slice);
		}
		struct loop_state s = {
			.now = fast_ns(),
			.deadline = w->job->runtime_ns ?
					    w->measure_start_ns + w->job->runtime_ns :
					    UINT64_MAX,
		};
		worker_pace_init(&s, w->job, start,
			       w->job->randseed ^ 0xa441ull ^ w->clone);
		if (w->iolog.replay) { /* the log's schedule, from the start */
			replay_start(w->iolog.replay, start);
			s.replay_timed = timed;
		}
		if (lat_target_on(w->job))
			lat_target_init(&w->lat_target.search, w->job, s.now);
		think_init(&s.think, w->job, start);
		rate_watch_init(&s.watch, w->job, start);
		w->feat = worker_features(w, &s);
		run_loop(w, &s);
		if (!w->kind && w->eops->dropped) /* fio's drop_ios */
			w->stats.drop_ios[DIR_READ] = w->eops->dropped(w->engine_state);
		w->end_ns = s.now > w->measure_start_ns ? s.now : w->measure_start_ns;
		struct ioc_err lerr;
		int lret = w->fio.logs ? fio_logs_write(w->fio.logs, w->end_ns - w->measure_start_ns,
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

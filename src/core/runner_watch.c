/* runner_watch.c - the caller's thread while the workers run: their
 * start order (stonewall, wait_for, startdelay), exitall, an external
 * stop relayed, steady-state samples, status reports, the tick with its
 * live latency, and the CPU use sampled at the end of the ramp
 * (core/runner_int.h). */
#define _GNU_SOURCE
#include "core/runner_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/exit_what.h"
#include "core/run_status.h"
#include "core/schedule.h"
#include "core/steady_run.h"
#include "util/clock.h"

#define WATCH_STEP_NS 50000000ull /* how often the runner looks at workers */
#define LIVE_ASK_AHEAD_NS 200000000ull /* the tick's latency snapshot: how early */
/* While a worker waits for others to end (stonewall, wait_for): how often
 * the runner looks, so it starts at most this late (fio looks every 10 ms) */
#define SCHED_STEP_NS 2000000ull

/* Let go the workers whose turn has come (core/schedule.h), or all the
 * rest once the run is stopping, so they see the stop and end. Returns
 * when to look again (UINT64_MAX: every worker has started). */
uint64_t runner_release_due(struct watch *wa, uint64_t now)
{
	struct sched_worker *sw = wa->sched;
	uint64_t next = UINT64_MAX;
	unsigned n = 0;

	if (schedule_all_started(sw, wa->nr))
		return UINT64_MAX;
	for (unsigned i = 0; i < wa->nr; i++)
		sw[i].finished = atomic_load(&wa->w[i].finished);
	if (atomic_load(wa->stop)) {
		for (unsigned i = 0; i < wa->nr; i++)
			if (!sw[i].started) {
				sw[i].started = true;
				wa->picked[n++] = i;
			}
	} else {
		n = schedule_pick(wa->jobs, sw, wa->nr, now - wa->start_ns,
				  wa->picked, &next);
	}
	for (unsigned i = 0; i < n; i++)
		start_gate_open(&wa->gates[wa->picked[i]], 1);
	if (schedule_all_started(sw, wa->nr))
		return UINT64_MAX;
	next = next == UINT64_MAX ? UINT64_MAX : wa->start_ns + next;
	return now + SCHED_STEP_NS < next ? now + SCHED_STEP_NS : next;
}

/* exitall: stop the workers each newly ended worker's exit_what names;
 * one not started yet is let go at once and ends without I/O, as fio's
 * never runs. */
static void exit_others(struct watch *wa)
{
	if (!wa->exitall)
		return;
	for (unsigned i = 0; i < wa->nr; i++)
		wa->sched[i].finished = atomic_load(&wa->w[i].finished);
	for (unsigned e = 0; e < wa->nr; e++) {
		if (!wa->sched[e].finished || wa->ended[e])
			continue;
		wa->ended[e] = true;
		memset(wa->hit, 0, wa->nr * sizeof(*wa->hit));
		exit_what_pick(wa->jobs, wa->groups, wa->sched, wa->nr, e, wa->hit);
		for (unsigned i = 0; i < wa->nr; i++) {
			if (!wa->hit[i])
				continue;
			atomic_store(&wa->w[i].exit_now, true);
			if (!wa->sched[i].started) {
				wa->sched[i].started = true;
				start_gate_open(&wa->gates[i], 1);
			}
		}
	}
}

static bool all_finished(const struct watch *wa)
{
	for (unsigned i = 0; i < wa->nr; i++)
		if (!atomic_load(&wa->w[i].finished))
			return false;
	return true;
}

/* The live latency's memory: nr snapshots seen, nr being written, their
 * sum. false when there is none (the line then shows no p99). */
static bool live_alloc(struct watch *wa)
{
	if (wa->seen)
		return true;
	wa->seen = malloc((2 * (size_t)wa->nr + 1) * sizeof(*wa->seen));
	if (!wa->seen)
		return false;
	for (unsigned i = 0; i <= 2 * wa->nr; i++)
		hist_init(&wa->seen[i]);
	wa->snaps = &wa->seen[wa->nr];
	wa->lat = &wa->seen[2 * wa->nr];
	return true;
}

/* Ask every worker for its latency so far. */
static void live_ask(struct watch *wa)
{
	if (!live_alloc(wa))
		return;
	for (unsigned i = 0; i < wa->nr; i++)
		stats_live_ask(&wa->w[i].live, &wa->snaps[i]);
}

/* The workers' latency so far into wa->lat, from their last snapshots;
 * NULL when there is no memory for it. */
static const struct hist *live_latency(struct watch *wa)
{
	if (!wa->seen)
		return NULL;
	bool changed = false;
	for (unsigned i = 0; i < wa->nr; i++) {
		struct stats_live *l = &wa->w[i].live;
		if (stats_live_take(l, &wa->seen[i])) {
			changed = true;
			/* taken: the worker may answer the next ask */
			atomic_store_explicit(&l->snap_state, LIVE_SNAP_IDLE, memory_order_relaxed);
		}
	}
	if (changed) {
		hist_init(wa->lat);
		for (unsigned i = 0; i < wa->nr; i++)
			hist_merge(wa->lat, &wa->seen[i]);
	}
	return wa->lat;
}

static void tick(struct watch *wa, uint64_t now)
{
	uint64_t ios[DIR_COUNT] = {0}, bytes[DIR_COUNT] = {0}, lat = 0;
	const struct hist *h = live_latency(wa);
	for (unsigned i = 0; i < wa->nr; i++) {
		const struct stats_live *l = &wa->w[i].live;
		for (int d = 0; d < DIR_COUNT; d++) {
			ios[d] += atomic_load_explicit(&l->ios[d], memory_order_relaxed);
			bytes[d] += atomic_load_explicit(&l->bytes[d], memory_order_relaxed);
		}
		lat += atomic_load_explicit(&l->lat_sum, memory_order_relaxed);
	}
	wa->hooks->tick(wa->hooks->arg, now - wa->start_ns, wa->planned_ns,
			ios, bytes, lat, h);
}

/* Runs on the caller's thread while the workers work: samples CPU use at
 * the end of the ramp, calls the tick hook each second, and relays an
 * external stop. */
void runner_watch_workers(struct watch *wa)
{
	bool cpu_sampled = false, asked = false;
	uint64_t next_tick = wa->start_ns + RUNNER_FIRST_TICK_NS;

	getrusage(RUSAGE_SELF, &wa->ru_start);
	cpuload_sample(&wa->load_start);
	while (!all_finished(wa)) {
		uint64_t now = clock_ns(), ramp_end = wa->start_ns + wa->ramp_ns;
		exit_others(wa);
		uint64_t wake = now + WATCH_STEP_NS, due = runner_release_due(wa, now);
		if (due < wake)
			wake = due;
		if (!cpu_sampled) {
			if (now >= ramp_end) {
				getrusage(RUSAGE_SELF, &wa->ru_start);
				cpuload_sample(&wa->load_start);
				cpu_sampled = true;
			} else if (ramp_end < wake) {
				wake = ramp_end;
			}
		}
		if (wa->user_stop && atomic_load(wa->user_stop))
			atomic_store(wa->stop, true);
		steady_run_tick(wa->steady, wa->w, wa->sched, now);
		if (wa->steady->by_worker && wa->steady->next_ns < wake)
			wake = wa->steady->next_ns;
		if (wa->status) {
			uint64_t at = run_status_poll(wa->status, now);
			wake = at < wake ? at : wake;
		}
		/* the workers' latency is asked for a little before each
		 * tick, so the tick shows it at most that old */
		if (wa->hooks && wa->hooks->tick && !asked && now + LIVE_ASK_AHEAD_NS >= next_tick) {
			live_ask(wa);
			asked = true;
		}
		if (wa->hooks && wa->hooks->poll)
			wa->hooks->poll(wa->hooks->arg);
		if (wa->hooks && wa->hooks->tick && now >= next_tick) {
			tick(wa, now);
			/* the next whole second of the run */
			next_tick = wa->start_ns +
				    ((next_tick - wa->start_ns) / 1000000000ull + 1) * 1000000000ull;
			asked = false;
		}
		clock_sleep_until(wake);
	}
	getrusage(RUSAGE_SELF, &wa->ru_end);
	cpuload_sample(&wa->load_end);
	/* every worker is finished: none writes into snaps any more */
	free(wa->seen);
	wa->seen = wa->snaps = wa->lat = NULL;
}

/* worker_reap.c - waiting for completions: the engine's getevents,
 * each completion booked, fio's wait_for_completions for a closed loop
 * (iodepth_batch_complete_min, iodepth_low) and the drain at the end
 * (core/worker_int.h). */
#define _GNU_SOURCE
#include "core/worker_int.h"

#include <string.h>

#include "util/clock.h"

/* Reap at least min completions, or (until_ns != 0, and the engine can)
 * what completes before until_ns. Returns false when the worker must stop. */
bool worker_reap_until(struct worker *w, struct loop_state *s, unsigned min,
			uint64_t until_ns)
{
	int n = until_ns ? w->eops->getevents_until(w->engine_state, min, until_ns)
			 : engine_getevents(w->eops, w->engine_state, min);
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
		ok &= worker_complete(w, w->eops->event(w->engine_state, (unsigned)i), s->now);
	return ok;
}

/* fio's wait_for_completions, for a closed loop with I/O in flight: wait
 * for iodepth_batch_complete_min of them (0: poll until one), and when
 * every unit was busy go on until no more than iodepth_low are in flight.
 * Returns false when the worker must stop. */
bool worker_reap_closed(struct worker *w, struct loop_state *s)
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

/* Reap everything in flight, booking each I/O even after one that ends
 * the job (fill_device's ENOSPC: fio counts the rest too, and with
 * iodepth_batch_complete_max they come one call at a time); stops only
 * when the engine itself fails. */
void worker_drain(struct worker *w, struct loop_state *s)
{
	while (s->inflight) {
		unsigned before = s->inflight;
		(void)reap(w, s, 1);
		if (s->inflight == before)
			break;
	}
}

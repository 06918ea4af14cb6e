/* worker_pace.c - a rate-limited worker's waits: asleep to the next due
 * I/O with nothing in flight, reaping or napping with I/O in flight; the
 * pacers' start and rate_ignore_thinktime's shift (the per-I/O steps are
 * inline in worker_int.h). */
#define _GNU_SOURCE
#include "core/worker_int.h"

#include "base/pace_opts.h"
#include "util/clock.h"

/* longest nap of a rate-limited worker with I/O in flight and a free slot:
 * bounds how late a completion can be stamped */
#define RATE_NAP_NS 20000ull
/* longest sleep between looks at the stop flag */
#define RATE_SLEEP_MAX_NS 50000000ull

/* Rate-limited, nothing in flight: sleep to the next due I/O (or the
 * deadline; at most RATE_SLEEP_MAX_NS, to see the stop flag). */
void worker_wait_idle(struct loop_state *s)
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
bool worker_wait_paced(struct worker *w, struct loop_state *s)
{
	if ((!w->nr_free && !s->held) || s->nr_staged) /* staged: the engine was busy */
		return reap(w, s, 1);
	uint64_t next = next_due_ns(s);
	if (w->eops->getevents_until && next > s->now) {
		/* a timed wait wakes as late as a sleep: the thread's lead */
		uint64_t lead = pace_lead_ns();
		uint64_t until = next > lead ? next - lead : 1;
		return worker_reap_until(w, s, 1, until > s->now ? until : 1);
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

/* rate_ignore_thinktime: go on at the rate after a think of ns, not
 * catch up: fio moves the due times by the think less one I/O's gap, so
 * that one leaves at once (by the whole think when it is shorter). */
void worker_ignore_think(const struct worker *w, struct loop_state *s, uint64_t ns)
{
	for (int d = 0; d < (s->per_dir ? DIR_ALL : 1); d++) {
		const struct pace *p = &s->pace[d];
		if (!p->rate)
			continue;
		uint64_t gap = (s->bytes[d] ? w->job->bs : 1) * 1000000000ull / p->rate;
		pace_shift(&s->pace[d], ns >= gap ? ns - gap : ns);
	}
}

/* The pacing of job j from start: iochar's rate_iops over both
 * directions, or fio's rates per direction (bytes for rate=). */
void worker_pace_init(struct loop_state *s, const struct job_spec *j,
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
}

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

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pace.h"
#include "target/target.h"
#include "util/clock.h"
#include "verify/block.h"
#include "verify/session.h"
#include "vd/engine.h"

#define PAGE_ALIGN 4096
/* longest nap of a rate-limited worker with I/O in flight and a free slot:
 * bounds how late a completion can be stamped */
#define RATE_NAP_NS 20000ull
/* longest sleep between looks at the stop flag */
#define RATE_SLEEP_MAX_NS 50000000ull

static int setup_units(struct worker *w, struct ioc_err *err)
{
	unsigned depth = w->job->iodepth;
	uint64_t bs = w->job->bs;

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
	if ((w->eops->flags & ENGINE_NO_TARGET) || w->vd)
		return 0; /* a VD engine opens its members itself */
	bool write = rw_writes(w->job->rw);
	for (unsigned i = 0; i < w->job->nr_files; i++) {
		int ret = target_open(w->job->files[i], write, w->job->direct,
				      &w->fds[i], err);
		if (ret)
			return ret;
		w->nr_fds++;
	}
	return 0;
}

static int setup_cpu(struct worker *w, struct ioc_err *err)
{
	if (!w->job->cpus_set)
		return 0;
	int ret = pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t),
					 &w->job->cpus_allowed);
	if (ret)
		return err_set(err, ret, "job %s: cpus_allowed: %s",
			       w->job->name, strerror(ret));
	return 0;
}

/* Rate-limited runs keep, by unit, its I/O's submission time and the
 * ideal tool's (core/pace.h), for the lag, tool-lag and service
 * histograms; the due time is the unit's latency origin. */
static int setup_pacing(struct worker *w, struct ioc_err *err)
{
	if (!w->job->rate_iops)
		return 0;
	w->paced = calloc(w->job->iodepth, sizeof(*w->paced));
	if (!w->paced)
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int worker_setup(struct worker *w)
{
	struct ioc_err *err = &w->err;
	uint64_t seed = w->job->randseed + 0x9e3779b97f4a7c15ull *
				(w->job_index * 1024ull + w->clone + 1);
	int ret;

	for (unsigned i = 0; i < JOB_MAX_FILES; i++)
		w->fds[i] = -1;
	stats_init(&w->stats);
	uint64_t planned_s = (w->job->ramp_ns + w->job->runtime_ns) / 1000000000ull;
	if ((ret = setup_cpu(w, err)) || (ret = setup_units(w, err)) ||
	    (ret = setup_files(w, err)) || (ret = setup_pacing(w, err)))
		return ret;
	if (stats_reserve(&w->stats, (unsigned)planned_s + 1))
		return err_set(err, ENOMEM, "out of memory");
	if (gen_init(&w->gen, w->job, w->region, seed))
		return err_set(err, ENOMEM, "job %s: generator: out of memory",
			       w->job->name);
	if (w->job->verify) {
		struct verify_session_params vp = {
			.job = w->job, .region = w->region,
			.depth = w->job->iodepth, .counts = &w->verify_counts,
			.report = stderr,
		};
		if ((ret = verify_session_create(&vp, &w->verify, err)))
			return ret;
	}
	struct engine_params p = {
		.fds = w->nr_fds ? w->fds : NULL,
		.nr_fds = w->nr_fds,
		.units = w->units,
		.depth = w->job->iodepth,
	};
	if (w->vd) { /* the job's engine moves the member I/Os */
		ret = vd_engine_init(w->vd, w->eops, w->job, &p, &w->engine_state, err);
		w->eops = &vd_engine_ops;
		return ret;
	}
	return w->eops->init(&p, &w->engine_state, err);
}

static void worker_teardown(struct worker *w)
{
	if (w->vd && w->engine_state)
		w->vd_stats = vd_engine_take_stats(w->engine_state);
	if (w->eops && w->engine_state)
		w->eops->cleanup(w->engine_state);
	w->engine_state = NULL;
	for (unsigned i = 0; i < w->nr_fds; i++)
		close(w->fds[i]);
	w->nr_fds = 0;
	gen_free(&w->gen);
	verify_session_free(w->verify);
	w->verify = NULL;
	free(w->buffers);
	free(w->units);
	free(w->free_units);
	free(w->staged);
	free(w->paced);
	w->paced = NULL;
	w->buffers = w->units = NULL;
	w->free_units = w->staged = NULL;
}

/* A failure with verify_fatal stops every worker of the run (as does
 * any I/O error: see fail()). */
static bool verify_complete(struct worker *w, struct io_unit *u)
{
	int ret = verify_session_complete(w->verify, u, &w->err);

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

/* Book a finished I/O. Returns false when the worker must stop (error). */
static bool complete(struct worker *w, struct io_unit *u, uint64_t now)
{
	w->free_units[w->nr_free++] = u;
	if (w->verify && !verify_complete(w, u))
		return false;
	if (u->result != (int64_t)u->len) {
		int e = u->result < 0 ? (int)-u->result : EIO;
		const char *what = u->result < 0 ? strerror(e) : "short transfer";
		char member[IOC_ERR_MAX / 2];
		/* a VD names the member that failed, with its own error */
		if (w->vd && vd_engine_member_error(w->engine_state, member, sizeof(member)))
			what = member;
		w->error = err_set(&w->err, e, "job %s: %s of %llu bytes at offset %llu of %s: %s",
				   w->job->name, u->dir == DIR_READ ? "read" : "write",
				   (unsigned long long)u->len, (unsigned long long)u->offset,
				   w->vd ? "the --vd drive" : w->nr_fds ? w->job->files[u->file] : "(null)",
				   what);
		return false;
	}
	if (w->paced)
		paced_done(w, u, now);
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
	for (int d = 0; d < DIR_COUNT; d++) {
		atomic_store_explicit(&w->live.ios[d], w->stats.dir[d].ios,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.bytes[d], w->stats.dir[d].bytes,
				      memory_order_relaxed);
		lat += w->stats.dir[d].lat.sum;
	}
	atomic_store_explicit(&w->live.lat_sum, lat, memory_order_relaxed);
}

struct loop_state {
	uint64_t now, deadline;
	struct pace pace;        /* rate_iops: due times; closed loop: inert */
	unsigned inflight, pending;
	bool gen_done;
	struct io_unit *held;	 /* refused by verify_session_prepare */
	unsigned nr_staged;	 /* in w->staged: prepared, not yet queued */
};

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

/* A write without verify (op, about to reuse u) must not carry another
 * block's verified units, which only a read (u's last I/O) can have left
 * in the buffer, and must mark the sectors it writes into a verified unit
 * it does not cover whole (verify/block.h). Writes of whole 4 KiB units
 * from a buffer no read filled need neither. */
static void scrub(struct io_unit *u, const struct gen_op *op, uint64_t now)
{
	if (u->dir == DIR_WRITE &&
	    (op->offset | op->len) % VBLOCK_UNIT_LARGE == 0)
		return;
	vblock_scrub(u->buf, op->len, op->offset, now);
}

/* verify journal: no write reaches the engine before its intent is
 * durable (verify/session.h), so the staged I/Os of a pass are queued
 * after one flush. When the journal cannot be written they are never
 * queued: their units go back unused and the run stops. */
static bool stage_flush(struct worker *w, struct loop_state *s)
{
	int ret = verify_session_flush(w->verify, &w->err);

	if (!ret)
		return true;
	for (unsigned i = 0; i < s->nr_staged; i++) {
		struct io_unit *u = w->staged[i];
		struct ioc_err ignored;
		u->result = -ECANCELED; /* its block's content is unchanged */
		verify_session_complete(w->verify, u, &ignored);
		w->free_units[w->nr_free++] = u;
	}
	s->nr_staged = 0;
	w->error = ret;
	atomic_store(w->stop, true);
	return false;
}

/* Queue the staged I/Os in order; those after an ENGINE_BUSY stay staged.
 * Returns false when the worker must stop. */
static bool queue_staged(struct worker *w, struct loop_state *s)
{
	unsigned i = 0;

	if (s->nr_staged && w->verify && !stage_flush(w, s))
		return false;
	for (; i < s->nr_staged; i++) {
		struct io_unit *u = w->staged[i];
		/* a sync engine runs the pass's I/Os one after the other:
		 * in a closed loop each counts from its own start */
		if ((w->eops->flags & ENGINE_SYNC) && !s->pace.rate)
			u->start_ns = s->now;
		if (w->paced)
			w->paced[u->index].issued_ns = s->now;
		enum engine_queue_ret r = w->eops->queue(w->engine_state, u);
		if (r == ENGINE_BUSY)
			break;
		if (r == ENGINE_QUEUED) {
			s->inflight++;
			s->pending++;
			continue;
		}
		s->now = fast_ns(); /* a sync engine did the I/O in queue() */
		if (!complete(w, u, s->now)) {
			i++;
			break;
		}
	}
	s->nr_staged -= i;
	memmove(w->staged, w->staged + i, s->nr_staged * sizeof(*w->staged));
	return !w->error;
}

/* Stage as many I/Os as the depth, the generator and the rate allow, at
 * most one depth's worth, and queue them: sync engines free their unit at
 * once, and the caller must look at the clock and the stop flag between
 * batches. Returns false when the worker must stop. */
static bool issue(struct worker *w, struct loop_state *s)
{
	for (unsigned n = 0; (w->nr_free || s->held) && n < w->job->iodepth; n++) {
		struct io_unit *u = s->held;
		if (!u) {
			if (s->gen_done)
				break;
			if (!pace_due(&s->pace, s->now))
				break;
			struct gen_op op;
			if (!gen_next(&w->gen, &op)) {
				s->gen_done = true;
				break;
			}
			if (w->paced)
				pace_pick_unit(w);
			u = w->free_units[--w->nr_free];
			if (!w->verify && op.dir == DIR_WRITE)
				scrub(u, &op, s->now);
			u->file = op.file;
			u->dir = op.dir;
			u->offset = op.offset;
			u->len = op.len;
			/* open loop: latency counts from when the I/O was due */
			u->start_ns = s->pace.rate ? pace_take(&s->pace) : s->now;
			if (w->paced) {
				struct paced_times *t = &w->paced[u->index];
				t->ideal_ns = u->start_ns > t->ideal_free_ns ? u->start_ns
									     : t->ideal_free_ns;
			}
		}
		s->held = NULL;
		/* verify: an I/O to a block with one in flight waits for it */
		if (w->verify && !verify_session_prepare(w->verify, u)) {
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
	bool ok = true;
	for (int i = 0; i < n; i++)
		ok &= complete(w, w->eops->event(w->engine_state, (unsigned)i), s->now);
	return ok;
}

static bool reap(struct worker *w, struct loop_state *s, unsigned min)
{
	return reap_until(w, s, min, 0);
}

static bool commit(struct worker *w, struct loop_state *s)
{
	if (!s->pending)
		return true;
	s->pending = 0;
	int ret = w->eops->commit(w->engine_state);
	if (ret < 0) {
		w->error = err_set(&w->err, -ret, "job %s: %s engine submit: %s",
				   w->job->name, w->eops->name, strerror(-ret));
		return false;
	}
	return true;
}

/* Rate-limited, nothing in flight: sleep to the next due I/O (or the
 * deadline; at most RATE_SLEEP_MAX_NS, to see the stop flag). */
static void wait_idle(struct loop_state *s)
{
	uint64_t t = s->pace.next_ns;

	/* Above 1/PACE_BATCH_NS I/Os per second, wake once per batch, not
	 * once per I/O: a wake-up costs microseconds of CPU (more on a VM),
	 * which at such rates is the whole budget of the other workers. */
	if (t < s->now + PACE_BATCH_NS && s->pace.rate > 1000000000ull / PACE_BATCH_NS)
		t = s->now + PACE_BATCH_NS;
	if (t > s->deadline)
		t = s->deadline;
	if (t > s->now + RATE_SLEEP_MAX_NS)
		t = s->now + RATE_SLEEP_MAX_NS;
	s->now = pace_wait_until(t);
}

/* Rate-limited with I/O in flight. Every slot busy: nothing can leave
 * before a completion, so block for one (the kernel wakes the thread: the
 * stamp is exact and no CPU is spent). A free slot, with an engine that
 * can wait with a time limit: block until a completion or PACE_SPIN_NS
 * before the next due I/O, the last stretch spun by the passes that
 * follow. Otherwise poll, and when nothing completed and the next I/O is
 * not due, nap briefly rather than spin. Returns false when the worker
 * must stop. */
static bool wait_paced(struct worker *w, struct loop_state *s)
{
	if ((!w->nr_free && !s->held) || s->nr_staged) /* staged: the engine was busy */
		return reap(w, s, 1);
	if (w->eops->getevents_until && !pace_due(&s->pace, s->now)) {
		uint64_t until = s->pace.next_ns > PACE_SPIN_NS ? s->pace.next_ns - PACE_SPIN_NS : 1;
		return reap_until(w, s, 1, until > s->now ? until : 1);
	}
	unsigned before = s->inflight;
	if (!reap(w, s, 0))
		return false;
	if (s->inflight == before && !pace_due(&s->pace, s->now)) {
		uint64_t nap = s->now + RATE_NAP_NS;
		if (nap < s->pace.next_ns) { /* no spin: nothing is due at its end */
			clock_sleep_until(nap);
			s->now = fast_ns();
		} else {
			s->now = pace_wait_until(s->pace.next_ns);
		}
	}
	return true;
}

static void run_loop(struct worker *w, struct loop_state *s)
{
	unsigned pass = 0;
	for (;;) {
		if (s->now >= s->deadline ||
		    atomic_load_explicit(w->stop, memory_order_relaxed))
			break;
		if (!issue(w, s) || !commit(w, s))
			break;
		if (s->inflight == 0) {
			if (s->gen_done && !s->held && !s->nr_staged)
				break;
			if (!pace_due(&s->pace, s->now))
				wait_idle(s);
			else
				s->now = fast_ns();
			continue;
		}
		/* Closed loop: everything issuable is issued, so wait for one. */
		if (!(s->pace.rate ? wait_paced(w, s) : reap(w, s, 1)))
			break;
		if ((++pass & 63) == 0)
			publish_live(w);
	}
	/* A failing target ends the whole run in order, not just this
	 * worker: the others stop at their next pass. */
	if (w->error)
		atomic_store(w->stop, true);
	/* Let what is in flight finish, so every buffer is back and every
	 * issued I/O is counted. */
	commit(w, s);
	while (s->inflight && reap(w, s, 1))
		;
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
	w->measure_start_ns = start + w->job->ramp_ns;
	w->end_ns = w->measure_start_ns;
	if (w->vd)
		vd_engine_measure_from(w->engine_state, w->measure_start_ns);

	if (!w->error && !atomic_load(w->stop)) {
		if (w->job->rate_iops) /* naps must be short to be accurate */
			pace_thread_init();
		struct loop_state s = {
			.now = fast_ns(),
			.deadline = w->job->runtime_ns ?
					    w->measure_start_ns + w->job->runtime_ns :
					    UINT64_MAX,
		};
		pace_init(&s.pace, w->job, start,
			  w->job->randseed ^ 0xa441ull ^ w->clone);
		run_loop(w, &s);
		w->end_ns = s.now > w->measure_start_ns ? s.now : w->measure_start_ns;
	}
	worker_teardown(w);
	atomic_store(&w->finished, 1);
	return NULL;
}

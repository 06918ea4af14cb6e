/* worker_submit.c - the submit path of the worker loop: the next I/O
 * (generator, replay or the hooks' read), flushes due by fsync=N, the
 * rate's due time, the hooks' prepare, staging, queueing and committing
 * in iodepth_batch_submit batches, a sync engine's I/O booked at once
 * (core/worker_int.h). */
#define _GNU_SOURCE
#include "core/worker_int.h"
#include "core/worker_iolog.h"
#include "core/replay.h"

#include <errno.h>
#include <string.h>

#include "util/clock.h"

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

/* Queue the staged I/Os in order, committing every iodepth_batch_submit
 * of them (fio's td_io_queue); those after an ENGINE_BUSY stay staged.
 * Returns false when the worker must stop. */
bool worker_queue_staged(struct worker *w, struct loop_state *s)
{
	unsigned i = 0;

	if (s->nr_staged && (w->feat & WF_HOOKS) && !stage_flush(w, s))
		return false;
	for (; i < s->nr_staged; i++) {
		struct io_unit *u = w->staged[i];
		/* a sync engine runs the pass's I/Os one after the other:
		 * in a closed loop each counts from its own start */
		if ((w->eops->flags & ENGINE_SYNC) && !pace_of(s, u->dir)->rate &&
		    !s->replay_timed)
			u->start_ns = s->now;
		if (w->feat & WF_PACED)
			w->pacing[u->index].issued_ns = s->now;
		if (w->feat & WF_IOLOG_OUT)
			worker_iolog_issued(&w->iolog, u, s->now);
		enum engine_queue_ret r = w->eops->queue(w->engine_state, u);
		if (r == ENGINE_BUSY)
			break;
		s->issued++;
		if (r == ENGINE_QUEUED) {
			if (w->feat & WF_SPLIT)
				w->fio.queued[w->fio.nr_queued++] = u->index;
			s->inflight++;
			s->pending++;
			/* paced: the pass's due I/Os go with the wait that
			 * follows at once (one system call, not two per I/O) */
			if (w->batch.submit_now && !(w->feat & WF_PACED) &&
			    s->pending >= w->batch.submit && !worker_commit_call(w, s, true)) {
				i++;
				break;
			}
			continue;
		}
		s->now = fast_ns(); /* a sync engine did the I/O in queue() */
		if (w->feat & WF_SPLIT) /* an engine that queues did it at once */
			w->fio.submitted_ns[u->index] = s->now;
		if (s->now >= w->measure_start_ns) /* fio: one submitted, one reaped */
			depth_sync_io(&w->stats.depth, s->inflight + 1);
		if (!worker_complete(w, u, s->now)) {
			i++;
			break;
		}
	}
	s->nr_staged -= i;
	memmove(w->staged, w->staged + i, s->nr_staged * sizeof(*w->staged));
	return !w->error;
}

/* A read the hooks put first (io_hooks.h interpose: verify_backlog). */
static bool interposed(struct worker *w, struct loop_state *s)
{
	struct io_hooks_op op;

	if (!(w->feat & WF_HOOKS) || !w->io->interpose ||
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

	return !(w->feat & WF_HOOKS) || !w->io->admit || w->io->admit(w->io_state, &op);
}

/* The replay's next I/O into s->op (read_iolog; a job that verifies
 * replays nothing): a sync line is a flush of its file, with no op after
 * it. false once all are issued. */
static bool replay_op(struct worker *w, struct loop_state *s)
{
	enum io_op flush;

	if (s->gen_done)
		return false;
	if (!(s->have_op = replay_next(w->iolog.replay, &s->op, &flush, &s->op_due))) {
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

/* The hooks' read-back (io_hooks.h readback): the job's writes again as
 * reads, a mixed job's reads skipped, as fio's experimental_verify.
 * false: the generator has ended. */
static bool readback_op(struct worker *w, struct loop_state *s)
{
	while (s->op.dir == DIR_READ)
		if (!gen_next(&w->gen, &s->op)) {
			s->gen_done = true;
			return false;
		}
	s->op.dir = DIR_READ;
	return true;
}

/* Draw the next I/O into s->op: the replay's, or the hooks' read, else
 * the generator's (at its end the hooks may still have reads). false:
 * none now. */
bool worker_next_op(struct worker *w, struct loop_state *s)
{
	if (w->feat & WF_REPLAY)
		return replay_op(w, s);
	if (!interposed(w, s)) {
		if (s->gen_done)
			return false;
		if (!gen_next(&w->gen, &s->op) || !admitted(w, &s->op)) {
			s->gen_done = true;
			return (s->have_op = interposed(w, s));
		}
		if (s->readback && !readback_op(w, s))
			return false;
		if (w->feat & WF_FLUSHES)
			s->flush_op = flush_due(&s->flush, w->job);
	}
	return (s->have_op = true);
}

/* fio's serialize_overlap (backend.c in_flight_overlap): do u's bytes
 * overlap those of an I/O in flight or staged? fio compares offsets
 * only, whatever the file; so here. */
static bool overlaps_busy(struct worker *w, const struct io_unit *u)
{
	unsigned depth = w->job->iodepth;

	memset(w->free_mark, 0, depth);
	for (unsigned i = 0; i < w->nr_free; i++)
		w->free_mark[w->free_units[i]->index] = 1;
	for (unsigned k = 0; k < depth; k++) {
		const struct io_unit *o = &w->units[k];
		if (w->free_mark[k] || o == u || o->op != IO_OP_RW)
			continue;
		if (u->offset < o->offset + o->len && o->offset < u->offset + u->len)
			return true;
	}
	return false;
}

/* What the job's features do once a unit is made for op (WF_ON_UNIT):
 * a write's buffer made, fsync=N's count, the ideal tool's slot
 * (pacing). */
static void unit_features(struct worker *w, struct loop_state *s, struct io_unit *u,
			  const struct gen_op *op)
{
	if ((w->feat & WF_REFILL) && op->dir == DIR_WRITE)
		buf_fill_next(&w->fill, u->buf, (size_t)op->len);
	if (w->feat & WF_FLUSHES)
		flush_note(&s->flush, w->job, op->dir, op->file);
	if (w->feat & WF_PACED) {
		struct paced_times *t = &w->pacing[u->index];
		t->ideal_ns = u->start_ns > t->ideal_free_ns ? u->start_ns : t->ideal_free_ns;
	}
}

/* A free unit made into op's I/O, its latency counted from when it was
 * due (open loop) or now. */
static struct io_unit *unit_for(struct worker *w, struct loop_state *s,
				const struct gen_op *op)
{
	if (w->feat & WF_PACED)
		pace_pick_unit(w);
	struct io_unit *u = w->free_units[--w->nr_free];
	/* before its fields change: the unit still holds its last I/O */
	if ((w->feat & WF_REUSE) && op->dir == DIR_WRITE)
		w->io->reuse(u, op->offset, op->len, s->now);
	u->file = op->file;
	u->dir = op->dir;
	u->op = op->dir == DIR_TRIM ? IO_OP_TRIM : IO_OP_RW;
	u->offset = op->offset;
	u->len = op->len;
	u->ioprio = w->ioprio;
	u->start_ns = (w->feat & WF_PACED) ? take_due(s, op) : s->now;
	if (w->feat & WF_ON_UNIT)
		unit_features(w, s, u, op);
	return u;
}

/* How many I/Os this pass may stage: the depth, or the latency search's,
 * less what is in flight; no further than fio's next think. */
static unsigned issue_room(const struct worker *w, const struct loop_state *s)
{
	unsigned room = w->job->iodepth;
	if (w->feat & WF_LAT_TARGET) {
		unsigned qd = w->lat_target.search.qd;
		room = qd > s->inflight ? qd - s->inflight : 0;
	}
	if (w->job->thinktime_ns && w->job->thinktime_blocks_type == THINK_ISSUE) {
		uint64_t every = w->job->thinktime_blocks ? w->job->thinktime_blocks : 1;
		uint64_t left = s->think.last_blocks + every - s->issued;
		if (left < room)
			room = (unsigned)left;
	}
	return room;
}

/* Stage as many I/Os as the depth, the generator and the rate allow, at
 * most one depth's worth, and queue them: sync engines free their unit at
 * once, and the caller must look at the clock and the stop flag between
 * batches. Returns false when the worker must stop. */
bool worker_issue(struct worker *w, struct loop_state *s)
{
	unsigned room = issue_room(w, s);

	for (unsigned n = 0; (w->nr_free || s->held) && n < room; n++) {
		struct io_unit *u = s->held;
		if (!u) {
			/* not while a replay's sync waits for its time */
			if (!s->have_op && s->flush_op == IO_OP_RW && !worker_next_op(w, s))
				break;
			if (s->flush_op != IO_OP_RW) { /* a flush first: not a block's, no hooks */
				if ((w->feat & WF_REPLAY) && next_due_ns(s) > s->now)
					break;
				u = w->free_units[--w->nr_free];
				flush_unit(u, s->flush_op, s->flush.file, s->now);
				s->flush_op = IO_OP_RW;
				w->staged[s->nr_staged++] = u;
				continue;
			}
			if (w->feat & WF_PACED) { /* or a timed replay */
				rate_dir(w, s);
				if (next_due_ns(s) > s->now)
					break;
			}
			if ((w->feat & WF_FLOW) && !flow_admit(&w->flow)) {
				s->flow_held = true;
				break;
			}
			s->have_op = false;
			u = unit_for(w, s, &s->op);
		}
		s->held = NULL;
		/* hooks (verify): an I/O to a block with one in flight waits for it */
		if (((w->feat & WF_OVERLAP) && overlaps_busy(w, u)) ||
		    ((w->feat & WF_HOOKS) && !w->io->prepare(w->io_state, u))) {
			s->held = u;
			break;
		}
		w->staged[s->nr_staged++] = u;
	}
	return worker_queue_staged(w, s);
}

/* Hand what was queued to the engine: now (the engine's submit: the
 * batch is complete in the middle of a pass), or as the engine likes
 * (its commit: io_uring submits with the next wait). */
bool worker_commit_call(struct worker *w, struct loop_state *s, bool now)
{
	if (!s->pending)
		return true;
	if (s->now >= w->measure_start_ns) /* fio counts at commit, by the depth then */
		depth_commit(&w->stats.depth, s->inflight, s->pending);
	s->pending = 0;
	int ret = now && w->eops->submit ? w->eops->submit(w->engine_state)
					 : engine_commit(w->eops, w->engine_state);
	if (w->feat & WF_SPLIT) { /* slat ends when the submit call returns */
		uint64_t t = fast_ns();
		for (unsigned i = 0; i < w->fio.nr_queued; i++)
			w->fio.submitted_ns[w->fio.queued[i]] = t;
		w->fio.nr_queued = 0;
	}
	if (ret < 0) {
		w->error = err_set(&w->err, -ret, "job %s: %s engine submit: %s",
				   w->job->name, w->eops->name, strerror(-ret));
		return false;
	}
	return true;
}

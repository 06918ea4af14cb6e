/* worker_pace.h - the rate limit's per-I/O steps of the worker loop:
 * which pacer an I/O is due by, when it is due, its latency origin, the
 * unit an ideal tool would use, and its slot's release. Inline, as they
 * were in worker.c: they run for every I/O (worker_submit.c,
 * worker_complete.c). The waits are in worker_pace.c. Private to
 * core/worker*.c. */
#ifndef IOCHAR_CORE_WORKER_PACE_H
#define IOCHAR_CORE_WORKER_PACE_H

#include "core/worker_int.h"

static inline struct pace *pace_of(struct loop_state *s, enum io_dir d)
{
	return &s->pace[s->per_dir ? d : 0];
}

/* fio's rate_ddir: a mixed job whose next direction is ahead of its rate
 * does the other one if that is due (or unlimited) or due sooner. */
static inline void rate_dir(const struct worker *w, struct loop_state *s)
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
static inline uint64_t next_due_ns(struct loop_state *s)
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
static inline uint64_t take_due(struct loop_state *s, const struct gen_op *op)
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
static inline void pace_pick_unit(struct worker *w)
{
	unsigned best = w->nr_free - 1;
	for (unsigned i = 0; i + 1 < w->nr_free; i++)
		if (w->pacing[w->free_units[i]->index].ideal_free_ns <
		    w->pacing[w->free_units[best]->index].ideal_free_ns)
			best = i;
	struct io_unit *top = w->free_units[w->nr_free - 1];
	w->free_units[w->nr_free - 1] = w->free_units[best];
	w->free_units[best] = top;
}

/* Rate-limited: the ideal tool's slot of u is free again after u's
 * service time (core/pace.h). Ramp I/Os too, so the recursion is right
 * when measuring starts. */
static inline void paced_done(struct worker *w, const struct io_unit *u, uint64_t now)
{
	struct paced_times *t = &w->pacing[u->index];
	t->ideal_free_ns = t->ideal_ns + (now > t->issued_ns ? now - t->issued_ns : 0);
}

#endif

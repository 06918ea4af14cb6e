/* worker_int.h - the worker loop's shared state and its parts' calls,
 * private to core/worker*.c (core/worker.h is the API).
 *
 * The loop is split by concern: worker_setup.c (buffers, files, generator,
 * engine; teardown), worker_submit.c (drawing, staging, queueing and
 * committing I/Os), worker_reap.c (waiting for completions),
 * worker_complete.c (booking each finished I/O), worker_pace.c (rate
 * limits' waits: lag, naps; their per-I/O steps are inline below),
 * worker_iolog.c (fio's iologs) and worker.c (the loop, what ends it, the
 * thread). Calls that are per I/O and were inline before the split stay
 * static inline here; the others were out-of-line calls already, so the
 * hot path costs the same.
 */
#ifndef IOCHAR_CORE_WORKER_INT_H
#define IOCHAR_CORE_WORKER_INT_H

#include "core/flush.h"
#include "core/pace.h"
#include "core/think.h"
#include "core/worker.h"

struct loop_state {
	uint64_t now, deadline;
	/* due times: [0] for both directions (rate_iops=N), or one per
	 * direction (fio's rate=R,W, rate_iops=R,W); closed loop: inert */
	struct pace pace[DIR_ALL]; /* trims' paced as writes (worker_pace_init) */
	bool per_dir;
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
	/* read_iolog with timing (core/replay.h): op is due at op_due */
	bool replay_timed;
	uint64_t op_due;
};

/* fio's named files with numjobs > 1: each clone its own (job.h) */
static inline unsigned first_file(const struct worker *w)
{
	return w->clone * w->job->files_per_clone;
}

static inline unsigned worker_nr_files(const struct worker *w)
{
	return w->job->files_per_clone ? w->job->files_per_clone
				       : w->job->nr_files;
}

/* Make u a flush (op) of file, its latency counted from now. */
static inline void flush_unit(struct io_unit *u, enum io_op op, unsigned file,
			      uint64_t now)
{
	u->op = op;
	u->file = file;
	u->dir = DIR_WRITE;
	u->offset = 0;
	u->len = 0;
	u->start_ns = now;
}

/* ---- worker_setup.c ---- */

/* Everything the loop needs, from the worker's own thread (the engine's
 * state is tied to it). 0, or -errno with the message in w->err. */
int worker_setup(struct worker *w);

/* Close, flush and free what worker_setup made (after a failed setup
 * too); a failure at close becomes w->error if there was none. */
void worker_teardown(struct worker *w);

/* The worker's generator seed: distinct per clone, the same each run. */
uint64_t worker_gen_seed(const struct worker *w);

/* (Re)start w->gen from seed over the clone's files. 0 or -errno in err. */
int worker_start_generator(struct worker *w, uint64_t seed, struct ioc_err *err);

/* ---- worker_submit.c ---- */

/* Draw the next I/O into s->op (replay, hooks' read or generator); false
 * when there is none now. */
bool worker_next_op(struct worker *w, struct loop_state *s);

/* Stage and queue what the depth, generator and rate allow this pass;
 * false when the worker must stop. */
bool worker_issue(struct worker *w, struct loop_state *s);

/* Queue w->staged in order (those after an ENGINE_BUSY stay staged);
 * false when the worker must stop. */
bool worker_queue_staged(struct worker *w, struct loop_state *s);

/* Hand the queued I/Os to the engine: at once (now: its submit) or as it
 * likes (its commit). false on an engine error (in w->err). */
bool worker_commit_call(struct worker *w, struct loop_state *s, bool now);

static inline bool commit(struct worker *w, struct loop_state *s)
{
	return worker_commit_call(w, s, false);
}

/* ---- worker_reap.c ---- */

/* Reap at least min completions, or with until_ns what completes before
 * it; each is booked. false when the worker must stop. */
bool worker_reap_until(struct worker *w, struct loop_state *s, unsigned min,
		       uint64_t until_ns);

static inline bool reap(struct worker *w, struct loop_state *s, unsigned min)
{
	return worker_reap_until(w, s, min, 0);
}

/* Closed loop with I/O in flight: fio's wait_for_completions. false when
 * the worker must stop. */
bool worker_reap_closed(struct worker *w, struct loop_state *s);

/* Reap all in flight, booking each, until the engine fails. */
void worker_drain(struct worker *w, struct loop_state *s);

/* ---- worker_complete.c ---- */

/* Book finished unit u at now (statistics, hooks, logs) and free it;
 * false when the worker must stop (an error, or fill_device's end). */
bool worker_complete(struct worker *w, struct io_unit *u, uint64_t now);

/* Publish the live totals and answer the runner's latency ask. */
void worker_publish_live(struct worker *w);

/* ---- the rate limit's per-I/O steps, inline: which pacer an I/O is
 * due by, when it is due, its latency origin, the unit an ideal tool
 * would use, and its slot's release (worker_submit.c, worker_complete.c;
 * the waits are in worker_pace.c) ---- */

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

/* ---- worker_pace.c ---- */

/* The pacing of job j from start (rate_iops, or fio's rate=/rate_iops=
 * per direction), its Poisson draws seeded by seed. */
void worker_pace_init(struct loop_state *s, const struct job_spec *j,
		      uint64_t start, uint64_t seed);

/* Rate-limited, nothing in flight: sleep towards the next due I/O. */
void worker_wait_idle(struct loop_state *s);

/* Rate-limited with I/O in flight: reap, block or nap until the next due
 * I/O. false when the worker must stop. */
bool worker_wait_paced(struct worker *w, struct loop_state *s);

/* rate_ignore_thinktime: move the due times past a think of ns. */
void worker_ignore_think(const struct worker *w, struct loop_state *s, uint64_t ns);

#endif

/* engine.c - driving a VD's operations through the member engine (see
 * engine.h). Operations move between two FIFO queues: `blocked` (waiting
 * for stripe locks) and `ready` (member I/Os left to submit); member units
 * come from a fixed pool, so an operation that needs more member I/Os than
 * are free submits the rest as others complete.
 */
#define _GNU_SOURCE
#include "vd/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/target.h"
#include "util/clock.h"
#include "vd/io.h"
#include "vd/op.h"

void vd_q_push(struct vd_queue *q, struct vd_op *op)
{
	op->next = NULL;
	if (q->tail)
		q->tail->next = op;
	else
		q->head = op;
	q->tail = op;
}

struct vd_op *vd_q_pop(struct vd_queue *q)
{
	struct vd_op *op = q->head;
	if (op) {
		q->head = op->next;
		if (!q->head)
			q->tail = NULL;
	}
	return op;
}

void vd_io_host_done(struct vd_io *io, struct vd_op *op, uint64_t now)
{
	op->phase = OP_DONE;
	if (op->dir == DIR_READ)
		io->host_reads--;
	op->host->result = op->error ? op->error : (int64_t)op->len;
	if (now >= io->measure_start && !op->error)
		io->stats->host_ios[op->dir]++;
	if (!atomic_load_explicit(&io->vd->host_started, memory_order_relaxed))
		atomic_store_explicit(&io->vd->host_started, true, memory_order_release);
	io->done[io->nr_done++] = op->host;
}

static void finish(struct vd_io *io, struct vd_op *op, uint64_t now)
{
	/* readers that start after this must not take older cached data */
	if (op->dir == DIR_WRITE)
		vd_gen_bump(io->vd, op->off, op->len);
	if (op->locked)
		vd_unlock(io->vd, op->lock_first, op->lock_last, op->excl);
	op->locked = false;
	op->phase = OP_DONE;
	if (op->kind == OP_HOST)
		vd_io_host_done(io, op, now);
	vd_policy_finished(io, op); /* last: it may free an internal op */
}

/* The op's member I/Os of this phase are done: on to the next, or finish. */
static void phase_done(struct vd_io *io, struct vd_op *op, uint64_t now)
{
	for (;;) {
		int ret = vd_op_advance(&io->ctx, op);
		if (ret && !op->error)
			op->error = ret;
		if (op->error || op->phase == OP_DONE) {
			finish(io, op, now);
			return;
		}
		if (op->nr_mios) {
			vd_q_push(&io->ready, op);
			return;
		}
	}
}

static void start(struct vd_io *io, struct vd_op *op)
{
	uint64_t now = fast_ns(); /* one clock read for the whole start */

	io->ctx.counting = now >= io->measure_start;
	int ret = vd_op_start(&io->ctx, op);
	if (ret)
		op->error = ret;
	if (op->error || op->phase == OP_DONE)
		finish(io, op, now);
	else if (op->nr_mios)
		vd_q_push(&io->ready, op);
	else
		phase_done(io, op, now);
}

static void mio_complete(struct vd_io *io, struct io_unit *u, uint64_t now)
{
	struct mio_ctx *mc = &io->mctx[u->index];
	struct vd_op *op = mc->op;

	if (u->result != (int64_t)u->len) {
		if (!op->error)
			op->error = u->result < 0 ? (int)u->result : -EIO;
		if (!io->failed.set)
			io->failed.set = true, io->failed.member = u->file,
			io->failed.dir = u->dir, io->failed.off = u->offset,
			io->failed.len = u->len, io->failed.result = u->result;
	} else if (now >= io->measure_start) {
		struct dir_stats *ds = &io->stats->member[u->file].dir[u->dir];
		ds->ios++;
		ds->bytes += u->len;
		hist_record(&ds->lat, now > mc->start ? now - mc->start : 0);
	}
	io->mfree[io->nr_mfree++] = u;
	op->outstanding--;
	if (op->submitted == op->nr_mios && op->outstanding == 0 &&
	    io->ready.head != op)
		phase_done(io, op, now);
}

/* Submit member I/Os of ready operations while units are free. Returns
 * false when the member engine is full (commit and reap first). */
static bool submit(struct vd_io *io)
{
	struct vd_op *op;

	while ((op = io->ready.head) && io->nr_mfree) {
		while (op->submitted < op->nr_mios && io->nr_mfree) {
			const struct vd_mio *m = &op->mios[op->submitted];
			struct io_unit *u = io->mfree[--io->nr_mfree];
			u->file = m->member;
			u->dir = m->dir;
			u->offset = m->off;
			u->len = m->len;
			u->buf = m->buf;
			io->mctx[u->index] = (struct mio_ctx){.op = op, .start = fast_ns()};
			op->submitted++;
			op->outstanding++;
			switch (io->inner->queue(io->inner_state, u)) {
			case ENGINE_QUEUED:
				io->inflight++;
				io->pending++;
				break;
			case ENGINE_COMPLETED:
				mio_complete(io, u, fast_ns());
				break;
			case ENGINE_BUSY:
				op->submitted--;
				op->outstanding--;
				io->mfree[io->nr_mfree++] = u;
				return false;
			}
		}
		if (op->submitted < op->nr_mios)
			break; /* out of units */
		vd_q_pop(&io->ready);
		if (op->outstanding == 0)
			phase_done(io, op, fast_ns());
	}
	return true;
}

/* Start what the locks now allow, then submit; repeat while finishing
 * operations frees locks. */
static bool pump(struct vd_io *io)
{
	bool room = true;
	unsigned before;

	do {
		before = io->nr_done;
		vd_policy_retry(io);
		struct vd_queue still = {0};
		struct vd_op *op;
		while ((op = vd_q_pop(&io->blocked))) {
			if (vd_lock_try(io->vd, op->lock_first, op->lock_last, op->excl)) {
				op->locked = true;
				start(io, op);
			} else {
				vd_q_push(&still, op);
			}
		}
		io->blocked = still;
		room = submit(io);
	} while (room && io->nr_done != before && io->blocked.head);
	return room;
}

void vd_io_begin(struct vd_io *io, struct vd_op *op)
{
	op->error = 0;
	op->locked = false;
	op->phase = OP_WAIT_LOCK;
	if (vd_op_lock_range(io->vd, op)) {
		/* behind earlier waiters, so one stripe's writes keep their order */
		if (io->blocked.head ||
		    !vd_lock_try(io->vd, op->lock_first, op->lock_last, op->excl)) {
			vd_q_push(&io->blocked, op);
			return;
		}
		op->locked = true;
	}
	start(io, op);
	submit(io);
}

static enum engine_queue_ret vd_queue(void *state, struct io_unit *u)
{
	struct vd_io *io = state;
	struct vd_op *op = &io->ops[u->index];

	if (u->op != IO_OP_RW) { /* fsync: the cache destages, members flush */
		int ret = vd_engine_flush(io);
		u->result = ret < 0 ? ret : 0;
		return ENGINE_COMPLETED;
	}
	op->kind = OP_HOST;
	op->host = u;
	op->dir = u->dir;
	op->off = u->offset;
	op->len = u->len;
	op->data = u->buf;
	op->error = 0;
	if (op->dir == DIR_READ)
		io->host_reads++;
	if (!vd_policy_host(io, op))
		vd_io_begin(io, op);
	return ENGINE_QUEUED;
}

static int inner_commit(struct vd_io *io)
{
	if (!io->pending)
		return 0;
	io->pending = 0;
	return engine_commit(io->inner, io->inner_state);
}

static int vd_commit(void *state)
{
	struct vd_io *io = state;
	pump(io);
	return inner_commit(io);
}

/* fio's iodepth_batch_submit through the VD: what the host queued goes
 * to the members now (the member engine's submit: io_uring's commit alone
 * would leave it in the ring until the next wait). */
static int vd_submit(void *state)
{
	struct vd_io *io = state;
	pump(io);
	if (!io->pending)
		return 0;
	io->pending = 0;
	return io->inner->submit ? io->inner->submit(io->inner_state)
				 : engine_commit(io->inner, io->inner_state);
}

/* The member completions to wait for when the host waits for min: as
 * many as host I/Os are still missing (iodepth_batch_complete_min; each
 * needs one at least), at most what is in flight; 0 polls. */
static unsigned inner_min(const struct vd_io *io, unsigned min)
{
	unsigned need = min > io->nr_done ? min - io->nr_done : 1;
	if (!min)
		return 0;
	return need < io->inflight ? need : io->inflight;
}

/* Hand the host at most reap_max of the done ops (the rest wait for the
 * next getevents, as an engine's own iodepth_batch_complete_max). */
static void take_events(struct vd_io *io)
{
	struct io_unit **t = io->events;
	io->events = io->done;
	io->done = t;
	io->nr_events = io->nr_done;
	io->nr_done = 0;
	if (io->reap_max && io->nr_events > io->reap_max) {
		io->nr_done = io->nr_events - io->reap_max;
		memcpy(io->done, io->events + io->reap_max, io->nr_done * sizeof(*io->done));
		io->nr_events = io->reap_max;
	}
}

static int reap_inner(struct vd_io *io, unsigned min)
{
	int n = engine_getevents(io->inner, io->inner_state, min);
	if (n < 0)
		return n;
	uint64_t now = fast_ns();
	io->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		mio_complete(io, io->inner->event(io->inner_state, (unsigned)i), now);
	return n;
}

static int vd_getevents(void *state, unsigned min)
{
	struct vd_io *io = state;
	int ret;

	for (;;) {
		pump(io);
		if ((ret = inner_commit(io)) < 0)
			return ret;
		if (io->nr_done && io->nr_done >= min)
			break;
		if (io->inflight) {
			if ((ret = reap_inner(io, inner_min(io, min))) < 0)
				return ret;
			if (!min && !ret)
				break;
		} else if (io->blocked.head || io->ready.head || vd_policy_busy(io)) {
			if (!min)
				break;
			sched_yield(); /* a row held by another worker */
		} else {
			break;
		}
	}
	take_events(io);
	return (int)io->nr_events;
}

static struct io_unit *vd_event(void *state, unsigned i)
{
	struct vd_io *io = state;
	return io->events[i];
}

/* Destage what is dirty now (other workers' later writes are theirs to
 * flush) and wait for it and every member I/O. stopped: the run is over,
 * nobody reaps its host ops (their completions are dropped). */
static int settle(struct vd_io *io, bool stopped)
{
	int ret = 0;
	uint64_t mark = vd_wb_mark(io);
	while (io->inner_state &&
	       (vd_policy_busy(io) || io->inflight || vd_wb_pending(io, mark))) {
		vd_policy_flush(io, mark);
		pump(io);
		if ((ret = inner_commit(io)) < 0)
			break;
		if (io->inflight) {
			if ((ret = reap_inner(io, 1)) < 0)
				break;
			ret = 0;
		} else if (vd_policy_busy(io) || vd_wb_pending(io, mark)) {
			sched_yield(); /* rows another worker destages */
		}
		if (stopped)
			io->nr_done = 0;
	}
	return ret;
}

/* Dirty write-back data reaches the members on every orderly stop; it is
 * no longer measured. */
static void drain(struct vd_io *io)
{
	io->measure_start = UINT64_MAX;
	settle(io, true);
}

int vd_engine_finish(void *state)
{
	struct vd_io *io = state;
	if (!io || !io->vd->wb)
		return 0;
	io->finishing = true;
	int ret = settle(io, true);
	io->finishing = false;
	return ret;
}

int vd_engine_flush(void *state)
{
	struct vd_io *io = state;
	int ret = settle(io, false);
	for (unsigned i = 0; !ret && i < io->n; i++)
		if (!vd_member_failed(&io->vd->def, i) && fdatasync(io->fds[i]) < 0)
			ret = -errno;
	return ret;
}

static void vd_cleanup(void *state)
{
	struct vd_io *io = state;
	if (!io)
		return;
	drain(io);
	if (io->inner_state)
		io->inner->cleanup(io->inner_state);
	/* after a failure some ops may still hold rows other workers wait for */
	for (unsigned i = 0; io->ops && i < io->depth; i++)
		if (io->ops[i].locked)
			vd_unlock(io->vd, io->ops[i].lock_first, io->ops[i].lock_last,
				  io->ops[i].excl);
	vd_policy_unlock_all(io);
	vd_policy_free(io);
	for (unsigned i = 0; i < io->n; i++)
		if (io->fds[i] >= 0)
			close(io->fds[i]);
	for (unsigned i = 0; io->ops && i < io->depth; i++)
		vd_op_free(&io->ops[i]);
	free(io->ops);
	free(io->munits);
	free(io->mctx);
	free(io->mfree);
	free(io->done);
	free(io->events);
	free(io->stats);
	free(io);
}

/* disk_cache=off: every member write is durable when it completes:
 * O_DSYNC (FUA on a device with a volatile write cache and O_DIRECT, a
 * cache flush after each write otherwise). target_open made the checks. */
static int reopen_dsync(struct vd_io *io, unsigned i, bool direct, struct ioc_err *err)
{
	const char *path = io->vd->def.members[i];
	int fd = open(path, O_RDWR | O_CLOEXEC | O_DSYNC | (direct ? O_DIRECT : 0));
	if (fd < 0)
		return err_set(err, errno, "%s: cannot open with O_DSYNC (disk_cache=off): %s",
			       path, strerror(errno));
	close(io->fds[i]);
	io->fds[i] = fd;
	return 0;
}

static int open_members(struct vd_io *io, const struct job_spec *job,
			struct ioc_err *err)
{
	const struct vd_def *def = &io->vd->def;
	bool write = rw_writes(job->rw);
	int any = -1, ret;

	for (unsigned i = 0; i < io->n; i++) {
		io->fds[i] = -1;
		if (vd_member_failed(def, i) && (int)i != io->vd->rebuild_member)
			continue;
		if ((ret = target_open(def->members[i], write, job->direct, &io->fds[i], err)))
			return ret;
		if (write && def->disk_cache_off && (ret = reopen_dsync(io, i, job->direct, err)))
			return ret;
		any = io->fds[i];
	}
	/* a lost member's slot gets a live descriptor that is never used, so
	 * engines that register files see no holes */
	for (unsigned i = 0; i < io->n; i++)
		if (io->fds[i] < 0)
			io->fds[i] = dup(any);
	return 0;
}

int vd_engine_init(struct vd *vd, const struct engine_ops *inner,
		   const struct job_spec *job, const struct engine_params *p,
		   void **state, struct ioc_err *err)
{
	struct vd_io *io = calloc(1, sizeof(*io));
	int ret;

	*state = NULL;
	if (!io)
		return err_set(err, ENOMEM, "out of memory");
	io->vd = vd;
	io->inner = inner;
	io->n = vd->def.nr_members;
	io->depth = p->depth;
	io->reap_max = p->reap_max;
	/* every member once per row, plus room for rows of large I/Os */
	io->nr_munits = p->depth * (io->n + 2);
	io->munits = calloc(io->nr_munits, sizeof(*io->munits));
	io->mctx = calloc(io->nr_munits, sizeof(*io->mctx));
	io->mfree = calloc(io->nr_munits, sizeof(*io->mfree));
	io->ops = calloc(p->depth, sizeof(*io->ops));
	io->done = calloc(p->depth, sizeof(*io->done));
	io->events = calloc(p->depth, sizeof(*io->events));
	io->stats = vd_stats_new(io->n);
	if (io->stats) {
		io->stats->capacity = vd->geom.capacity;
		io->stats->member_bytes = vd->geom.member_size;
	}
	if (!io->munits || !io->mctx || !io->mfree || !io->ops || !io->done ||
	    !io->events || !io->stats) {
		vd_cleanup(io);
		return err_set(err, ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < io->nr_munits; i++) {
		io->munits[i].index = i;
		io->mfree[io->nr_mfree++] = &io->munits[io->nr_munits - 1 - i];
	}
	io->ctx = (struct vd_plan_ctx){
		.vd = vd, .fail_mask = vd->def.failed_mask, .stats = io->stats,
	};
	if (vd->rebuild_member >= 0) /* live below the rebuild cursor */
		io->ctx.fail_mask &= ~(1ull << vd->rebuild_member);
	io->measure_start = 0;
	if (vd_policy_init(io)) {
		vd_cleanup(io);
		return err_set(err, ENOMEM, "--vd: cannot allocate its cache");
	}
	if ((ret = open_members(io, job, err))) {
		vd_cleanup(io);
		return ret;
	}
	/* buf NULL: the member engine registers no buffers, so each member
	 * I/O may point anywhere (engine.h) */
	/* the host's reap limit (iodepth_batch_complete_max) holds for the
	 * members too: a RAID 0 small I/O is one member I/O, reaped as fio
	 * reaps the members directly; getevents loops until the host's min */
	struct engine_params ip = {
		.fds = io->fds, .nr_fds = io->n, .units = io->munits,
		.depth = io->nr_munits,
		.reap_max = p->reap_max && p->reap_max < io->depth ? p->reap_max : 0,
	};
	if ((ret = engine_init(inner, &ip, job->engine_opts, &io->inner_state,
			       err))) {
		vd_cleanup(io);
		return ret;
	}
	*state = io;
	return 0;
}

void vd_engine_measure_from(void *state, uint64_t ns)
{
	struct vd_io *io = state;
	if (io)
		io->measure_start = ns;
}

struct vd_stats *vd_engine_take_stats(void *state)
{
	struct vd_io *io = state;
	if (!io)
		return NULL;
	struct vd_stats *s = io->stats;
	io->stats = vd_stats_new(io->n); /* keep counting safely, unseen */
	io->ctx.stats = io->stats;       /* the planner counts rows there */
	return s;
}

bool vd_engine_member_error(void *state, char *buf, size_t len)
{
	struct vd_io *io = state;

	if (!io || !io->failed.set)
		return false;
	int64_t r = io->failed.result;
	snprintf(buf, len, "member %u (%s): %s of %llu bytes at offset %llu: %s",
		 io->failed.member, io->vd->def.members[io->failed.member],
		 io->failed.dir == DIR_READ ? "read" : "write",
		 (unsigned long long)io->failed.len, (unsigned long long)io->failed.off,
		 r < 0 ? strerror((int)-r) : "short transfer");
	return true;
}

const struct engine_ops vd_engine_ops = {
	.name = "vd",
	.help = "RAID virtual drive over the job's engine",
	.flags = 0,
	.queue = vd_queue,
	.commit = vd_commit,
	.submit = vd_submit,
	.getevents = vd_getevents,
	.event = vd_event,
	.cleanup = vd_cleanup,
};

/* io_uring.c - the io_uring engine (liburing >= 2.3), built for low CPU/IO.
 *
 * What makes it cheap, in order of weight:
 *   - one io_uring_enter per worker-loop iteration: commit() only lets the
 *     prepared SQEs sit in the ring, getevents() submits them and waits in
 *     the same syscall (fio's engine spends one syscall on each);
 *   - DEFER_TASKRUN + SINGLE_ISSUER: completions are run by the worker when
 *     it waits, in a batch, with no IPI or task-work interruption;
 *   - registered files and buffers (no fget/fput and no page pinning per
 *     I/O; fixedbufs=0, registerfiles=0 turn them off), and a registered
 *     ring fd (no fd lookup per io_uring_enter);
 *   - completions are harvested straight from the CQ ring in one pass and
 *     released with a single cq_advance.
 * Each worker thread owns its engine instance: init() must run on the
 * thread that queues and reaps (DEFER_TASKRUN rings refuse other threads),
 * and cleanup() should too (a registered ring fd belongs to the thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <liburing.h>

#include "util/clock.h"
#include "util/rng.h"

#include "engine/engine.h"
#include "engine/io_uring_opts.h"
#include "engine/sync_io.h"

/* Kernel ABI values, for headers older than the running kernel. */
#ifndef IORING_SETUP_SUBMIT_ALL
#define IORING_SETUP_SUBMIT_ALL (1U << 7)     /* 5.18 */
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)   /* 5.19 */
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12) /* 6.0 */
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13) /* 6.1 */
#endif

#define URING_DISABLED_PATH "/proc/sys/kernel/io_uring_disabled"

/*
 * Ring setup flags, best first (ring_setup=auto). A kernel that does not
 * know a flag answers -EINVAL, and we try the next set. SUBMIT_ALL keeps
 * submitting past an SQE that fails at submit time instead of leaving the
 * rest in the ring.
 */
static const unsigned uring_setup_tiers[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
		IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SUBMIT_ALL,
	IORING_SETUP_SUBMIT_ALL,
	0,
};

/* The task-work discipline each ring_setup value names (enum
 * uring_ring; AUTO: the tiers above); SUBMIT_ALL is added where the
 * kernel has it. */
static const unsigned uring_ring_flags[] = {
	[URING_RING_DEFER] = IORING_SETUP_SINGLE_ISSUER |
			     IORING_SETUP_DEFER_TASKRUN,
	[URING_RING_COOP_SINGLE] = IORING_SETUP_SINGLE_ISSUER |
				   IORING_SETUP_COOP_TASKRUN,
	[URING_RING_COOP] = IORING_SETUP_COOP_TASKRUN,
	[URING_RING_SINGLE] = IORING_SETUP_SINGLE_ISSUER,
	[URING_RING_NONE] = 0,
};

struct uring_state {
	struct io_uring ring;
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
	unsigned depth;
	unsigned reap_max;     /* most per getevents (1..depth) */
	unsigned inflight;     /* queued and not yet reaped */
	unsigned nr_done;
	unsigned nr_bufs;      /* registered buffers (0: unregistered path) */
	bool fixed_files;      /* SQEs carry file indexes, not fds */
	bool ring_live;
	unsigned setup_flags;  /* the tier the kernel accepted */
	struct uring_opts opts; /* the job's (engine_params.options) */
	unsigned prepped;      /* SQEs since the last IOSQE_ASYNC (force_async) */
	bool prio_on;          /* cmdprio: some I/Os carry their own priority */
	struct rng prio_rng;
	struct io_unit **done; /* completions of the last getevents, cap depth */
	struct iovec *iov;     /* nonvectored=0: one iovec per unit */
};

/* kernel.io_uring_disabled (6.6+): 0 allowed, 1 only for io_uring_group
 * (or CAP_SYS_ADMIN), 2 disabled. -1 when the knob does not exist. */
static int uring_read_disabled(void)
{
	FILE *f = fopen(URING_DISABLED_PATH, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int uring_probe(struct ioc_err *err)
{
	struct io_uring ring;
	int disabled = uring_read_disabled();
	int ret;

	if (disabled == 2)
		return err_set(err, EPERM,
			       "ioengine=io_uring: not available on this kernel (io_uring_disabled=2); use ioengine=libaio or psync");
	ret = io_uring_queue_init(2, &ring, 0);
	if (ret < 0) {
		if (disabled == 1)
			return err_set(err, -ret,
				       "ioengine=io_uring: not available to this user (io_uring_disabled=1: only kernel.io_uring_group may use it): %s; use ioengine=libaio or psync",
				       strerror(-ret));
		return err_set(err, -ret,
			       "ioengine=io_uring: not available on this kernel (%s); use ioengine=libaio or psync",
			       strerror(-ret));
	}
	io_uring_queue_exit(&ring);
	return 0;
}

static void uring_cleanup(void *state)
{
	struct uring_state *s = state;

	if (!s)
		return;
	/* Exiting the ring cancels and waits for anything still in flight
	 * and drops the registered files, buffers and ring fd. */
	if (s->ring_live)
		io_uring_queue_exit(&s->ring);
	free(s->done);
	free(s->iov);
	free(s);
}

/* The setup flags of tier i as the job's options ask: hipri polls
 * completions (IOPOLL); sqthread_poll has a kernel thread submit, which
 * DEFER_TASKRUN (completions run by the submitting task) cannot go with. */
static unsigned uring_tier_flags(const struct uring_state *s, size_t i)
{
	unsigned f = uring_setup_tiers[i];

	if (s->opts.ring != URING_RING_AUTO) /* the one asked, then without SUBMIT_ALL */
		f = uring_ring_flags[s->opts.ring] | (i ? 0 : IORING_SETUP_SUBMIT_ALL);

	if (s->opts.sqthread_poll)
		f = (f & IORING_SETUP_SUBMIT_ALL) | IORING_SETUP_SQPOLL;
	if (s->opts.hipri)
		f |= IORING_SETUP_IOPOLL;
	return f;
}

static int uring_setup(struct uring_state *s, unsigned depth,
		       struct ioc_err *err)
{
	struct io_uring_params p;
	int ret = -EINVAL;
	size_t tiers = s->opts.ring != URING_RING_AUTO ? 2 :
		sizeof(uring_setup_tiers) / sizeof(uring_setup_tiers[0]);

	for (size_t i = 0; i < tiers; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = uring_tier_flags(s, i);
		if (s->opts.sqthread_poll && s->opts.sq_aff) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = s->opts.sq_cpu;
		}
		ret = io_uring_queue_init_params(depth, &s->ring, &p);
		if (ret == 0) {
			s->setup_flags = p.flags;
			return 0;
		}
		if (ret != -EINVAL)
			break;
	}
	if (s->opts.ring != URING_RING_AUTO && ret == -EINVAL)
		return err_set(err, -ret,
			       "ioengine=io_uring: ring_setup=%s: this kernel refused "
			       "that ring (%s); use ring_setup=auto",
			       uring_ring_name(s->opts.ring), strerror(-ret));
	return err_set(err, -ret,
		       "ioengine=io_uring: cannot set up a ring of %u entries: %s%s",
		       depth, strerror(-ret),
		       ret == -EINVAL ? " (iodepth too large?)" : "");
}

/*
 * Register every unit's buffer, index = unit index, so read_fixed can use
 * buf_index = u->index. Pinning counts against RLIMIT_MEMLOCK for users
 * without CAP_IPC_LOCK, and some memory (e.g. MAP_SHARED file mappings on
 * filesystems that track dirty pages) cannot be pinned long-term at all:
 * then the plain path is used, which is correct, only a little slower.
 */
static void uring_register_buffers(struct uring_state *s,
				   const struct engine_params *p)
{
	struct iovec *iov;

	if (!p->units || p->depth > (unsigned)INT_MAX)
		return;
	iov = calloc(p->depth, sizeof(*iov));
	if (!iov)
		return;
	for (unsigned i = 0; i < p->depth; i++) {
		const struct io_unit *u = &p->units[i];

		if (!u->buf || !u->buflen || u->index != i)
			goto out;
		iov[i].iov_base = u->buf;
		iov[i].iov_len = u->buflen;
	}
	if (io_uring_register_buffers(&s->ring, iov, p->depth) == 0)
		s->nr_bufs = p->depth;
out:
	free(iov);
}

static int uring_init_opts(const struct engine_params *p, const void *options,
			   void **out, struct ioc_err *err)
{
	struct uring_state *s;
	int ret;

	if (p->depth == 0)
		return err_set(err, EINVAL,
			       "ioengine=io_uring: iodepth must be at least 1");
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ENOMEM, "ioengine=io_uring: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	s->depth = p->depth;
	s->reap_max = p->reap_max && p->reap_max < p->depth ? p->reap_max
							    : p->depth;
	if (options)
		memcpy(&s->opts, options, sizeof(s->opts));
	if (cmdprio_on(&s->opts.prio)) {
		s->prio_on = true;
		rng_seed(&s->prio_rng, 0xc3d9a10ull ^ s->depth);
	}
	s->done = calloc(p->depth, sizeof(*s->done));
	if (s->opts.vectored == URING_VEC_VECTORED)
		s->iov = calloc(p->depth, sizeof(*s->iov));
	if (!s->done || (s->opts.vectored == URING_VEC_VECTORED && !s->iov)) {
		ret = err_set(err, ENOMEM, "ioengine=io_uring: out of memory");
		goto err;
	}
	ret = uring_setup(s, p->depth, err);
	if (ret < 0)
		goto err;
	s->ring_live = true;

	/* The registrations below are optimisations: on failure the plain
	 * path is used and nothing is reported. */
	(void)io_uring_register_ring_fd(&s->ring);
	if (s->nr_fds && !s->opts.no_registerfiles &&
	    io_uring_register_files(&s->ring, s->fds, s->nr_fds) == 0)
		s->fixed_files = true;
	if (!s->opts.no_fixedbufs)
		uring_register_buffers(s, p);

	*out = s;
	return 0;
err:
	uring_cleanup(s);
	return ret;
}

static int uring_init(const struct engine_params *p, void **out,
		   struct ioc_err *err)
{
	return uring_init_opts(p, NULL, out, err);
}

/* The SQE of u, as fio's io_uring prepares it: a flush is IORING_OP_FSYNC
 * (with IORING_FSYNC_DATASYNC for fdatasync); registered
 * buffers as READ_FIXED/WRITE_FIXED, else READ/WRITE or, nonvectored=0,
 * READV/WRITEV with one iovec; RWF_NOWAIT (nowait), IOSQE_ASYNC on every
 * force_async-th SQE. */
static void uring_prep_rw(struct uring_state *s, struct io_uring_sqe *sqe,
			  int fd, struct io_unit *u)
{
	bool rd = u->dir == DIR_READ;
	unsigned len = (unsigned)u->len;

	if (u->op != IO_OP_RW) { /* queued like the rest, as fio's */
		io_uring_prep_fsync(sqe, fd,
				    u->op == IO_OP_FDATASYNC ? IORING_FSYNC_DATASYNC
							     : 0);
		return;
	}
	if (u->index < s->nr_bufs) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, u->buf, len, u->offset,
						 (int)u->index);
		else
			io_uring_prep_write_fixed(sqe, fd, u->buf, len,
						  u->offset, (int)u->index);
	} else if (s->iov && u->index < s->depth) {
		struct iovec *v = &s->iov[u->index];
		v->iov_base = u->buf;
		v->iov_len = len;
		if (rd)
			io_uring_prep_readv(sqe, fd, v, 1, u->offset);
		else
			io_uring_prep_writev(sqe, fd, v, 1, u->offset);
	} else if (rd) {
		io_uring_prep_read(sqe, fd, u->buf, len, u->offset);
	} else {
		io_uring_prep_write(sqe, fd, u->buf, len, u->offset);
	}
	if (s->opts.nowait)
		sqe->rw_flags |= RWF_NOWAIT;
	/* fio's cmdprio: the SQE's own priority, and the unit's, for logs */
	int prio = s->prio_on ? cmdprio_pick(&s->opts.prio, u->dir, u->len, &s->prio_rng) : -1;
	if (prio >= 0) {
		sqe->ioprio = (uint16_t)prio;
		u->ioprio = (unsigned)prio;
	}
	if (s->opts.force_async && ++s->prepped >= s->opts.force_async) {
		s->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

static enum engine_queue_ret uring_queue(void *state, struct io_unit *u)
{
	struct uring_state *s = state;
	struct io_uring_sqe *sqe;
	int fd;

	/* The SQ ring is rounded up to a power of two: bound by depth. */
	if (s->inflight >= s->depth)
		return ENGINE_BUSY;
	if (u->file >= s->nr_fds || u->len > UINT_MAX) {
		u->result = u->file >= s->nr_fds ? -EBADF : -EINVAL;
		return ENGINE_COMPLETED;
	}
	if (u->op == IO_OP_TRIM) /* fio's FIO_ASYNCIO_SYNC_TRIM: done here */
		return sync_io_trim(u, s->fds[u->file]);
	sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return ENGINE_BUSY;
	fd = s->fixed_files ? (int)u->file : s->fds[u->file];
	uring_prep_rw(s, sqe, fd, u);
	if (s->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, u);
	s->inflight++;
	return ENGINE_QUEUED;
}

/* Submission is deferred to getevents, which submits and waits in one
 * syscall. The worker always reaps after committing, so nothing is held
 * back for longer than the rest of one loop iteration. */
static int uring_commit(void *state)
{
	(void)state;
	return 0;
}

/* iodepth_batch_submit: the batch goes now, as fio's commit
 * (io_uring_enter with to_submit and no wait). A kernel short of room
 * (-EAGAIN/-EBUSY) leaves the rest in the ring for getevents. */
static int uring_submit(void *state)
{
	struct uring_state *s = state;
	int ret = io_uring_submit(&s->ring);

	return ret >= 0 || ret == -EAGAIN || ret == -EBUSY || ret == -EINTR ? 0
									     : ret;
}

/*
 * Take every CQE in the ring in one pass and release them with one
 * cq_advance. No overflow flush is needed (which io_uring_peek_batch_cqe
 * would check for): the CQ ring holds 2 x depth entries and at most depth
 * I/Os are ever in flight, so it cannot overflow.
 */
static unsigned uring_harvest(struct uring_state *s)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	/* fio's iodepth_batch_complete_max; the rest stay for the next call */
	unsigned room = s->reap_max > s->nr_done ? s->reap_max - s->nr_done :
			s->nr_done < s->depth ? 1 : 0;
	struct io_unit **done = s->done + s->nr_done;

	io_uring_for_each_cqe(&s->ring, head, cqe)
	{
		struct io_unit *u;

		if (n == room)
			break;
		u = io_uring_cqe_get_data(cqe);
		u->result = cqe->res;
		done[n++] = u;
	}
	io_uring_cq_advance(&s->ring, n);
	s->nr_done += n;
	s->inflight -= n;
	return n;
}

/* -EAGAIN/-EBUSY: the kernel could not take more SQEs right now. Wait for
 * one completion of what it already holds (without submitting), so the
 * retry has room; if it holds nothing, let other tasks run first. */
static int uring_backoff(struct uring_state *s)
{
	struct io_uring_cqe *cqe;
	int ret;

	if (s->inflight > io_uring_sq_ready(&s->ring)) {
		ret = io_uring_wait_cqe(&s->ring, &cqe);
		return ret == -EINTR ? 0 : ret;
	}
	sched_yield();
	return 0;
}

/* Submit and wait for want completions, until the monotonic time until_ns
 * when it is not 0. -ETIME: the time came first. Only rings with
 * IORING_FEAT_EXT_ARG get a time limit: without it liburing would post a
 * timeout CQE of its own into the ring uring_harvest reads. */
static int uring_wait(struct uring_state *s, unsigned want, uint64_t until_ns)
{
	struct io_uring_cqe *cqe;

	if (!until_ns || !(s->ring.features & IORING_FEAT_EXT_ARG))
		return io_uring_submit_and_wait(&s->ring, want);
	uint64_t now = clock_ns();
	if (now >= until_ns) { /* submit what is queued all the same */
		int ret = io_uring_submit_and_get_events(&s->ring);
		return ret < 0 ? ret : -ETIME;
	}
	struct __kernel_timespec ts = {
		.tv_sec = (long long)((until_ns - now) / 1000000000ull),
		.tv_nsec = (long long)((until_ns - now) % 1000000000ull),
	};
	return io_uring_submit_and_wait_timeout(&s->ring, &cqe, want, &ts, NULL);
}

static int uring_reap(struct uring_state *s, unsigned min, uint64_t until_ns)
{
	struct io_uring *ring = &s->ring;
	int ret = 0;

	s->nr_done = 0;
	/* Never wait for more than can complete: that would hang forever. */
	if (min > s->inflight)
		min = s->inflight;
	for (;;) {
		unsigned want = min > s->nr_done ? min - s->nr_done : 0;
		unsigned ready = io_uring_cq_ready(ring);

		/* Enter the kernel only when there is something to submit,
		 * too few CQEs for `want`, or a poll with nothing to show
		 * (DEFER_TASKRUN rings post completions only on entry). */
		if (io_uring_sq_ready(ring) || ready < want ||
		    (!want && !ready && s->inflight)) {
			if (want)
				ret = uring_wait(s, want, until_ns);
			else
				ret = io_uring_submit_and_get_events(ring);
		}
		uring_harvest(s);
		if (ret == -ETIME) { /* until_ns came: what there is */
			ret = 0;
			break;
		}
		if (ret < 0) {
			if (ret == -EAGAIN || ret == -EBUSY) {
				if (s->nr_done)
					ret = 0;
				else
					ret = uring_backoff(s);
			} else if (ret == -EINTR) {
				ret = 0;
			}
			if (ret < 0)
				break;
		}
		if (s->nr_done >= min)
			break;
	}
	/* Completions already taken must be reported; an error resurfaces
	 * at the next call. */
	if (s->nr_done)
		return (int)s->nr_done;
	return ret < 0 ? ret : 0;
}

static int uring_getevents(void *state, unsigned min)
{
	return uring_reap(state, min, 0);
}

static int uring_getevents_until(void *state, unsigned min, uint64_t until_ns)
{
	/* 0 means "no limit" to uring_reap: a limit of 0 has passed anyway */
	return uring_reap(state, min, until_ns ? until_ns : 1);
}

static struct io_unit *uring_event(void *state, unsigned i)
{
	struct uring_state *s = state;

	return i < s->nr_done ? s->done[i] : NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.help = "Linux io_uring (kernel 5.6+): lowest CPU per I/O",
	.flags = 0,
	.options = uring_options,
	.probe = uring_probe,
	.check = uring_check,
	.init = uring_init,
	.init_opts = uring_init_opts,
	.cleanup = uring_cleanup,
	.queue = uring_queue,
	.commit = uring_commit,
	.submit = uring_submit,
	.getevents = uring_getevents,
	.event = uring_event,
	.getevents_until = uring_getevents_until,
};

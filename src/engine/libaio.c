/* libaio.c - the Linux native AIO engine (io_submit/io_getevents).
 *
 * For kernels or sandboxes where io_uring is unavailable. Native AIO is only
 * asynchronous for O_DIRECT; buffered I/O completes inside io_submit, which
 * still works but queues nothing (as in fio).
 *
 * Each unit owns the iocb at its slot index, so an iocb stays put while the
 * kernel holds it. queue() only prepares; commit() hands the pending iocbs
 * to io_submit; getevents() reaps with io_getevents.
 */
#include <errno.h>
#include <libaio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/cmdprio.h"
#include "engine/engine.h"
#include "engine/sync_io.h"
#include "util/clock.h"
#include "util/rng.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h, 5.0 */
#endif

struct aio_state {
	io_context_t ctx;
	bool ctx_live;
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
	unsigned depth;
	unsigned reap_max;       /* most per getevents (1..depth) */
	struct iocb *iocbs;      /* one per unit slot, capacity depth */
	struct iocb **pending;   /* prepared, not yet accepted by io_submit */
	unsigned nr_pending;
	unsigned nr_inflight;    /* accepted by the kernel, not yet reaped */
	struct io_unit **failed; /* refused by io_submit: reported by getevents */
	unsigned nr_failed;
	struct io_event *events; /* io_getevents scratch, capacity depth */
	struct io_unit **done;   /* completions of the last getevents */
	unsigned nr_done;
	bool user_reap;          /* userspace_reap=1 */
	struct cmdprio_opts prio;    /* cmdprio: the I/Os' own priorities */
	bool prio_on;
	struct rng prio_rng;
};

/* The engine's own options, in the job's engine_opts (all zero: every
 * default). */
struct aio_opts {
	bool userspace_reap;
	struct cmdprio_opts prio; /* fix-opts: fio's cmdprio options */
};

_Static_assert(sizeof(struct aio_opts) <= JOB_ENGINE_OPTS_MAX,
	       "libaio's options must fit the job's engine_opts");

/* clang-format off */
static const struct option_def aio_options[] = {
	{
		.name = "userspace_reap",
		.type = OPT_BOOL, .scope = OPT_SCOPE_ENGINE,
		.group = OPT_GROUP_ENGINE,
		.off = offsetof(struct aio_opts, userspace_reap),
		.size = sizeof(bool),
		.def = "0",
		.help = "poll for completions in the ring the kernel maps into "
			"the process, without io_getevents (as fio)",
	},
	/* fix-opts (issue 14): fio's per-I/O priorities */
	CMDPRIO_ROWS(struct aio_opts, prio),
	{ .name = NULL },
};
/* clang-format on */

/* The completion ring the kernel maps at the context's address (fs/aio.c;
 * an ABI since 2.6): events are taken from head, the kernel adds at tail. */
struct aio_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event io_events[];
};

#define AIO_RING_MAGIC 0xa10a10a1

/* Up to max completions straight from the ring, no system call, as fio's
 * user_io_getevents; -ENOSYS when the ring is not the one we know. */
static int aio_user_reap(struct aio_state *s, long max)
{
	struct aio_ring *ring = (struct aio_ring *)s->ctx;
	int n = 0;

	if (ring->magic != AIO_RING_MAGIC)
		return -ENOSYS;
	while (n < max) {
		unsigned head = ring->head;

		if (head == __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE))
			break;
		s->events[n++] = ring->io_events[head];
		__atomic_store_n(&ring->head, (head + 1) % ring->nr,
				 __ATOMIC_RELEASE);
	}
	return n;
}

static int aio_probe(struct ioc_err *err)
{
	io_context_t ctx = 0;
	int ret = io_setup(1, &ctx);

	if (ret < 0)
		return err_set(err, -ret,
			       "ioengine=libaio: io_setup failed (%s)%s; use ioengine=io_uring or psync",
			       strerror(-ret),
			       ret == -EAGAIN ? ", see /proc/sys/fs/aio-max-nr"
					      : "");
	io_destroy(ctx);
	return 0;
}

static void aio_cleanup(void *state)
{
	struct aio_state *s = state;

	if (!s)
		return;
	/* io_destroy waits for (or cancels) what is still in flight, so the
	 * kernel is done with the caller's buffers when it returns. */
	if (s->ctx_live)
		io_destroy(s->ctx);
	free(s->done);
	free(s->events);
	free(s->failed);
	free(s->pending);
	free(s->iocbs);
	free(s);
}

static int aio_init_opts(const struct engine_params *p, const void *options,
			   void **out, struct ioc_err *err)
{
	struct aio_state *s;
	unsigned d = p->depth;
	int ret;

	if (d == 0 || d > (unsigned)INT32_MAX)
		return err_set(err, EINVAL,
			       "ioengine=libaio: iodepth=%u is out of range", d);
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ENOMEM, "ioengine=libaio: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	s->depth = d;
	s->reap_max = p->reap_max && p->reap_max < d ? p->reap_max : d;
	const struct aio_opts *o = options;
	s->user_reap = o && o->userspace_reap;
	if (o && cmdprio_on(&o->prio)) {
		s->prio = o->prio;
		s->prio_on = true;
		rng_seed(&s->prio_rng, 0xc3d9a10ull ^ d);
	}
	s->iocbs = calloc(d, sizeof(*s->iocbs));
	s->pending = calloc(d, sizeof(*s->pending));
	s->failed = calloc(d, sizeof(*s->failed));
	s->events = calloc(d, sizeof(*s->events));
	s->done = calloc(d, sizeof(*s->done));
	if (!s->iocbs || !s->pending || !s->failed || !s->events || !s->done) {
		ret = err_set(err, ENOMEM, "ioengine=libaio: out of memory");
		goto err;
	}
	ret = io_setup((int)d, &s->ctx);
	if (ret < 0) {
		ret = err_set(err, -ret, "ioengine=libaio: io_setup(%u): %s%s",
			      d, strerror(-ret),
			      ret == -EAGAIN
				      ? " (iodepth x jobs exceeds /proc/sys/fs/aio-max-nr)"
				      : "");
		goto err;
	}
	s->ctx_live = true;
	*out = s;
	return 0;
err:
	aio_cleanup(s);
	return ret;
}

static int aio_init(const struct engine_params *p, void **out,
		   struct ioc_err *err)
{
	return aio_init_opts(p, NULL, out, err);
}

static enum engine_queue_ret aio_queue(void *state, struct io_unit *u)
{
	struct aio_state *s = state;
	struct iocb *io;

	if (s->nr_pending + s->nr_inflight + s->nr_failed >= s->depth)
		return ENGINE_BUSY;
	if (u->file >= s->nr_fds || u->index >= s->depth) {
		u->result = u->file >= s->nr_fds ? -EBADF : -EINVAL;
		return ENGINE_COMPLETED;
	}
	if (u->op != IO_OP_RW) /* as fio's libaio: alone, in this thread */
		return s->nr_pending + s->nr_inflight + s->nr_failed
			       ? ENGINE_BUSY
			       : sync_io_nodata(u, s->fds[u->file]);
	io = &s->iocbs[u->index];
	if (u->dir == DIR_READ)
		io_prep_pread(io, s->fds[u->file], u->buf, u->len,
			      (long long)u->offset);
	else
		io_prep_pwrite(io, s->fds[u->file], u->buf, u->len,
			       (long long)u->offset);
	/* fio's cmdprio: drawn per I/O, in the iocb (the prep cleared the
	 * flags) and the unit, for the logs */
	int prio = s->prio_on ? cmdprio_pick(&s->prio, u->dir, u->len, &s->prio_rng) : -1;
	if (prio >= 0) {
		u->ioprio = (unsigned)prio;
		io->aio_reqprio = (short)prio;
		io->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	io->data = u;
	s->pending[s->nr_pending++] = io;
	return ENGINE_QUEUED;
}

/*
 * Hand the pending iocbs to the kernel. io_submit may take only some of
 * them (it then returns how many) or refuse the first one: a refused iocb
 * (bad fd, bad alignment...) completes with that error at the next
 * getevents, and the rest are tried again. -EAGAIN means the kernel is out
 * of resources: with I/O in flight, the rest waits for getevents to reap
 * and resubmit; with nothing in flight it is an error.
 */
static int aio_submit_pending(struct aio_state *s)
{
	unsigned off = 0;
	int ret = 0;

	while (off < s->nr_pending) {
		ret = io_submit(s->ctx, (long)(s->nr_pending - off),
				s->pending + off);
		if (ret > 0) {
			off += (unsigned)ret;
			s->nr_inflight += (unsigned)ret;
			ret = 0;
			continue;
		}
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN || ret == 0) {
			ret = s->nr_inflight ? 0 : -EAGAIN;
			break;
		}
		struct io_unit *u = s->pending[off]->data;
		u->result = ret;
		s->failed[s->nr_failed++] = u;
		off++;
		ret = 0;
	}
	if (off) {
		memmove(s->pending, s->pending + off,
			(s->nr_pending - off) * sizeof(*s->pending));
		s->nr_pending -= off;
	}
	return ret;
}

static int aio_commit(void *state)
{
	struct aio_state *s = state;

	if (!s->nr_pending)
		return 0;
	return aio_submit_pending(s);
}

/* Move completions refused at submit time into the done list. */
static void aio_take_failed(struct aio_state *s)
{
	for (unsigned i = 0; i < s->nr_failed; i++)
		s->done[s->nr_done++] = s->failed[i];
	s->nr_failed = 0;
}

/* How long io_getevents may wait for `want` completions: forever (NULL)
 * without a limit, else until the monotonic time until_ns (0 s once it
 * has passed). A zero timeout also lets libaio read the user-mapped ring
 * without a syscall when nothing has completed. */
static const struct timespec *aio_timeout(unsigned want, uint64_t until_ns,
					  struct timespec *ts)
{
	uint64_t now = until_ns ? clock_ns() : 0;

	if (want && !until_ns)
		return NULL;
	*ts = (struct timespec){0, 0};
	if (want && until_ns > now) {
		ts->tv_sec = (time_t)((until_ns - now) / 1000000000ull);
		ts->tv_nsec = (long)((until_ns - now) % 1000000000ull);
	}
	return ts;
}

/* Reap up to what is in flight (at most reap_max less what this
 * getevents took already: fio's iodepth_batch_complete_max), waiting for
 * `want` of them (0 = poll), until until_ns when it is not 0. Returns how
 * many were reaped or -errno. */
static int aio_reap(struct aio_state *s, unsigned want, uint64_t until_ns)
{
	struct timespec ts;
	unsigned room = s->reap_max > s->nr_done ? s->reap_max - s->nr_done : 1;
	long max = (long)(s->nr_inflight < room ? s->nr_inflight : room);
	int ret;

	if (want > (unsigned long)max)
		want = (unsigned)max;
	ret = s->user_reap && !want ? aio_user_reap(s, max) : -ENOSYS;
	if (ret == -ENOSYS) {
		do {
			ret = io_getevents(s->ctx, (long)want, max, s->events,
					   (struct timespec *)aio_timeout(want, until_ns, &ts));
		} while (ret == -EINTR);
	}
	if (ret < 0)
		return ret;
	for (int i = 0; i < ret; i++) {
		struct io_unit *u = s->events[i].data;

		/* res is unsigned long in the ABI: negative means -errno */
		u->result = (int64_t)(long)s->events[i].res;
		s->done[s->nr_done++] = u;
	}
	s->nr_inflight -= (unsigned)ret;
	return ret;
}

static int aio_reap_until(struct aio_state *s, unsigned min, uint64_t until_ns)
{
	unsigned possible;
	int ret = 0;

	s->nr_done = 0;
	aio_take_failed(s);
	/* Never wait for more than can complete: that would hang forever. */
	possible = s->nr_done + s->nr_inflight + s->nr_pending;
	if (min > possible)
		min = possible;
	for (;;) {
		if (s->nr_pending) {
			ret = aio_submit_pending(s);
			aio_take_failed(s);
			if (ret < 0)
				break;
		}
		if (s->nr_inflight) {
			unsigned want = min > s->nr_done ? min - s->nr_done : 0;

			ret = aio_reap(s, want, until_ns);
			if (ret < 0)
				break;
			if (until_ns && (unsigned)ret < want)
				break; /* until_ns came first */
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

static int aio_getevents(void *state, unsigned min)
{
	return aio_reap_until(state, min, 0);
}

static int aio_getevents_until(void *state, unsigned min, uint64_t until_ns)
{
	/* 0 means "no limit" to aio_reap_until: a limit of 0 has passed */
	return aio_reap_until(state, min, until_ns ? until_ns : 1);
}

static struct io_unit *aio_event(void *state, unsigned i)
{
	struct aio_state *s = state;

	return i < s->nr_done ? s->done[i] : NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.help = "Linux native AIO (io_submit); asynchronous only with direct=1",
	.flags = 0,
	.options = aio_options,
	.probe = aio_probe,
	.init = aio_init,
	.init_opts = aio_init_opts,
	.cleanup = aio_cleanup,
	.queue = aio_queue,
	.commit = aio_commit,
	.getevents = aio_getevents,
	.event = aio_event,
	.getevents_until = aio_getevents_until,
};

/* posixaio.c - fio's "posixaio" engine: POSIX aio_read(3)/aio_write(3),
 * reaped with aio_error(3)/aio_return(3), waited for with aio_suspend(3).
 *
 * glibc runs POSIX AIO on its own helper threads doing pread/pwrite, so
 * this engine measures that implementation, as fio's does. One aiocb per
 * unit (by unit index); getevents scans the units in flight, as fio's,
 * and suspends on those still in progress until enough have completed.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

#define POSIXAIO_DRAIN_S 10 /* most cleanup waits for cancelled I/Os */

struct posixaio_state {
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
	unsigned depth;
	struct aiocb *cb;      /* by unit index */
	struct io_unit **unit; /* by unit index: the unit in flight, or NULL */
	const struct aiocb **wait; /* aio_suspend's list, cap depth */
	struct io_unit **done; /* completions of the last getevents */
	unsigned nr_done, inflight;
	unsigned reap_max; /* most per getevents (1..depth): as fio's max */
};

/* Cancel and wait (boundedly) for what is still in flight: glibc's
 * helper threads must not write into buffers the worker frees. */
static void posixaio_drain(struct posixaio_state *s)
{
	struct timespec tick = {.tv_sec = 0, .tv_nsec = 10000000};
	unsigned rounds = POSIXAIO_DRAIN_S * 100;

	for (unsigned i = 0; i < s->depth; i++)
		if (s->unit[i])
			aio_cancel(s->cb[i].aio_fildes, &s->cb[i]);
	for (unsigned i = 0; i < s->depth && rounds; i++) {
		const struct aiocb *one[1] = {&s->cb[i]};
		while (s->unit[i] && aio_error(&s->cb[i]) == EINPROGRESS &&
		       rounds--)
			aio_suspend(one, 1, &tick);
	}
}

static void posixaio_cleanup(void *state)
{
	struct posixaio_state *s = state;

	if (!s)
		return;
	if (s->inflight)
		posixaio_drain(s);
	free(s->cb);
	free(s->unit);
	free(s->wait);
	free(s->done);
	free(s);
}

static int posixaio_init(const struct engine_params *p, void **out,
			 struct ioc_err *err)
{
	struct posixaio_state *s = calloc(1, sizeof(*s));
	unsigned d = p->depth ? p->depth : 1;

	if (!s)
		return err_set(err, ENOMEM, "ioengine=posixaio: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	s->depth = d;
	s->reap_max = p->reap_max && p->reap_max < d ? p->reap_max : d;
	s->cb = calloc(d, sizeof(*s->cb));
	s->unit = calloc(d, sizeof(*s->unit));
	s->wait = calloc(d, sizeof(*s->wait));
	s->done = calloc(d, sizeof(*s->done));
	if (!s->cb || !s->unit || !s->wait || !s->done) {
		posixaio_cleanup(s);
		return err_set(err, ENOMEM, "ioengine=posixaio: out of memory");
	}
	*out = s;
	return 0;
}

/* Start u's I/O on cb: a flush is aio_fsync (O_DSYNC: fdatasync), as
 * fio's posixaio (which asks O_SYNC for both). -1 and errno on failure. */
static int posixaio_start(struct aiocb *cb, const struct io_unit *u)
{
	if (u->op == IO_OP_FSYNC)
		return aio_fsync(O_SYNC, cb);
	if (u->op == IO_OP_FDATASYNC)
		return aio_fsync(O_DSYNC, cb);
	return u->dir == DIR_READ ? aio_read(cb) : aio_write(cb);
}

static enum engine_queue_ret posixaio_queue(void *state, struct io_unit *u)
{
	struct posixaio_state *s = state;
	struct aiocb *cb;

	if (u->file >= s->nr_fds || u->index >= s->depth) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	if (s->inflight >= s->depth || s->unit[u->index])
		return ENGINE_BUSY; /* its aiocb is still the kernel's */
	if (u->op == IO_OP_TRIM) /* fio's FIO_ASYNCIO_SYNC_TRIM: done here */
		return sync_io_trim(u, s->fds[u->file]);
	cb = &s->cb[u->index];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = s->fds[u->file];
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if (posixaio_start(cb, u) < 0) {
		if (errno == EAGAIN) /* out of resources: this is the depth */
			return ENGINE_BUSY;
		u->result = -errno;
		return ENGINE_COMPLETED;
	}
	s->unit[u->index] = u;
	s->inflight++;
	return ENGINE_QUEUED;
}

static int posixaio_commit(void *state)
{
	(void)state; /* aio_read/aio_write started the I/O already */
	return 0;
}

/* Take the finished I/Os (up to reap_max in this getevents); put those
 * still running in s->wait. Returns how many are still running. */
static unsigned posixaio_scan(struct posixaio_state *s)
{
	unsigned running = 0;

	for (unsigned i = 0; i < s->depth; i++) {
		struct io_unit *u = s->unit[i];
		int e;

		if (!u)
			continue;
		e = aio_error(&s->cb[i]);
		if (e == EINPROGRESS || s->nr_done >= s->reap_max) {
			s->wait[running++] = &s->cb[i];
			continue;
		}
		ssize_t r = aio_return(&s->cb[i]);
		u->result = e == 0 ? (int64_t)r : -(int64_t)e;
		s->unit[i] = NULL;
		s->inflight--;
		s->done[s->nr_done++] = u;
	}
	return running;
}

static int posixaio_getevents(void *state, unsigned min)
{
	struct posixaio_state *s = state;

	s->nr_done = 0;
	if (min > s->inflight) /* never wait for more than can complete */
		min = s->inflight;
	if (min > s->reap_max) /* nor for more than one call may take */
		min = s->reap_max;
	/* each pass takes one or more completions, or sleeps until one:
	 * at most depth passes that find something */
	for (;;) {
		unsigned running = posixaio_scan(s);

		if (s->nr_done >= min || !running)
			break;
		if (aio_suspend(s->wait, (int)running, NULL) < 0 &&
		    errno != EINTR && errno != EAGAIN)
			return s->nr_done ? (int)s->nr_done : -errno;
	}
	return (int)s->nr_done;
}

static struct io_unit *posixaio_event(void *state, unsigned i)
{
	struct posixaio_state *s = state;

	return i < s->nr_done ? s->done[i] : NULL;
}

static int posixaio_probe(struct ioc_err *err)
{
	(void)err;
	return 0;
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.help = "POSIX aio_read/aio_write (glibc's threads), aio_suspend to "
		"wait (fio's posixaio)",
	.flags = 0,
	.probe = posixaio_probe,
	.init = posixaio_init,
	.cleanup = posixaio_cleanup,
	.queue = posixaio_queue,
	.commit = posixaio_commit,
	.getevents = posixaio_getevents,
	.event = posixaio_event,
};

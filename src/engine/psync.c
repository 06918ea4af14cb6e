/* psync.c - the synchronous engine: one pread(2)/pwrite(2) per I/O.
 *
 * The baseline every system has. queue() moves the bytes itself and returns
 * ENGINE_COMPLETED, so iodepth above 1 buys nothing here; commit and
 * getevents exist only to satisfy the contract.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"

struct psync_state {
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
};

static int psync_probe(struct ioc_err *err)
{
	(void)err;
	return 0;
}

static void psync_cleanup(void *state)
{
	free(state);
}

static int psync_init(const struct engine_params *p, void **out,
		      struct ioc_err *err)
{
	struct psync_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, ENOMEM, "ioengine=psync: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	*out = s;
	return 0;
}

/*
 * Loop until the whole unit is moved: pread/pwrite may transfer less than
 * asked (signals, MAX_RW_COUNT, end of file). A read that hits end of file
 * reports what it got (0 at or past EOF), and an error after some progress
 * reports the progress: the next I/O meets the error again, as with read(2).
 */
static enum engine_queue_ret psync_queue(void *state, struct io_unit *u)
{
	struct psync_state *s = state;
	char *buf = u->buf;
	uint64_t done = 0;
	ssize_t r;
	int fd;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	fd = s->fds[u->file];
	while (done < u->len) {
		size_t chunk = u->len - done > SSIZE_MAX ? SSIZE_MAX
							 : u->len - done;
		off_t off = (off_t)(u->offset + done);

		if (u->dir == DIR_READ)
			r = pread(fd, buf + done, chunk, off);
		else
			r = pwrite(fd, buf + done, chunk, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (done == 0) {
				u->result = -errno;
				return ENGINE_COMPLETED;
			}
			break;
		}
		if (r == 0) /* EOF on read; a zero-byte write must not spin */
			break;
		done += (uint64_t)r;
	}
	u->result = (int64_t)done;
	return ENGINE_COMPLETED;
}

static int psync_commit(void *state)
{
	(void)state;
	return 0;
}

static int psync_getevents(void *state, unsigned min)
{
	(void)state;
	(void)min;
	return 0;
}

static struct io_unit *psync_event(void *state, unsigned i)
{
	(void)state;
	(void)i;
	return NULL;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.help = "pread/pwrite, one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = psync_probe,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.queue = psync_queue,
	.commit = psync_commit,
	.getevents = psync_getevents,
	.event = psync_event,
};

/* psync.c - the synchronous engine: one pread(2)/pwrite(2) per I/O.
 *
 * The baseline every system has. queue() moves the bytes itself and returns
 * ENGINE_COMPLETED, so the runner caps iodepth at 1, as fio does.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

static int psync_init(const struct engine_params *p, void **out,
		      struct ioc_err *err)
{
	return sync_fds_init(p, "psync", out, err);
}

static ssize_t psync_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			  size_t len, off_t off)
{
	(void)ctx;
	return dir == DIR_READ ? pread(fd, buf, len, off)
			       : pwrite(fd, buf, len, off);
}

static enum engine_queue_ret psync_queue(void *state, struct io_unit *u)
{
	struct sync_fds *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	return sync_io_move(u, s->fds[u->file], psync_xfer, NULL);
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.help = "pread/pwrite, one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = sync_io_probe,
	.init = psync_init,
	.cleanup = sync_fds_cleanup,
	.queue = psync_queue,
	.commit = sync_io_commit,
	.getevents = sync_io_getevents,
	.event = sync_io_event,
};

/* vsync.c - fio's "vsync" engine: lseek(2) then readv(2)/writev(2).
 *
 * fio's vsync gathers I/Os that continue each other into one iovec, but
 * as a synchronous engine it runs at iodepth 1, so each call carries one
 * iovec and is preceded by an lseek to its offset: this engine makes the
 * same calls. The runner caps iodepth at 1 (ENGINE_SYNC).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

static int vsync_init(const struct engine_params *p, void **out,
		      struct ioc_err *err)
{
	return sync_fds_init(p, "vsync", out, err);
}

static ssize_t vsync_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			  size_t len, off_t off)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};

	(void)ctx;
	if (lseek(fd, off, SEEK_SET) < 0)
		return -1;
	return dir == DIR_READ ? readv(fd, &iov, 1) : writev(fd, &iov, 1);
}

static enum engine_queue_ret vsync_queue(void *state, struct io_unit *u)
{
	struct sync_fds *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	return sync_io_move(u, s->fds[u->file], vsync_xfer, NULL);
}

const struct engine_ops engine_vsync = {
	.name = "vsync",
	.help = "lseek + readv/writev (fio's vsync), one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = sync_io_probe,
	.init = vsync_init,
	.cleanup = sync_fds_cleanup,
	.queue = vsync_queue,
};

/* psync.c - the synchronous engine: one pread(2)/pwrite(2) per I/O.
 *
 * The baseline every system has. queue() moves the bytes itself and returns
 * ENGINE_COMPLETED, so the runner caps iodepth at 1, as fio does.
 */
#define _GNU_SOURCE /* syscall */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

static int psync_init(const struct engine_params *p, void **out,
		      struct ioc_err *err)
{
	return sync_fds_init(p, "psync", out, err);
}

/* The system calls themselves, not glibc's pread/pwrite: in a process
 * with threads those are cancellation points, and each call pays for
 * turning asynchronous cancellation on and off around the system call
 * (~20 ns, 2 % of a page-cache read here; bench/README.md, "the floor").
 * iochar never cancels a thread. */
static ssize_t psync_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			  size_t len, off_t off)
{
	(void)ctx;
#if defined(__LP64__) && defined(SYS_pread64) && defined(SYS_pwrite64) /* off_t in one register */
	return dir == DIR_READ ? syscall(SYS_pread64, fd, buf, len, off)
			       : syscall(SYS_pwrite64, fd, buf, len, off);
#else
	return dir == DIR_READ ? pread(fd, buf, len, off)
			       : pwrite(fd, buf, len, off);
#endif
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
};

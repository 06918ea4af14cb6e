/* sync_io.c - the loop and stubs the synchronous engines share. See
 * sync_io.h. */
#include "engine/sync_io.h"

#include <errno.h>
#include <limits.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <unistd.h>

/* A transfer call may move less than asked (signals, MAX_RW_COUNT, end of
 * file): the loop goes on from where it stopped. A read that hits end of
 * file reports what it got (0 at or past EOF), and an error after some
 * progress reports the progress: the next I/O meets the error again, as
 * with read(2). A zero-byte write ends the loop so that it cannot spin. */
enum engine_queue_ret sync_io_move(struct io_unit *u, int fd, sync_xfer_fn xfer,
				   void *ctx)
{
	char *buf = u->buf;
	uint64_t done = 0;

	if (u->op != IO_OP_RW) /* fio's do_io_u_sync, do_io_u_trim */
		return sync_io_nodata(u, fd);
	while (done < u->len) {
		size_t chunk = u->len - done > SSIZE_MAX ? SSIZE_MAX
							 : u->len - done;
		ssize_t r = xfer(ctx, fd, u->dir, buf + done, chunk,
				 (off_t)(u->offset + done));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (done == 0) {
				u->result = -errno;
				return ENGINE_COMPLETED;
			}
			break;
		}
		if (r == 0)
			break;
		done += (uint64_t)r;
	}
	u->result = (int64_t)done;
	return ENGINE_COMPLETED;
}

enum engine_queue_ret sync_io_flush(struct io_unit *u, int fd)
{
	int r = u->op == IO_OP_FDATASYNC ? fdatasync(fd) : fsync(fd);

	u->result = r < 0 ? -errno : 0;
	return ENGINE_COMPLETED;
}

enum engine_queue_ret sync_io_trim(struct io_unit *u, int fd)
{
	uint64_t range[2] = {u->offset, u->len};

	u->result = ioctl(fd, BLKDISCARD, range) < 0 ? -errno : (int64_t)u->len;
	return ENGINE_COMPLETED;
}

enum engine_queue_ret sync_io_nodata(struct io_unit *u, int fd)
{
	return u->op == IO_OP_TRIM ? sync_io_trim(u, fd) : sync_io_flush(u, fd);
}

int sync_io_probe(struct ioc_err *err)
{
	(void)err;
	return 0;
}

int sync_fds_init(const struct engine_params *p, const char *name, void **out,
		  struct ioc_err *err)
{
	struct sync_fds *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, ENOMEM, "ioengine=%s: out of memory", name);
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	*out = s;
	return 0;
}

void sync_fds_cleanup(void *state)
{
	free(state);
}

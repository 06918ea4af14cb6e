/* sync.c - fio's "sync" engine: lseek(2) then read(2)/write(2) per I/O.
 *
 * As fio's: the file position is remembered per file, and lseek is called
 * only when the I/O does not start where the last one ended, so a
 * sequential job makes one lseek and then reads or writes only. queue()
 * moves the bytes itself (ENGINE_SYNC): the runner caps iodepth at 1.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

struct sync_state {
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
	off_t *pos;	/* by file: where the file position is; -1 unknown */
};

static void sync_cleanup(void *state)
{
	struct sync_state *s = state;

	if (s)
		free(s->pos);
	free(s);
}

static int sync_init(const struct engine_params *p, void **out,
		     struct ioc_err *err)
{
	struct sync_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, ENOMEM, "ioengine=sync: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	s->pos = calloc(s->nr_fds ? s->nr_fds : 1, sizeof(*s->pos));
	if (!s->pos) {
		free(s);
		return err_set(err, ENOMEM, "ioengine=sync: out of memory");
	}
	/* the worker's descriptors are freshly opened, at offset 0: fio
	 * assumes so too, and makes no lseek before a first I/O at 0 */
	*out = s;
	return 0;
}

/* ctx is the file's position slot: seek only when it is elsewhere, and
 * forget it on failure (a failed read or write leaves it unknown). */
static ssize_t sync_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			 size_t len, off_t off)
{
	off_t *pos = ctx;
	ssize_t r;

	if (*pos != off && lseek(fd, off, SEEK_SET) < 0) {
		*pos = -1;
		return -1;
	}
	r = dir == DIR_READ ? read(fd, buf, len) : write(fd, buf, len);
	*pos = r < 0 ? -1 : off + r;
	return r;
}

static enum engine_queue_ret sync_queue(void *state, struct io_unit *u)
{
	struct sync_state *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	return sync_io_move(u, s->fds[u->file], sync_xfer, &s->pos[u->file]);
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.help = "lseek + read/write (fio's sync), one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = sync_io_probe,
	.init = sync_init,
	.cleanup = sync_cleanup,
	.queue = sync_queue,
};

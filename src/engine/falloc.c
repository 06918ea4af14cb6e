/* falloc.c - fio's falloc engine: each I/O is one fallocate(2) of its
 * range, as fio's engines/falloc.c: a read allocates with
 * FALLOC_FL_KEEP_SIZE, a write allocates (extending the file), a trim
 * punches a hole (FALLOC_FL_PUNCH_HOLE | KEEP_SIZE). No data moves; the descriptor must be writable, so the job's
 * files are opened for writing and guarded whatever rw says
 * (ENGINE_MODIFIES). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

static int falloc_init(const struct engine_params *p, void **out,
		       struct ioc_err *err)
{
	return sync_fds_init(p, "falloc", out, err);
}

static enum engine_queue_ret falloc_queue(void *state, struct io_unit *u)
{
	struct sync_fds *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	int mode = u->dir == DIR_READ ? FALLOC_FL_KEEP_SIZE : 0;
	if (u->op == IO_OP_TRIM) /* fio's falloc: the range's blocks freed */
		mode = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE;
	else if (u->op != IO_OP_RW)
		return sync_io_flush(u, s->fds[u->file]);
	if (fallocate(s->fds[u->file], mode, (off_t)u->offset, (off_t)u->len) < 0)
		u->result = -errno;
	else
		u->result = (int64_t)u->len;
	return ENGINE_COMPLETED;
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.help = "fio's falloc: one fallocate per I/O (reads: KEEP_SIZE, trims: PUNCH_HOLE); no data moved",
	.flags = ENGINE_SYNC | ENGINE_MODIFIES | ENGINE_NO_DATA,
	.probe = sync_io_probe,
	.init = falloc_init,
	.cleanup = sync_fds_cleanup,
	.queue = falloc_queue,
};

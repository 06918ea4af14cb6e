/* ftruncate.c - fio's ftruncate engine: each I/O is one ftruncate(2) of
 * its file to the I/O's offset, as fio's engines/ftruncate.c. Only writes:
 * fio fails a read with EINVAL at its first I/O, iochar refuses the job
 * before it runs. No data moves; the file's size is what changes (a write
 * workload, under the guard as any). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

static int ftruncate_init(const struct engine_params *p, void **out,
			  struct ioc_err *err)
{
	return sync_fds_init(p, "ftruncate", out, err);
}

static int ftruncate_check(const struct job_spec *job, struct ioc_err *err)
{
	if (rw_reads(job->rw))
		return err_usage(err, EINVAL,
				 "job %s: ioengine=ftruncate with rw=%s: the "
				 "engine only writes (fio fails each read with "
				 "EINVAL)", job->name, rw_name(job->rw));
	return 0;
}

static enum engine_queue_ret ftruncate_queue(void *state, struct io_unit *u)
{
	struct sync_fds *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	if (u->op != IO_OP_RW && u->op != IO_OP_TRIM) /* a trim: EINVAL, as fio's */
		return sync_io_flush(u, s->fds[u->file]);
	if (u->dir != DIR_WRITE)
		u->result = -EINVAL;
	else if (ftruncate(s->fds[u->file], (off_t)u->offset) < 0)
		u->result = -errno;
	else
		u->result = (int64_t)u->len;
	return ENGINE_COMPLETED;
}

const struct engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.help = "fio's ftruncate: one ftruncate to the I/O's offset per write; no data moved",
	.flags = ENGINE_SYNC | ENGINE_NO_DATA,
	.probe = sync_io_probe,
	.check = ftruncate_check,
	.init = ftruncate_init,
	.cleanup = sync_fds_cleanup,
	.queue = ftruncate_queue,
};

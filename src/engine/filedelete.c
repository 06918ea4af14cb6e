/* filedelete.c - fio's filedelete engine: each file of the job, laid out
 * first as for any read job, is removed with unlink(2). The I/O is the
 * unlink; the job's other I/Os to the file are fio's fakes (file_ops.h).
 * It destroys the files: ENGINE_MODIFIES puts it under the guard. */
#include <errno.h>
#include <unistd.h>

#include "engine/file_ops.h"
#include "engine/sync_io.h"

static int delete_op(const char *path, const void *opts, int *fd)
{
	(void)opts;
	*fd = -1;
	return unlink(path) < 0 ? -errno : 0;
}

static int filedelete_init(const struct engine_params *p, void **out,
			   struct ioc_err *err)
{
	return file_ops_init(p, delete_op, NULL, out, err);
}

const struct engine_ops engine_filedelete = {
	.name = "filedelete",
	.help = "fio's filedelete: one unlink per file, timed; no data moved",
	.flags = ENGINE_SYNC | ENGINE_NO_OPEN | ENGINE_MODIFIES | ENGINE_NO_DATA,
	.probe = sync_io_probe,
	.init = filedelete_init,
	.cleanup = file_ops_cleanup,
	.queue = file_ops_queue,
};

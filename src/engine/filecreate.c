/* filecreate.c - fio's filecreate engine: each file of the job is created
 * (open(2) with O_CREAT|O_RDWR, mode 0600, as fio), empty: the files are
 * not laid out before the run (ENGINE_NO_LAYOUT). The I/O is the open;
 * the job's other I/Os to the file are fio's fakes (file_ops.h). */
#include <errno.h>
#include <fcntl.h>

#include "engine/file_ops.h"
#include "engine/sync_io.h"

static int create_op(const char *path, const void *opts, int *fd)
{
	(void)opts;
	*fd = open(path, O_CREAT | O_RDWR, 0600);
	return *fd < 0 ? -errno : 0;
}

static int filecreate_init(const struct engine_params *p, void **out,
			   struct ioc_err *err)
{
	return file_ops_init(p, create_op, NULL, out, err);
}

const struct engine_ops engine_filecreate = {
	.name = "filecreate",
	.help = "fio's filecreate: one open(O_CREAT) per file, timed; no data moved",
	.flags = ENGINE_SYNC | ENGINE_NO_OPEN | ENGINE_NO_LAYOUT | ENGINE_NO_DATA,
	.probe = sync_io_probe,
	.init = filecreate_init,
	.cleanup = file_ops_cleanup,
	.queue = file_ops_queue,
};

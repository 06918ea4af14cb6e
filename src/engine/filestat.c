/* filestat.c - fio's filestat engine: each file of the job, laid out
 * first as for any read job, is looked up with stat(2), lstat(2) or
 * statx(2) (its stat_type option). The I/O is the lookup; the job's other
 * I/Os to the file are fio's fakes (file_ops.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>

#include "engine/file_ops.h"
#include "engine/sync_io.h"

/* zero is fio's default, stat */
enum stat_type { STAT_STAT = 0, STAT_LSTAT, STAT_STATX };

struct filestat_opts {
	int stat_type; /* enum stat_type */
};

_Static_assert(sizeof(struct filestat_opts) <= JOB_ENGINE_OPTS_MAX,
	       "filestat's options must fit the job's engine_opts");

static const struct opt_enum stat_values[] = {
	{"stat", STAT_STAT}, {"lstat", STAT_LSTAT}, {"statx", STAT_STATX},
	{NULL, 0},
};

static const struct option_def filestat_options[] = {
	{
		.name = "stat_type",
		.type = OPT_ENUM, .scope = OPT_SCOPE_ENGINE,
		.group = OPT_GROUP_ENGINE,
		.off = offsetof(struct filestat_opts, stat_type),
		.size = sizeof(int), .values = stat_values, .def = "stat",
		.help = "the lookup each file gets: stat, lstat or statx "
			"(statx with STATX_ALL, as fio)",
	},
	{ .name = NULL },
};

static int stat_op(const char *path, const void *opts, int *fd)
{
	const struct filestat_opts *o = opts;
	struct stat st;
	struct statx stx;
	int ret;

	*fd = -1;
	switch (o ? o->stat_type : STAT_STAT) {
	case STAT_LSTAT:
		ret = lstat(path, &st);
		break;
	case STAT_STATX:
		ret = statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
		break;
	default:
		ret = stat(path, &st);
		break;
	}
	return ret < 0 ? -errno : 0;
}

static int filestat_init_opts(const struct engine_params *p,
			      const void *options, void **out,
			      struct ioc_err *err)
{
	return file_ops_init(p, stat_op, options, out, err);
}

static int filestat_init(const struct engine_params *p, void **out,
			 struct ioc_err *err)
{
	return file_ops_init(p, stat_op, NULL, out, err);
}

const struct engine_ops engine_filestat = {
	.name = "filestat",
	.help = "fio's filestat: one stat/lstat/statx per file, timed; no data moved",
	.flags = ENGINE_SYNC | ENGINE_NO_OPEN | ENGINE_NO_DATA,
	.options = filestat_options,
	.probe = sync_io_probe,
	.init = filestat_init,
	.init_opts = filestat_init_opts,
	.cleanup = file_ops_cleanup,
	.queue = file_ops_queue,
};

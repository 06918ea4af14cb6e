/* flush.c - see flush.h. */
#include "core/flush.h"

#include <fcntl.h>

void flush_note(struct flush_sched *f, const struct job_spec *j, enum io_dir d,
		unsigned file)
{
	(void)j;
	f->last_flush = false; /* fio: any data I/O, a read too */
	if (d != DIR_WRITE)
		return;
	f->file = file;
	f->writes++;
}

enum io_op flush_due(struct flush_sched *f, const struct job_spec *j)
{
	enum io_op op = IO_OP_RW;

	if (f->last_flush || !f->writes || !rw_writes(j->rw))
		return IO_OP_RW;
	if (j->fsync_blocks && f->writes % j->fsync_blocks == 0)
		op = IO_OP_FSYNC;
	else if (j->fdatasync_blocks && f->writes % j->fdatasync_blocks == 0)
		op = IO_OP_FDATASYNC;
	f->last_flush = op != IO_OP_RW;
	return op;
}

int flush_open_flags(const struct job_spec *j)
{
	switch (j->sync_open) {
	case SYNC_OPEN_SYNC:
		return O_SYNC;
	case SYNC_OPEN_DSYNC:
		return O_DSYNC;
	case SYNC_OPEN_NONE:
		break;
	}
	return 0;
}

bool flush_at_end(const struct job_spec *j, bool kind)
{
	return rw_writes(j->rw) && (j->end_fsync || (kind && j->fsync_on_close));
}

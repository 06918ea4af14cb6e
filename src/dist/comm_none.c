/* comm_none.c - the transport of a build without MPI: nothing works, and
 * dist_start never gets this far (it refuses distributed launches first).
 * See comm.h. */
#ifndef IOCHAR_MPI
#include "dist/comm.h"

#include <errno.h>

int comm_init(int *rank, int *size, struct ioc_err *err)
{
	*rank = 0;
	*size = 1;
	return err_usage(err, ENOTSUP,
			 "distributed runs need the MPI build of iochar "
			 "(install libopenmpi-dev and rebuild)");
}

void comm_finalize(bool clean)
{
	(void)clean;
}

int comm_post(int to, int tag, const void *buf, size_t len)
{
	return -ENOTSUP;
}

unsigned comm_progress(void)
{
	return 0;
}

bool comm_probe(int from, int tag, int *src, size_t *len)
{
	return false;
}

int comm_take(int src, int tag, void *buf, size_t len)
{
	return -ENOTSUP;
}
#endif

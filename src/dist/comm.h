/* comm.h - the message transport of a distributed run: the only place MPI
 * is called (comm_mpi.c; comm_none.c when iochar is built without MPI).
 *
 * Everything above it (the step protocol, gathers, the start barrier) is
 * written with point-to-point messages that never block without a
 * deadline, because Open MPI 4.1 collectives hang forever when a rank has
 * died. Sends are posted and progressed in the background (comm_progress);
 * receives are polled (comm_probe) and taken once they have arrived.
 * Not thread-safe: one thread at a time uses it (MPI_THREAD_SERIALIZED).
 */
#ifndef IOCHAR_DIST_COMM_H
#define IOCHAR_DIST_COMM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

#define COMM_ANY (-1)

/* Initialise MPI (requesting MPI_THREAD_SERIALIZED) and tell this
 * process's rank and the world size. 0, or -errno with a message; in a
 * build without MPI, -ENOTSUP. */
int comm_init(int *rank, int *size, struct ioc_err *err);

/* Leave MPI. clean: every rank is alive and calls it too (MPI_Finalize);
 * otherwise nothing is called, because MPI_Finalize waits for the lost
 * rank forever. */
void comm_finalize(bool clean);

/* Post a message of len bytes (copied) to rank `to` with tag `tag`.
 * 0 or -ENOMEM / -EIO. It leaves when comm_progress is called. */
int comm_post(int to, int tag, const void *buf, size_t len);

/* Drive posted sends. Returns how many are still in flight. */
unsigned comm_progress(void);

/* Has a message with tag (from `from`, or COMM_ANY) arrived? If so, sets
 * *src and *len and returns true; take it with comm_take. Messages from
 * one rank with one tag arrive in the order they were posted. */
bool comm_probe(int from, int tag, int *src, size_t *len);

/* Receive the message comm_probe found (from src, with tag) into buf of
 * len bytes. 0 or -EIO. */
int comm_take(int src, int tag, void *buf, size_t len);

#endif

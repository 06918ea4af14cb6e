/* sync_io.h - what the synchronous engines share (sync, psync, vsync,
 * pvsync, pvsync2): moving a whole unit with one system call per chunk,
 * and the do-nothing commit/getevents/event of an engine that completes
 * every I/O inside queue(). */
#ifndef IOCHAR_ENGINE_SYNC_IO_H
#define IOCHAR_ENGINE_SYNC_IO_H

#include <sys/types.h>

#include "engine/engine.h"

/* One transfer of len bytes at off between fd and buf, in direction dir:
 * what read(2)/pwrite(2)/preadv2(2)... return (-1 and errno on failure). */
typedef ssize_t (*sync_xfer_fn)(void *ctx, int fd, enum io_dir dir, void *buf,
				size_t len, off_t off);

/* Move u (u->len bytes at u->offset of fd) with xfer, calling it again
 * after a short transfer or EINTR; sets u->result to the bytes moved (an
 * end of file or an error after some progress ends early with what was
 * moved) or -errno. A flush (u->op) is sync_io_flush's. Always
 * ENGINE_COMPLETED. */
enum engine_queue_ret sync_io_move(struct io_unit *u, int fd, sync_xfer_fn xfer,
				   void *ctx);

/* u's flush (IO_OP_FSYNC: fsync(2), IO_OP_FDATASYNC: fdatasync(2)) of
 * fd; u->result 0 or -errno. Always ENGINE_COMPLETED. */
enum engine_queue_ret sync_io_flush(struct io_unit *u, int fd);

/* u's trim (IO_OP_TRIM) of fd: ioctl BLKDISCARD of its range, as fio's
 * os_trim; u->result u->len, or -errno (-ENOTTY on a regular file, the
 * error fio's job ends with). Always ENGINE_COMPLETED. */
enum engine_queue_ret sync_io_trim(struct io_unit *u, int fd);

/* u's flush or trim (u->op != IO_OP_RW) on fd. Always ENGINE_COMPLETED. */
enum engine_queue_ret sync_io_nodata(struct io_unit *u, int fd);

/* The state of an engine that needs only the job's descriptors (psync,
 * vsync, falloc, ftruncate): fds is the caller's, valid until cleanup. */
struct sync_fds {
	const int *fds;
	unsigned nr_fds;
};

/* init/cleanup for such an engine: a struct sync_fds of p's descriptors
 * into *out; -ENOMEM with "ioengine=NAME: out of memory" in err. */
int sync_fds_init(const struct engine_params *p, const char *name, void **out,
		  struct ioc_err *err);
void sync_fds_cleanup(void *state);

/* probe of an engine every Linux has: 0. */
int sync_io_probe(struct ioc_err *err);

#endif

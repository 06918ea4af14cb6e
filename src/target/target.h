/* target.h - where I/O goes: regular files and block devices.
 *
 * A target is looked at (target_inspect, read-only, no side effects) while
 * the job is validated, prepared (target_fill: files are created and written
 * before they are read) and opened once per worker. Files and block devices
 * map a logical I/O to the same offset on one descriptor; targets of other
 * kinds (a RAID virtual drive maps one logical I/O to several member I/Os)
 * sit behind target_ops.h, and the destructive-write guard behind guard.h.
 */
#ifndef IOCHAR_TARGET_TARGET_H
#define IOCHAR_TARGET_TARGET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "util/err.h"

struct target_info {
	bool exists;
	bool is_block;
	uint64_t size;           /* bytes: device size or file length */
	uint64_t allocated;      /* files: bytes with blocks behind them */
	unsigned dio_align;      /* offset/length alignment O_DIRECT needs */
	bool no_direct;          /* its filesystem refuses O_DIRECT (ramfs): probed */
	bool parent_writable;    /* for a missing file: can it be created? */
	bool parent_exists;
};

/* Look at path without changing anything (block devices are opened
 * read-only to ask their size; whether a file's filesystem takes O_DIRECT
 * is asked of the file, or for a missing one of an unnamed O_TMPFILE in
 * its directory, which vanishes when closed and holds no data). Returns 0
 * (also when the path does not exist: info->exists is false), or -errno
 * with a message naming path for targets iochar cannot use (directories,
 * character devices, unreadable). */
int target_inspect(const char *path, struct target_info *info,
		   struct ioc_err *err);

/* O_DIRECT alignment of the filesystem or device holding fd (statx
 * STATX_DIOALIGN on Linux >= 6.1, else the logical block size of the disk
 * behind it, else 512). */
unsigned target_dio_align(int fd);

/* The size of the open file or block device fd, without moving its file
 * offset (the sync engine relies on a fresh descriptor being at 0);
 * 0 when it cannot be told. */
uint64_t target_fd_size(int fd);

/* Open path for the workload; *fd on success. 0 or -errno with a message. */
int target_open(const char *path, bool write, bool direct, int *fd,
		struct ioc_err *err);

/* target_open, with extra open(2) flags (sync=: O_SYNC or O_DSYNC). */
int target_open_flags(const char *path, bool write, bool direct, int extra,
		      int *fd, struct ioc_err *err);

typedef void (*target_progress_fn)(void *arg, const char *path, uint64_t done,
				   uint64_t total);

/* Make sure path holds written data over [0, end): create it if missing and
 * write from its current length up to end with pseudo-random data (not
 * zeros, so compressing or deduplicating devices are not flattered), then
 * fdatasync. Uses O_DIRECT when the filesystem allows, to leave the page
 * cache as it was. A file it creates carries iochar's mark (marker.h), so
 * later write runs may use it without --force. progress is called about
 * every 64 MiB; may be NULL. Returns 0 or -errno with a message. */
int target_fill(const char *path, uint64_t end, target_progress_fn progress,
		void *arg, struct ioc_err *err);

/* How a file is laid out, as fio's extend_file: space first (fallocate=),
 * then data, or for write jobs without overwrite=1 no data at all. */
struct target_fill_how {
	enum fallocate_mode fallocate;
	bool data; /* write data up to end; false: create and allocate only */
};

struct target_fill_ctl {
	target_progress_fn progress; /* may be NULL */
	void *arg;		     /* progress's */
	const atomic_bool *stop;     /* set (a signal): stop soon; may be NULL */
	const struct target_fill_how *how; /* NULL: data, no fallocate */
};

/* target_fill that also stops within one 1 MiB write once *c->stop is set,
 * returning -EINTR with a message saying how far it got (the data written
 * stays, without the final fdatasync), and lays out as c->how says: a
 * fallocate the filesystem refuses (EOPNOTSUPP) is no error, as in fio. */
int target_fill_ctl(const char *path, uint64_t end,
		    const struct target_fill_ctl *c, struct ioc_err *err);

/* Drop the page cache of fd over [off, off + len) (len 0: to the end):
 * posix_fadvise(DONTNEED) for a file, BLKFLSBUF for a block device (root
 * only: -EACCES otherwise), as fio's invalidate=1. 0 or -errno; callers
 * say the failure and go on, as fio. */
int target_invalidate(int fd, uint64_t off, uint64_t len);

/* Read [off, off + len) of fd once, buflen bytes at a time into buf
 * (aligned as fd's O_DIRECT needs, if it has it), as fio's pre_read: a
 * buffered job then finds it in the page cache. Stops at the end of the
 * file. 0 or -errno. */
int target_pre_read(int fd, uint64_t off, uint64_t len, void *buf,
		    size_t buflen);

/* Remove path if it is a regular file (unlink=1); anything else, and a
 * missing path, is left alone. 0 or -errno with a message. */
int target_remove(const char *path, struct ioc_err *err);

#endif

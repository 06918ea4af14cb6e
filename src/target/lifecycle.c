/* lifecycle.c - what happens to a job's files around its run besides
 * their layout (fill.c): the page cache dropped at start (fio's
 * invalidate=1), the files removed at the end (unlink=1). */
#define _GNU_SOURCE
#include "target/target.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int target_invalidate(int fd, uint64_t off, uint64_t len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		/* fio's file_invalidate_cache: the job's range of the file */
		int r = posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
		return -r;
	}
	if (S_ISBLK(st.st_mode)) {
		/* multipath maps refuse ioctls while they change: fio retries
		 * for a quarter of a second */
		for (unsigned i = 0; i < 25; i++) {
			if (ioctl(fd, BLKFLSBUF, 0) == 0)
				return 0;
			if (errno != EAGAIN)
				return -errno;
			usleep(10000);
		}
		return -EAGAIN;
	}
	return 0;
}

int target_pre_read(int fd, uint64_t off, uint64_t len, void *buf,
		    size_t buflen)
{
	uint64_t end = off + len;
	for (uint64_t pos = off; pos < end;) {
		size_t n = end - pos < buflen ? (size_t)(end - pos) : buflen;
		ssize_t r = pread(fd, buf, n, (off_t)pos);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* the end of the file: nothing more to cache */
		pos += (uint64_t)r;
	}
	return 0;
}

int target_remove(const char *path, struct ioc_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : err_set(err, errno, "%s: %s", path,
						     strerror(errno));
	if (!S_ISREG(st.st_mode))
		return 0; /* a device is never removed, whatever unlink= says */
	if (unlink(path) < 0)
		return err_set(err, errno, "%s: cannot remove it (unlink=1): %s",
			       path, strerror(errno));
	return 0;
}

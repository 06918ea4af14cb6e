/* fill.c - writing a file's data before it is read.
 *
 * Reads of never-written extents on ext4 or xfs return zeros without
 * touching the disk, which gives absurd IOPS; so files are laid out with
 * real data first, as fio does. */
#define _GNU_SOURCE
#include "target/target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/marker.h"
#include "util/rng.h"

#define FILL_CHUNK (1u << 20)
#define FILL_PROGRESS_STEP (64ull << 20)

/* Open path for writing, creating it if missing. A file iochar creates is
 * marked as its own at once, before any data goes in, so that an interrupted
 * fill still leaves a file a later run may overwrite (see marker.h).
 * O_DIRECT is added afterwards with fcntl, which refuses it where the
 * filesystem cannot do it: opening with O_DIRECT there would create the file
 * and then fail, and the retry could not tell that it had created it. */
static int open_for_fill(const char *path, bool *direct)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	bool created = fd >= 0;

	*direct = false;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* An unmarked file only makes the next write run ask for --force;
	 * filesystems without user xattrs cannot carry the mark at all (the
	 * guard tells the user so). Neither is a reason to fail the run. */
	if (created)
		(void)target_marker_set(fd);
	int flags = fcntl(fd, F_GETFL);
	*direct = flags >= 0 && fcntl(fd, F_SETFL, flags | O_DIRECT) == 0;
	return fd;
}

/* Stopped (Ctrl-C) at pos: say how far it got and that nothing was
 * measured; what was written stays (a later run goes on from there). */
static int fill_stopped(const char *path, uint64_t pos, uint64_t end,
			struct ioc_err *err)
{
	return err_set(err, EINTR,
		       "%s: pre-write stopped by a signal at %llu of %llu "
		       "MiB; nothing was measured",
		       path, (unsigned long long)(pos >> 20),
		       (unsigned long long)(end >> 20));
}

/* Write [from, end), checking *stop before every chunk. O_DIRECT needs
 * aligned offsets and lengths: fall back to buffered writes for an
 * unaligned head or tail. */
static int fill_range(int fd, const char *path, uint64_t from, uint64_t end,
		      void *buf, bool direct, const struct target_fill_ctl *c,
		      struct ioc_err *err)
{
	uint64_t pos = from, next_report = from + FILL_PROGRESS_STEP;
	unsigned align = direct ? target_dio_align(fd) : 1;

	if (direct && (from % align || end % align)) {
		int flags = fcntl(fd, F_GETFL);
		if (flags >= 0)
			fcntl(fd, F_SETFL, flags & ~O_DIRECT);
	}
	while (pos < end) {
		if (c->stop && atomic_load(c->stop))
			return fill_stopped(path, pos, end, err);
		size_t n = end - pos < FILL_CHUNK ? (size_t)(end - pos) : FILL_CHUNK;
		ssize_t w = pwrite(fd, buf, n, (off_t)pos);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return err_set(err, w < 0 ? errno : EIO,
				       "%s: writing its data at offset %llu: %s",
				       path, (unsigned long long)pos,
				       strerror(w < 0 ? errno : EIO));
		pos += (uint64_t)w;
		if (c->progress && (pos >= next_report || pos == end)) {
			c->progress(c->arg, path, pos - from, end - from);
			next_report = pos + FILL_PROGRESS_STEP;
		}
	}
	if (fdatasync(fd) < 0)
		return err_set(err, errno, "%s: fdatasync: %s", path,
			       strerror(errno));
	return 0;
}

/* Space for [0, end) before any data, as fio's fallocate= modes. When
 * data follows, the size is left alone (KEEP_SIZE; no truncate): the
 * file's length must say how far data was written, so that a layout cut
 * short is resumed, never read as if done. The layout ends the same. */
static int fill_allocate(int fd, const char *path, uint64_t end,
			 enum fallocate_mode mode, bool data, struct ioc_err *err)
{
	int r = 0;

	if (data && mode != FALLOC_NONE)
		mode = mode == FALLOC_TRUNCATE ? FALLOC_NONE : FALLOC_KEEP;
	switch (mode) {
	case FALLOC_NONE:
		return 0;
	case FALLOC_NATIVE:
		r = fallocate(fd, 0, 0, (off_t)end) ? errno : 0;
		break;
	case FALLOC_POSIX:
		r = posix_fallocate(fd, 0, (off_t)end);
		break;
	case FALLOC_KEEP:
		r = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)end) ? errno : 0;
		break;
	case FALLOC_TRUNCATE:
		r = ftruncate(fd, (off_t)end) ? errno : 0;
		break;
	}
	if (r == 0 || r == EOPNOTSUPP || r == ENOSYS)
		return 0; /* fio goes on without the space */
	return err_set(err, r, "%s: fallocate to %llu bytes: %s", path,
		       (unsigned long long)end, strerror(r));
}

int target_fill(const char *path, uint64_t end, target_progress_fn progress,
		void *arg, struct ioc_err *err)
{
	struct target_fill_ctl c = {progress, arg, NULL, NULL};
	return target_fill_ctl(path, end, &c, err);
}

int target_fill_ctl(const char *path, uint64_t end,
		    const struct target_fill_ctl *c, struct ioc_err *err)
{
	void *buf = NULL;
	bool direct;
	int ret = 0;
	int fd = open_for_fill(path, &direct);

	if (fd < 0)
		return err_set(err, errno, "%s: cannot create: %s", path,
			       strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		ret = err_set(err, errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if ((uint64_t)st.st_size >= end)
		goto out;
	if (c->how && (ret = fill_allocate(fd, path, end, c->how->fallocate,
					   c->how->data, err)))
		goto out;
	if (c->how && !c->how->data)
		goto out;
	if (posix_memalign(&buf, 4096, FILL_CHUNK)) {
		ret = err_set(err, ENOMEM, "%s: out of memory", path);
		goto out;
	}
	struct rng r;
	rng_seed(&r, (uint64_t)st.st_ino);
	for (size_t i = 0; i < FILL_CHUNK / 8; i++)
		((uint64_t *)buf)[i] = rng_next(&r);
	ret = fill_range(fd, path, (uint64_t)st.st_size, end, buf, direct, c,
			 err);
out:
	free(buf);
	close(fd);
	return ret;
}

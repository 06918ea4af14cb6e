/* mmap.c - fio's "mmap" engine: each I/O is a memcpy to or from a shared
 * mapping of the file.
 *
 * As fio's engines/mmap.c: a file is mapped whole when it fits in its
 * share of 1 GiB of mappings (1 GiB / number of files), otherwise a window
 * of that share starting at the I/O is mapped, and moved when an I/O falls
 * outside it; a fresh mapping is advised POSIX_MADV_DONTNEED; with
 * O_DIRECT each I/O is followed by msync(MS_SYNC) and POSIX_MADV_DONTNEED
 * of its range ("not really direct, but should drop the pages from the
 * cache"). The protection follows how the file was opened. Unlike fio's,
 * an I/O past the end of the file comes back short instead of raising
 * SIGBUS. queue() completes the I/O (ENGINE_SYNC): iodepth is capped at 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/sync_io.h"

#define MMAP_TOTAL (1ull << 30) /* fio's MMAP_TOTAL_SZ */

struct mmap_file {
	int fd;
	int prot;
	bool direct;
	uint64_t size; /* of the file or device, read at init */
	char *map;     /* NULL: nothing mapped */
	uint64_t map_off, map_len;
};

struct mmap_state {
	struct mmap_file *f;
	unsigned nr;
	uint64_t share; /* the most one file may have mapped */
};

static void mmap_cleanup(void *state)
{
	struct mmap_state *s = state;

	if (!s)
		return;
	for (unsigned i = 0; i < s->nr; i++)
		if (s->f[i].map)
			munmap(s->f[i].map, s->f[i].map_len);
	free(s->f);
	free(s);
}

/* How big fd is: a regular file's size, a block device's capacity. */
static int mmap_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) < 0 ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int mmap_file_init(struct mmap_file *f, int fd, struct ioc_err *err)
{
	int fl = fcntl(fd, F_GETFL);
	int ret = fl < 0 ? -errno : mmap_size(fd, &f->size);

	if (ret < 0)
		return err_set(err, -ret, "ioengine=mmap: %s", strerror(-ret));
	f->fd = fd;
	f->direct = fl & O_DIRECT;
	f->prot = (fl & O_ACCMODE) == O_RDONLY ? PROT_READ
					       : PROT_READ | PROT_WRITE;
	return 0;
}

static int mmap_init(const struct engine_params *p, void **out,
		     struct ioc_err *err)
{
	struct mmap_state *s = calloc(1, sizeof(*s));
	int ret = 0;

	if (!s)
		return err_set(err, ENOMEM, "ioengine=mmap: out of memory");
	s->nr = p->fds ? p->nr_fds : 0;
	s->f = calloc(s->nr ? s->nr : 1, sizeof(*s->f));
	if (!s->f) {
		free(s);
		return err_set(err, ENOMEM, "ioengine=mmap: out of memory");
	}
	s->share = MMAP_TOTAL / (s->nr ? s->nr : 1);
	for (unsigned i = 0; i < s->nr && !ret; i++)
		ret = mmap_file_init(&s->f[i], p->fds[i], err);
	if (ret) {
		mmap_cleanup(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* Map the part of f holding [off, off + len): the whole file when it fits
 * in share, else share bytes from the page of off (clipped at the end). */
static int mmap_window(struct mmap_file *f, uint64_t share, uint64_t off,
		       uint64_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t start = 0, n = f->size;

	if (f->map && off >= f->map_off && off + len <= f->map_off + f->map_len)
		return 0;
	if (f->map && munmap(f->map, f->map_len) < 0)
		return -errno;
	f->map = NULL;
	if (n > share) {
		start = off / page * page;
		n = f->size - start < share ? f->size - start : share;
		if (off + len > start + n)
			return -EINVAL; /* bs too big for mmap, as fio says */
	}
	void *m = mmap(NULL, n, f->prot, MAP_SHARED, f->fd, (off_t)start);
	if (m == MAP_FAILED)
		return -errno;
	(void)posix_madvise(m, n, POSIX_MADV_DONTNEED);
	f->map = m;
	f->map_off = start;
	f->map_len = n;
	return 0;
}

static enum engine_queue_ret mmap_queue(void *state, struct io_unit *u)
{
	struct mmap_state *s = state;
	struct mmap_file *f;
	uint64_t len = u->len;
	int ret;

	if (u->file >= s->nr) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	f = &s->f[u->file];
	if (u->op == IO_OP_TRIM) /* fio's mmap: do_io_u_trim on the file */
		return sync_io_trim(u, f->fd);
	if (u->op != IO_OP_RW) { /* fio: msync of the mapping */
		u->result = f->map && msync(f->map, f->map_len, MS_SYNC) < 0
				    ? -errno
				    : 0;
		return ENGINE_COMPLETED;
	}
	if (u->dir == DIR_WRITE && !(f->prot & PROT_WRITE)) {
		u->result = -EBADF; /* as write(2) on a read-only descriptor */
		return ENGINE_COMPLETED;
	}
	if (u->offset >= f->size) { /* past the end: nothing to map */
		u->result = 0;
		return ENGINE_COMPLETED;
	}
	if (len > f->size - u->offset)
		len = f->size - u->offset;
	ret = mmap_window(f, s->share, u->offset, len);
	if (ret < 0) {
		u->result = ret;
		return ENGINE_COMPLETED;
	}
	char *at = f->map + (u->offset - f->map_off);
	if (u->dir == DIR_READ)
		memcpy(u->buf, at, len);
	else
		memcpy(at, u->buf, len);
	u->result = (int64_t)len;
	if (f->direct) {
		uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
		char *a = f->map + (u->offset - f->map_off) / page * page;
		size_t n = (size_t)(at + len - a);
		if (msync(a, n, MS_SYNC) < 0)
			u->result = -errno;
		(void)posix_madvise(a, n, POSIX_MADV_DONTNEED);
	}
	return ENGINE_COMPLETED;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.help = "memcpy to/from a shared mapping of the file (fio's mmap), "
		"one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = sync_io_probe,
	.init = mmap_init,
	.cleanup = mmap_cleanup,
	.queue = mmap_queue,
};

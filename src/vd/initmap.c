/* initmap.c - the VD initialization map's file (see initmap.h). */
#define _GNU_SOURCE
#include "vd/initmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define INIT_MAGIC "IOCINIT1"

struct init_hdr {
	char magic[8];
	uint32_t level, nr_members;
	uint64_t strip, rows;
};

int vd_init_path(const struct vd_def *def, char *buf, size_t len)
{
	const char *base = def->init_file[0] ? def->init_file : def->cache_file;
	if (base[0]) {
		if (strlen(base) + 6 > len)
			return -ENAMETOOLONG;
		strcpy(buf, base);
		if (!def->init_file[0])
			strcat(buf, ".init"); /* beside the cache file */
		return 0;
	}
	int ret = vd_bbu_path(def, buf, len); /* same hash, another suffix */
	size_t n = strlen(buf);
	if (ret || n < 4 || n + 2 > len)
		return ret ? ret : -ENAMETOOLONG;
	strcpy(buf + n - 4, ".init");
	return 0;
}

static int read_hdr(const char *path, struct init_hdr *h, int *fdp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, h, sizeof(*h), 0) != (ssize_t)sizeof(*h)) {
		close(fd);
		return -EINVAL;
	}
	*fdp = fd;
	return 0;
}

static bool hdr_matches(const struct init_hdr *h, const struct vd_def *def, uint64_t rows)
{
	return !memcmp(h->magic, INIT_MAGIC, 8) && h->level == def->level &&
	       h->nr_members == def->nr_members && h->strip == def->strip && h->rows == rows;
}

int vd_init_check(const struct vd_def *def, uint64_t rows, uint64_t *left,
		  struct ioc_err *err)
{
	char path[VD_PATH_MAX + 64];
	struct init_hdr h;
	int fd;

	*left = 0;
	if (vd_init_path(def, path, sizeof(path)))
		return err_usage(err, ENAMETOOLONG, "--vd: init_file=: path too long");
	int ret = read_hdr(path, &h, &fd);
	if (ret == -ENOENT)
		return 0;
	if (ret || !hdr_matches(&h, def, rows)) {
		if (!ret)
			close(fd);
		return err_usage(err, EINVAL,
				 "--vd: initialization map %s is not this VD's (level, strip, members or size differ): run iochar vd init, or remove it",
				 path);
	}
	uint64_t words = (rows + 63) / 64, w;
	for (uint64_t i = 0; i < words; i++)
		if (pread(fd, &w, 8, (off_t)(sizeof(h) + i * 8)) == 8)
			*left += (uint64_t)__builtin_popcountll(w);
	close(fd);
	return 0;
}

static int write_map(const struct vd_def *def, uint64_t rows, const uint64_t *bits)
{
	char path[VD_PATH_MAX + 64];
	struct init_hdr h = {.level = def->level, .nr_members = def->nr_members,
			     .strip = def->strip, .rows = rows};
	memcpy(h.magic, INIT_MAGIC, 8);
	if (vd_init_path(def, path, sizeof(path)))
		return -EINVAL;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t bytes = (size_t)((rows + 63) / 64) * 8;
	int ret = 0;
	if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    write(fd, bits, bytes) != (ssize_t)bytes)
		ret = -EIO;
	close(fd);
	return ret;
}

int vd_init_mark_fast(const struct vd_def *def, uint64_t rows, struct ioc_err *err)
{
	uint64_t words = (rows + 63) / 64;
	uint64_t *bits = malloc(words ? words * 8 : 8);
	if (!bits)
		return err_set(err, ENOMEM, "out of memory");
	memset(bits, 0xff, words * 8);
	if (rows % 64)
		bits[words - 1] = (1ull << (rows % 64)) - 1;
	int ret = write_map(def, rows, bits);
	free(bits);
	return ret ? err_set(err, -ret, "--vd: cannot write the initialization map: %s",
			     strerror(-ret)) : 0;
}

void vd_init_clear(const struct vd_def *def)
{
	char path[VD_PATH_MAX + 64];
	if (!vd_init_path(def, path, sizeof(path)))
		unlink(path);
}

int vd_init_load(const struct vd_def *def, const struct vd_geom *g,
		 _Atomic uint64_t **uninit)
{
	char path[VD_PATH_MAX + 64];
	struct init_hdr h;
	int fd;
	if (!g->np || vd_init_path(def, path, sizeof(path)) || read_hdr(path, &h, &fd))
		return 0;
	if (!hdr_matches(&h, def, g->rows)) { /* refused at validation */
		close(fd);
		return 0;
	}
	size_t bytes = (size_t)((h.rows + 63) / 64) * 8;
	*uninit = calloc(1, bytes ? bytes : 8);
	if (!*uninit) {
		close(fd);
		return -ENOMEM;
	}
	if (pread(fd, (void *)*uninit, bytes, sizeof(h)) != (ssize_t)bytes)
		memset((void *)*uninit, 0xff, bytes); /* short: trust nothing */
	close(fd);
	return 0;
}

void vd_init_save(const struct vd_def *def, const struct vd_geom *g,
		  _Atomic uint64_t *uninit)
{
	if (!uninit)
		return;
	uint64_t words = (g->rows + 63) / 64, left = 0;
	for (uint64_t i = 0; i < words; i++)
		left |= atomic_load_explicit(&uninit[i], memory_order_relaxed);
	if (!left)
		vd_init_clear(def);
	else
		write_map(def, g->rows, (const uint64_t *)uninit);
}

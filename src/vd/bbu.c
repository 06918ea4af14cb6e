/* bbu.c - the battery-backed write-back cache's file (see bbu.h). */
#define _GNU_SOURCE
#include "vd/bbu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vd/io.h"
#include "vd/sync.h"

#define BBU_MAGIC "IOCBBU1"

/* The first VD_WB_STORE_HDR bytes of the store: what it belongs to. */
struct bbu_hdr {
	char magic[8];
	uint32_t level, nr_members;
	uint64_t strip, row_bytes, slots, words;
};

static void hdr_fill(struct bbu_hdr *h, const struct vd_def *def, const struct vd_wb *wb)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, BBU_MAGIC, sizeof(h->magic));
	h->level = def->level;
	h->nr_members = def->nr_members;
	h->strip = def->strip;
	h->row_bytes = wb->row_bytes;
	h->slots = wb->n;
	h->words = wb->words;
}

int vd_bbu_map(struct vd *vd, struct vd_wb *wb, size_t len)
{
	char path[VD_PATH_MAX + 64];
	int ret = vd_bbu_path(&vd->def, path, sizeof(path));
	if (ret)
		return ret;
	/* replayed before the run (vd_prepare): what is left is stale */
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)len) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	wb->map = map;
	wb->map_len = len;
	wb->path = strdup(path);
	hdr_fill(map, &vd->def, wb);
	return wb->path ? 0 : -ENOMEM;
}

void vd_bbu_unmap(struct vd_wb *wb)
{
	munmap(wb->map, wb->map_len);
	wb->map = NULL;
	if (wb->path && wb->inuse == 0)
		unlink(wb->path); /* clean: nothing to preserve */
	free(wb->path);
	wb->path = NULL;
}

/* Write the dirty runs of every valid slot of the store at map. */
static int replay_slots(struct vd_sync *s, const uint8_t *map, const struct bbu_hdr *h,
			uint64_t *bytes, struct ioc_err *err)
{
	struct vd_wb wb = {.n = (unsigned)h->slots, .row_bytes = h->row_bytes,
			   .words = h->words};
	size_t data_off;
	vd_wb_store_len(&wb, &data_off);
	const struct vd_wb_hdr *sh = (const void *)(map + VD_WB_STORE_HDR);
	const uint64_t *bits = (const void *)(sh + wb.n);
	int ret = 0;

	for (unsigned i = 0; i < wb.n && !ret; i++) {
		if (!sh[i].valid)
			continue;
		const uint64_t *m = bits + (size_t)i * wb.words;
		const uint8_t *data = map + data_off + (size_t)i * wb.row_bytes;
		uint64_t a, b = 0;
		while (!ret && vd_wb_next_run(m, wb.row_bytes / 512, b, &a, &b)) {
			ret = vd_sync_write(s, data + a * 512, sh[i].row * wb.row_bytes + a * 512,
					    (b - a) * 512, err);
			*bytes += (b - a) * 512;
		}
	}
	return ret;
}

static int check_hdr(const char *path, const struct bbu_hdr *h, const struct vd_def *def,
		     size_t size, struct ioc_err *err)
{
	struct vd_wb wb = {.n = (unsigned)h->slots, .row_bytes = h->row_bytes,
			   .words = h->words};
	size_t data_off;
	if (memcmp(h->magic, BBU_MAGIC, sizeof(h->magic)) || h->level != def->level ||
	    h->nr_members != def->nr_members || h->strip != def->strip)
		return err_usage(err, EINVAL,
				 "--vd: cache file %s is not this VD's battery-backed cache (level, strip or members differ): remove it or give another cache_file=",
				 path);
	if (!h->row_bytes || h->row_bytes % 512 || vd_wb_store_len(&wb, &data_off) > size)
		return err_set(err, EINVAL, "--vd: cache file %s is damaged (shorter than its header says)",
			       path);
	return 0;
}

int vd_bbu_replay(const struct vd_def *def, uint64_t member_bytes, uint64_t *bytes,
		  struct ioc_err *err)
{
	char path[VD_PATH_MAX + 64];
	struct stat st;
	int ret;

	*bytes = 0;
	if ((ret = vd_bbu_path(def, path, sizeof(path))))
		return err_set(err, -ret, "--vd: cache file name too long");
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 0 : err_set(err, errno, "--vd: %s: %s", path, strerror(errno));
	/* only a file of ours is removed or truncated: a device node or a
	 * user's small file at cache_file= was unlinked as "never filled" */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_usage(err, EINVAL,
				 "--vd: cache_file=%s: not a regular file; the cache is a file "
				 "of its own", path);
	}
	if (st.st_size == 0) {
		close(fd);
		unlink(path); /* created, never filled: nothing was acknowledged */
		return 0;
	}
	if ((size_t)st.st_size < VD_WB_STORE_HDR) {
		close(fd);
		return err_usage(err, EINVAL,
				 "--vd: cache_file=%s: not a battery-backed cache (%lld bytes); "
				 "remove it or give another cache_file=",
				 path, (long long)st.st_size);
	}
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return err_set(err, errno, "--vd: %s: cannot map: %s", path, strerror(errno));
	struct vd_sync s;
	ret = check_hdr(path, map, def, (size_t)st.st_size, err);
	if (!ret && !(ret = vd_sync_open(&s, def, member_bytes, true, err))) {
		ret = replay_slots(&s, map, map, bytes, err);
		for (unsigned i = 0; !ret && i < def->nr_members; i++)
			if (s.fds[i] >= 0 && fdatasync(s.fds[i]) < 0)
				ret = err_set(err, errno, "%s: fdatasync: %s", def->members[i],
					      strerror(errno));
		vd_sync_close(&s);
	}
	munmap(map, (size_t)st.st_size);
	if (!ret)
		unlink(path);
	return ret;
}

int vd_bbu_discard(const struct vd_def *def, struct ioc_err *err)
{
	char path[VD_PATH_MAX + 64], magic[8] = "";
	struct stat st;

	if (vd_bbu_path(def, path, sizeof(path)))
		return err_set(err, ENAMETOOLONG, "--vd: cache file name too long");
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 0 : err_set(err, errno, "--vd: %s: %s", path, strerror(errno));
	bool ours = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_size == 0 || (pread(fd, magic, sizeof(magic), 0) == sizeof(magic) &&
					 !memcmp(magic, BBU_MAGIC, sizeof(magic))));
	close(fd);
	if (!ours)
		return err_usage(err, EINVAL,
				 "--vd: cache_file=%s: not a battery-backed cache of iochar's; "
				 "the cache is a file of its own", path);
	unlink(path);
	return 0;
}

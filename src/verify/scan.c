/* scan.c - see scan.h. */
#define _GNU_SOURCE
#include "verify/scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/report.h"

#define SCAN_CHUNK (1u << 20) /* bytes per read; a multiple of 4096 */
#define SCAN_ALIGN 4096

static int open_target(const char *path, struct ioc_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);

	if (fd < 0 && errno == EINVAL) /* no O_DIRECT here (tmpfs) */
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	return fd;
}

/* Read len bytes at off, whole. O_DIRECT refusing an unaligned tail turns
 * the descriptor to buffered reads. */
static int read_full(int fd, const char *path, void *buf, size_t len,
		     uint64_t off, struct ioc_err *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EINVAL &&
		    (fcntl(fd, F_GETFL) & O_DIRECT)) {
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_DIRECT);
			continue;
		}
		if (n < 0)
			return err_set(
			    err, errno, "%s: read at offset %llu: %s", path,
			    (unsigned long long)(off + done), strerror(errno));
		if (n == 0)
			return err_set(
			    err, EIO,
			    "%s: ends at offset %llu, inside the range", path,
			    (unsigned long long)(off + done));
		done += (size_t)n;
	}
	return 0;
}

/* The length of the unit at target offset pos with avail bytes left: what
 * its header says when the header is ours (magic, or its own offset) and
 * fits, else the default unit; 0 when not even that fits. */
static uint32_t unit_at(const uint8_t *p, uint64_t pos, uint64_t avail,
			uint32_t dflt)
{
	struct vblock_hdr h;

	if (avail >= VBLOCK_HDR_LEN) {
		vblock_hdr_decode(p, &h);
		if ((h.magic == VBLOCK_MAGIC || h.offset == pos) &&
		    (h.unit_len == VBLOCK_UNIT_SMALL ||
		     h.unit_len == VBLOCK_UNIT_LARGE) &&
		    pos % h.unit_len == 0 && h.unit_len <= avail)
			return h.unit_len;
	}
	return pos % dflt == 0 && dflt <= avail ? dflt : 0;
}

/* The unit at pos when every unit is dflt bytes; 0 at a cut edge. */
static uint32_t fixed_unit(uint64_t pos, uint64_t avail, uint32_t dflt)
{
	return pos % dflt == 0 && dflt <= avail ? dflt : 0;
}

static void report(const struct vscan *p, const struct vfailure *f)
{
	uint64_t n = p->printed ? (*p->printed)++ : 0;

	if (!p->report)
		return;
	if (n < VREPORT_MAX_LINES) {
		vreport_print(p->report, p->path, f);
		if (p->where)
			p->where(p->where_arg, p->report, f->offset);
	} else if (n == VREPORT_MAX_LINES)
		vreport_print_cap(p->report, p->path);
}

/* Check the len bytes of buf read at target offset off. Returns 1 when
 * the scan must stop (a failure with stop_at_first), 0 or -errno. */
static int check_chunk(const struct vscan *p, const uint8_t *buf, uint64_t off,
		       uint64_t len, struct verify_counts *c,
		       struct ioc_err *err)
{
	uint64_t rel = 0;

	while (rel < len) {
		uint64_t pos = off + rel;
		uint32_t n = p->check
				 ? fixed_unit(pos, len - rel, p->unit)
				 : unit_at(buf + rel, pos, len - rel, p->unit);
		if (!n) { /* a partial unit at an edge of the range */
			uint64_t left = p->unit - pos % p->unit;
			rel += left < len - rel ? left : len - rel;
			c->unverified_units++;
			continue;
		}
		if (p->check) {
			int ret =
			    p->check(p->check_arg, buf + rel, n, pos, err);
			rel += n;
			if (ret)
				return ret;
			continue;
		}
		struct vexpect exp = {.offset = pos};
		if (p->expect) {
			int ret = p->expect(p->expect_arg, pos, &exp, err);
			if (ret)
				return ret;
		}
		struct vfailure f;
		enum vkind k = vunit_check(buf + rel, n, &exp, &f);
		vreport_count(c, k);
		if (p->extent && (k == VK_OK || k == VK_STALE) &&
		    f.found.extent > *p->extent)
			*p->extent = f.found.extent;
		rel += n;
		if (k == VK_OK || k == VK_UNVERIFIED)
			continue;
		report(p, &f);
		if (p->stop_at_first)
			return 1;
	}
	return 0;
}

int vscan_target(const struct vscan *p, struct verify_counts *c,
		 struct ioc_err *err)
{
	uint64_t pos = p->start, end = p->start + p->len;
	void *buf = NULL;
	int ret = 0, fd = p->read ? -1 : open_target(p->path, err);

	if (fd < 0 && !p->read)
		return fd;
	if (posix_memalign(&buf, SCAN_ALIGN, SCAN_CHUNK)) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	while (pos < end && ret == 0) {
		/* chunks end on 4096 boundaries, so no unit is cut in two */
		uint64_t stop = (pos + SCAN_CHUNK) / SCAN_ALIGN * SCAN_ALIGN;
		if (stop <= pos || stop > end)
			stop = end < pos + SCAN_CHUNK ? end : pos + SCAN_CHUNK;
		ret = p->read ? p->read(p->read_arg, buf, (size_t)(stop - pos),
					pos, err)
			      : read_full(fd, p->path, buf, (size_t)(stop - pos),
					  pos, err);
		if (!ret)
			ret = check_chunk(p, buf, pos, stop - pos, c, err);
		pos = stop;
	}
	if (ret > 0)
		ret = 0;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* sync.c - row-by-row VD maintenance (see sync.h). */
#define _GNU_SOURCE
#include "vd/sync.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vd/parity.h"

int vd_sync_open(struct vd_sync *s, const struct vd_def *def,
		 uint64_t member_bytes, bool write, struct ioc_err *err)
{
	memset(s, 0, sizeof(*s));
	s->def = def;
	vd_geom_init(&s->geom, def, member_bytes);
	for (unsigned i = 0; i < VD_MAX_MEMBERS; i++)
		s->fds[i] = -1;
	s->lost = def->failed_mask;
	if (posix_memalign((void **)&s->buf, 4096, (size_t)(def->nr_members + 2) * def->strip))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < def->nr_members; i++) {
		if (vd_member_failed(def, i))
			continue;
		s->fds[i] = open(def->members[i], (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (s->fds[i] < 0) {
			int e = errno;
			vd_sync_close(s);
			return err_set(err, e, "%s: cannot open: %s", def->members[i], strerror(e));
		}
	}
	return 0;
}

void vd_sync_close(struct vd_sync *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < VD_MAX_MEMBERS; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	for (unsigned i = 0; i < VD_MAX_MEMBERS; i++)
		s->fds[i] = -1;
	free(s->buf);
	s->buf = NULL;
}

uint64_t vd_sync_rows(const struct vd_sync *s)
{
	return vd_level_concat(s->geom.level) ? 0 : s->geom.rows;
}

static int io_all(bool wr, int fd, void *buf, uint64_t len, uint64_t off,
		  const char *path, struct ioc_err *err)
{
	uint64_t done = 0;
	while (done < len) {
		ssize_t r = wr ? pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done))
			       : pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return err_set(err, r < 0 ? errno : EIO, "%s: %s at %llu: %s", path,
				       wr ? "write" : "read", (unsigned long long)(off + done),
				       r < 0 ? strerror(errno) : "end of file");
		done += (uint64_t)r;
	}
	return 0;
}

/* Buffer of row index j (data 0..k-1, P, Q) in s->buf. */
static uint8_t *slot(struct vd_sync *s, unsigned j)
{
	return s->buf + (size_t)j * s->geom.strip;
}

static unsigned row_member(const struct vd_geom *g, uint64_t r, unsigned j)
{
	if (j < g->k)
		return vd_geom_data_member(g, r, j);
	return j == g->k ? vd_geom_p_member(g, r) : vd_geom_q_member(g, r);
}

static bool lost(const struct vd_sync *s, unsigned m)
{
	return (s->lost >> m) & 1;
}

/* Read the live row indexes of row r; the lost ones are rebuilt. */
static int read_row(struct vd_sync *s, uint64_t r, struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	int miss[2] = {-1, -1}, ret;
	for (unsigned j = 0; j < g->k + g->np; j++) {
		unsigned m = row_member(g, r, j);
		if (lost(s, m)) {
			if (miss[1] >= 0 || (miss[0] >= 0 && g->np < 2))
				return err_set(err, EIO, "row %llu: too many members lost",
					       (unsigned long long)r);
			miss[miss[0] < 0 ? 0 : 1] = (int)j;
			continue;
		}
		if ((ret = io_all(false, s->fds[m], slot(s, j), g->strip, r * g->strip,
				  s->def->members[m], err))) {
			err_prefix(err, "--vd member %u", m);
			return ret;
		}
	}
	void *bufs[VD_MAX_MEMBERS];
	for (unsigned j = 0; j < g->k + g->np; j++)
		bufs[j] = slot(s, j);
	if (parity_recover(g->k, g->np, bufs, miss[0], miss[1], g->strip))
		return err_set(err, EIO, "row %llu: cannot rebuild", (unsigned long long)r);
	return 0;
}

/* Mirrors: the copies of strip unit r; first is the first member. */
static void copies_of(const struct vd_geom *g, uint64_t r, unsigned *first,
		      unsigned *nr, uint64_t *moff)
{
	if (g->level == VD_RAID1) {
		*first = 0;
		*nr = g->n;
		*moff = r * g->strip;
	} else { /* raid10: unit r = row r / k, data index r % k */
		*first = vd_geom_data_member(g, r / g->k, (unsigned)(r % g->k));
		*nr = 2;
		*moff = (r / g->k) * g->strip;
	}
}

/* A live copy of mirror unit r into s->buf. */
static int read_mirror(struct vd_sync *s, uint64_t r, unsigned skip,
		       struct ioc_err *err)
{
	unsigned first, nr;
	uint64_t moff;
	copies_of(&s->geom, r, &first, &nr, &moff);
	for (unsigned c = 0; c < nr; c++) {
		unsigned m = first + c;
		if (!lost(s, m) && m != skip)
			return io_all(false, s->fds[m], s->buf, s->geom.strip, moff,
				      s->def->members[m], err);
	}
	return err_set(err, EIO, "strip %llu: no live copy", (unsigned long long)r);
}

int vd_sync_init_rows(struct vd_sync *s, uint64_t from, uint64_t to,
		      struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	int ret = 0;

	if (g->level == VD_RAID1 || g->level == VD_RAID10) {
		uint64_t mul = g->level == VD_RAID10 ? g->k : 1;
		for (uint64_t r = from * mul; r < to * mul && !ret; r++) {
			unsigned first, nr;
			uint64_t moff;
			copies_of(g, r, &first, &nr, &moff);
			if ((ret = read_mirror(s, r, UINT32_MAX, err)))
				break;
			for (unsigned c = 0; c < nr && !ret; c++)
				if (!lost(s, first + c))
					ret = io_all(true, s->fds[first + c], s->buf, g->strip, moff,
						     s->def->members[first + c], err);
		}
		return ret;
	}
	if (!g->np)
		return 0;
	for (uint64_t r = from; r < to && !ret; r++) {
		for (unsigned j = 0; j < g->k && !ret; j++) {
			unsigned m = row_member(g, r, j);
			/* a lost data strip of a new VD is taken as zeros: the
			 * parity written makes it read back as such */
			if (lost(s, m)) {
				memset(slot(s, j), 0, g->strip);
				continue;
			}
			ret = io_all(false, s->fds[m], slot(s, j), g->strip, r * g->strip,
				     s->def->members[m], err);
		}
		void *bufs[VD_MAX_MEMBERS];
		for (unsigned j = 0; j < g->k; j++)
			bufs[j] = slot(s, j);
		parity_gen(g->k, bufs, slot(s, g->k), g->np == 2 ? slot(s, g->k + 1) : NULL,
			   g->strip);
		for (unsigned j = g->k; j < g->k + g->np && !ret; j++) {
			unsigned m = row_member(g, r, j);
			if (!lost(s, m))
				ret = io_all(true, s->fds[m], slot(s, j), g->strip, r * g->strip,
					     s->def->members[m], err);
		}
	}
	return ret;
}

int vd_sync_scrub(struct vd_sync *s, uint64_t from, uint64_t to, uint64_t *bad,
		  struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	uint8_t *tmp = s->buf + (size_t)g->n * g->strip; /* two spare strips */
	int ret = 0;

	*bad = 0;
	if (g->level == VD_RAID1 || g->level == VD_RAID10) {
		uint64_t mul = g->level == VD_RAID10 ? g->k : 1;
		for (uint64_t r = from * mul; r < to * mul && !ret; r++) {
			unsigned first, nr;
			uint64_t moff;
			copies_of(g, r, &first, &nr, &moff);
			if ((ret = read_mirror(s, r, UINT32_MAX, err)))
				break;
			for (unsigned c = 1; c < nr && !ret; c++) {
				if (lost(s, first + c))
					continue;
				ret = io_all(false, s->fds[first + c], tmp, g->strip, moff,
					     s->def->members[first + c], err);
				if (!ret && memcmp(tmp, s->buf, g->strip)) {
					(*bad)++;
					break;
				}
			}
		}
		return ret;
	}
	if (!g->np)
		return 0;
	for (uint64_t r = from; r < to && !ret; r++) {
		if ((ret = read_row(s, r, err)))
			break;
		void *bufs[VD_MAX_MEMBERS];
		for (unsigned j = 0; j < g->k; j++)
			bufs[j] = slot(s, j);
		uint8_t *p = tmp, *q = tmp + g->strip;
		/* both spare strips sit after the row's k + np slots (n + 2 allocated) */
		parity_gen(g->k, bufs, p, g->np == 2 ? q : NULL, g->strip);
		if (memcmp(p, slot(s, g->k), g->strip) ||
		    (g->np == 2 && memcmp(q, slot(s, g->k + 1), g->strip)))
			(*bad)++;
	}
	return ret;
}

int vd_sync_rebuild_rows(struct vd_sync *s, unsigned m, int fd, uint64_t from,
			 uint64_t to, struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	uint64_t saved = s->lost;
	int ret = 0;

	s->lost |= 1ull << m;
	if (g->level == VD_RAID1 || g->level == VD_RAID10) {
		uint64_t mul = g->level == VD_RAID10 ? g->k : 1;
		for (uint64_t r = from * mul; r < to * mul && !ret; r++) {
			unsigned first, nr;
			uint64_t moff;
			copies_of(g, r, &first, &nr, &moff);
			if (m < first || m >= first + nr)
				continue;
			if (!(ret = read_mirror(s, r, m, err)))
				ret = io_all(true, fd, s->buf, g->strip, moff, "the rebuilt member", err);
		}
	} else if (g->np) {
		for (uint64_t r = from; r < to && !ret; r++) {
			unsigned j = 0;
			while (row_member(g, r, j) != m)
				j++;
			if (!(ret = read_row(s, r, err)))
				ret = io_all(true, fd, slot(s, j), g->strip, r * g->strip,
					     "the rebuilt member", err);
		}
	} else {
		ret = err_usage(err, EINVAL, "--vd: %s has no redundancy to rebuild from",
				vd_level_name(g->level));
	}
	s->lost = saved;
	return ret;
}

/* The member (first live copy) and member offset of the piece at off. */
static bool piece_home(const struct vd_sync *s, const struct vd_piece *p,
		       unsigned *member, uint64_t *moff)
{
	const struct vd_geom *g = &s->geom;

	if (vd_level_concat(g->level)) {
		*member = p->idx;
		*moff = p->in_strip;
		return !lost(s, *member);
	}
	*moff = p->row * g->strip + p->in_strip;
	*member = vd_geom_data_member(g, p->row, p->idx);
	if (g->level == VD_RAID1 || g->level == VD_RAID10) {
		unsigned nr = g->level == VD_RAID1 ? g->n : 2;
		for (unsigned c = 0; c < nr; c++)
			if (!lost(s, *member + c)) {
				*member += c;
				return true;
			}
		return false;
	}
	return !lost(s, *member);
}

bool vd_sync_locate(const struct vd_sync *s, uint64_t off, unsigned *member,
		    uint64_t *moff)
{
	struct vd_piece p;

	vd_geom_piece(&s->geom, off, 1, &p);
	return piece_home(s, &p, member, moff);
}

int vd_sync_read(struct vd_sync *s, void *buf, uint64_t off, uint64_t len,
		 struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	uint64_t done = 0;
	int ret = 0;

	if (off + len > g->capacity || off + len < off)
		return err_set(err, EINVAL, "VD read [%llu, +%llu) past its end (%llu bytes)",
			       (unsigned long long)off, (unsigned long long)len,
			       (unsigned long long)g->capacity);
	while (done < len && !ret) {
		struct vd_piece p;
		unsigned m;
		uint64_t moff;
		uint8_t *to = (uint8_t *)buf + done;

		vd_geom_piece(g, off + done, len - done, &p);
		if (piece_home(s, &p, &m, &moff)) {
			ret = io_all(false, s->fds[m], to, p.len, moff, s->def->members[m], err);
			if (ret)
				err_prefix(err, "--vd member %u", m);
		} else if (g->np && !(ret = read_row(s, p.row, err)))
			memcpy(to, slot(s, p.idx) + p.in_strip, p.len);
		else if (!g->np)
			ret = err_set(err, EIO, "VD offset %llu: member %u lost and no copy left",
				      (unsigned long long)(off + done), m);
		done += p.len;
	}
	return ret;
}

/* A parity row: read (lost strips rebuilt), overlay [in, in+len) of the
 * row's data bytes, recompute P/Q, write the live strips back. */
static int write_parity_row(struct vd_sync *s, uint64_t r, const uint8_t *src,
			    uint64_t in, uint64_t len, struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	int ret = read_row(s, r, err);
	for (uint64_t done = 0; !ret && done < len;) {
		uint64_t at = in + done, j = at / g->strip, o = at % g->strip;
		uint64_t n = g->strip - o < len - done ? g->strip - o : len - done;
		memcpy(slot(s, (unsigned)j) + o, src + done, n);
		done += n;
	}
	if (ret)
		return ret;
	void *bufs[VD_MAX_MEMBERS];
	for (unsigned j = 0; j < g->k; j++)
		bufs[j] = slot(s, j);
	parity_gen(g->k, bufs, slot(s, g->k), g->np == 2 ? slot(s, g->k + 1) : NULL, g->strip);
	for (unsigned j = 0; j < g->k + g->np && !ret; j++) {
		unsigned m = row_member(g, r, j);
		if (!lost(s, m))
			ret = io_all(true, s->fds[m], slot(s, j), g->strip, r * g->strip,
				     s->def->members[m], err);
	}
	return ret;
}

int vd_sync_write(struct vd_sync *s, const void *buf, uint64_t off, uint64_t len,
		  struct ioc_err *err)
{
	const struct vd_geom *g = &s->geom;
	const uint8_t *src = buf;
	int ret = 0;

	if (off + len > g->capacity || off + len < off)
		return err_set(err, EINVAL, "VD write [%llu, +%llu) past its end",
			       (unsigned long long)off, (unsigned long long)len);
	if (g->np) {
		uint64_t rb = (uint64_t)g->k * g->strip;
		for (uint64_t done = 0; done < len && !ret;) {
			uint64_t at = off + done, r = at / rb, in = at % rb;
			uint64_t n = rb - in < len - done ? rb - in : len - done;
			ret = write_parity_row(s, r, src + done, in, n, err);
			done += n;
		}
		return ret;
	}
	for (uint64_t done = 0; done < len && !ret;) {
		struct vd_piece p;
		unsigned m, copies;
		uint64_t moff;
		vd_geom_piece(g, off + done, len - done, &p);
		piece_home(s, &p, &m, &moff);
		m = vd_level_concat(g->level) ? p.idx : vd_geom_data_member(g, p.row, p.idx);
		copies = g->level == VD_RAID1 ? g->n : g->level == VD_RAID10 ? 2 : 1;
		for (unsigned c = 0; c < copies && !ret; c++)
			if (!lost(s, m + c))
				ret = io_all(true, s->fds[m + c], (void *)(src + done), p.len,
					     moff, s->def->members[m + c], err);
		done += p.len;
	}
	return ret;
}

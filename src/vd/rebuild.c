/* rebuild.c - the asynchronous, rate-controlled rebuilder (see rebuild.h).
 *
 * The member is rebuilt in chunks of consecutive rows (1 MiB of it, at
 * least one row): read the chunk's bytes from every live member (raid5/6;
 * mirrors: from one live copy), one I/O per member, rebuild the member's
 * strips, write them in one I/O. Up to `depth` chunks are in flight;
 * completions come back in any order, chunks retire in order.
 */
#define _GNU_SOURCE
#include "vd/rebuild.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/units.h"
#include "util/clock.h"
#include "vd/geom.h"
#include "vd/op.h"
#include "vd/parity.h"

enum chunk_state { CH_FREE, CH_READING, CH_WRITING, CH_DONE };

struct chunk {
	enum chunk_state state;
	uint64_t r0, nrows;
	unsigned pending;
	uint8_t *buf;             /* n slices of nrows strips, by member */
};

struct rb {
	const struct vd_rebuild_params *p;
	struct vd_geom g;
	struct io_uring ring;
	int fds[VD_MAX_MEMBERS];
	struct chunk *ch;         /* depth slots, a ring: head retires first */
	unsigned depth, head, used, inflight; /* used: chunks not yet retired */
	uint64_t chunk_rows, next_row, done_row;
	uint64_t busy_ns, busy_from, submitted;
	unsigned max_inflight;
	int error;
	unsigned err_member;
};

int vd_rebuild_rate_parse(const char *v, double *bytes, double *pct,
			  struct ioc_err *err)
{
	size_t n = strlen(v);
	*bytes = *pct = 0;
	if (n && v[n - 1] == '%') {
		char num[32];
		uint64_t x;
		if (n - 1 >= sizeof(num))
			return err_usage(err, EINVAL, "--rebuild_rate=%s: not a percentage", v);
		memcpy(num, v, n - 1);
		num[n - 1] = '\0';
		int ret = units_parse_uint("--rebuild_rate (%)", num, 1, 100, &x, err);
		*pct = (double)x;
		return ret;
	}
	char sz[32];
	if (n > 2 && strcmp(v + n - 2, "/s") == 0)
		n -= 2;
	if (n == 0 || n >= sizeof(sz))
		return err_usage(err, EINVAL, "--rebuild_rate=%s: give MB/s (e.g. 50m) or a %% (e.g. 30%%)", v);
	memcpy(sz, v, n);
	sz[n] = '\0';
	uint64_t b;
	int ret = units_parse_size("--rebuild_rate", sz, &b, err);
	if (!ret && b == 0)
		ret = err_usage(err, EINVAL, "--rebuild_rate=%s: must be more than 0", v);
	*bytes = (double)b;
	return ret;
}

/* O_DIRECT where the member takes it, else buffered (tmpfs). */
static int open_member(const char *path, bool write, bool *direct)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int fd = open(path, flags | O_DIRECT);
	if (fd >= 0)
		return fd;
	*direct = false;
	return open(path, flags);
}

static int rb_open(struct rb *b, struct vd_rebuild_result *r, struct ioc_err *err)
{
	const struct vd_def *def = b->p->def;
	r->direct = true;
	for (unsigned i = 0; i < def->nr_members; i++) {
		b->fds[i] = -1;
		if (vd_member_failed(def, i) && i != b->p->member)
			continue;
		b->fds[i] = open_member(def->members[i], i == b->p->member, &r->direct);
		if (b->fds[i] < 0)
			return err_set(err, errno, "%s: cannot open: %s", def->members[i],
				       strerror(errno));
	}
	if (!r->direct) /* one mode for all: buffered then */
		for (unsigned i = 0; i < def->nr_members; i++)
			if (b->fds[i] >= 0) {
				int fl = fcntl(b->fds[i], F_GETFL);
				fcntl(b->fds[i], F_SETFL, fl & ~O_DIRECT);
			}
	int ret = io_uring_queue_init(b->depth * (def->nr_members + 1), &b->ring, 0);
	if (ret < 0)
		return err_set(err, -ret, "rebuild: io_uring: %s", strerror(-ret));
	size_t slice = b->chunk_rows * b->g.strip;
	for (unsigned i = 0; i < b->depth; i++)
		if (posix_memalign((void **)&b->ch[i].buf, 4096, slice * b->g.n))
			return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static uint8_t *slice_of(struct rb *b, struct chunk *c, unsigned m)
{
	return c->buf + (size_t)m * c->nrows * b->g.strip;
}

static void queue_io(struct rb *b, struct chunk *c, unsigned m, bool write)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&b->ring);
	size_t len = c->nrows * b->g.strip;
	uint64_t off = c->r0 * b->g.strip;
	if (write)
		io_uring_prep_write(sqe, b->fds[m], slice_of(b, c, m), (unsigned)len, off);
	else
		io_uring_prep_read(sqe, b->fds[m], slice_of(b, c, m), (unsigned)len, off);
	io_uring_sqe_set_data64(sqe, ((uint64_t)(c - b->ch) << 8) | m);
	c->pending++;
}

/* The live member a mirror chunk copies from. */
static unsigned mirror_source(const struct rb *b)
{
	unsigned t = b->p->member;
	if (b->g.level == VD_RAID10)
		return t ^ 1u;
	for (unsigned m = 0; m < b->g.n; m++)
		if (m != t && !vd_member_failed(b->p->def, m))
			return m;
	return t;
}

static void start_chunk(struct rb *b, struct chunk *c)
{
	c->state = CH_READING;
	c->pending = 0;
	if (!b->g.np) {
		queue_io(b, c, mirror_source(b), false);
		return;
	}
	for (unsigned m = 0; m < b->g.n; m++)
		if (m != b->p->member)
			queue_io(b, c, m, false);
}

/* Reads done: the member's strips of every row, then its write. */
static int rebuild_chunk(struct rb *b, struct chunk *c)
{
	const struct vd_geom *g = &b->g;
	unsigned t = b->p->member;
	if (!g->np) {
		memcpy(slice_of(b, c, t), slice_of(b, c, mirror_source(b)), c->nrows * g->strip);
	} else {
		for (uint64_t i = 0; i < c->nrows; i++) {
			void *bufs[VD_MAX_MEMBERS];
			int miss = -1;
			uint64_t r = c->r0 + i;
			for (unsigned j = 0; j < g->k + g->np; j++) {
				unsigned m = vd_row_member(g, r, j);
				bufs[j] = slice_of(b, c, m) + i * g->strip;
				if (m == t)
					miss = (int)j;
			}
			if (parity_recover(g->k, g->np, bufs, miss, -1, g->strip))
				return -EIO;
		}
	}
	c->state = CH_WRITING;
	queue_io(b, c, t, true);
	return 0;
}

/* Chunks done at the head: move the cursor past them, unlock. */
static void retire(struct rb *b)
{
	while (b->ch[b->head].state == CH_DONE) {
		struct chunk *c = &b->ch[b->head];
		uint64_t r1 = c->r0 + c->nrows;
		b->done_row = r1;
		if (b->p->vd) {
			if (!b->error) /* never past rows that were not rebuilt */
				atomic_store_explicit(&b->p->vd->rebuild_cursor, r1,
						      memory_order_release);
			vd_unlock(b->p->vd, c->r0, r1 - 1, true);
		}
		c->state = CH_FREE;
		b->head = (b->head + 1) % b->depth;
		b->used--;
	}
}

static void busy_edge(struct rb *b, bool more, uint64_t now)
{
	if (more && b->inflight + 1 > b->max_inflight)
		b->max_inflight = b->inflight + 1;
	if (more && b->inflight++ == 0)
		b->busy_from = now;
	else if (!more && --b->inflight == 0)
		b->busy_ns += now - b->busy_from;
}

static void complete(struct rb *b, struct io_uring_cqe *cqe)
{
	uint64_t d = io_uring_cqe_get_data64(cqe);
	struct chunk *c = &b->ch[d >> 8];
	if (cqe->res != (int)(c->nrows * b->g.strip) && !b->error) {
		b->error = cqe->res < 0 ? cqe->res : -EIO;
		b->err_member = (unsigned)(d & 0xff);
	}
	if (--c->pending)
		return;
	if (c->state == CH_READING && !b->error) {
		b->error = rebuild_chunk(b, c);
		if (!b->error)
			return;
	}
	c->state = CH_DONE;
	busy_edge(b, false, clock_ns());
	retire(b);
}

/* ns to wait before the rate lets another chunk start (0: now). */
static uint64_t throttle(const struct rb *b, uint64_t now, uint64_t t0)
{
	const struct vd_rebuild_params *p = b->p;
	double el = (double)(now - t0);
	if (p->rate_bytes > 0) { /* the next chunk's bytes count from its start */
		double due = (double)(b->submitted + b->chunk_rows * b->g.strip) / p->rate_bytes * 1e9;
		return due > el ? (uint64_t)(due - el) : 0;
	}
	if (p->rate_pct > 0 && p->rate_pct < 100) {
		uint64_t busy = b->busy_ns + (b->inflight ? now - b->busy_from : 0);
		double due = (double)busy * 100.0 / p->rate_pct;
		return due > el ? (uint64_t)(due - el) : 0;
	}
	return 0;
}

/* Start chunks while there is room, the rate allows and the rows' locks
 * are free; returns the ns the rate wants us to wait (0: none). */
static uint64_t fill(struct rb *b, uint64_t t0)
{
	const struct vd_geom *g = &b->g;
	uint64_t wait = 0;
	if (b->p->stop && atomic_load_explicit(b->p->stop, memory_order_relaxed) && !b->error)
		b->error = -EINTR;
	while (b->used < b->depth && b->next_row < g->rows && !b->error) {
		uint64_t now = clock_ns();
		if ((wait = throttle(b, now, t0)))
			break;
		struct chunk *c = &b->ch[(b->head + b->used) % b->depth];
		uint64_t n = g->rows - b->next_row < b->chunk_rows ? g->rows - b->next_row
								    : b->chunk_rows;
		if (b->p->vd && !vd_lock_try(b->p->vd, b->next_row, b->next_row + n - 1, true))
			return 1000000; /* foreground holds a row: try again in 1 ms */
		b->used++;
		c->r0 = b->next_row;
		c->nrows = n;
		b->next_row += n;
		b->submitted += n * g->strip;
		busy_edge(b, true, now);
		start_chunk(b, c);
	}
	return wait;
}

static int rb_loop(struct rb *b, struct ioc_err *err)
{
	uint64_t t0 = clock_ns();
	while ((b->next_row < b->g.rows && !b->error) || b->used) {
		uint64_t wait = fill(b, t0);
		io_uring_submit(&b->ring);
		struct io_uring_cqe *cqe;
		int ret;
		if (b->inflight) {
			struct __kernel_timespec ts = {.tv_nsec = wait ? (long long)(wait % 1000000000) : 0,
						       .tv_sec = (long long)(wait / 1000000000)};
			ret = wait ? io_uring_wait_cqe_timeout(&b->ring, &cqe, &ts)
				   : io_uring_wait_cqe(&b->ring, &cqe);
		} else {
			usleep((useconds_t)(wait / 1000 + 1));
			continue;
		}
		if (ret == -ETIME || ret == -EINTR)
			continue;
		if (ret < 0)
			return err_set(err, -ret, "rebuild: io_uring: %s", strerror(-ret));
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&b->ring, head, cqe) {
			complete(b, cqe);
			seen++;
		}
		io_uring_cq_advance(&b->ring, seen);
	}
	if (b->error == -EINTR)
		return err_set(err, EINTR, "rebuild stopped at row %llu of %llu (member %u is good below it only)",
			       (unsigned long long)b->done_row, (unsigned long long)b->g.rows,
			       b->p->member);
	if (b->error)
		return err_set(err, -b->error, "rebuild: member %u (%s): %s", b->err_member,
			       b->p->def->members[b->err_member], strerror(-b->error));
	return 0;
}

static void rb_close(struct rb *b)
{
	if (b->ring.ring_fd > 0)
		io_uring_queue_exit(&b->ring);
	for (unsigned i = 0; i < b->p->def->nr_members; i++)
		if (b->fds[i] >= 0)
			close(b->fds[i]);
	for (unsigned i = 0; b->ch && i < b->depth; i++)
		free(b->ch[i].buf);
	free(b->ch);
}

int vd_rebuild_run(const struct vd_rebuild_params *p, struct vd_rebuild_result *r,
		   struct ioc_err *err)
{
	struct rb b = {.p = p, .depth = p->depth ? p->depth : 4};
	memset(r, 0, sizeof(*r));
	memset(b.fds, -1, sizeof(b.fds));
	vd_geom_init(&b.g, p->def, p->member_bytes);
	if (!b.g.rows || (!b.g.np && b.g.level != VD_RAID1 && b.g.level != VD_RAID10))
		return err_usage(err, EINVAL, "--vd: %s has no redundancy to rebuild from",
				 vd_level_name(b.g.level));
	b.chunk_rows = (1u << 20) / b.g.strip ? (1u << 20) / b.g.strip : 1;
	b.ch = calloc(b.depth, sizeof(*b.ch));
	int ret = b.ch ? rb_open(&b, r, err) : err_set(err, ENOMEM, "out of memory");
	r->start_ns = clock_ns();
	if (!ret)
		ret = rb_loop(&b, err);
	if (!ret && fdatasync(b.fds[p->member]) < 0)
		ret = err_set(err, errno, "%s: fdatasync: %s", p->def->members[p->member],
			      strerror(errno));
	r->end_ns = clock_ns();
	r->rows = b.done_row;
	r->busy_ns = b.busy_ns;
	r->max_inflight = b.max_inflight;
	r->bytes = b.done_row * b.g.strip;
	rb_close(&b);
	return ret;
}

/* blktrace.c - a blktrace binary file read into an iolog, as fio 3.33's
 * blktrace.c reads it (base/blktrace.h). */
#include "base/blktrace.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


struct bt_read {
	struct iolog *log;
	const struct iolog_replay_opts *o;
	const char *path;
	bool swap;
	uint64_t record, at;       /* the record being read, its byte offset */
	uint64_t last_time, due_ns;
	uint32_t cache_dev;        /* the last device looked up ... */
	int cache_file;            /* ... and its file; -1: none */
	int depth, this_depth[2];
	struct ioc_err *err;       /* = &own: a chunk's failure, kept */
	struct ioc_err own;
	int failed;                /* its -errno; 0: none */
	unsigned char pdu[65536];  /* a payload, skipped */
};

static uint32_t swap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

void blktrace_decode(const unsigned char *b, bool swap, struct blktrace_rec *r)
{
	memcpy(&r->magic, b, 4);
	memcpy(&r->sequence, b + 4, 4);
	memcpy(&r->time, b + 8, 8);
	memcpy(&r->sector, b + 16, 8);
	memcpy(&r->bytes, b + 24, 4);
	memcpy(&r->action, b + 28, 4);
	memcpy(&r->pid, b + 32, 4);
	memcpy(&r->device, b + 36, 4);
	memcpy(&r->cpu, b + 40, 4);
	memcpy(&r->error, b + 44, 2);
	memcpy(&r->pdu_len, b + 46, 2);
	if (!swap)
		return;
	r->magic = swap32(r->magic);
	r->sequence = swap32(r->sequence);
	r->time = __builtin_bswap64(r->time);
	r->sector = __builtin_bswap64(r->sector);
	r->bytes = swap32(r->bytes);
	r->action = swap32(r->action);
	r->pid = swap32(r->pid);
	r->device = swap32(r->device);
	r->cpu = swap32(r->cpu);
	r->error = __builtin_bswap16(r->error);
	r->pdu_len = __builtin_bswap16(r->pdu_len);
}

void blktrace_encode(const struct blktrace_rec *rec, bool swap,
		     unsigned char out[BLKTRACE_RECORD])
{
	struct blktrace_rec r = *rec;
	if (swap) { /* decode's swap is its own inverse */
		unsigned char tmp[BLKTRACE_RECORD];
		blktrace_encode(rec, false, tmp);
		blktrace_decode(tmp, true, &r);
	}
	memcpy(out, &r.magic, 4);
	memcpy(out + 4, &r.sequence, 4);
	memcpy(out + 8, &r.time, 8);
	memcpy(out + 16, &r.sector, 8);
	memcpy(out + 24, &r.bytes, 4);
	memcpy(out + 28, &r.action, 4);
	memcpy(out + 32, &r.pid, 4);
	memcpy(out + 36, &r.device, 4);
	memcpy(out + 40, &r.cpu, 4);
	memcpy(out + 44, &r.error, 2);
	memcpy(out + 46, &r.pdu_len, 2);
}

bool blktrace_is(FILE *f, bool *swap)
{
	unsigned char b[4];
	uint32_t m;
	size_t n = fread(b, 1, 4, f);
	rewind(f);
	if (n != 4)
		return false;
	memcpy(&m, b, 4);
	*swap = (m & 0xffffff00u) != BLKTRACE_MAGIC;
	return !*swap || (swap32(m) & 0xffffff00u) == BLKTRACE_MAGIC;
}

/* Refuse the trace at the current record (reading stops). */
static int bad(struct bt_read *r, const char *what)
{
	return err_usage(r->err, EINVAL, "%s: record %llu (byte %llu): %s", r->path,
			 (unsigned long long)r->record, (unsigned long long)r->at, what);
}

/* The file of device dev: replay_redirect, else /dev's block device of
 * its major:minor (fio's blktrace_lookup_device), through sysfs. */
static int device_file(struct bt_read *r, uint32_t dev, int *file)
{
	if (r->cache_file >= 0 && r->cache_dev == dev) {
		*file = r->cache_file;
		return 0;
	}
	char name[300] = "", path[128], line[300];
	if (r->o->redirect && r->o->redirect[0])
		snprintf(name, sizeof(name), "%s", r->o->redirect);
	else {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", dev >> 20,
			 dev & ((1u << 20) - 1));
		FILE *u = fopen(path, "r");
		while (u && fgets(line, sizeof(line), u))
			if (!strncmp(line, "DEVNAME=", 8) && strcspn(line + 8, "\n") < 256)
				snprintf(name, sizeof(name), "/dev/%.*s",
					 (int)strcspn(line + 8, "\n"), line + 8);
		if (u)
			fclose(u);
	}
	if (!name[0]) {
		char why[160];
		snprintf(why, sizeof(why), "device %u:%u is no block device here "
			 "(replay_redirect= sends the trace to a file)", dev >> 20,
			 dev & ((1u << 20) - 1));
		return bad(r, why);
	}
	int at = iolog_add_file(r->log, name);
	if (at == -E2BIG)
		return bad(r, "more than 256 devices");
	if (at < 0)
		return err_set(r->err, ENOMEM, "out of memory");
	r->cache_dev = dev;
	r->cache_file = *file = at;
	return 0;
}

/* fio's delay_since_ttime over the records' ns times. */
static void advance(struct bt_read *r, uint64_t t)
{
	uint64_t last = r->last_time;
	r->last_time = t;
	if (!last || r->o->no_stall || t < last)
		return;
	r->due_ns = iolog_due_add(r->due_ns, (t - last) / 1000, r->o->time_scale);
}

/* fio's depth probe: queued less merged, the most before a completion. */
static void depth_note(struct bt_read *r, const struct blktrace_rec *t)
{
	int d = t->action & BLKTRACE_ACT(BLKTRACE_TC_READ) ? 0 :
		t->action & BLKTRACE_ACT(BLKTRACE_TC_WRITE) ? 1 : -1;
	unsigned a = t->action & 0xffff;
	if (d < 0)
		return;
	if (a == BLKTRACE_TA_QUEUE)
		r->this_depth[d]++;
	else if (a == BLKTRACE_TA_BACKMERGE || a == BLKTRACE_TA_FRONTMERGE)
		r->this_depth[d]--;
	else if (a == BLKTRACE_TA_COMPLETE) {
		if (r->this_depth[d] > r->depth)
			r->depth = r->this_depth[d];
		r->this_depth[d] = 0;
	}
}

/* A queue event: the I/O (or flush) it is. */
static int queue_event(struct bt_read *r, struct blktrace_rec *t)
{
	advance(r, t->time);
	uint64_t align = r->o->align;
	uint64_t bytes = align ? (t->bytes + align - 1) & ~(align - 1) : t->bytes;
	bool discard = t->action & BLKTRACE_ACT(BLKTRACE_TC_DISCARD);
	bool flush = !discard && (t->action & BLKTRACE_ACT(BLKTRACE_TC_FLUSH));
	enum iolog_op op = flush ? IOLOG_SYNC : discard ? IOLOG_TRIM :
			   t->action & BLKTRACE_ACT(BLKTRACE_TC_WRITE) ? IOLOG_WRITE : IOLOG_READ;
	if (r->o->skip & (1u << op))
		return 0; /* replay_skip (fio's, before the zero-byte check) */
	if (!flush && !bytes)
		return 0; /* fio: a zero-byte trace is ignored */
	struct iolog_entry e = {.due_ns = r->due_ns, .op = op};
	int file = 0, ret = device_file(r, t->device, &file);
	if (ret)
		return ret;
	e.file = (unsigned)file;
	if (!flush) {
		if (t->sector > UINT64_MAX / 1024)
			return bad(r, "sector past the largest offset");
		e.offset = t->sector * 512;
		if (r->o->scale > 1)
			e.offset /= r->o->scale;
		if (align)
			e.offset &= ~(align - 1);
		e.len = bytes;
	}
	return iolog_push(r->log, &e) ? err_set(r->err, ENOMEM, "out of memory") : 0;
}

/* One record (its payload skipped). 1 at the end, 0, or -errno. */
static int read_record(struct bt_read *r, FILE *f, unsigned char *pdu)
{
	unsigned char b[BLKTRACE_RECORD];
	struct blktrace_rec t;
	size_t n = fread(b, 1, sizeof(b), f);
	if (n == 0 && feof(f))
		return 1;
	if (n != sizeof(b))
		return ferror(f) ? err_set(r->err, EIO, "%s: read error", r->path)
				 : bad(r, "truncated record");
	blktrace_decode(b, r->swap, &t);
	if ((t.magic & 0xffffff00u) != BLKTRACE_MAGIC)
		return bad(r, "bad magic: not a blktrace record");
	if ((t.magic & 0xff) != BLKTRACE_VERSION)
		return bad(r, "blktrace version is not 7");
	if (t.pdu_len && fread(pdu, 1, t.pdu_len, f) != t.pdu_len)
		return bad(r, "truncated payload");
	if (t.action & BLKTRACE_ACT(BLKTRACE_TC_NOTIFY))
		return 0;
	depth_note(r, &t);
	return (t.action & 0xffff) == BLKTRACE_TA_QUEUE ? queue_event(r, &t) : 0;
}

struct bt_read *blktrace_begin(struct iolog *log, const char *path,
			       const struct iolog_replay_opts *o, bool swap)
{
	struct bt_read *r = malloc(sizeof(*r));
	if (!r)
		return NULL;
	memset(r, 0, offsetof(struct bt_read, pdu));
	r->log = log;
	r->o = o;
	r->path = path;
	r->swap = swap;
	r->cache_file = -1;
	r->err = &r->own;
	return r;
}

int blktrace_more(struct bt_read *r, FILE *f, size_t max)
{
	int ret = r->failed;
	while (!ret && r->log->nr < max) {
		long pos = ftell(f);
		r->at = pos > 0 ? (uint64_t)pos : 0;
		ret = read_record(r, f, r->pdu);
		r->record++;
	}
	if (ret < 0)
		r->failed = ret;
	return ret;
}

int blktrace_error(const struct bt_read *r, struct ioc_err *err)
{
	if (err)
		*err = r->own;
	return r->failed;
}

int blktrace_end(struct bt_read *r, size_t total, struct ioc_err *err)
{
	if (!total)
		return err_usage(err, EINVAL, "%s: no I/O in the block trace", r->path);
	r->log->version = 0;
	r->log->depth = r->depth > 1024 ? 1024 : r->depth ? (unsigned)r->depth : 1;
	return 0;
}

void blktrace_done(struct bt_read *r)
{
	free(r);
}

int blktrace_read(struct iolog *log, FILE *f, const char *path,
		  const struct iolog_replay_opts *o, bool swap, struct ioc_err *err)
{
	memset(log, 0, sizeof(*log));
	struct bt_read *r = blktrace_begin(log, path, o, swap);
	int ret = r ? blktrace_more(r, f, SIZE_MAX) : err_set(err, ENOMEM, "out of memory");
	if (ret < 0 && r)
		blktrace_error(r, err);
	if (ret == 1)
		ret = blktrace_end(r, log->nr, err);
	blktrace_done(r);
	if (ret)
		iolog_free(log);
	return ret;
}

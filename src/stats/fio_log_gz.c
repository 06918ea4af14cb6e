/* fio_log_gz.c - a fio log kept compressed (log_store_compressed): the
 * samples in fio 3.33's binary form (its struct io_sample: u64 time in
 * ms, u64 value, u32 direction with flags, u16 priority, 2 bytes of
 * padding, u64 bs, and with log_offset a u64 offset), little-endian,
 * deflated as zlib streams of at most chunk bytes of samples each, back
 * to back, into PATH.fz: what fio writes and fio --inflate-log (and
 * iochar's) reads. fio_log_write_gz is declared in fio_log.h. */
#include "stats/fio_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LOG_OFFSET_BIT 0x80000000u /* fio's LOG_OFFSET_SAMPLE_BIT */
#define LOG_PRIO_BIT   0x40000000u /* fio's LOG_PRIO_SAMPLE_BIT */

static void put_le(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* Sample s as fio keeps it in memory; its size (32, or 40 with offsets). */
static size_t pack(const struct fio_logs *l, const struct fio_log_sample *s, unsigned char *p)
{
	uint32_t dir = s->dir | (l->log_offset ? LOG_OFFSET_BIT : 0) |
		       (l->log_prio ? LOG_PRIO_BIT : 0);
	memset(p, 0, l->log_offset ? 40 : 32); /* the padding too */
	put_le(p, s->t_ms, 8);
	put_le(p + 8, s->val, 8);
	put_le(p + 16, dir, 4);
	put_le(p + 20, s->prio, 2);
	put_le(p + 24, s->bs, 8);
	if (!l->log_offset)
		return 32;
	put_le(p + 32, s->off, 8);
	return 40;
}

/* Deflate raw[0..len) as one zlib stream onto f. 0 or -EIO/-ENOMEM. */
static int put_stream(FILE *f, const unsigned char *raw, size_t len)
{
	uLongf out_len = compressBound((uLong)len);
	unsigned char *out = malloc(out_len);
	int ret = 0;

	if (!out)
		return -ENOMEM;
	if (compress2(out, &out_len, raw, (uLong)len, Z_DEFAULT_COMPRESSION) != Z_OK)
		ret = -ENOMEM;
	else if (fwrite(out, 1, out_len, f) != out_len)
		ret = -EIO;
	free(out);
	return ret;
}

/* The samples, chunk bytes of them (whole samples) per stream. */
static int put_samples(FILE *f, const struct fio_logs *l, const struct fio_log *g,
		       uint64_t chunk)
{
	size_t per = l->log_offset ? 40 : 32;
	size_t n = chunk ? (size_t)(chunk / per) : g->nr;
	unsigned char *raw = malloc((n ? n : 1) * per);
	int ret = 0;

	if (!raw)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr && !ret; i += n ? n : 1) {
		size_t k = 0, len = 0;
		for (; k < (n ? n : 1) && i + k < g->nr; k++)
			len += pack(l, &g->s[i + k], raw + len);
		ret = put_stream(f, raw, len);
	}
	free(raw);
	return ret;
}

int fio_log_write_gz(const struct fio_logs *l, const struct fio_log *g, uint64_t chunk,
		     struct ioc_err *err)
{
	char path[sizeof(g->path) + 4];
	snprintf(path, sizeof(path), "%s.fz", g->path);
	FILE *f = fopen(path, l->append ? "ab" : "wb");

	if (!f)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	int ret = put_samples(f, l, g, chunk);
	bool bad = ferror(f);
	if (fclose(f) || bad || ret == -EIO)
		return err_set(err, EIO, "%s: write failed", path);
	if (ret)
		return err_set(err, -ret, "%s: out of memory", path);
	return 0;
}

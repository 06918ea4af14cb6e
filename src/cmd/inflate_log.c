/* inflate_log.c - fio's --inflate-log, for logs fio compressed.
 *
 * fio 3.33 stores a compressed log as zlib streams, one per chunk,
 * back to back, of its in-memory samples (struct io_sample, stat.h):
 * u64 time (msec), u64 value, u32 dir with flags, u16 priority, 2 bytes
 * of padding, u64 bs; with the offset flag a u64 offset follows (40
 * bytes, else 32). iochar writes its own the same way
 * (stats/fio_log_gz.h).
 */
#include "cmd/inflate_log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LOG_OFFSET_BIT 0x80000000u /* fio's LOG_OFFSET_SAMPLE_BIT */
#define LOG_PRIO_BIT   0x40000000u /* fio's LOG_PRIO_SAMPLE_BIT */
#define CHUNK	       (64u * 1024u)

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Print the samples in buf[0..len): how many bytes were whole samples. */
static size_t print_samples(const unsigned char *buf, size_t len, FILE *out)
{
	size_t at = 0;

	while (len - at >= 32) {
		const unsigned char *s = buf + at;
		uint32_t ddir = (uint32_t)le64(s + 16);
		unsigned prio = (unsigned)(s[20] | s[21] << 8);
		bool off = ddir & LOG_OFFSET_BIT;

		if (off && len - at < 40)
			break;
		fprintf(out, "%llu, %lld, %u, %llu, ", (unsigned long long)le64(s),
			(long long)le64(s + 8),
			ddir & ~(LOG_OFFSET_BIT | LOG_PRIO_BIT),
			(unsigned long long)le64(s + 24));
		if (off)
			fprintf(out, "%llu, ", (unsigned long long)le64(s + 32));
		/* fio: the priority value with log_prio, else whether its
		 * class is real-time (ioprio class 1, bits 13 up) */
		if (ddir & LOG_PRIO_BIT)
			fprintf(out, "0x%04x\n", prio);
		else
			fprintf(out, "%u\n", (prio >> 13) == 1);
		at += off ? 40 : 32;
	}
	return at;
}

/* Inflate in (len bytes) stream after stream into a growing buffer,
 * printing whole samples as they come. 0, or a zlib error. */
static int inflate_all(const unsigned char *in, size_t len, FILE *out)
{
	unsigned char *buf = malloc(CHUNK * 2);
	size_t have = 0;
	z_stream z = {0};
	int ret = buf ? inflateInit(&z) : Z_MEM_ERROR;

	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	while (ret == Z_OK && z.avail_in) {
		z.next_out = buf + have;
		z.avail_out = CHUNK * 2 - (uInt)have;
		ret = inflate(&z, Z_NO_FLUSH);
		have = CHUNK * 2 - z.avail_out;
		size_t used = print_samples(buf, have, out);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (ret == Z_STREAM_END) /* fio's next chunk: a new stream */
			ret = inflateReset(&z);
		else if (ret == Z_OK && !z.avail_in)
			ret = Z_DATA_ERROR; /* the input ends mid-stream */
	}
	if (buf)
		inflateEnd(&z);
	free(buf);
	return ret == Z_OK && have ? Z_DATA_ERROR : ret == Z_OK ? 0 : ret;
}

int inflate_log_run(const char *path, FILE *out, FILE *errf)
{
	FILE *f = fopen(path, "re");
	unsigned char *in = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	if (!f) {
		fprintf(errf, "iochar: --inflate-log=%s: %s\n", path, strerror(errno));
		return 2;
	}
	do {
		if (len == cap) {
			unsigned char *g = realloc(in, cap = cap ? cap * 2 : CHUNK);
			if (!g) {
				free(in);
				fclose(f);
				fprintf(errf, "iochar: --inflate-log=%s: out of memory\n", path);
				return 1;
			}
			in = g;
		}
		n = fread(in + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	ret = inflate_all(in, len, out);
	free(in);
	if (ret) {
		fprintf(errf, "iochar: --inflate-log=%s: not a log fio compressed "
			      "(zlib: %s)\n", path, zError(ret));
		return 2;
	}
	return 0;
}

/* trace_sum.c - see trace_sum.h. */
#define _GNU_SOURCE
#include "app/trace_sum.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/blktrace.h"

struct size_count {
	uint64_t bytes, n;
};

static int by_count(const void *a, const void *b)
{
	const struct size_count *x = a, *y = b;
	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* Count the sizes of log's data I/Os into s->sizes (the most frequent). */
static void size_mix(const struct iolog *log, struct app_trace_sum *s, uint64_t data_ios)
{
	struct size_count *c = calloc(log->nr ? log->nr : 1, sizeof(*c));
	size_t nc = 0;

	if (!c)
		return;
	for (size_t i = 0; i < log->nr; i++) {
		if (log->e[i].op > IOLOG_WRITE)
			continue;
		size_t k = 0;
		while (k < nc && c[k].bytes != log->e[i].len)
			k++;
		if (k == nc)
			c[nc++].bytes = log->e[i].len;
		c[k].n++;
	}
	qsort(c, nc, sizeof(*c), by_count);
	for (size_t k = 0; k < nc && s->nsizes < 8; k++) {
		s->sizes[s->nsizes].bytes = c[k].bytes;
		s->sizes[s->nsizes++].share = (double)c[k].n / (double)data_ios;
	}
	free(c);
}

int app_trace_summary(const char *path, struct app_trace_sum *s, struct ioc_err *err)
{
	struct iolog_replay_opts o = {.redirect = path, .time_scale = 100};
	struct iolog log = {0};
	struct stat st;
	uint64_t reads = 0, data = 0;
	bool swap;
	FILE *f;

	*s = (struct app_trace_sum){0};
	if (stat(path, &st) == 0 && st.st_size == 0)
		return 0;
	if (!(f = fopen(path, "rb")))
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	int ret = blktrace_is(f, &swap) ? blktrace_read(&log, f, path, &o, swap, err)
					: err_set(err, EIO, "%s: no block trace", path);
	fclose(f);
	if (ret)
		return ret;
	for (size_t i = 0; i < log.nr; i++) {
		if (log.e[i].op > IOLOG_WRITE)
			continue;
		data++;
		reads += log.e[i].op == IOLOG_READ;
		s->bytes += log.e[i].len;
	}
	s->ios = data;
	s->read_share = data ? (double)reads / (double)data : 0.0;
	if (data)
		size_mix(&log, s, data);
	iolog_free(&log);
	return 0;
}

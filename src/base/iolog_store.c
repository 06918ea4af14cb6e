/* iolog_store.c - an iolog in memory (see iolog_store.h). */
#include "base/iolog_store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/job.h"

void iolog_free(struct iolog *log)
{
	if (!log)
		return;
	for (unsigned i = 0; i < log->nr_files; i++)
		free(log->files[i]);
	free(log->files);
	free(log->extent);
	free(log->e);
	memset(log, 0, sizeof(*log));
}

int iolog_file_index(const struct iolog *log, const char *name)
{
	for (unsigned i = 0; i < log->nr_files; i++)
		if (!strcmp(log->files[i], name))
			return (int)i;
	return -1;
}

int iolog_add_file(struct iolog *log, const char *name)
{
	int at = iolog_file_index(log, name);
	if (at >= 0)
		return at;
	if (log->nr_files == JOB_MAX_FILES)
		return -E2BIG;
	char **f = realloc(log->files, (log->nr_files + 1) * sizeof(*f));
	if (f)
		log->files = f;
	uint64_t *x = f ? realloc(log->extent, (log->nr_files + 1) * sizeof(*x)) : NULL;
	if (x)
		log->extent = x;
	char *copy = x ? strdup(name) : NULL;
	if (!copy)
		return -ENOMEM;
	log->extent[log->nr_files] = 0;
	log->files[log->nr_files++] = copy;
	return (int)log->nr_files - 1;
}

int iolog_push(struct iolog *log, const struct iolog_entry *e)
{
	if (log->nr == log->cap) {
		size_t cap = log->cap ? 2 * log->cap : 256;
		struct iolog_entry *g = realloc(log->e, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		log->e = g;
		log->cap = cap;
	}
	log->e[log->nr++] = *e;
	if (e->due_ns)
		log->timed = true;
	if (e->offset + e->len > log->extent[e->file])
		log->extent[e->file] = e->offset + e->len;
	return 0;
}

uint64_t iolog_due_add(uint64_t due_ns, uint64_t gap_us, unsigned time_scale)
{
	double d = (double)gap_us * 1000.0 * 100.0 / (double)(time_scale ? time_scale : 100);
	double room = due_ns < IOLOG_DUE_MAX ? (double)(IOLOG_DUE_MAX - due_ns) : 0;
	return d >= room ? IOLOG_DUE_MAX : due_ns + (uint64_t)d;
}

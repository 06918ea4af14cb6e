/* note.c - see note.h. */
#include "util/note.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define NOTE_SEEN_MAX 256

static pthread_mutex_t note_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t note_seen[NOTE_SEEN_MAX]; /* FNV-1a of each printed message */
static unsigned note_nr_seen;

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

bool note_once(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	bool print = true;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	uint64_t h = fnv1a(msg);
	pthread_mutex_lock(&note_lock);
	for (unsigned i = 0; i < note_nr_seen && print; i++)
		print = note_seen[i] != h;
	if (print && note_nr_seen < NOTE_SEEN_MAX)
		note_seen[note_nr_seen++] = h;
	if (print)
		fprintf(stderr, "note: %s\n", msg);
	pthread_mutex_unlock(&note_lock);
	return print;
}

/* note.c - see note.h. */
#define _GNU_SOURCE /* vasprintf */
#include "util/note.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kept {
	uint64_t hash; /* FNV-1a of msg: most repeats are told apart by it */
	char *msg;
};

static pthread_mutex_t note_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kept *kept;  /* in the order given */
static unsigned nr_kept, room;
static unsigned long long nr_over; /* past NOTE_KEEP_MAX (or memory) */
static bool shown = true;

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static bool seen(const char *msg, uint64_t h)
{
	for (unsigned i = 0; i < nr_kept; i++)
		if (kept[i].hash == h && !strcmp(kept[i].msg, msg))
			return true;
	return false;
}

/* Keep msg; false when it cannot be (full, or out of memory): counted. */
static bool keep(const char *msg, uint64_t h)
{
	char *copy = NULL;

	if (nr_kept == room && room < NOTE_KEEP_MAX) {
		unsigned n = room ? room * 2 : 16;
		if (n > NOTE_KEEP_MAX)
			n = NOTE_KEEP_MAX;
		struct kept *grown = realloc(kept, n * sizeof(*kept));
		if (grown) {
			kept = grown;
			room = n;
		}
	}
	if (nr_kept < room)
		copy = strdup(msg);
	if (!copy) {
		nr_over++;
		return false;
	}
	kept[nr_kept++] = (struct kept){.hash = h, .msg = copy};
	return true;
}

/* Keep msg unless given before; print it after prefix when print. */
static bool say(const char *prefix, bool print, const char *fmt, va_list ap)
{
	char *msg = NULL;
	bool fresh;

	/* whole, however long: a run's differences from fio are one line */
	if (vasprintf(&msg, fmt, ap) < 0) { /* out of memory: counted */
		pthread_mutex_lock(&note_lock);
		nr_over++;
		pthread_mutex_unlock(&note_lock);
		return true;
	}
	uint64_t h = fnv1a(msg);
	pthread_mutex_lock(&note_lock);
	fresh = !seen(msg, h);
	if (fresh)
		keep(msg, h); /* not kept: still said, as before the table filled */
	if (fresh && print && shown)
		fprintf(stderr, "%s%s\n", prefix, msg);
	pthread_mutex_unlock(&note_lock);
	free(msg);
	return fresh;
}

bool note_once(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bool fresh = say("note: ", true, fmt, ap);
	va_end(ap);
	return fresh;
}

bool note_once_as(const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bool fresh = say(prefix, true, fmt, ap);
	va_end(ap);
	return fresh;
}

bool note_keep(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bool fresh = say("", false, fmt, ap);
	va_end(ap);
	return fresh;
}

void note_show(bool on)
{
	pthread_mutex_lock(&note_lock);
	shown = on;
	pthread_mutex_unlock(&note_lock);
}

bool note_shown(void)
{
	pthread_mutex_lock(&note_lock);
	bool on = shown;
	pthread_mutex_unlock(&note_lock);
	return on;
}

void note_free(char **notes, unsigned nr)
{
	for (unsigned i = 0; notes && i < nr; i++)
		free(notes[i]);
	free(notes);
}

int note_copy(char ***notes, unsigned *nr)
{
	int ret = 0;

	*notes = NULL;
	*nr = 0;
	pthread_mutex_lock(&note_lock);
	unsigned n = nr_kept + (nr_over ? 1 : 0);
	char **out = n ? calloc(n, sizeof(*out)) : NULL;
	if (n && !out)
		ret = -ENOMEM;
	for (unsigned i = 0; out && i < nr_kept && !ret; i++)
		if (!(out[i] = strdup(kept[i].msg)))
			ret = -ENOMEM;
	if (out && !ret && nr_over) {
		char last[96];
		snprintf(last, sizeof(last), "%llu more notes, not kept (at most %u are)",
			 nr_over, NOTE_KEEP_MAX);
		if (!(out[nr_kept] = strdup(last)))
			ret = -ENOMEM;
	}
	pthread_mutex_unlock(&note_lock);
	if (ret) {
		note_free(out, n);
		return ret;
	}
	*notes = out;
	*nr = n;
	return 0;
}

void note_reset(void)
{
	pthread_mutex_lock(&note_lock);
	for (unsigned i = 0; i < nr_kept; i++)
		free(kept[i].msg);
	free(kept);
	kept = NULL;
	nr_kept = room = 0;
	nr_over = 0;
	pthread_mutex_unlock(&note_lock);
}

/* test_note.c - note_once(): a note said once per process, whoever says
 * it and how often (a plan's runs each repeated the same "note:"), and a
 * different note still said; not shown (a harness's stderr), every note
 * still kept for the JSON. stderr goes to a file for the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/note.h"

#define THREADS 8

static int printed[THREADS];

static void *say_from_thread(void *arg)
{
	int *mine = arg;
	*mine = note_once("from a worker: %s", "same text");
	return NULL;
}

/* Run fn with stderr in a temporary file; returns what it wrote. */
static char *with_stderr_captured(void (*fn)(void))
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	assert_non_null(tmp);
	fflush(stderr);
	assert_int_equal(dup2(fileno(tmp), 2), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long n = ftell(tmp);
	char *s = calloc(1, (size_t)n + 1);
	rewind(tmp);
	assert_int_equal(fread(s, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return s;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void say_twice_and_other(void)
{
	assert_true(note_once("job %s: depth capped at %d", "a", 1));
	assert_false(note_once("job %s: depth capped at %d", "a", 1));
	assert_false(note_once("job a: depth capped at 1"));
	assert_true(
	    note_once("job %s: depth capped at %d", "b", 1)); /* another job */
}

static void test_once_per_message(void **state)
{
	(void)state;
	char *out = with_stderr_captured(say_twice_and_other);
	assert_string_equal(out, "note: job a: depth capped at 1\n"
				 "note: job b: depth capped at 1\n");
	free(out);
}

static void say_from_threads(void)
{
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(
		    pthread_create(&t[i], NULL, say_from_thread, &printed[i]),
		    0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
}

static void test_once_across_threads(void **state)
{
	(void)state;
	char *out = with_stderr_captured(say_from_threads);
	int total = 0;
	for (int i = 0; i < THREADS; i++)
		total += printed[i];
	assert_int_equal(total, 1);
	assert_string_equal(out, "note: from a worker: same text\n");
	free(out);
}

/* Past NOTE_KEEP_MAX every message is still printed: repeated at worst,
 * never lost; what was not kept is counted in note_copy's last entry. */
static void say_many(void)
{
	for (int i = 0; i < NOTE_KEEP_MAX + 10; i++)
		note_once("distinct note %d", i);
	note_once("distinct note %d", NOTE_KEEP_MAX + 9); /* not kept: said again */
	note_once("distinct note %d", 0);                 /* kept: not again */
}

static void test_never_lost(void **state)
{
	(void)state;
	note_reset();
	char *out = with_stderr_captured(say_many);
	for (int i = 0; i < NOTE_KEEP_MAX + 10; i++) {
		char want[64];
		snprintf(want, sizeof(want), "note: distinct note %d\n", i);
		assert_true(count(out, want) >= 1);
	}
	char last[64];
	snprintf(last, sizeof(last), "note: distinct note %d\n", NOTE_KEEP_MAX + 9);
	assert_int_equal(count(out, last), 2);
	assert_int_equal(count(out, "note: distinct note 0\n"), 1);
	free(out);

	char **notes;
	unsigned nr;
	assert_int_equal(note_copy(&notes, &nr), 0);
	assert_int_equal(nr, NOTE_KEEP_MAX + 1);
	assert_string_equal(notes[0], "distinct note 0");
	assert_string_equal(notes[NOTE_KEEP_MAX], "11 more notes, not kept (at most 4096 are)");
	note_free(notes, nr);
	note_reset();
}

/* Not shown (iochar run off a terminal): nothing on stderr, every note
 * kept in order, without the prefix stderr would have had. */
static void say_hidden(void)
{
	note_show(false);
	assert_true(note_once("job %s: capped", "a"));
	assert_true(note_once_as("iochar: ", "differs from fio here: %s", "thread"));
	assert_true(note_keep("wrote %s before the run", "/tmp/f"));
	assert_false(note_once("job a: capped"));
	note_show(true);
}

static void test_hidden_but_kept(void **state)
{
	(void)state;
	note_reset();
	char *out = with_stderr_captured(say_hidden);
	assert_string_equal(out, "");
	free(out);
	char **notes;
	unsigned nr;
	assert_int_equal(note_copy(&notes, &nr), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(notes[0], "job a: capped");
	assert_string_equal(notes[1], "differs from fio here: thread");
	assert_string_equal(notes[2], "wrote /tmp/f before the run");
	note_free(notes, nr);
	note_reset();
	assert_int_equal(note_copy(&notes, &nr), 0);
	assert_null(notes);
	assert_int_equal(nr, 0);
}

/* Shown: the prefix given, and note_keep still prints nothing. */
static void say_shown(void)
{
	note_once_as("iochar: ", "differs from fio here: %s", "thread");
	note_keep("wrote %s before the run", "/tmp/f");
}

static void test_shown_with_prefix(void **state)
{
	(void)state;
	note_reset();
	assert_true(note_shown());
	char *out = with_stderr_captured(say_shown);
	assert_string_equal(out, "iochar: differs from fio here: thread\n");
	free(out);
	note_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_once_per_message),
	    cmocka_unit_test(test_once_across_threads),
	    cmocka_unit_test(test_never_lost),
	    cmocka_unit_test(test_hidden_but_kept),
	    cmocka_unit_test(test_shown_with_prefix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

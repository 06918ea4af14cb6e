/* test_note.c - note_once(): a note said once per process, whoever says
 * it and how often (a plan's runs each repeated the same "note:"), and a
 * different note still said. stderr goes to a file for the test. */
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

/* Past the table's size every message is still printed: repeated at
 * worst, never lost. */
static void say_many(void)
{
	for (int i = 0; i < 300; i++)
		note_once("distinct note %d", i);
	note_once("distinct note %d", 299); /* beyond the table: said again */
}

static void test_never_lost(void **state)
{
	(void)state;
	char *out = with_stderr_captured(say_many);
	for (int i = 0; i < 300; i++) {
		char want[64];
		snprintf(want, sizeof(want), "note: distinct note %d\n", i);
		assert_true(count(out, want) >= 1);
	}
	assert_int_equal(count(out, "note: distinct note 299\n"), 2);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_once_per_message),
	    cmocka_unit_test(test_once_across_threads),
	    cmocka_unit_test(test_never_lost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

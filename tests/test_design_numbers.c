/* test_design_numbers.c - numbers the docs state about the code, checked
 * against the code so they stay current:
 * - docs/design.md's "N hooks over an opaque state: `a`, `b`, ..." names
 *   every function pointer of src/engine/engine.h's struct engine_ops, and
 *   N is their count (a word, "Eleven", or digits);
 * - src/stats/hist.h's "~N KiB" is sizeof(struct hist) in KiB, rounded.
 * The tree is found from the current directory, else from the test
 * binary (build/tests/ -> ../..). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_fixture.h" /* fixture_slurp */
#include "stats/hist.h"

#define MAX_HOOKS 32

static char top[PATH_MAX];

static int setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n;
	(void)state;

	if (access("src/engine/engine.h", R_OK) == 0)
		return getcwd(top, sizeof(top)) ? 0 : -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	snprintf(top, sizeof(top), "%s/../..", dirname(exe));
	return 0;
}

static char *slurp_rel(const char *rel)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", top, rel);
	char *s = fixture_slurp(path, NULL);
	if (!s)
		fail_msg("cannot read %s", path);
	return s;
}

/* s with every comment blanked, in place. */
static void blank_comments(char *s)
{
	for (char *p = strstr(s, "/*"); p; p = strstr(p, "/*")) {
		char *e = strstr(p + 2, "*/");
		char *end = e ? e + 2 : p + strlen(p);
		memset(p, ' ', (size_t)(end - p));
		p = end;
	}
}

/* Every run of white space in s made one space, in place. */
static void squeeze_spaces(char *s)
{
	char *o = s;
	for (const char *p = s; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (o > s && o[-1] == ' ')
				continue;
			*o++ = ' ';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

/* The function pointers' names of struct engine_ops, in order. */
static unsigned engine_hooks(char names[][32])
{
	char *text = slurp_rel("src/engine/engine.h");
	blank_comments(text);
	char *p = strstr(text, "struct engine_ops {");
	assert_non_null(p);
	char *end = strstr(p, "\n};");
	assert_non_null(end);
	unsigned n = 0;
	for (p = strstr(p, "(*"); p && p < end; p = strstr(p + 2, "(*")) {
		assert_true(n < MAX_HOOKS);
		assert_int_equal(sscanf(p + 2, "%31[a-z_0-9]", names[n]), 1);
		n++;
	}
	free(text);
	return n;
}

static const char *const words[] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
};

/* "Eleven" or "11" as a number; -1 if neither. */
static int number_word(const char *w)
{
	if (isdigit((unsigned char)w[0]))
		return atoi(w);
	for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(w, words[i]) == 0)
			return (int)i;
	return -1;
}

static void test_design_names_every_engine_hook(void **state)
{
	char hooks[MAX_HOOKS][32], word[32];
	(void)state;
	unsigned n = engine_hooks(hooks);
	assert_true(n >= 7); /* the parse found the struct's members */

	char *doc = slurp_rel("docs/design.md");
	squeeze_spaces(doc); /* the sentence may wrap anywhere */
	const char *key = " hooks over an opaque state:";
	char *at = strstr(doc, key);
	if (!at)
		fail_msg("docs/design.md: no \"N%s\" sentence", key);
	char *w = at;
	while (w > doc && !isspace((unsigned char)w[-1]))
		w--;
	snprintf(word, sizeof(word), "%.*s", (int)(at - w), w);
	if (number_word(word) != (int)n)
		fail_msg("docs/design.md says \"%s hooks\"; struct engine_ops in "
			 "src/engine/engine.h has %u function pointers",
			 word, n);
	/* the sentence ends at the first '.' before a space */
	char *end = at;
	while (*end && !(end[0] == '.' && isspace((unsigned char)end[1])))
		end++;
	*end = '\0';
	for (unsigned i = 0; i < n; i++) {
		char quoted[48];
		snprintf(quoted, sizeof(quoted), "`%.31s`", hooks[i]);
		if (!strstr(at, quoted))
			fail_msg("docs/design.md's engine hooks omit %s", quoted);
	}
	free(doc);
}

static void test_hist_size_stated(void **state)
{
	(void)state;
	char *h = slurp_rel("src/stats/hist.h");
	char *p = strstr(h, "KiB)");
	assert_non_null(p);
	while (p > h && p[-1] != '~')
		p--;
	unsigned kib = (unsigned)atoi(p);
	unsigned real = (unsigned)((sizeof(struct hist) + 512) / 1024);
	if (kib != real)
		fail_msg("src/stats/hist.h says ~%u KiB; sizeof(struct hist) is "
			 "%zu bytes, %u KiB",
			 kib, sizeof(struct hist), real);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_design_names_every_engine_hook),
		cmocka_unit_test(test_hist_size_stated),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

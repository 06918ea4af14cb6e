/* test_readme_options.c - README.md's option table is the one
 * options_readme_table writes (src/cli/options_readme.c): edited there,
 * its option names checked against the rows, half its defaults the rows'
 * own (a row's default changed changes the README's, and this test fails
 * until the README follows). On a difference the table as written is left
 * in /tmp/iochar-readme-options.md, to paste over the README's. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "harness.h"

#define GENERATED "/tmp/iochar-readme-options.md"

/* README.md from the current directory, else beside the test binary's
 * tree (build/tests/ -> ../../); malloc'd text or NULL. */
static char *read_readme(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	char *text = file_slurp("README.md", NULL);
	if (text)
		return text;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/../../README.md", dirname(exe));
	return file_slurp(path, NULL);
}

/* The lines starting with '|' after "### Options", up to the first that
 * does not: the table, each line with its newline. */
static char *options_table(const char *readme)
{
	const char *p = strstr(readme, "\n### Options\n");
	if (!p)
		return NULL;
	p = strstr(p, "\n|");
	if (!p)
		return NULL;
	const char *start = ++p;
	while (*p == '|') {
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	return strndup(start, (size_t)(p - start));
}

static void test_readme_table_is_generated(void **state)
{
	(void)state;
	char *gen = NULL, *readme = read_readme();
	size_t len = 0;
	struct ioc_err err = {0};

	if (!readme) {
		printf("SKIP: README.md not found from here nor beside the test binary\n");
		skip();
	}
	FILE *f = open_memstream(&gen, &len);
	assert_non_null(f);
	if (options_readme_table(f, &err))
		fail_msg("%s", err.msg);
	fclose(f);
	char *table = options_table(readme);
	assert_non_null(table);
	assert_true(strlen(table) > 1000); /* the table was found */
	if (strcmp(table, gen)) {
		FILE *out = fopen(GENERATED, "w");
		if (out) {
			fputs(gen, out);
			fclose(out);
		}
		fail_msg("README.md's option table differs from options_readme_table's "
			 "(src/cli/options_readme.c); the generated one is in " GENERATED);
	}
	free(table);
	free(gen);
	free(readme);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readme_table_is_generated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_file_circles.c - include circles between the modules of one folder
 * of src/, none allowed (test_layers forbids them
 * between folders). A module is x.c with x.h (and x_int.h, x's private
 * header); module a depends on b when a file of a includes b's header. A
 * circle is a set of two or more modules that each reach the others: one
 * cannot be read, tested or changed without the rest. Each is printed with
 * its modules. A change that adds one fails. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

#define MAX_MODS 256

struct folder {
	char name[256];
	char mods[MAX_MODS][96];
	unsigned nr;
	bool dep[MAX_MODS][MAX_MODS]; /* after closure: reaches */
};


/* The module of file name ("plan_run.c" -> "plan_run", "search_int.h" ->
 * "search"), into mod. */
static void module_of(const char *name, char *mod, size_t len)
{
	snprintf(mod, len, "%s", name);
	char *dot = strrchr(mod, '.');
	if (dot)
		*dot = '\0';
	size_t n = strlen(mod);
	if (n > 4 && !strcmp(mod + n - 4, "_int"))
		mod[n - 4] = '\0';
}

static unsigned mod_index(struct folder *f, const char *mod)
{
	for (unsigned i = 0; i < f->nr; i++)
		if (!strcmp(f->mods[i], mod))
			return i;
	assert_true(f->nr < MAX_MODS);
	snprintf(f->mods[f->nr], sizeof(f->mods[0]), "%s", mod);
	return f->nr++;
}

/* text with its block and line comments blanked (an include in a comment
 * is not one). */
static void drop_comments(char *s)
{
	for (char *p = s; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");
			size_t n = e ? (size_t)(e + 2 - p) : strlen(p);
			memset(p, ' ', n);
			p += n - 1;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
			if (!*p)
				break;
		}
	}
}

/* The edges of file path (module from) to the modules of f it includes. */
static void read_includes(struct folder *f, const char *path, unsigned from)
{
	char *text = file_slurp(path, NULL);
	assert_non_null(text);
	drop_comments(text);
	size_t pre = strlen(f->name);
	for (char *p = text; (p = strstr(p, "#include \"")); p++) {
		char *inc = p + strlen("#include \"");
		char *q = strchr(inc, '"');
		if (!q || strncmp(inc, f->name, pre) || inc[pre] != '/')
			continue;
		char name[128], mod[96];
		snprintf(name, sizeof(name), "%.*s", (int)(q - inc - pre - 1), inc + pre + 1);
		module_of(name, mod, sizeof(mod));
		unsigned to = mod_index(f, mod);
		if (to != from)
			f->dep[from][to] = true;
	}
	free(text);
}

static void read_folder(struct folder *f, const char *src)
{
	char dir[PATH_MAX + 256];
	snprintf(dir, sizeof(dir), "%s/%s", src, f->name);
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		const char *dot = strrchr(e->d_name, '.');
		if (!dot || (strcmp(dot, ".c") && strcmp(dot, ".h") && strcmp(dot, ".inc")))
			continue;
		char mod[96], path[PATH_MAX + 512];
		module_of(e->d_name, mod, sizeof(mod));
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		read_includes(f, path, mod_index(f, mod));
	}
	closedir(d);
}

/* The circles of f (Warshall's closure, then each module's set of mutual
 * reach, first member only), printed; their number. */
static unsigned circles_in(struct folder *f)
{
	unsigned n = f->nr, found = 0;
	bool seen[MAX_MODS] = {false};

	for (unsigned k = 0; k < n; k++)
		for (unsigned a = 0; a < n; a++)
			for (unsigned b = 0; f->dep[a][k] && b < n; b++)
				f->dep[a][b] |= f->dep[k][b];
	for (unsigned a = 0; a < n; a++) {
		if (seen[a] || !f->dep[a][a])
			continue;
		found++;
		fprintf(stderr, "circle in src/%s/:", f->name);
		for (unsigned b = 0; b < n; b++)
			if (b == a || (f->dep[a][b] && f->dep[b][a])) {
				seen[b] = true;
				fprintf(stderr, " %s", f->mods[b]);
			}
		fputc('\n', stderr);
	}
	return found;
}

static void test_file_circles_held(void **state)
{
	(void)state;
	char src[PATH_MAX];
	unsigned total = 0, folders = 0;

	if (!test_src_dir(src, sizeof(src))) {
		printf("SKIP: src/ not found from here nor beside the test binary\n");
		skip();
	}
	DIR *d = opendir(src);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		struct folder *f = calloc(1, sizeof(*f));
		assert_non_null(f);
		snprintf(f->name, sizeof(f->name), "%s", e->d_name);
		read_folder(f, src);
		total += circles_in(f);
		folders++;
		free(f);
	}
	closedir(d);
	assert_true(folders > 10); /* the tree was read */
	fprintf(stderr, "%u file circle(s) inside folders\n", total);
	if (total)
		fail_msg("%u file circle(s) inside folders, listed above: none may be", total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_circles_held),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

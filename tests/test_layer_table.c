/* test_layer_table.c - every row of docs/design.md's layer table ("Layers:
 * who may include whom") holds for src/: each quoted include of a file of
 * src/F/ names F itself, a folder F's row allows, or a header it names.
 * test_layers.c checks the rules the table marks in bold, written in the
 * test; this one reads the table, so a row that is changed or added is
 * checked as written.
 *
 * A row is read from its second cell up to the first ';' or ':' (what
 * follows says why, and may name folders for other reasons):
 *   `x/`           folder x may be included
 *   `x/f.h`, `g.h` that header only (g.h in the folder of the last x/)
 *   `x/f.h` in `y/z.c`     that header, from that file only
 *   nothing of iochar's    no folder;  anything    every folder
 *   the same and ...       the row above's, and those named
 *   ... and below          those named and what each of them may include
 * A folder of src/ without a row fails, as a row the parser cannot read.
 * The tree is found from the current directory, else from the binary. */
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
#include <unistd.h>

#include "report_fixture.h" /* fixture_slurp */

#define MAX_ROWS  32
#define MAX_FILES 16
#define NAME_LEN  64

struct row {
	char folder[NAME_LEN];
	bool anything, below;
	char may[MAX_ROWS][NAME_LEN];   /* folders */
	unsigned nr_may;
	char files[MAX_FILES][NAME_LEN]; /* "report/results_read.h" */
	char only_in[MAX_FILES][NAME_LEN]; /* "net/mesh_run.c", or "" */
	unsigned nr_files;
};

static struct row rows[MAX_ROWS];
static unsigned nr_rows;
static char top[PATH_MAX];

static int setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n;
	(void)state;

	if (access("src/main.c", R_OK) == 0)
		return getcwd(top, sizeof(top)) ? 0 : -1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	snprintf(top, sizeof(top), "%s/../..", dirname(exe));
	return 0;
}

static struct row *row_of(const char *folder)
{
	for (unsigned i = 0; i < nr_rows; i++)
		if (strcmp(rows[i].folder, folder) == 0)
			return &rows[i];
	return NULL;
}

static void add_may(struct row *r, const char *folder)
{
	for (unsigned i = 0; i < r->nr_may; i++)
		if (strcmp(r->may[i], folder) == 0)
			return;
	assert_true(r->nr_may < MAX_ROWS);
	snprintf(r->may[r->nr_may++], NAME_LEN, "%s", folder);
}

/* The backticked tokens of s (up to end) into r: folders and headers. */
static void read_grants(struct row *r, const char *s, const char *end)
{
	char tok[NAME_LEN], last_dir[NAME_LEN] = "";

	for (const char *p = strchr(s, '`'); p && p < end;
	     p = strchr(p + 1, '`')) {
		const char *q = strchr(p + 1, '`');
		if (!q || q > end)
			break;
		snprintf(tok, sizeof(tok), "%.*s", (int)(q - p - 1), p + 1);
		size_t len = strlen(tok);
		char *slash = strchr(tok, '/');
		if (len > 1 && tok[len - 1] == '/' && slash == tok + len - 1) {
			tok[len - 1] = '\0';
			add_may(r, tok);
		} else if (len > 2 && strcmp(tok + len - 2, ".h") == 0) {
			assert_true(r->nr_files < MAX_FILES);
			if (slash) {
				snprintf(last_dir, sizeof(last_dir), "%.*s",
					 (int)(slash - tok), tok);
				const char *in = q + 1;
				if (strncmp(in, " in `", 5) == 0 &&
				    strchr(in + 5, '`'))
					snprintf(r->only_in[r->nr_files],
						 NAME_LEN, "%.*s",
						 (int)(strchr(in + 5, '`') -
						       (in + 5)),
						 in + 5);
				snprintf(r->files[r->nr_files++], NAME_LEN,
					 "%s", tok);
			} else if (last_dir[0]) {
				snprintf(r->files[r->nr_files++], NAME_LEN,
					 "%.31s/%.31s", last_dir, tok);
			}
		}
		p = q;
	}
}

/* One table line "| `a/`, `b/` | grants |" into rows (one per folder). */
static void read_row(const char *line, const char *eol)
{
	const char *c1 = line + 1, *bar = strchr(c1, '|');
	assert_true(bar && bar < eol);
	const char *grants = bar + 1;
	const char *end = grants;
	while (end < eol && *end != ';' && *end != ':')
		end++;
	struct row proto = {0};
	read_grants(&proto, grants, end);
	const char *same = strstr(grants, "the same and");
	if (same && same < end) {
		assert_true(nr_rows > 0);
		const struct row *up = &rows[nr_rows - 1];
		for (unsigned i = 0; i < up->nr_may; i++)
			add_may(&proto, up->may[i]);
	}
	const char *below = strstr(grants, "and below");
	proto.below = below && below < end;
	const char *any = strstr(grants, "anything");
	proto.anything = any && any < end;
	const char *none = strstr(grants, "nothing of iochar's");
	if (!proto.anything && !(none && none < end) && !proto.nr_may)
		fail_msg("layer table row not understood: %.*s",
			 (int)(eol - line), line);

	struct row names = {0};
	read_grants(&names, c1, bar);
	assert_true(names.nr_may > 0);
	for (unsigned i = 0; i < names.nr_may; i++) {
		assert_true(nr_rows < MAX_ROWS);
		rows[nr_rows] = proto;
		snprintf(rows[nr_rows].folder, NAME_LEN, "%s", names.may[i]);
		nr_rows++;
	}
}

static void read_table(void)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/docs/design.md", top);
	char *doc = fixture_slurp(path, NULL);
	assert_non_null(doc);
	char *p = strstr(doc, "## Layers: who may include whom");
	assert_non_null(p);
	p = strstr(p, "\n| folder | may include |");
	assert_non_null(p);
	p = strchr(p + 1, '\n') + 1; /* the header */
	p = strchr(p, '\n') + 1;     /* its rule |---|---| */
	nr_rows = 0;
	while (*p == '|') {
		char *eol = strchr(p, '\n');
		assert_non_null(eol);
		read_row(p, eol);
		p = eol + 1;
	}
	free(doc);
	assert_true(nr_rows >= 10);
}

/* May folder f include folder g, through "and below" rows? */
static bool may(const char *f, const char *g, unsigned depth)
{
	const struct row *r = row_of(f);
	if (!r || depth > MAX_ROWS)
		return false;
	if (r->anything || strcmp(f, g) == 0)
		return true;
	for (unsigned i = 0; i < r->nr_may; i++) {
		if (strcmp(r->may[i], g) == 0)
			return true;
		if (r->below && may(r->may[i], g, depth + 1))
			return true;
	}
	return false;
}

/* May src/f/name include inc, a header the row of f names? */
static bool may_file(const char *f, const char *name, const char *inc)
{
	const struct row *r = row_of(f);
	char here[2 * NAME_LEN + 2];
	snprintf(here, sizeof(here), "%s/%s", f, name);
	for (unsigned i = 0; r && i < r->nr_files; i++)
		if (strcmp(r->files[i], inc) == 0 &&
		    (!r->only_in[i][0] || strcmp(r->only_in[i], here) == 0))
			return true;
	return false;
}

/* Blank comments in s, in place, so commented-out includes do not count. */
static void blank_comments(char *s)
{
	for (char *p = strstr(s, "/*"); p; p = strstr(p, "/*")) {
		char *e = strstr(p + 2, "*/");
		char *end = e ? e + 2 : p + strlen(p);
		for (; p < end; p++)
			if (*p != '\n')
				*p = ' ';
	}
}

/* Every offending include of src/folder/name, one line each, into out. */
static unsigned check_file(const char *folder, const char *name, FILE *out)
{
	char path[PATH_MAX + 600], inc[2 * NAME_LEN];
	snprintf(path, sizeof(path), "%s/src/%s/%s", top, folder, name);
	char *text = fixture_slurp(path, NULL);
	assert_non_null(text);
	blank_comments(text);
	unsigned n = 0, line = 1;
	for (char *p = text; *p; line++) {
		char *eol = strchr(p, '\n');
		const char *q = p + strspn(p, " \t");
		if (sscanf(q, "# include \"%127[^\"\n]\"", inc) == 1) {
			char *slash = strchr(inc, '/');
			char dir[NAME_LEN];
			snprintf(dir, sizeof(dir), "%.*s",
				 slash ? (int)(slash - inc) : 0, inc);
			if (slash && !may(folder, dir, 0) && !may_file(folder, name, inc)) {
				fprintf(out, "src/%s/%s:%u includes %s\n",
					folder, name, line, inc);
				n++;
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	free(text);
	return n;
}

static void test_every_row_of_the_layer_table_holds(void **state)
{
	char dirpath[PATH_MAX + 8], *text = NULL;
	size_t len = 0;
	unsigned n = 0;
	(void)state;

	read_table();
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	snprintf(dirpath, sizeof(dirpath), "%s/src", top);
	DIR *d = opendir(dirpath);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (!row_of(e->d_name)) {
			fprintf(out, "src/%s/ has no row in the table\n",
				e->d_name);
			n++;
			continue;
		}
		char sub[sizeof(dirpath) + 300];
		snprintf(sub, sizeof(sub), "%s/%s", dirpath, e->d_name);
		DIR *s = opendir(sub);
		assert_non_null(s);
		for (struct dirent *f; (f = readdir(s));) {
			size_t l = strlen(f->d_name);
			if (l > 2 && (strcmp(f->d_name + l - 2, ".c") == 0 ||
				      strcmp(f->d_name + l - 2, ".h") == 0))
				n += check_file(e->d_name, f->d_name, out);
		}
		closedir(s);
	}
	closedir(d);
	fclose(out);
	if (n) {
		fprintf(stderr, "%s", text);
		free(text);
		fail_msg("%u include(s) against docs/design.md's layer table, "
			 "listed above", n);
	}
	free(text);
}

/* The parser on the table as it reads now: what some rows grant. */
static void test_table_read_as_written(void **state)
{
	(void)state;
	read_table();
	assert_false(may("util", "base", 0));
	assert_true(may("base", "util", 0));
	assert_false(may("base", "stats", 0));
	assert_true(may("verify", "vd", 0));      /* the same and `vd/` */
	assert_true(may("verify", "engine", 0));
	assert_true(may("output", "stats", 0));   /* below core/ */
	assert_false(may("output", "cli", 0));
	assert_true(may("charz", "util", 0));     /* two levels below */
	assert_false(may("report", "core", 0));
	assert_true(may("cmd", "charz", 0));      /* anything */
	assert_true(may_file("model", "any.c", "report/results_read.h"));
	assert_true(may_file("model", "any.h", "report/results_model.h"));
	assert_true(may_file("net", "mesh_run.c", "dist/dist.h"));
	assert_false(may_file("net", "mesh_run.h", "dist/dist.h"));
	assert_false(may("net", "dist", 0));
	assert_false(may("model", "report", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_read_as_written),
		cmocka_unit_test(test_every_row_of_the_layer_table_holds),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

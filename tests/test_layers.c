/* test_layers.c - the rules that keep the tree's layers honest
 * (docs/design.md, "Layers"), checked by reading src/ itself: one test per
 * rule, each failing with every file, line and include (or function) that
 * breaks it. (test_layer_table.c checks every row of design.md's table
 * as the table reads; the rules here are the bold ones, as written.)
 *
 * - ground: src/util, base, stats, engine and target include nothing from
 *   cli/ core/ output/ charz/ report/ cmd/ net/ dist/ inventory/ vd/
 *   verify/ model/ app/; base/ includes only util/ (and itself); util/ only
 *   itself.
 * - core: src/core includes nothing from cli/ output/ charz/ report/ cmd/
 *   net/ dist/ inventory/ vd/ verify/ model/ app/.
 * - report: src/report includes only util/, base/ and report/.
 * - cycles: no loop of folder-level edges a -> b -> ... -> a, an edge
 *   being any `#include "b/x.h"` in a file of src/a/; each loop is shown
 *   as the folders that form it and every include between them.
 * - cmd: src/cmd/ is included only from cmd/ and src/main.c.
 * - link: no object of the build's src/util, base, stats, engine, target,
 *   core, output or report uses a symbol that an object of src/cli/
 *   defines (read with nm from the objects next to the test binary,
 *   build/src/; skipped, saying why, without nm or objects): including
 *   nothing above is not enough if a function below is defined above.
 * - functions: no function of src/ is longer than 80 lines, counted from
 *   the line of its opening `{` at column 0 to that of its closing `}` at
 *   column 0 (kernel style, as this tree is written), unless a comment in
 *   the 3 lines above its signature says so with the words "longer than
 *   80 lines" (any case), e.g.
 *     / * Longer than 80 lines: one switch over every option type. * /
 *
 * Includes are read from the text with comments blanked out, functions
 * from the text with comments, strings and character literals blanked, so
 * neither is fooled by braces or #include in comments or strings. Only
 * quoted includes count: every one in this tree names its folder.
 * src/ is found from the current directory (make check runs from the top
 * of the tree), else from the test binary (build/tests/ -> ../../src). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
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
#include "report_fixture.h" /* fixture_slurp */

#define MAX_FILES   1024
#define MAX_FOLDERS 32
#define MAX_LEN	    80 /* lines a function may have */
#define EXEMPT	    "longer than 80 lines"

struct src_file {
	char rel[256];	  /* "net/streams.c", or "main.c" */
	char folder[64];  /* "net"; "" for src/main.c */
	char *raw;	  /* the file as it is */
	char *nocomment;  /* comments blanked (newlines kept) */
	char *code;	  /* comments, strings and char literals blanked */
};

struct tree {
	char src[PATH_MAX];
	struct src_file files[MAX_FILES];
	unsigned nr;
	char folders[MAX_FOLDERS][64];
	unsigned nr_folders;
};

static struct tree tree;

/* What a rule found: one line per offence, counted. */
struct report {
	char *text;
	size_t len;
	FILE *f;
	unsigned n;
};

static void report_open(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->f = open_memstream(&r->text, &r->len);
	assert_non_null(r->f);
}

static void offence(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void offence(struct report *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(r->f, fmt, ap);
	va_end(ap);
	fputc('\n', r->f);
	r->n++;
}

/* Fail the test with every offence, naming the rule. */
static void report_close(struct report *r, const char *rule)
{
	fclose(r->f);
	if (r->n) {
		fprintf(stderr, "%s: %u offence(s):\n%s", rule, r->n, r->text);
		free(r->text);
		fail_msg("rule '%s' broken %u time(s), listed above", rule, r->n);
	}
	free(r->text);
}


enum lex { LEX_CODE, LEX_BLOCK, LEX_LINE, LEX_STR, LEX_CHR };

/* Blank o[i] unless it ends a line (line numbers must stay). */
static void hide(char *o, size_t i)
{
	if (o[i] != '\n')
		o[i] = ' ';
}

/* A copy of s with comments (and, if strings, string and character
 * literals' contents) replaced by spaces, newlines kept so lines match. */
static char *blank(const char *s, bool strings)
{
	char *o = strdup(s);
	enum lex st = LEX_CODE;

	assert_non_null(o);
	for (size_t i = 0; s[i]; i++) {
		char c = s[i], nx = s[i + 1];
		switch (st) {
		case LEX_CODE:
			if (c == '/' && (nx == '*' || nx == '/')) {
				st = nx == '*' ? LEX_BLOCK : LEX_LINE;
				hide(o, i++);
				hide(o, i);
			} else if (c == '"' || c == '\'') {
				st = c == '"' ? LEX_STR : LEX_CHR;
			}
			break;
		case LEX_BLOCK:
			if (c == '*' && nx == '/') {
				st = LEX_CODE;
				hide(o, i++);
			}
			hide(o, i);
			break;
		case LEX_LINE:
			if (c == '\n')
				st = LEX_CODE;
			hide(o, i);
			break;
		case LEX_STR:
		case LEX_CHR:
			if (c == '\\' && nx && nx != '\n') {
				if (strings)
					hide(o, i), hide(o, i + 1);
				i++;
			} else if (c == (st == LEX_STR ? '"' : '\'')) {
				st = LEX_CODE;
			} else if (strings) {
				hide(o, i);
			}
			break;
		}
	}
	return o;
}

static void add_folder(const char *name)
{
	for (unsigned i = 0; i < tree.nr_folders; i++)
		if (!strcmp(tree.folders[i], name))
			return;
	assert_true(tree.nr_folders < MAX_FOLDERS);
	int n = snprintf(tree.folders[tree.nr_folders++], 64, "%s", name);
	assert_true(n < 64);
}

static void add_file(const char *folder, const char *name)
{
	char path[PATH_MAX + 600];
	struct src_file *f;

	assert_true(tree.nr < MAX_FILES);
	f = &tree.files[tree.nr++];
	snprintf(f->folder, sizeof(f->folder), "%s", folder);
	int n = snprintf(f->rel, sizeof(f->rel), "%s%s%s", folder, *folder ? "/" : "", name);
	assert_true(n < (int)sizeof(f->rel));
	snprintf(path, sizeof(path), "%s/%s", tree.src, f->rel);
	f->raw = fixture_slurp(path, NULL);
	f->nocomment = blank(f->raw, false);
	f->code = blank(f->raw, true);
}

static bool is_source(const char *name)
{
	size_t n = strlen(name);
	return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

static int by_rel(const void *a, const void *b)
{
	return strcmp(((const struct src_file *)a)->rel, ((const struct src_file *)b)->rel);
}

/* Every .c and .h of src/ and of its folders (the tree has one level). */
static void load_dir(const char *folder)
{
	char path[PATH_MAX + 80];
	struct dirent *e;
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s", tree.src, *folder ? "/" : "", folder);
	DIR *d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d))) {
		char sub[PATH_MAX + 400];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (stat(sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && !*folder) {
			add_folder(e->d_name);
			load_dir(e->d_name);
		} else if (S_ISREG(st.st_mode) && is_source(e->d_name)) {
			add_file(folder, e->d_name);
		}
	}
	closedir(d);
}

static int setup(void **state)
{
	(void)state;
	if (!test_src_dir(tree.src, sizeof(tree.src))) {
		fprintf(stderr, "cannot find src/ (run from the top of the tree)\n");
		return -1;
	}
	load_dir("");
	qsort(tree.files, tree.nr, sizeof(tree.files[0]), by_rel);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < tree.nr; i++) {
		free(tree.files[i].raw);
		free(tree.files[i].nocomment);
		free(tree.files[i].code);
	}
	return 0;
}

/* One quoted include: the line it is on, what it names, and the folder of
 * src/ that is ("" when it names none). */
struct include {
	unsigned line;
	char path[256];
	char folder[64];
};

static bool is_folder(const char *name)
{
	for (unsigned i = 0; i < tree.nr_folders; i++)
		if (!strcmp(tree.folders[i], name))
			return true;
	return false;
}

/* The quoted include on the line starting at p, if any. */
static bool parse_include(const char *p, struct include *inc)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "include", 7))
		return false;
	p += 7;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"')
		return false;
	size_t n = strcspn(p, "\"\n");
	if (p[n] != '"' || n >= sizeof(inc->path))
		return false;
	memcpy(inc->path, p, n);
	inc->path[n] = '\0';
	size_t d = strcspn(inc->path, "/");
	inc->folder[0] = '\0';
	if (inc->path[d] == '/' && d < sizeof(inc->folder)) {
		memcpy(inc->folder, inc->path, d);
		inc->folder[d] = '\0';
		if (!is_folder(inc->folder))
			inc->folder[0] = '\0';
	}
	return true;
}

/* Call fn for every quoted include of f (comments do not count). */
typedef void (*include_fn)(const struct src_file *f, const struct include *inc,
			   void *arg);

static void each_include(const struct src_file *f, include_fn fn, void *arg)
{
	const char *p = f->nocomment;
	struct include inc;

	for (unsigned line = 1; *p; line++) {
		if (parse_include(p, &inc)) {
			inc.line = line;
			fn(f, &inc, arg);
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* A rule on what files of some folders may include: those in `from`
 * include nothing in `banned`, or, when `only` is set, nothing outside
 * `only` (and their own folder). */
struct include_rule {
	const char *const *from;
	const char *const *banned;
	const char *const *only;
	struct report *r;
};

static void check_include(const struct src_file *f, const struct include *inc, void *arg)
{
	const struct include_rule *rule = arg;
	bool bad;

	if (!inc->folder[0] || !strcmp(inc->folder, f->folder))
		return;
	bad = rule->only ? !in_list(inc->folder, rule->only)
			 : in_list(inc->folder, rule->banned);
	if (bad)
		offence(rule->r, "src/%s:%u: #include \"%s\" (%s/ may not include %s/)",
			f->rel, inc->line, inc->path, f->folder, inc->folder);
}

static void check_includes(struct report *r, const char *const *from,
			   const char *const *banned, const char *const *only)
{
	struct include_rule rule = {from, banned, only, r};
	for (unsigned i = 0; i < tree.nr; i++)
		if (in_list(tree.files[i].folder, from))
			each_include(&tree.files[i], check_include, &rule);
}

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

static const char *const above_core[] = {"cli", "output", "charz", "report", "cmd",
					  "net", "dist", "inventory", "vd", "verify",
					  "model", "app", NULL};

static void test_ground_floor_includes_nothing_above(void **state)
{
	static const char *const above_ground[] = {
		"cli", "core", "output", "charz", "report", "cmd", "net",
		"dist", "inventory", "vd", "verify", "model", "app", NULL};
	struct report r;

	(void)state;
	report_open(&r);
	check_includes(&r, LIST("stats", "engine", "target"), above_ground, NULL);
	check_includes(&r, LIST("base"), NULL, LIST("util"));
	check_includes(&r, LIST("util"), NULL, LIST("util"));
	report_close(&r, "ground floor");
}

static void test_core_includes_nothing_above(void **state)
{
	struct report r;

	(void)state;
	report_open(&r);
	check_includes(&r, LIST("core"), above_core, NULL);
	report_close(&r, "core");
}

static void test_report_reads_files_only(void **state)
{
	struct report r;

	(void)state;
	report_open(&r);
	check_includes(&r, LIST("report"), NULL, LIST("util", "base", "report"));
	report_close(&r, "report");
}

static void check_cmd_include(const struct src_file *f, const struct include *inc,
			      void *arg)
{
	if (!strcmp(inc->folder, "cmd") && strcmp(f->folder, "cmd") &&
	    strcmp(f->rel, "main.c"))
		offence(arg, "src/%s:%u: #include \"%s\" (only cmd/ and main.c include cmd/)",
			f->rel, inc->line, inc->path);
}

static void test_cmd_included_only_by_cmd_and_main(void **state)
{
	struct report r;

	(void)state;
	report_open(&r);
	for (unsigned i = 0; i < tree.nr; i++)
		each_include(&tree.files[i], check_cmd_include, &r);
	report_close(&r, "cmd");
}

/* The folder-level graph: edge[a][b] is the first include of b/ from a
 * file of a/ (file index + 1 and line; 0 = no edge). */
struct graph {
	struct {
		unsigned file, line;
		char path[256];
	} edge[MAX_FOLDERS][MAX_FOLDERS];
};

static unsigned folder_index(const char *name)
{
	for (unsigned i = 0; i < tree.nr_folders; i++)
		if (!strcmp(tree.folders[i], name))
			return i;
	return MAX_FOLDERS;
}

static void add_edge(const struct src_file *f, const struct include *inc, void *arg)
{
	struct graph *g = arg;
	unsigned a = folder_index(f->folder), b = folder_index(inc->folder);

	if (a >= MAX_FOLDERS || b >= MAX_FOLDERS || a == b || g->edge[a][b].file)
		return;
	g->edge[a][b].file = (unsigned)(f - tree.files) + 1;
	g->edge[a][b].line = inc->line;
	snprintf(g->edge[a][b].path, sizeof(g->edge[a][b].path), "%s", inc->path);
}

/* reach[a][b]: b can be reached from a (Warshall's transitive closure). */
static void closure(const struct graph *g, bool reach[MAX_FOLDERS][MAX_FOLDERS])
{
	unsigned n = tree.nr_folders;

	for (unsigned a = 0; a < n; a++)
		for (unsigned b = 0; b < n; b++)
			reach[a][b] = g->edge[a][b].file != 0;
	for (unsigned k = 0; k < n; k++)
		for (unsigned a = 0; a < n; a++)
			for (unsigned b = 0; b < n; b++)
				reach[a][b] |= reach[a][k] && reach[k][b];
}

/* One loop (strongly connected set of folders, first member a): its
 * folders, then every edge between them with the include that makes it. */
static void report_loop(struct report *r, const struct graph *g,
			bool reach[MAX_FOLDERS][MAX_FOLDERS], unsigned a, bool *seen)
{
	unsigned n = tree.nr_folders;
	bool in[MAX_FOLDERS] = {false};

	fprintf(r->f, "folders in a loop:");
	for (unsigned b = 0; b < n; b++) {
		in[b] = b == a || (reach[a][b] && reach[b][a]);
		if (in[b]) {
			seen[b] = true;
			fprintf(r->f, " %s/", tree.folders[b]);
		}
	}
	fputc('\n', r->f);
	r->n++; /* one offence per loop; its edges follow */
	for (unsigned x = 0; x < n; x++)
		for (unsigned y = 0; y < n; y++)
			if (in[x] && in[y] && g->edge[x][y].file)
				fprintf(r->f, "  %s/ -> %s/: src/%s:%u: #include \"%s\"\n",
					tree.folders[x], tree.folders[y],
					tree.files[g->edge[x][y].file - 1].rel,
					g->edge[x][y].line, g->edge[x][y].path);
}

static void test_no_folder_include_cycles(void **state)
{
	static struct graph g;
	static bool reach[MAX_FOLDERS][MAX_FOLDERS];
	bool seen[MAX_FOLDERS] = {false};
	struct report r;

	(void)state;
	memset(&g, 0, sizeof(g));
	for (unsigned i = 0; i < tree.nr; i++)
		each_include(&tree.files[i], add_edge, &g);
	closure(&g, reach);
	report_open(&r);
	for (unsigned a = 0; a < tree.nr_folders; a++)
		if (!seen[a] && reach[a][a])
			report_loop(&r, &g, reach, a, seen);
	report_close(&r, "no folder-level include cycles");
}

/* Line n (1-based) of text, into buf (without its newline). */
static const char *line_at(const char *const *starts, unsigned n, char *buf, size_t len)
{
	const char *s = starts[n - 1];
	size_t k = strcspn(s, "\n");
	if (k >= len)
		k = len - 1;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return buf;
}

/* The start of each line of text (a NULL after the last); nr lines. */
static const char **split_lines(const char *text, unsigned *nr)
{
	unsigned n = 1;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	const char **v = calloc(n + 1, sizeof(*v));
	assert_non_null(v);
	unsigned i = 0;
	v[i++] = text;
	for (const char *p = text; *p; p++)
		if (*p == '\n' && p[1])
			v[i++] = p + 1;
	*nr = i;
	return v;
}

/* The name of the function whose signature is the code from sig on: the
 * identifier before its parameter list (skipping __attribute__((...))).
 * False when this is not a function (an initializer, say). */
static bool function_name(const char *sig, const char *end, char *name, size_t len)
{
	const char *p = sig;

	for (;;) {
		const char *paren = memchr(p, '(', (size_t)(end - p));
		if (!paren || memchr(sig, '=', (size_t)(paren - sig)))
			return false;
		const char *e = paren;
		while (e > sig && isspace((unsigned char)e[-1]))
			e--;
		const char *b = e;
		while (b > sig && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		if (b == e)
			return false;
		if ((size_t)(e - b) == 13 && !strncmp(b, "__attribute__", 13)) {
			int depth = 0;
			for (p = paren; p < end; p++) {
				depth += (*p == '(') - (*p == ')');
				if (!depth)
					break;
			}
			continue;
		}
		snprintf(name, len, "%.*s", (int)(e - b), b);
		return true;
	}
}

/* Does a comment in the lines [from, to) of f say the function is
 * longer than 80 lines? (In the raw text but not in the code: a comment.) */
static bool exempt(const char *const *raw, const char *const *code, unsigned from,
		   unsigned to)
{
	char a[4096], b[4096];

	for (unsigned l = from; l < to; l++) {
		if (l < 1)
			continue;
		line_at(raw, l, a, sizeof(a));
		line_at(code, l, b, sizeof(b));
		if (strcasestr(a, EXEMPT) && !strcasestr(b, EXEMPT))
			return true;
	}
	return false;
}

/* Every function of f longer than MAX_LEN lines without the comment. */
static void check_functions(struct report *r, const struct src_file *f)
{
	unsigned nr, nr_raw;
	const char **code = split_lines(f->code, &nr);
	const char **raw = split_lines(f->raw, &nr_raw);

	assert_int_equal(nr, nr_raw);
	for (unsigned open = 1; open <= nr; open++) {
		if (code[open - 1][0] != '{')
			continue;
		unsigned close = open + 1;
		while (close <= nr && code[close - 1][0] != '}')
			close++;
		unsigned sig = open - 1;
		while (sig > 1 && (code[sig - 1][0] == ' ' || code[sig - 1][0] == '\t'))
			sig--;
		char name[128];
		if (sig < 1 || close > nr ||
		    !function_name(code[sig - 1], code[open - 1], name, sizeof(name)))
			continue;
		unsigned len = close - open + 1;
		if (len > MAX_LEN && !exempt(raw, code, sig >= 3 ? sig - 3 : 1, sig))
			offence(r, "src/%s:%u: %s() is %u lines ({ at line %u to } at %u) "
				"with no \"" EXEMPT "\" comment above it",
				f->rel, sig, name, len, open, close);
		open = close;
	}
	free(code);
	free(raw);
}

static void test_functions_at_most_80_lines(void **state)
{
	struct report r;

	(void)state;
	report_open(&r);
	for (unsigned i = 0; i < tree.nr; i++)
		check_functions(&r, &tree.files[i]);
	report_close(&r, "functions of at most 80 lines");
}

/* The checks themselves, on text made to break them: a commented-out
 * include and braces in strings do not count, a real one does, a long
 * function is found and its comment exempts it. */
static void test_checker_on_samples(void **state)
{
	char *c = blank("/* #include \"cli/x.h\" */ s = \"{\\\"}\"; c = '\"'; // }\n", true);
	struct include inc;

	(void)state;
	assert_null(strchr(c, '{'));
	assert_null(strchr(c, '}'));
	assert_null(strstr(c, "include"));
	free(c);
	c = blank("#include \"cli/x.h\" /* why */\n", false);
	assert_true(parse_include(c, &inc));
	assert_string_equal(inc.path, "cli/x.h");
	assert_string_equal(inc.folder, "cli");
	free(c);

	char name[64];
	const char *sig = "static void __attribute__((cold)) f_1(int a,\n\tint b)\n{";
	assert_true(function_name(sig, sig + strlen(sig), name, sizeof(name)));
	assert_string_equal(name, "f_1");
	sig = "static const int t[] = {\n";
	assert_false(function_name(sig, sig + strlen(sig), name, sizeof(name)));

	struct src_file f = {.rel = "x/long.c"};
	char *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	fprintf(m, "/* %s: one table. */\nint f(void)\n{\n", "Longer than 80 lines");
	for (int i = 0; i < 90; i++)
		fprintf(m, "\tx(\"}\");\n");
	fprintf(m, "}\n\nint g(void)\n{\n");
	for (int i = 0; i < 90; i++)
		fprintf(m, "\tx();\n");
	fprintf(m, "}\n");
	fclose(m);
	f.raw = body;
	f.code = blank(body, true);
	struct report r;
	report_open(&r);
	check_functions(&r, &f);
	fclose(r.f);
	assert_int_equal(r.n, 1);
	expect_has(r.text, "src/x/long.c:96: g() is 92 lines");
	free(r.text);
	free(f.code);
	free(body);
}

/* The build's objects: next to this binary (build/tests/ -> build/src). */
static bool find_objs(char *out, size_t len)
{
	char exe[PATH_MAX], probe[PATH_MAX + 16];
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	snprintf(out, len, "%s/../src", dirname(exe));
	snprintf(probe, sizeof(probe), "%s/cli/options.o", out);
	return stat(probe, &st) == 0;
}

/* One "FILE: ... TYPE SYMBOL" line of nm -A; false for any other line. */
static bool nm_line(char *line, const char **file, char **sym)
{
	char *colon = strstr(line, ".o:");
	char *end = line + strcspn(line, "\n");

	*end = '\0';
	while (end > line && end[-1] == ' ')
		*--end = '\0';
	char *sp = strrchr(line, ' ');
	if (!colon || !sp)
		return false;
	colon[2] = '\0';
	*file = line;
	*sym = sp + 1;
	return true;
}

/* Every symbol the objects of dir/folder define (defined) or use. */
static void each_symbol(const char *dir, const char *folder, bool defined,
			void (*fn)(const char *file, const char *sym, void *arg),
			void *arg)
{
	char cmd[PATH_MAX + 128], line[1024];
	const char *file;
	char *sym;

	snprintf(cmd, sizeof(cmd), "nm -A -g %s %s/%s/*.o 2>/dev/null",
		 defined ? "--defined-only" : "-u", dir, folder);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (nm_line(line, &file, &sym))
			fn(file, sym, arg);
	pclose(p);
}

struct symbols {
	char **names;
	size_t nr;
	struct report *r;
	const char *dir; /* the objects' folder: build/src */
};

/* Is file (dir/FOLDER/NAME.o) built from a source that still exists? An
 * object left behind by a source since moved (make never deletes it)
 * says nothing about the tree. The sources are at dir/../../src. */
static bool from_live_source(const struct symbols *s, const char *file)
{
	char src[PATH_MAX + 64];
	size_t n = strlen(s->dir);
	struct stat st;

	if (strncmp(file, s->dir, n) || file[n] != '/')
		return true;
	snprintf(src, sizeof(src), "%s/../../src/%s", s->dir, file + n + 1);
	size_t len = strlen(src);
	if (len < 2 || strcmp(src + len - 2, ".o"))
		return true;
	src[len - 1] = 'c';
	return stat(src, &st) == 0;
}

static void add_symbol(const char *file, const char *sym, void *arg)
{
	struct symbols *s = arg;

	if (!from_live_source(s, file))
		return;
	s->names = realloc(s->names, (s->nr + 1) * sizeof(*s->names));
	assert_non_null(s->names);
	s->names[s->nr++] = strdup(sym);
}

static void check_symbol(const char *file, const char *sym, void *arg)
{
	struct symbols *s = arg;

	if (!from_live_source(s, file))
		return;
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], sym))
			offence(s->r, "%s uses %s, defined in cli/", file, sym);
}

static void test_below_cli_links_nothing_of_cli(void **state)
{
	static const char *const below[] = {"util", "base", "stats", "engine",
					    "target", "core", "output",
					    "report", NULL};
	char dir[PATH_MAX];
	struct report r;
	struct symbols cli = {.r = &r, .dir = dir};

	(void)state;
	if (!find_objs(dir, sizeof(dir)) || system("nm --version >/dev/null 2>&1")) {
		printf("SKIP: no nm, or no build objects next to this test\n");
		skip();
	}
	report_open(&r);
	each_symbol(dir, "cli", true, add_symbol, &cli);
	assert_true(cli.nr > 0); /* nm read cli/'s objects */
	for (const char *const *f = below; *f; f++)
		each_symbol(dir, *f, false, check_symbol, &cli);
	for (size_t i = 0; i < cli.nr; i++)
		free(cli.names[i]);
	free(cli.names);
	report_close(&r, "link");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_on_samples),
		cmocka_unit_test(test_ground_floor_includes_nothing_above),
		cmocka_unit_test(test_core_includes_nothing_above),
		cmocka_unit_test(test_report_reads_files_only),
		cmocka_unit_test(test_no_folder_include_cycles),
		cmocka_unit_test(test_cmd_included_only_by_cmd_and_main),
		cmocka_unit_test(test_functions_at_most_80_lines),
		cmocka_unit_test(test_below_cli_links_nothing_of_cli),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

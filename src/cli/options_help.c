/* options_help.c - `iochar run --help`, printed from the option table. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "cli/options.h"
#include "cli/run_config_def.h"
#include "base/units.h"
#include "engine/engine.h"

#define HELP_COL   28 /* where descriptions start */
#define HELP_WIDTH 79 /* last column used */

static const char *const group_titles[OPT_GROUP_COUNT] = {
    [OPT_GROUP_CLI] = "Command line only",
    [OPT_GROUP_TARGET] = "Target",
    [OPT_GROUP_WORKLOAD] = "Workload",
    [OPT_GROUP_TIME] = "Duration",
    [OPT_GROUP_ENGINE] = "Engine and CPUs",
    [OPT_GROUP_COMPAT] = ("fio options accepted and ignored (they change "
			  "nothing in iochar)"),
};

/* Print text from column col, word-wrapped into [HELP_COL, HELP_WIDTH]. */
static void print_wrapped(FILE *f, int col, const char *text)
{
	if (col >= HELP_COL - 1) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_COL - col, "");
	col = HELP_COL;
	while (*text) {
		int wlen = (int)strcspn(text, " ");

		if (col > HELP_COL && col + 1 + wlen > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_COL, "");
			col = HELP_COL;
		} else if (col > HELP_COL) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, (size_t)wlen, f);
		col += wlen;
		text += wlen;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

/* "--bs=SIZE, --blocksize", "--direct[=BOOL]", "--thread"; an engine's
 * own options are indented under their engine. */
static int print_names(FILE *f, const struct option_def *o)
{
	int col = fprintf(f, "%s--%s",
			  o->scope == OPT_SCOPE_ENGINE ? "    " : "  ", o->name);

	if (o->type == OPT_BOOL)
		col += fprintf(f, "[=%s]", options_arg_name(o));
	else if (o->type != OPT_IGNORED)
		col += fprintf(f, "=%s", options_arg_name(o));
	for (size_t i = 0; i < sizeof(o->alias) / sizeof(o->alias[0]); i++)
		if (o->alias[i])
			col += fprintf(f, ", --%s", o->alias[i]);
	return col;
}

static void format_bound(const struct option_def *o, uint64_t v, char *buf,
			 size_t len)
{
	/* a custom row of a size ("bs=R,W") shows its bounds as sizes */
	if (o->type == OPT_SIZE ||
	    (o->type == OPT_CUSTOM && o->arg && !strcmp(o->arg, "SIZE")))
		units_format_size(buf, len, v);
	else if (o->type == OPT_TIME)
		units_format_time(buf, len, v);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* The row's help, its values, default and range, as one line of text. */
static void describe(const struct option_def *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = (size_t)snprintf(buf, len, "%s", o->help);

	if (o->values) {
		for (const struct opt_enum *e = o->values;
		     e->name && used < len; e++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 e == o->values ? ": " : ", ",
						 e->name);
	}
	if (o->def && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 " [default: %s", o->def);
	/* a custom row's lower bound alone (a time that must be > 0) reads
	 * as nothing useful in its raw unit */
	bool range = (o->min || o->max) && !(o->type == OPT_CUSTOM && !o->max);

	if (range && used < len) {
		format_bound(o, o->min, lo, sizeof(lo));
		format_bound(o, o->max, hi, sizeof(hi));
		if (!o->max)
			snprintf(hi, sizeof(hi), "...");
		used += (size_t)snprintf(buf + used, len - used, "%s%s..%s",
					 o->def ? "; " : " [", lo, hi);
	}
	if ((o->def || range) && used < len)
		snprintf(buf + used, len - used, "]");
}

static void print_row(FILE *f, const struct option_def *o)
{
	char text[512];

	describe(o, text, sizeof(text));
	print_wrapped(f, print_names(f, o), text);
}

static void print_group(FILE *f, enum opt_group g)
{
	const struct option_def *o;

	fprintf(f, "\n%s:\n", group_titles[g]);
	if (g == OPT_GROUP_CLI)
		print_wrapped(f, fprintf(f, "  --help, -h"), "this help");
	for (size_t i = 0; (o = options_row(i)); i++)
		if (o->group == g)
			print_row(f, o);
}

/* The engine's line, then its own options (engine_ops.options). */
static void print_engine(FILE *f, const struct engine_ops *e)
{
	print_wrapped(f, fprintf(f, "  %s", e->name), e->help ? e->help : "");
	for (const struct option_def *o = e->options; o && o->name; o++)
		print_row(f, o);
}

static void print_scratch(FILE *f)
{
	char text[512];
	size_t used = (size_t)snprintf(
	    text, sizeof(text),
	    "With no filename in any job and an engine other than null, "
	    "the jobs run on the scratch file " RUN_SCRATCH_FILE
	    " (created and filled first), with these defaults for "
	    "what is not set:");

	for (const struct option_preset *p = options_scratch_preset;
	     p->key && used < sizeof(text); p++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 " %s=%s", p->key, p->value);
	if (used < sizeof(text))
		snprintf(text + used, sizeof(text) - used,
			 ". With ioengine=null and no size, size is 1g "
			 "(nothing is read or written).");
	fputc('\n', f);
	print_wrapped(f, fprintf(f, "Scratch mode:"), text);
}

void options_print_rows(FILE *f, const char *title,
			const struct option_def *rows, size_t nr)
{
	fprintf(f, "\n%s:\n", title);
	for (size_t i = 0; i < nr; i++)
		print_row(f, &rows[i]);
}

void options_print_help(FILE *f)
{
	fputs("Job options are --key=value (or --key value) on the command "
	      "line (global\nbefore the first --name, then the --name job's), "
	      "or key=value in a job\nfile. In keys '-' and '_' are alike.\n",
	      f);
	for (int g = 0; g < OPT_GROUP_COUNT; g++)
		print_group(f, (enum opt_group)g);

	fputs("\nEngines:\n", f);
	for (unsigned i = 0; engine_table[i]; i++)
		print_engine(f, engine_table[i]);
	fputs("\nValues:\n", f);
	print_wrapped(f, fprintf(f, "  SIZE"),
		      "bytes with an optional suffix k, m, g, t, p, all powers "
		      "of 1024 (4k = 4K = 4kb = 4KiB = 4096)");
	print_wrapped(f, fprintf(f, "  TIME"),
		      "a whole number with an optional suffix us, ms, s, m, h, "
		      "d; no suffix = seconds");
	print_wrapped(f, fprintf(f, "  BOOL"),
		      "1/0, true/false, yes/no, on/off; a bare key means 1");
	print_wrapped(f, fprintf(f, "  JOBFILE"),
		      "fio's format: [global] options apply to the jobs after "
		      "it, each [name] section is a job; key=value or a bare "
		      "key per line; ';' and '#' start comments");
	print_scratch(f);
}

/* fio's --cmdhelp layout for one row: "%20s: %s" lines of the name and
 * help, then its alias, value and default/range (describe's text holds
 * the values and bounds in iochar's words). */
static void print_cmdhelp_row(FILE *f, const struct option_def *o)
{
	char text[512];

	describe(o, text, sizeof(text));
	fprintf(f, "%20s: %s\n", o->name, o->help ? o->help : "");
	for (size_t i = 0; i < sizeof(o->alias) / sizeof(o->alias[0]); i++)
		if (o->alias[i])
			fprintf(f, "%20s: %s\n", "alias", o->alias[i]);
	fprintf(f, "%20s: %s\n", "type", options_arg_name(o));
	fprintf(f, "%20s: %s\n", "default", o->def ? o->def : "no default");
	/* describe's text past the help: values, default and range */
	const char *extra = text + strlen(o->help ? o->help : "");

	while (*extra == ' ' || *extra == ':')
		extra++;
	if (*extra)
		fprintf(f, "%20s: %s\n", "values", extra);
	fputc('\n', f);
}

/* One line per row, as fio's --cmdhelp=all: "name : help". */
static void print_cmdhelp_line(FILE *f, const struct option_def *o)
{
	fprintf(f, "%-24s: %s\n", o->name, o->help ? o->help : "");
}

int options_print_cmdhelp(FILE *f, const char *name)
{
	const struct option_def *o;

	if (!name[0] || !strcmp(name, "all")) {
		for (size_t i = 0; (o = options_row(i)); i++)
			print_cmdhelp_line(f, o);
		return 0;
	}
	o = options_find(name);
	if (!o)
		return -ENOENT;
	print_cmdhelp_row(f, o);
	return 0;
}

/* fio's --enghelp: the engine list, an engine's options, or one. */
int options_print_enghelp(FILE *f, const char *arg)
{
	size_t len = strcspn(arg, ",");
	char name[64];
	const struct engine_ops *e;

	if (!arg[0]) {
		fputs("Available IO engines:\n", f);
		for (unsigned i = 0; engine_table[i]; i++)
			fprintf(f, "\t%s\n", engine_table[i]->name);
		return 0;
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, arg);
	e = engine_find(name);
	if (!e) {
		fprintf(f, "IO engine %s not found\n", name);
		return -ENOENT;
	}
	if (!e->options || !e->options->name) {
		fprintf(f, "IO engine %s has no options\n", name);
		return -ENOENT;
	}
	for (const struct option_def *o = e->options; o->name; o++) {
		if (!arg[len])
			print_cmdhelp_line(f, o);
		else if (option_matches(o, arg + len + 1)) {
			print_cmdhelp_row(f, o);
			return 0;
		}
	}
	if (arg[len]) {
		fprintf(f, "No such command: %s\n", arg + len + 1);
		return -ENOENT;
	}
	return 0;
}

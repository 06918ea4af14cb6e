/* args.h - one machinery for every command's own arguments.
 *
 * A command declares a static table of rows (struct arg_def: an option
 * table row, as `run`'s, plus a short letter and how a bare option or a
 * positional is taken) over its own args struct, then calls args_parse.
 * The value of a row is parsed by the option table's typed parse
 * (option_parse: sizes, times, ranges, enums, bools, custom), so a
 * command states ranges and defaults once, in its rows, and args_help
 * prints them. Accepted: `--key value`, `--key=value`, `-k value`, `-kvalue`,
 * bundles of letters (`-1J`), positionals anywhere, `--` ending the
 * options (unless the command gives `--` a meaning of its own). In long
 * names '-' and '_' are alike and case does not matter, as in job keys.
 * A BOOL row is true when bare and takes `--key=BOOL` too. `-h` and
 * `--help` are help unless a row has that letter or name.
 */
#ifndef IOCHAR_CLI_ARGS_H
#define IOCHAR_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"
#include "util/err.h"

enum arg_flags {
	ARG_POS = 1u << 0,  /* a positional: the k-th word that is no option */
	ARG_MANY = 1u << 1, /* a positional that takes every word left (its
			     * parse appends); the last positional row */
};

/* One row. o carries name, aliases, type, off/size in the command's args
 * struct, parse (OPT_CUSTOM), values (OPT_ENUM), def, min/max, arg (value
 * name in --help) and help; o.scope, o.group and o.show are unused. */
struct arg_def {
	struct option_def o;
	char letter;	     /* short option ('P'), 0 = none */
	unsigned flags;	     /* enum arg_flags */
	const char *implied; /* the option takes no value and means this one
			      * ("-J" is output-format=json); NULL: BOOL rows
			      * are true when bare, other rows need a value */
	const char *label;   /* how value errors name the option ("-P");
			      * NULL = "--name" */
	const char *section; /* starts a group in --help; NULL = same group */
	const char *missing; /* the message when the value is missing (as
			      * args_spec's); NULL = the spec's */
};

enum args_spec_flags {
	/* A unique prefix of a long name names it, as getopt_long's do
	 * ("--par 4"): kept for the commands that used getopt_long. */
	ARGS_PREFIX = 1u << 0,
	/* "--" is a positional word (compare's sides), not the end of the
	 * options. */
	ARGS_DASHDASH_WORD = 1u << 1,
	/* A value given as the next word never starts with "--": "--journal
	 * --verify_fatal" is --journal without its value (verify's rule). */
	ARGS_VALUE_NOT_OPTION = 1u << 2,
	/* "-h" or "--help" anywhere means help, even after a bad option
	 * (inventory's and verify's rule); else the first of the two wins. */
	ARGS_HELP_FIRST = 1u << 3,
};

/* A command's arguments. The message formats (NULL = a default) are given
 * the word at fault, then argv[0]: "%s: unknown option; see '%s --help'". */
struct args_spec {
	const char *usage; /* "usage: ..." line(s), '\n' ended */
	const char *about; /* a paragraph after it, or NULL */
	const struct arg_def *rows;
	size_t nr;
	unsigned flags;	     /* enum args_spec_flags */
	const char *unknown; /* an option no row has */
	const char *missing; /* an option without its value */
	const char *extra;   /* a positional no row takes */
	/* When set, a long option no row has goes here whole ("--bs=4k")
	 * instead of being an error: plan's workload keys. 0 or -errno. */
	int (*other)(void *args, const char *word, struct ioc_err *err);
};

/* .rows and .nr of a spec from a static array of rows. */
#define ARGS_TABLE(r) .rows = (r), .nr = sizeof(r) / sizeof((r)[0])

#define ARGS_HELP 1 /* args_parse: -h or --help was given */

/* Parse argv[1..argc-1] into args: first every row's default (rows without
 * one leave the caller's value), then the words. argv is borrowed: string
 * rows (args_store_str) point into it. Returns 0, ARGS_HELP when -h or
 * --help is given (the rest is not looked at), or -errno with one line in
 * err naming the word at fault (a usage error). */
int args_parse(const struct args_spec *s, int argc, char **argv, void *args,
	       struct ioc_err *err);

/* Like args_parse for the long options the rows name, taken out of argv
 * (in place, every occurrence, the last winning); every other word is left
 * in order, *argc counting them, for another parser (the `vd` commands
 * take their own options, then parse the rest as `run`'s). The rows'
 * defaults are applied first. 0 or -errno with a usage message. */
int args_take(const struct args_spec *s, int *argc, char **argv, void *args,
	      struct ioc_err *err);

/* The generated help: usage, about, then every row by group with its
 * letter, name, value name, help, default and range. */
void args_help(const struct args_spec *s, FILE *f);

/* OPT_CUSTOM parse for a `const char *` field: points it at value (which
 * lives in argv). Never fails. */
int args_store_str(void *obj, const struct option_def *o, const char *value,
		   struct ioc_err *err);

/* Row shorthands. T is the args struct, F its field. */
#define ARG_ROW(T, F, nm, ty)                                                  \
	.o.name = (nm), .o.type = (ty), .o.off = offsetof(T, F),               \
	.o.size = sizeof(((T *)0)->F)
#define ARG_STR(T, F, nm)                                                      \
	ARG_ROW(T, F, nm, OPT_CUSTOM), .o.parse = args_store_str

#endif

/* args.c - every command's own arguments through one table: see args.h. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "base/units.h"
#include "util/closest.h"

static const char unknown_default[] =
    "%s: unknown option; see 'iochar %s --help'";

/* Where a parse is: the words, and the positionals taken so far. */
struct args_state {
	const struct args_spec *s;
	int argc;
	char **argv;
	void *args;
	size_t nr_pos;
};

static int fold(char c)
{
	return c == '_' ? '-' : tolower((unsigned char)c);
}

/* Does key[0..len) spell name (exactly, or as its start when prefix)? */
static bool name_is(const char *name, const char *key, size_t len, bool prefix)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++)
		if (fold(name[i]) != fold(key[i]))
			return false;
	return i == len && (prefix || !name[i]);
}

static bool row_is(const struct arg_def *r, const char *key, size_t len,
		   bool prefix)
{
	if (r->flags & ARG_POS)
		return false;
	if (name_is(r->o.name, key, len, prefix))
		return true;
	for (size_t i = 0; i < sizeof(r->o.alias) / sizeof(r->o.alias[0]); i++)
		if (r->o.alias[i] && name_is(r->o.alias[i], key, len, prefix))
			return true;
	return false;
}

/* The row for the long key[0..len): its name or an alias, else (with
 * ARGS_PREFIX) the one row it is a prefix of; NULL when none or two. */
static const struct arg_def *find_long(const struct args_spec *s,
				       const char *key, size_t len)
{
	const struct arg_def *hit = NULL;

	for (size_t i = 0; i < s->nr; i++)
		if (row_is(&s->rows[i], key, len, false))
			return &s->rows[i];
	if (!(s->flags & ARGS_PREFIX))
		return NULL;
	for (size_t i = 0; i < s->nr; i++) {
		if (!row_is(&s->rows[i], key, len, true))
			continue;
		if (hit)
			return NULL;
		hit = &s->rows[i];
	}
	return hit;
}

static const struct arg_def *find_letter(const struct args_spec *s, char c)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].letter == c && !(s->rows[i].flags & ARG_POS))
			return &s->rows[i];
	return NULL;
}

/* A bare option is enough: BOOL rows, and rows with an implied value. */
static bool takes_value(const struct arg_def *r)
{
	return !r->implied && r->o.type != OPT_BOOL && r->o.type != OPT_IGNORED;
}

static int fail(const struct args_state *st, const char *fmt, const char *dflt,
		const char *word, struct ioc_err *err)
{
	return err_usage(err, EINVAL, fmt ? fmt : dflt, word, st->argv[0]);
}

/* Parse v through r into the args, the row named as messages name it. */
static int apply(const struct args_state *st, const struct arg_def *r,
		 const char *v, struct ioc_err *err)
{
	struct option_def o = r->o;
	char label[64];

	if (r->label)
		o.name = r->label;
	else if (!(r->flags & ARG_POS)) {
		snprintf(label, sizeof(label), "--%s", r->o.name);
		o.name = label;
	}
	if (!v)
		v = r->implied ? r->implied : "1";
	return option_parse(&o, st->args, v, err);
}

static int positional(struct args_state *st, const char *word,
		      struct ioc_err *err)
{
	size_t k = 0;

	for (size_t i = 0; i < st->s->nr; i++) {
		const struct arg_def *r = &st->s->rows[i];

		if (!(r->flags & ARG_POS))
			continue;
		if (k == st->nr_pos || (r->flags & ARG_MANY)) {
			st->nr_pos++;
			return apply(st, r, word, err);
		}
		k++;
	}
	return fail(st, st->s->extra, "%s: unexpected argument", word, err);
}

/* The value of the option at argv[*i], when it needs one: inline (after
 * '=' or the letter) or the next word. */
static int value_of(struct args_state *st, const struct arg_def *r, int *i,
		    const char *inl, const char **v, struct ioc_err *err)
{
	*v = inl;
	if (inl)
		return 0;
	if (*i + 1 >= st->argc || ((st->s->flags & ARGS_VALUE_NOT_OPTION) &&
				   !strncmp(st->argv[*i + 1], "--", 2)))
		return fail(st, r->missing ? r->missing : st->s->missing,
			    "%s: needs a value", st->argv[*i], err);
	*v = st->argv[++*i];
	return 0;
}

/* fio's "did you mean" for an unknown long option: the nearest row's
 * name put in err's message after its "unknown option" (or at its end). */
static int unknown_long(const struct args_state *st, const char *word, size_t len,
			struct ioc_err *err)
{
	struct closest c;
	char typed[128], tail[IOC_ERR_MAX];
	int ret = fail(st, st->s->unknown, unknown_default, word, err);

	snprintf(typed, sizeof(typed), "%.*s", (int)len, word + 2);
	closest_init(&c, typed);
	for (size_t i = 0; i < st->s->nr; i++)
		if (!(st->s->rows[i].flags & ARG_POS))
			closest_offer(&c, st->s->rows[i].o.name);
	const char *guess = closest_name(&c);
	if (!guess)
		return ret;
	char *at = strstr(err->msg, "unknown option");
	at = at ? at + strlen("unknown option") : err->msg + strlen(err->msg);
	if (!strncmp(at, " '", 2) && strchr(at + 2, '\'')) /* "unknown option '--x'" */
		at = strchr(at + 2, '\'') + 1;
	snprintf(tail, sizeof(tail), "%s", at);
	snprintf(at, sizeof(err->msg) - (size_t)(at - err->msg), " (did you mean --%s?)%s",
		 guess, tail);
	return ret;
}

static int parse_long(struct args_state *st, int *i, struct ioc_err *err)
{
	const char *word = st->argv[*i], *key = word + 2;
	const char *eq = strchr(key, '=');
	size_t len = eq ? (size_t)(eq - key) : strlen(key);
	const struct arg_def *r = find_long(st->s, key, len);
	const char *v = NULL;
	int ret;

	if (!r && name_is("help", key, len, false))
		return ARGS_HELP;
	if (!r && st->s->other)
		return st->s->other(st->args, word, err);
	if (!r)
		return unknown_long(st, word, len, err);
	if (eq && r->implied)
		return fail(st, st->s->unknown, unknown_default, word, err);
	if (!takes_value(r))
		return apply(st, r, eq ? eq + 1 : NULL, err);
	ret = value_of(st, r, i, eq ? eq + 1 : NULL, &v, err);
	return ret ? ret : apply(st, r, v, err);
}

/* "-1J", "-p5201", "-p 5201": letters until one takes a value. */
static int parse_short(struct args_state *st, int *i, struct ioc_err *err)
{
	const char *word = st->argv[*i];
	const char *v;
	int ret = 0;

	for (const char *c = word + 1; *c && !ret; c++) {
		const struct arg_def *r = find_letter(st->s, *c);

		if (!r && *c == 'h')
			return ARGS_HELP;
		if (!r)
			return fail(st, st->s->unknown, unknown_default, word,
				    err);
		if (!takes_value(r)) {
			ret = apply(st, r, NULL, err);
			continue;
		}
		ret = value_of(st, r, i, c[1] ? c + 1 : NULL, &v, err);
		return ret ? ret : apply(st, r, v, err);
	}
	return ret;
}

static void set_defaults(const struct args_spec *s, void *args)
{
	struct args_state st = {.s = s, .args = args};

	/* A row's default is known to parse (tests/test_args.c for the
	 * machinery, each command's tests for its rows). */
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].o.def)
			apply(&st, &s->rows[i], s->rows[i].o.def, NULL);
}

static bool asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int args_parse(const struct args_spec *s, int argc, char **argv, void *args,
	       struct ioc_err *err)
{
	struct args_state st = {s, argc, argv, args, 0};
	bool opts = true;
	int ret = 0;

	if ((s->flags & ARGS_HELP_FIRST) && asks_help(argc, argv))
		return ARGS_HELP;
	set_defaults(s, args);
	for (int i = 1; i < argc && !ret; i++) {
		const char *w = argv[i];

		if (opts && !strcmp(w, "--") &&
		    !(s->flags & ARGS_DASHDASH_WORD))
			opts = false;
		else if (opts && w[0] == '-' && w[1] == '-' && w[2])
			ret = parse_long(&st, &i, err);
		else if (opts && w[0] == '-' && w[1] && w[1] != '-')
			ret = parse_short(&st, &i, err);
		else
			ret = positional(&st, w, err);
	}
	return ret;
}

/* Is w a long option one of the rows names? */
static bool is_row_option(const struct args_spec *s, const char *w)
{
	if (w[0] != '-' || w[1] != '-' || !w[2])
		return false;
	return find_long(s, w + 2, strcspn(w + 2, "=")) != NULL;
}

int args_take(const struct args_spec *s, int *argc, char **argv, void *args,
	      struct ioc_err *err)
{
	struct args_state st = {s, *argc, argv, args, 0};
	int kept = 1, ret = 0;

	set_defaults(s, args);
	for (int i = 1; i < *argc && !ret; i++) {
		if (!is_row_option(s, argv[i]))
			argv[kept++] = argv[i];
		else
			ret = parse_long(&st, &i, err);
	}
	if (ret)
		return ret;
	argv[kept] = NULL;
	*argc = kept;
	return 0;
}

int args_store_str(void *obj, const struct option_def *o, const char *value,
		   struct ioc_err *err)
{
	(void)err;
	*(const char **)((char *)obj + o->off) = value;
	return 0;
}

/* "  -p, --port=INT" or "      --json" or "  HOST". */
static void row_left(const struct arg_def *r, char *buf, size_t len)
{
	int n;

	if (r->flags & ARG_POS) {
		snprintf(buf, len, "  %s%s", r->o.arg ? r->o.arg : r->o.name,
			 r->flags & ARG_MANY ? " ..." : "");
		return;
	}
	if (r->letter)
		n = snprintf(buf, len, "  -%c, --%s", r->letter, r->o.name);
	else
		n = snprintf(buf, len, "      --%s", r->o.name);
	if (takes_value(r) && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "=%s",
			      options_arg_name(&r->o));
	for (size_t i = 0; i < sizeof(r->o.alias) / sizeof(r->o.alias[0]); i++)
		if (r->o.alias[i] && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ", --%s",
				      r->o.alias[i]);
}

/* A bound as its row takes it: a custom row whose value is a SIZE shows
 * sizes too. */
static void print_bound(const struct arg_def *r, uint64_t v, FILE *f)
{
	char b[32];

	if (r->o.type == OPT_TIME)
		fputs(units_format_time(b, sizeof(b), v), f);
	else if (r->o.type == OPT_SIZE ||
		 !strcmp(options_arg_name(&r->o), "SIZE"))
		fputs(units_format_size(b, sizeof(b), v), f);
	else
		fprintf(f, "%llu", (unsigned long long)v);
}

/* The row that takes a value into the field r implies one for. */
static const struct arg_def *spelled_by(const struct args_spec *s,
					const struct arg_def *r)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].o.off == r->o.off && takes_value(&s->rows[i]) &&
		    !(s->rows[i].flags & ARG_POS))
			return &s->rows[i];
	return NULL;
}

/* After the help, as `run --help` has it: ": a, b" for the values, then
 * " [default: X; lo..hi]", or " [same as --key=V]" for an implied row. */
static void row_tail(const struct args_spec *s, const struct arg_def *r,
		     FILE *f)
{
	const struct arg_def *by = r->implied ? spelled_by(s, r) : NULL;
	bool ranged = r->o.min || r->o.max;
	const char *sep = " [";

	for (const struct opt_enum *e = r->implied ? NULL : r->o.values;
	     e && e->name; e++)
		fprintf(f, "%s%s", e == r->o.values ? ": " : ", ", e->name);
	if (by)
		fprintf(f, "%ssame as --%s=%s", sep, by->o.name, r->implied);
	else if (r->implied)
		fprintf(f, "%smeans %s", sep, r->implied);
	if (r->implied)
		sep = "; ";
	if (r->o.def)
		fprintf(f, "%sdefault: %s", sep, r->o.def), sep = "; ";
	if (ranged) {
		fputs(sep, f), sep = "; ";
		print_bound(r, r->o.min, f);
		fputs("..", f);
		if (r->o.max)
			print_bound(r, r->o.max, f);
	}
	fputs(*sep == ';' ? "]\n" : "\n", f);
}

/* text from column HELP_COL, broken at spaces before column HELP_END. */
#define HELP_COL 28
#define HELP_END 79
static void print_wrapped(FILE *f, const char *text)
{
	size_t room = HELP_END - HELP_COL;

	while (strlen(text) > room) {
		size_t cut = room;

		while (cut && text[cut] != ' ')
			cut--;
		if (!cut)
			cut = strcspn(text + room, " ") + room;
		fprintf(f, "%.*s\n%*s", (int)cut, text, HELP_COL, "");
		text += cut + (text[cut] == ' ');
	}
	fprintf(f, "%s\n", text);
}

static void print_row(const struct args_spec *s, const struct arg_def *r,
		      FILE *f)
{
	char left[96], text[1024] = "";
	FILE *t = fmemopen(text, sizeof(text) - 1, "w");

	row_left(r, left, sizeof(left));
	if (strlen(left) > HELP_COL - 2)
		fprintf(f, "%s\n%*s", left, HELP_COL, "");
	else
		fprintf(f, "%-*s", HELP_COL, left);
	if (t) {
		fputs(r->o.help ? r->o.help : "", t);
		row_tail(s, r, t);
		fclose(t);
	}
	text[strcspn(text, "\n")] = '\0';
	print_wrapped(f, text);
}

void args_help(const struct args_spec *s, FILE *f)
{
	fputs(s->usage, f);
	if (s->about)
		fprintf(f, "\n%s", s->about);
	for (size_t i = 0; i < s->nr; i++) {
		const struct arg_def *r = &s->rows[i];
		bool pos = r->flags & ARG_POS;

		/* positionals first under their own heading, then options */
		if (r->section)
			fprintf(f, "\n%s:\n", r->section);
		else if (i == 0 || (!pos && (s->rows[i - 1].flags & ARG_POS)))
			fprintf(f, "\n%s:\n", pos ? "Arguments" : "Options");
		print_row(s, r, f);
	}
	fprintf(f, "%-*s%s\n", HELP_COL, "  -h, --help", "this help");
}

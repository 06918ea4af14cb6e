/* test_args.c - the machinery every command's arguments go through
 * (src/cli/args.c): long, short, bundled, '=', positionals, '--', bad and
 * missing values, unknown options, and the generated --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "charz/plan.h"
#include "cli/args.h"
#include "harness.h"

enum fmt { FMT_TEXT, FMT_JSON, FMT_CSV };

struct targs {
	unsigned port, parallel;
	uint64_t len, timeout_ns;
	bool reverse, nodelay;
	int fmt;
	const char *host, *out;
	const char *words[8];
	unsigned nr_words;
};

static const struct opt_enum fmts[] = {
    {"text", FMT_TEXT}, {"json", FMT_JSON}, {"csv", FMT_CSV}, {NULL, 0}};

static int add_word(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	struct targs *a = obj;

	if (a->nr_words >= 8)
		return err_usage(err, E2BIG, "%s: too many", v);
	a->words[a->nr_words++] = v;
	return 0;
}

static const struct arg_def rows[] = {
    {ARG_ROW(struct targs, port, "port", OPT_UINT), .letter = 'p',
     .o.def = "5201", .o.min = 1, .o.max = 65535, .o.arg = "N",
     .o.help = "server port", .section = "Connection"},
    {ARG_ROW(struct targs, parallel, "parallel", OPT_UINT), .letter = 'P',
     .label = "-P", .o.def = "1", .o.min = 1, .o.max = 128,
     .o.help = "parallel streams"},
    {ARG_ROW(struct targs, reverse, "reverse", OPT_BOOL), .letter = 'R',
     .o.help = "the server sends"},
    {ARG_ROW(struct targs, nodelay, "no-delay", OPT_BOOL), .letter = 'N',
     .o.alias = {"nodelay"}, .o.help = "TCP_NODELAY"},
    {ARG_ROW(struct targs, len, "len", OPT_SIZE), .letter = 'l',
     .o.def = "128k", .o.min = 1, .o.max = 1u << 30,
     .o.help = "bytes per write", .section = "Data"},
    {ARG_ROW(struct targs, timeout_ns, "timeout", OPT_TIME), .o.def = "10s",
     .o.help = "bound on each step"},
    {ARG_ROW(struct targs, fmt, "output-format", OPT_ENUM), .o.values = fmts,
     .o.def = "text", .o.help = "output format"},
    {ARG_ROW(struct targs, fmt, "json", OPT_ENUM), .letter = 'J',
     .o.values = fmts, .implied = "json", .o.help = "JSON output"},
    {ARG_STR(struct targs, out, "out"), .o.arg = "DIR",
     .o.help = "results directory"},
    {ARG_STR(struct targs, host, "host"), .flags = ARG_POS, .o.arg = "HOST",
     .o.help = "the server"},
    {.o.name = "word",
     .o.type = OPT_CUSTOM,
     .o.parse = add_word,
     .flags = ARG_POS | ARG_MANY,
     .o.arg = "WORD",
     .o.help = "more words"},
};

static const struct args_spec spec = {
    .usage = "usage: t HOST [WORD ...] [OPTIONS]\n",
    .about = "A test command.\n",
    ARGS_TABLE(rows),
    .flags = ARGS_PREFIX,
};

static int parse(const struct args_spec *s, struct targs *a,
		 struct ioc_err *err, int argc, char **argv)
{
	memset(a, 0, sizeof(*a));
	memset(err, 0, sizeof(*err));
	return args_parse(s, argc, argv, a, err);
}

#define PARSE(a, err, ...)                                                     \
	parse(&spec, a, err,                                                   \
	      (int)(sizeof((char *[]){"t", __VA_ARGS__}) / sizeof(char *)),    \
	      (char *[]){"t", __VA_ARGS__})

static void test_defaults(void **state)
{
	struct targs a;
	struct ioc_err err;

	(void)state;
	assert_int_equal(parse(&spec, &a, &err, 1, (char *[]){"t"}), 0);
	assert_int_equal(a.port, 5201);
	assert_int_equal(a.parallel, 1);
	assert_int_equal(a.len, 128 << 10);
	assert_int_equal(a.timeout_ns, 10000000000ull);
	assert_int_equal(a.fmt, FMT_TEXT);
	assert_null(a.host);
	assert_false(a.reverse);
}

static void test_long_forms(void **state)
{
	struct targs a;
	struct ioc_err err;

	(void)state;
	assert_int_equal(PARSE(&a, &err, "--port", "80", "--len=4k",
			       "--output_format=csv", "--no_delay", "--out",
			       "d", "--Reverse"),
			 0);
	assert_int_equal(a.port, 80);
	assert_int_equal(a.len, 4096);
	assert_int_equal(a.fmt, FMT_CSV);
	assert_true(a.nodelay);
	assert_true(a.reverse);
	assert_string_equal(a.out, "d");
	/* an alias, and a unique prefix (getopt_long's) */
	assert_int_equal(PARSE(&a, &err, "--nodelay", "--par", "3"), 0);
	assert_true(a.nodelay);
	assert_int_equal(a.parallel, 3);
}

static void test_short_forms(void **state)
{
	struct targs a;
	struct ioc_err err;

	(void)state;
	assert_int_equal(PARSE(&a, &err, "-p", "81", "-P4", "-RNJ"), 0);
	assert_int_equal(a.port, 81);
	assert_int_equal(a.parallel, 4);
	assert_true(a.reverse && a.nodelay);
	assert_int_equal(a.fmt, FMT_JSON);
	/* a bundle ends with a letter that takes a value: the rest or the next
	 */
	assert_int_equal(PARSE(&a, &err, "-RP", "7"), 0);
	assert_int_equal(a.parallel, 7);
	assert_int_equal(PARSE(&a, &err, "-Rl64k"), 0);
	assert_int_equal(a.len, 65536);
}

static void test_positionals(void **state)
{
	struct targs a;
	struct ioc_err err;

	(void)state;
	assert_int_equal(PARSE(&a, &err, "-R", "h1", "w1", "-p", "9", "w2"), 0);
	assert_string_equal(a.host, "h1");
	assert_int_equal(a.nr_words, 2);
	assert_string_equal(a.words[1], "w2");
	assert_int_equal(a.port, 9);
	/* after "--" everything is a positional */
	assert_int_equal(PARSE(&a, &err, "h", "--", "-R", "--port"), 0);
	assert_false(a.reverse);
	assert_int_equal(a.nr_words, 2);
	assert_string_equal(a.words[0], "-R");
	assert_string_equal(a.words[1], "--port");
	/* a lone "-" is a word (stdin, by custom) */
	assert_int_equal(PARSE(&a, &err, "-"), 0);
	assert_string_equal(a.host, "-");
}

static void bad(int rc, const struct ioc_err *err, const char *want)
{
	assert_true(rc == -EINVAL || rc == -ERANGE);
	assert_true(err->usage);
	if (!strstr(err->msg, want))
		fail_msg("message '%s' lacks '%s'", err->msg, want);
}

static void test_errors(void **state)
{
	struct targs a;
	struct ioc_err err;
	int rc;

	(void)state;
	bad(PARSE(&a, &err, "--bogus"), &err, "--bogus: unknown option");
	bad(PARSE(&a, &err, "-x"), &err, "-x: unknown option; see 'iochar t");
	bad(PARSE(&a, &err, "-RX"), &err, "-RX: unknown option");
	bad(PARSE(&a, &err, "--port"), &err, "--port: needs a value");
	bad(PARSE(&a, &err, "-p"), &err, "-p: needs a value");
	/* an implied option takes no value */
	bad(PARSE(&a, &err, "--json=csv"), &err, "--json=csv: unknown option");
	/* a prefix of two names names neither */
	bad(PARSE(&a, &err, "--p", "1"), &err, "--p: unknown option");
	/* values are checked by the rows, and named as the row says */
	bad(PARSE(&a, &err, "--port", "x"), &err, "--port=x");
	bad(PARSE(&a, &err, "-P", "0"), &err, "-P=0");
	rc = PARSE(&a, &err, "--len", "2g");
	assert_int_equal(rc, -ERANGE);
	assert_non_null(strstr(err.msg, "--len=2g: out of range"));
	bad(PARSE(&a, &err, "--output-format", "xml"), &err,
	    "--output-format=xml: not one of the accepted values: text, json, "
	    "csv");
	bad(PARSE(&a, &err, "--reverse=maybe"), &err, "--reverse=maybe");
	/* help wins where it is seen */
	assert_int_equal(PARSE(&a, &err, "-R", "--help"), ARGS_HELP);
	assert_int_equal(PARSE(&a, &err, "-Rh"), ARGS_HELP);
	/* first come, first served, unless help comes first by rule */
	bad(PARSE(&a, &err, "--bogus", "--help"), &err, "--bogus");
	struct args_spec first = spec;
	first.flags |= ARGS_HELP_FIRST;
	assert_int_equal(
	    parse(&first, &a, &err, 3, (char *[]){"t", "--bogus", "--help"}),
	    ARGS_HELP);
}

static int other_seen;

static int take_other(void *obj, const char *word, struct ioc_err *err)
{
	(void)obj;
	(void)err;
	other_seen++;
	return strcmp(word, "--bad") ? 0 : -EINVAL;
}

static void test_spec_messages(void **state)
{
	static const struct arg_def one[] = {
	    {ARG_ROW(struct targs, port, "port", OPT_UINT), .o.min = 1},
	};
	struct args_spec s = {
	    .usage = "usage: u\n",
	    .rows = one,
	    .nr = 1,
	    .unknown = "u: unknown option '%s'",
	    .missing = "%s: needs N",
	    .extra = "u: unexpected '%s'",
	    .flags = ARGS_DASHDASH_WORD,
	};
	struct targs a;
	struct ioc_err err;

	(void)state;
	bad(parse(&s, &a, &err, 2, (char *[]){"u", "--x"}), &err,
	    "u: unknown option '--x'");
	bad(parse(&s, &a, &err, 2, (char *[]){"u", "--port"}), &err,
	    "--port: needs N");
	bad(parse(&s, &a, &err, 2, (char *[]){"u", "w"}), &err,
	    "u: unexpected 'w'");
	/* "--" is a word when the command says so */
	bad(parse(&s, &a, &err, 2, (char *[]){"u", "--"}), &err,
	    "u: unexpected '--'");
	s.other = take_other;
	assert_int_equal(
	    parse(&s, &a, &err, 3, (char *[]){"u", "--a=1", "--b"}), 0);
	assert_int_equal(other_seen, 2);
}

/* args_take: the rows' long options out, every other word left in order
 * for the next parser (as the vd commands hand the rest to run's). */
static void test_take(void **state)
{
	char *argv[] = {"t",	    "--bs=4k",	"--port", "7", "x", "-R",
			"--len=8k", "--port=8", "--vd",	  "d", NULL};
	int argc = 10;
	struct targs a;
	struct ioc_err err = {0};

	(void)state;
	memset(&a, 0, sizeof(a));
	assert_int_equal(args_take(&spec, &argc, argv, &a, &err), 0);
	assert_int_equal(a.port, 8); /* the last wins */
	assert_int_equal(a.len, 8192);
	assert_false(a.reverse); /* short options are left */
	assert_int_equal(argc, 6);
	assert_string_equal(argv[1], "--bs=4k");
	assert_string_equal(argv[2], "x");
	assert_string_equal(argv[3], "-R");
	assert_string_equal(argv[4], "--vd");
	assert_string_equal(argv[5], "d");
	assert_null(argv[6]);
	/* a bad value of one of the rows is still an error */
	char *bad_argv[] = {"t", "--port=0", NULL};
	argc = 2;
	assert_int_equal(args_take(&spec, &argc, bad_argv, &a, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "--port=0"));
}

/* Help with its wrapped lines joined: "a\n      b" reads "a b". */
static void unwrap(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (*r == '\n' && r[1] == ' ' && r[2] == ' ' && r[3] == ' ' &&
		    r[4] == ' ' && r[5] == ' ' && r[6] == ' ' && r[7] == ' ') {
			*w++ = ' ';
			while (r[1] == ' ')
				r++;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

static void test_help(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	args_help(&spec, f);
	fclose(f);
	for (char *l = buf; (l = strchr(l, '\n')); l++) /* wrapped at 79 */
		assert_true(strcspn(l + 1, "\n") <= 79);
	unwrap(buf);
	assert_non_null(strstr(buf, "usage: t HOST [WORD ...] [OPTIONS]\n"));
	assert_non_null(strstr(buf, "A test command."));
	assert_non_null(strstr(buf, "Connection:\n"));
	assert_null(strstr(buf, "Arguments:\n")); /* HOST is in Data */
	assert_non_null(strstr(buf, "Data:\n"));
	/* every row, with its help, default and range */
	for (size_t i = 0; i < spec.nr; i++) {
		if (!strstr(buf, rows[i].o.name) && !strstr(buf, rows[i].o.arg))
			fail_msg("help lacks %s", rows[i].o.name);
		assert_non_null(strstr(buf, rows[i].o.help));
	}
	assert_non_null(strstr(buf, "-p, --port=N"));
	assert_non_null(strstr(buf, "server port [default: 5201; 1..65535]"));
	assert_non_null(strstr(buf, "-P, --parallel=INT"));
	assert_non_null(strstr(buf, "[default: 1; 1..128]"));
	assert_non_null(strstr(buf, "-R, --reverse "));
	assert_non_null(strstr(buf, "-N, --no-delay, --nodelay "));
	assert_non_null(strstr(buf, "--timeout=TIME "));
	assert_non_null(strstr(buf, "bytes per write [default: 128k; 1..1g]"));
	assert_non_null(strstr(buf, "--len=SIZE"));
	assert_non_null(strstr(buf, "output format: text, json, csv [default: text]"));
	assert_non_null(strstr(buf, "-J, --json "));
	assert_non_null(strstr(buf, "JSON output [same as --output-format=json]"));
	assert_non_null(strstr(buf, "  HOST "));
	assert_non_null(strstr(buf, "  WORD ... "));
	assert_non_null(strstr(buf, "-h, --help"));
	free(buf);
}

/* Every command's --help: on stdout, exit 0, and every option the command
 * took before cli/args, with its letter where it has one. */
static void test_commands_help(void **state)
{
	const struct {
		const char *const *args;
		const char *want[26];
	} cmds[] = {
	    {ARGS("net", "client", "--help"),
	     {"usage: iochar net client HOST",
	      "Arguments:\n  HOST",
	      "-p, --port",
	      "-P, --parallel",
	      "-t, --time",
	      "-R, --reverse",
	      "--bidir",
	      "-l, --len",
	      "-w, --window",
	      "-C, --congestion",
	      "-M, --set-mss",
	      "-N, --no-delay",
	      "-Z, --zerocopy",
	      "-i, --interval",
	      "--threads",
	      "-J, --json",
	      "--output-format",
	      "--out",
	      "--force",
	      "--secret",
	      "--secret-file",
	      "--timeout",
	      "-h, --help"}},
	    {ARGS("net", "server", "-h"),
	     {"usage: iochar net server",
	      "-B, --bind",
	      "-p, --port",
	      "-1, --one-off",
	      "--tests",
	      "--max-streams",
	      "--max-duration",
	      "--max-tests",
	      "--max-peer-tests",
	      "--max-len",
	      "--max-window",
	      "--max-json",
	      "--max-test-memory",
	      "--idle-timeout",
	      "--handshake-timeout",
	      "--max-pending",
	      "--max-peer-pending",
	      "--secret",
	      "--secret-file",
	      "--threads",
	      "-Z, --zerocopy",
	      "-J, --json",
	      "--output-format"}},
	    {ARGS("net", "mesh", "--help"),
	     {"usage: mpirun -np N iochar net mesh", "-t, --time",
	      "-P, --parallel", "-l, --len", "--ring", "-B, --bind",
	      "-p, --port", "-J, --json", "--output-format", "--out", "--force",
	      "--timeout"}},
	    {ARGS("plan", "--help"),
	     {"usage: iochar plan NAME|FILE", "--list", "-o, --out", "--resume",
	      "--output-format", "--progress-interval"}},
	    {ARGS("curve", "--help"),
	     {"usage: iochar curve", "-o, --out", "--output-format",
	      "--progress-interval"}},
	    {ARGS("verify", "--help"),
	     {"usage: iochar verify", "--filename", "--vd", "--bs", "--size",
	      "--offset", "--journal", "--verify_fatal", "--output-format"}},
	    {ARGS("vd", "rebuild", "--help"),
	     {"usage: iochar vd rebuild", "--replace", "--rebuild_rate"}},
	    {ARGS("vd", "init", "--help"), {"usage: iochar vd init", "--mode"}},
	    {ARGS("inventory", "--bogus", "--help"),
	     {"usage: iochar inventory"}},
	    {ARGS("verify", "stray", "-h"), {"usage: iochar verify"}},
	    {ARGS("inventory", "--help"),
	     {"usage: iochar inventory", "--output-format", "--show-serial",
	      "--sysroot"}},
	    {ARGS("report", "--help"),
	     {"usage: iochar report", "-o, --output", "--force", "--fit=FIT"}},
	    {ARGS("compare", "--help"),
	     {"usage: iochar compare", "-o, --output", "--force",
	      "--output-format", "--predicted", "--fit=FIT"}},
	    {ARGS("model", "--help"),
	     {"usage: iochar model fit", "--figures", "--results", "--config",
	      "--fit", "--latency-limit", "--output-format", "-o, --output"}},
	};
	struct proc_out po;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_iochar(&po, NULL, 0, cmds[i].args);
		expect_exit(&po, 0);
		for (size_t k = 0; cmds[i].want[k]; k++)
			expect_has(po.out, cmds[i].want[k]);
		proc_out_free(&po);
	}
}

/* plan --help (and each one-step command's) is generated from the plan
 * key rows: every key, with a help line of its own. */
static void test_plan_keys_help_from_rows(void **state)
{
	static const char *const cmds[] = {"plan", "search", "curve",
					   "precondition"};
	size_t nr;
	const struct option_def *keys = plan_key_rows(&nr);
	struct proc_out po;
	char want[128];

	(void)state;
	assert_true(nr >= 10);
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		run_iochar(&po, NULL, 0, ARGS(cmds[c], "--help"));
		expect_exit(&po, 0);
		expect_has(po.out, "Plan keys");
		for (size_t i = 0; i < nr; i++) {
			assert_non_null(keys[i].help);
			snprintf(want, sizeof(want), "  --%s=", keys[i].name);
			expect_has(po.out, want);
		}
		proc_out_free(&po);
	}
}

/* Bad input: exit 2, one line on stderr naming the culprit, nothing on
 * stdout. */
static void test_commands_bad(void **state)
{
	const struct {
		const char *const *args;
		const char *want;
	} cmds[] = {
	    {ARGS("net", "client", "-P", "0", "h"), "-P=0"},
	    {ARGS("net", "client", "--bogus", "h"),
	     "net client: unknown option '--bogus'"},
	    {ARGS("net", "client", "a", "b"), "give one server (HOST)"},
	    {ARGS("net", "server", "--max-len=2g"), "--max-len=2g: must be"},
	    {ARGS("net", "server", "-1x"), "net server: unknown option '-1x'"},
	    {ARGS("net", "server", "stray"), "net server: unexpected 'stray'"},
	    {ARGS("plan", "--out"), "--out: needs a directory"},
	    {ARGS("plan", "a", "b"), "unexpected argument 'b'"},
	    {ARGS("verify", "--rw=read"), "unknown option '--rw'"},
	    {ARGS("verify", "--journal="), "--journal needs a file"},
	    {ARGS("inventory", "--output-format=xml"), "--output-format=xml"},
	    {ARGS("compare", "-o"), "-o: needs a file name"},
	    {ARGS("report", "--bogus"), "--bogus: unknown option"},
	    {ARGS("model", "fit", "--figures"), "--figures: needs a value"},
	    {ARGS("model", "nope"), "'nope': expected fit"},
	    {ARGS("vd", "rebuild", "--replace=x"), "--replace=x"},
	    /* a missing argument: one line and where the help is */
	    {ARGS("report"), "no results given; see 'iochar report --help'"},
	    {ARGS("report", "r"), "-o OUT.html is required; see 'iochar report --help'"},
	    {ARGS("compare"), "needs two result sets or more; see 'iochar compare --help'"},
	    {ARGS("compare", "a"), "needs two result sets or more; see 'iochar compare --help'"},
	};
	struct proc_out po;

	(void)state;
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_iochar(&po, NULL, 0, cmds[i].args);
		expect_exit(&po, 2);
		expect_has(po.err, cmds[i].want);
		assert_int_equal(count_lines(po.err), 1);
		assert_string_equal(po.out, "");
		proc_out_free(&po);
	}
}

/* iochar --help: every command's line, the longest name's included,
 * puts its help at the same column; a mistyped command gets a guess. */
static void test_main_help_aligned(void **state)
{
	struct proc_out po;
	int col = -1;
	unsigned lines = 0;

	(void)state;
	run_iochar(&po, NULL, 0, ARGS("--help"));
	expect_exit(&po, 0);
	const char *p = strstr(po.out, "commands:\n");
	assert_non_null(p);
	for (p = strchr(p, '\n') + 1; !strncmp(p, "  ", 2); p = strchr(p, '\n') + 1, lines++) {
		const char *name_end = p + 2 + strcspn(p + 2, " ");
		int at = (int)(name_end + strspn(name_end, " ") - p);
		if (col < 0)
			col = at;
		if (at != col)
			fail_msg("a command's help at column %d, the others' at %d:\n%s", at, col,
				 po.out);
	}
	assert_true(lines >= 10);
	expect_has(po.out, "  precondition  fill");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("comapre"));
	expect_exit(&po, 2);
	expect_has(po.err, "unknown command 'comapre' (did you mean compare?)");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_main_help_aligned),
	    cmocka_unit_test(test_long_forms),
	    cmocka_unit_test(test_short_forms),
	    cmocka_unit_test(test_positionals),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_spec_messages),
	    cmocka_unit_test(test_take),
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_commands_help),
	    cmocka_unit_test(test_commands_bad),
	    cmocka_unit_test(test_plan_keys_help_from_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

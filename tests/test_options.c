/* test_options.c - value parsers, the option table and `iochar run`'s
 * command line: good and bad values, defaults, aliases, set_mask, the
 * messages users read, scratch mode. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "cli/options.h"
#include "cli/run_config.h"
#include "base/job_options.h"
#include "base/units.h"
#include "output/json_parts.h"
#include "base/json_writer.h"
#include <json-c/json.h>

#define GiB (1ull << 30)
#define SEC 1000000000ull

/* Fail with the message when it lacks want. */
static void msg_has(const struct ioc_err *err, const char *want)
{
	if (!strstr(err->msg, want))
		fail_msg("message '%s' lacks '%s'", err->msg, want);
}

/* ---- sizes ---- */

static uint64_t size_ok(const char *s)
{
	struct ioc_err err = {0};
	uint64_t v = 0;

	if (units_parse_size("size", s, &v, &err))
		fail_msg("size '%s' refused: %s", s, err.msg);
	return v;
}

static void size_bad(const char *s, int code)
{
	struct ioc_err err = {0};
	uint64_t v = 12345;

	assert_int_equal(units_parse_size("bs", s, &v, &err), code);
	assert_int_equal(v, 12345);
	assert_int_equal(err.usage, 1);
	msg_has(&err, "bs=");
	msg_has(&err, s);
	msg_has(&err, "accepted");
}

static void test_size_good(void **state)
{
	(void)state;
	assert_int_equal(size_ok("4096"), 4096);
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("4k"), 4096);
	assert_int_equal(size_ok("4K"), 4096);
	assert_int_equal(size_ok("4KiB"), 4096);
	assert_int_equal(size_ok("4kib"), 4096);
	assert_int_equal(size_ok("4kb"), 4096);
	assert_int_equal(size_ok("4KB"), 4096);
	assert_int_equal(size_ok("512b"), 512);
	assert_int_equal(size_ok("8m"), 8ull << 20);
	assert_int_equal(size_ok("8MiB"), 8ull << 20);
	assert_int_equal(size_ok("1g"), GiB);
	assert_int_equal(size_ok("2t"), 2ull << 40);
	assert_int_equal(size_ok("3p"), 3ull << 50);
	assert_int_equal(size_ok("0x1000"), 4096);
	assert_int_equal(size_ok("16383p"), 16383ull << 50);
	/* fio ignores what follows the size: its t/strided.py passes these */
	assert_int_equal(size_ok("65536)"), 65536);
	assert_int_equal(size_ok("64k)"), 65536);
}

static void test_size_bad(void **state)
{
	(void)state;
	size_bad("", -EINVAL);
	size_bad("-1", -EINVAL);
	size_bad("-4k", -EINVAL);
	size_bad("4x", -EINVAL);
	size_bad("k", -EINVAL);
	size_bad("4kk", -EINVAL);
	size_bad("4kbb", -EINVAL);
	size_bad("1.5g", -EINVAL);
	size_bad(" 4k", -EINVAL);
	size_bad("4k ", -EINVAL);
	size_bad("+4k", -EINVAL);
	size_bad("0x", -EINVAL);
	size_bad("0x10k", -EINVAL);
	size_bad("4k,8k", -EINVAL);
	size_bad("4k;", -EINVAL);
	size_bad("x)", -EINVAL);
	size_bad("50%", -EINVAL);
	size_bad("99999999999999999999", -ERANGE);
	size_bad("16384p", -ERANGE);
	size_bad("16777216t", -ERANGE);
}

static void test_size_messages(void **state)
{
	struct ioc_err err = {0};
	uint64_t v;

	(void)state;
	units_parse_size("bs", "-1", &v, &err);
	msg_has(&err, "negative");
	memset(&err, 0, sizeof(err));
	units_parse_size("size", "", &v, &err);
	msg_has(&err, "size=: empty value");
	memset(&err, 0, sizeof(err));
	units_parse_size("bs", "4x", &v, &err);
	msg_has(&err, "bs=4x: not a size; accepted:");
	msg_has(&err, "4k");
}

/* ---- times ---- */

static uint64_t time_ok(const char *s)
{
	struct ioc_err err = {0};
	uint64_t v = 0;

	if (units_parse_time("runtime", s, &v, &err))
		fail_msg("time '%s' refused: %s", s, err.msg);
	return v;
}

static void time_bad(const char *s, int code)
{
	struct ioc_err err = {0};
	uint64_t v = 7;

	assert_int_equal(units_parse_time("runtime", s, &v, &err), code);
	assert_int_equal(v, 7);
	assert_int_equal(err.usage, 1);
	msg_has(&err, "runtime=");
	msg_has(&err, "accepted");
}

static void test_time(void **state)
{
	(void)state;
	assert_int_equal(time_ok("10"), 10 * SEC);
	assert_int_equal(time_ok("0"), 0);
	assert_int_equal(time_ok("10s"), 10 * SEC);
	assert_int_equal(time_ok("10sec"), 10 * SEC);
	assert_int_equal(time_ok("500ms"), 500 * 1000000ull);
	assert_int_equal(time_ok("500msec"), 500 * 1000000ull);
	assert_int_equal(time_ok("250us"), 250 * 1000ull);
	assert_int_equal(time_ok("2m"), 120 * SEC);
	assert_int_equal(time_ok("3min"), 180 * SEC);
	assert_int_equal(time_ok("1h"), 3600 * SEC);
	assert_int_equal(time_ok("1d"), 86400 * SEC);
	assert_int_equal(time_ok("10S"), 10 * SEC);
	time_bad("-1", -EINVAL);
	time_bad("-5s", -EINVAL);
	time_bad("", -EINVAL);
	time_bad("s", -EINVAL);
	time_bad("10x", -EINVAL);
	time_bad("10 s", -EINVAL);
	time_bad("1.5s", -EINVAL);
	assert_int_equal(time_ok("10ns"), 10);
	assert_int_equal(time_ok("1500nsec"), 1500);
	time_bad("10ps", -EINVAL);
	time_bad("999999999999d", -ERANGE);
	time_bad("99999999999999999999", -ERANGE);
}

/* ---- integers, booleans, percentages ---- */

static void test_uint(void **state)
{
	struct ioc_err err = {0};
	uint64_t v = 0;

	(void)state;
	assert_int_equal(units_parse_uint("iodepth", "32", 1, 64, &v, &err), 0);
	assert_int_equal(v, 32);
	assert_int_equal(
	    units_parse_uint("randseed", "0x89", 0, UINT64_MAX, &v, &err), 0);
	assert_int_equal(v, 0x89);
	assert_int_equal(units_parse_uint("n", "18446744073709551615", 0,
					  UINT64_MAX, &v, &err),
			 0);
	assert_int_equal(v, UINT64_MAX);

	assert_int_equal(units_parse_uint("iodepth", "0", 1, 64, &v, &err),
			 -ERANGE);
	msg_has(&err,
		"iodepth=0: out of range; accepted: a whole number 1..64");
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_uint("iodepth", "65", 1, 64, &v, &err),
			 -ERANGE);
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_uint("n", "18446744073709551616", 0,
					  UINT64_MAX, &v, &err),
			 -ERANGE);
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_uint("iodepth", "4k", 1, 64, &v, &err),
			 -EINVAL);
	msg_has(&err, "iodepth=4k: not a whole number");
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_uint("iodepth", "-1", 1, 64, &v, &err),
			 -EINVAL);
	msg_has(&err, "negative");
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_uint("iodepth", "", 1, 64, &v, &err),
			 -EINVAL);
	assert_int_equal(err.usage, 1);
}

static void test_bool(void **state)
{
	static const char *const yes[] = {"1",	  "true", "yes", "on",
					  "TRUE", "Yes",  "ON"};
	static const char *const no[] = {"0",	  "false", "no", "off",
					 "False", "NO",	   "Off"};
	static const char *const bad[] = {"",	   "2",	 "y", "n",
					  "truee", "-1", " 1"};
	struct ioc_err err = {0};
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(units_parse_bool("direct", yes[i], &b, &err),
				 0);
		assert_true(b);
		b = true;
		assert_int_equal(units_parse_bool("direct", no[i], &b, &err),
				 0);
		assert_false(b);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(units_parse_bool("direct", bad[i], &b, &err),
				 -EINVAL);
		msg_has(&err, "direct=");
		msg_has(&err, "1/0, true/false, yes/no, on/off");
	}
}

static void test_percent(void **state)
{
	struct ioc_err err = {0};
	unsigned p = 0;

	(void)state;
	assert_int_equal(units_parse_percent("rwmixread", "0", &p, &err), 0);
	assert_int_equal(p, 0);
	assert_int_equal(units_parse_percent("rwmixread", "100", &p, &err), 0);
	assert_int_equal(p, 100);
	assert_int_equal(units_parse_percent("rwmixread", "70%", &p, &err), 0);
	assert_int_equal(p, 70);
	assert_int_equal(units_parse_percent("rwmixread", "150", &p, &err),
			 -ERANGE);
	msg_has(&err, "rwmixread=150: out of range");
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_percent("rwmixread", "-5", &p, &err),
			 -EINVAL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_percent("rwmixread", "50x", &p, &err),
			 -EINVAL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(units_parse_percent("rwmixread", "%", &p, &err),
			 -EINVAL);
	assert_int_equal(p, 70);
}

/* ---- CPU lists ---- */

static void test_cpu_list(void **state)
{
	struct ioc_err err = {0};
	cpu_set_t set, online;

	(void)state;
	assert_int_equal(
	    units_parse_cpu_list("cpus_allowed", "0-3,6,8-9", NULL, &set, &err),
	    0);
	assert_int_equal(CPU_COUNT(&set), 7);
	for (int c = 0; c <= 9; c++)
		assert_int_equal(!!CPU_ISSET(c, &set),
				 c <= 3 || c == 6 || c == 8 || c == 9);
	assert_int_equal(
	    units_parse_cpu_list("cpus_allowed", "5", NULL, &set, &err), 0);
	assert_int_equal(CPU_COUNT(&set), 1);
	assert_true(CPU_ISSET(5, &set));

	static const char *const bad[] = {"",	"a",  "3-1", "0,,1", "1-",
					  "-1", "0-", "1,",  "0 1",  "1.5"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(units_parse_cpu_list("cpus_allowed", bad[i],
						      NULL, &set, &err),
				 -EINVAL);
		msg_has(&err, "cpus_allowed=");
		msg_has(&err, "accepted");
	}
	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    units_parse_cpu_list("cpus_allowed", "5000", NULL, &set, &err),
	    -ERANGE);
	msg_has(&err, "beyond");

	CPU_ZERO(&online);
	CPU_SET(0, &online);
	CPU_SET(1, &online);
	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    units_parse_cpu_list("cpus_allowed", "0-2", &online, &set, &err),
	    -ERANGE);
	msg_has(&err, "cpus_allowed=0-2: CPU 2 is not online");
	msg_has(&err, "(0-1)");
	assert_int_equal(
	    units_parse_cpu_list("cpus_allowed", "1", &online, &set, &err), 0);
}

static void test_cpus_online(void **state)
{
	struct ioc_err err = {0};
	cpu_set_t online, set;
	char list[64];

	(void)state;
	if (units_online_cpus(&online) < 0) {
		printf(
		    "SKIP: /sys/devices/system/cpu/online is not readable\n");
		skip();
	}
	assert_true(CPU_COUNT(&online) >= 1);
	int first = 0;
	while (!CPU_ISSET(first, &online))
		first++;
	snprintf(list, sizeof(list), "%d", first);
	assert_int_equal(units_parse_cpus("cpus_allowed", list, &set, &err), 0);
	assert_true(CPU_ISSET(first, &set));
	snprintf(list, sizeof(list), "%d", CPU_SETSIZE - 1);
	if (!CPU_ISSET(CPU_SETSIZE - 1, &online)) {
		assert_int_equal(
		    units_parse_cpus("cpus_allowed", list, &set, &err),
		    -ERANGE);
		msg_has(&err, "not online");
	}
}

static void test_format(void **state)
{
	char buf[64];
	cpu_set_t set;

	(void)state;
	assert_string_equal(units_format_size(buf, sizeof(buf), 4096), "4k");
	assert_string_equal(units_format_size(buf, sizeof(buf), GiB), "1g");
	assert_string_equal(units_format_size(buf, sizeof(buf), 1536), "1536");
	assert_string_equal(units_format_size(buf, sizeof(buf), 0), "0");
	assert_string_equal(units_format_time(buf, sizeof(buf), 10 * SEC),
			    "10s");
	assert_string_equal(units_format_time(buf, sizeof(buf), 120 * SEC),
			    "2m");
	assert_string_equal(units_format_time(buf, sizeof(buf), 1500000),
			    "1500us");
	assert_string_equal(units_format_time(buf, sizeof(buf), 0), "0");
	CPU_ZERO(&set);
	assert_string_equal(units_format_cpus(buf, sizeof(buf), &set), "");
	for (int c = 0; c < 4; c++)
		CPU_SET(c, &set);
	CPU_SET(6, &set);
	assert_string_equal(units_format_cpus(buf, sizeof(buf), &set), "0-3,6");
}

/* ---- the option table ---- */

static void fresh(struct job_spec *spec)
{
	job_spec_init(spec);
	options_set_defaults(spec);
}

static void apply_ok(struct job_spec *spec, const char *key, const char *v)
{
	struct ioc_err err = {0};

	if (options_apply(spec, key, v, &err))
		fail_msg("%s=%s refused: %s", key, v ? v : "(bare)", err.msg);
}

/* Apply key=v to a default spec, expect code; the message must name the
 * option and the spec must be unchanged. */
static void apply_bad(const char *key, const char *v, int code,
		      const char *want)
{
	struct job_spec spec, before;
	struct ioc_err err = {0};

	fresh(&spec);
	memcpy(&before, &spec, sizeof(spec));
	assert_int_equal(options_apply(&spec, key, v, &err), code);
	assert_int_equal(err.usage, 1);
	msg_has(&err, want);
	assert_memory_equal(&spec, &before, sizeof(spec));
	job_spec_free(&spec);
}


/* ---- the whole job as text (MPI agreement) and as JSON ---- */

static char *job_text(const struct job_spec *spec)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(options_write_job(spec, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Values that a custom row accepts, two each; a new custom row must be
 * given its own here (the test says so). */
static const struct {
	const char *key, *v[2];
} custom_values[] = {
	{"filename", {"/tmp/a", "/tmp/b"}},
	{"random_distribution", {"zipf:1.2", "zipf:1.3"}},
	{"verify", {"1", "0"}},
	{"verify_pattern", {"0xdeadbeef", "\"ab\"%o"}},
	{"vd", {"raid0,strip=64k,members=/tmp/a:/tmp/b", "raid0,strip=128k,members=/tmp/a:/tmp/b"}},
	{"ioengine", {"psync", "null"}},
	{"cpus_allowed", {"0", "0-1"}},
	{"startdelay", {"2s", "1s-3s"}},
	/* pacing and fio logs (logs helper) */
	{"rate_iops", {"5", "6,7"}},
	{"rate", {"1m", "2m,1m"}},
	{"rate_min", {"1k", ",2k"}},
	{"rate_iops_min", {"5", "6,7"}},
	{"rate_cycle", {"500", "700"}},
	{"thinktime", {"10", "20ms"}},
	{"thinktime_spin", {"1", "2"}},
	{"log_avg_msec", {"100", "200"}},
	{"log_hist_msec", {"100", "200"}},
	{"log_hist_coarseness", {"1", "2"}},
	{"filesize", {"1m", "64k-1m"}},
	{"file_service_type", {"zipf:1.2", "zipf:1.2:0.5"}},
	/* generator (issue 14, gen) */
	{"size", {"8k", "50%"}},
	{"offset", {"4k", "10%"}},
	{"bs", {"4k", "4k,8k"}},
	{"rw", {"randread", "randread:8"}},
	{"bsrange", {"4k-8k", "4k-16k,8k-8k"}},
	{"bssplit", {"4k/50:8k/50", "4k/10:8k/90"}},
	{"blockalign", {"0", "8k"}},
	{"percentage_random", {"100", "50,20"}},
	{"continue_on_error", {"read", "all"}},
	{"log_compression", {"1k", "64k"}},
	{"ignore_error", {"EIO", ",ENOSPC:EIO"}},
	{"randrepeat", {"1", "0"}},
	/* fix-opts (issue 14) */
	{"prio", {"1", "2"}},
	{"prioclass", {"1", "2"}},
	/* job options behind single fio examples (fix-opts2) */
	{"steadystate", {"iops:10%", "bw_slope:1m"}},
	{"latency_target", {"500", "2ms"}},
	{"latency_window", {"500", "2ms"}},
	{"latency_percentile", {"99.9", "50"}},
	/* fio's iologs (issue 16) */
	{"replay_time_scale", {"50", "200"}},
	{"replay_skip", {"read", "write,trim"}},
	{"merge_blktrace_scalars", {"50:100", "100"}},
	{"merge_blktrace_iters", {"2:1", "1"}},
	{"percentile_list", {"99.9:50", "1:99"}},
	/* placement (issue 20): libnuma checks the nodes against this machine */
	{"numa_cpu_nodes", {"0", "all"}},
	{"numa_mem_policy", {"local", "bind:0"}},
};

/* Two values for row o that it accepts; NULL when the test has none. */
static const char *const *row_values(const struct option_def *o)
{
	static const char *const by_type[][2] = {
	    [OPT_SIZE] = {"8k", "16k"},	   [OPT_TIME] = {"3s", "4s"},
	    [OPT_UINT] = {"7", "9"},	   [OPT_PERCENT] = {"7", "9"},
	    [OPT_BOOL] = {"1", "0"},	   [OPT_STRING] = {"x", "y"},
	};
	static const char *enum_v[2];

	/* a row with a narrow range has its own values too */
	for (size_t i = 0; i < sizeof(custom_values) / sizeof(custom_values[0]); i++)
		if (!strcmp(custom_values[i].key, o->name))
			return custom_values[i].v;
	if (o->type == OPT_ENUM) {
		enum_v[0] = o->values[0].name;
		enum_v[1] = o->values[1].name;
		return enum_v;
	}
	if (o->type != OPT_CUSTOM)
		return by_type[o->type];
	return NULL;
}

/* Every job row is in the text, and changing any one of them changes it:
 * ranks that differ in any option (verify, journal, force...) disagree. */
static void test_job_text_every_row(void **state)
{
	const struct option_def *o;

	(void)state;
	for (size_t i = 0; (o = options_row(i)); i++) {
		/* rows that store nothing (fio options refused unless off) */
		if (o->scope != OPT_SCOPE_JOB || o->type == OPT_IGNORED || !o->size)
			continue;
		const char *const *v = row_values(o);
		if (!v)
			fail_msg("%s: give test_job_text_every_row two values for it", o->name);
		struct job_spec a, b;
		fresh(&a);
		fresh(&b);
		apply_ok(&a, o->name, v[0]);
		apply_ok(&b, o->name, v[1]);
		char *ta = job_text(&a), *tb = job_text(&b);
		if (!strcmp(ta, tb))
			fail_msg("%s=%s and %s=%s give the same job text", o->name,
				 v[0], o->name, v[1]);
		free(ta);
		free(tb);
		job_spec_free(&a);
		job_spec_free(&b);
	}
}

/* The same job gives the same text, and the four fields the agreement
 * once missed are named in it. */
static void test_job_text_stable(void **state)
{
	struct job_spec a, b;

	(void)state;
	fresh(&a);
	fresh(&b);
	apply_ok(&a, "journal", "/tmp/j");
	apply_ok(&b, "journal", "/tmp/j");
	char *ta = job_text(&a), *tb = job_text(&b);
	assert_string_equal(ta, tb);
	for (const char *const *k = (const char *const[]){"\nverify=", "\nverify_fatal=",
		     "\njournal=6:/tmp/j\n", "\nforce=", NULL}; *k; k++)
		if (!strstr(ta, *k))
			fail_msg("job text has no '%s':\n%s", *k, ta);
	free(ta);
	free(tb);
	job_spec_free(&a);
	job_spec_free(&b);
}

/* json_emit_job names every job row (runtime and ramp_time in ns). */
static void test_json_job_every_row(void **state)
{
	static const struct { const char *row, *key; } renamed[] = {
	    {"runtime", "runtime_ns"}, {"ramp_time", "ramp_ns"},
	    {"startdelay", "startdelay_ns"},
	    /* pacing and fio logs (logs helper) */
	    {"rate", "rate_bps"}, {"rate_min", "rate_min_bps"},
	    {"rate_cycle", "rate_cycle_ns"}, {"thinktime", "thinktime_ns"},
	    {"thinktime_spin", "thinktime_spin_ns"},
	    {"thinktime_iotime", "thinktime_iotime_ns"},
	    {"log_avg_msec", "log_avg_ns"}, {"log_hist_msec", "log_hist_ns"},
	};
	size_t len = 0;
	const struct option_def *row;
	struct job_spec spec;
	char *buf = NULL;
	struct jw w;

	(void)state;
	fresh(&spec);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f, 0);
	json_emit_job(&w, &spec);
	assert_int_equal(jw_finish(&w), 0);
	assert_int_equal(fclose(f), 0);
	json_object *o = json_tokener_parse(buf);
	assert_non_null(o);
	for (size_t i = 0; (row = options_row(i)); i++) {
		const char *key = row->name;
		if (row->scope != OPT_SCOPE_JOB || row->type == OPT_IGNORED ||
		    (row->flags & OPT_F_INVERT) || !row->size)
			continue;
		for (size_t r = 0; r < sizeof(renamed) / sizeof(renamed[0]); r++)
			if (!strcmp(renamed[r].row, key))
				key = renamed[r].key;
		if (!json_object_object_get_ex(o, key, NULL) &&
		    !(row->flags & OPT_F_JSON_OMIT_EMPTY)) /* vd: only in VD jobs */
			fail_msg("json_emit_job has no \"%s\": %s", key, buf);
	}
	json_object_put(o);
	free(buf);
	job_spec_free(&spec);
}

static void test_table_sane(void **state)
{
	size_t nr, nr_cli, nr_job;
	const struct option_def *o;
	const struct option_def *cli = options_cli_rows(&nr_cli);
	const struct option_def *job = job_option_rows(&nr_job);

	(void)state;
	for (nr = 0; options_row(nr); nr++)
		;
	assert_true(nr >= 20 && nr == nr_cli + nr_job);
	for (size_t i = 0; (o = options_row(i)); i++) {
		/* the command line's own rows, then the job's */
		assert_ptr_equal(o, i < nr_cli ? &cli[i] : &job[i - nr_cli]);
		assert_int_equal(o->scope, i < nr_cli ? OPT_SCOPE_CLI
						      : OPT_SCOPE_JOB);
		assert_non_null(o->name);
		if (!o->help || !o->help[0])
			fail_msg("%s: no help", o->name);
		assert_true(o->type != OPT_CUSTOM || o->parse);
		assert_true(o->type != OPT_CUSTOM || o->scope != OPT_SCOPE_JOB ||
			    o->show);
		assert_true(o->type != OPT_ENUM || o->values);
		assert_true(o->group < OPT_GROUP_COUNT);
		/* every name and alias finds its own row */
		assert_ptr_equal(options_find(o->name), o);
		for (size_t a = 0; a < 2; a++)
			if (o->alias[a])
				assert_ptr_equal(options_find(o->alias[a]), o);
	}
	/* a set_mask bit per job row: its place among them */
	assert_true(nr_job <= sizeof(((struct job_spec *)0)->set_mask) * 8);
	for (size_t i = 0; i < nr_job; i++)
		assert_int_equal(options_bit(&job[i]), i);
}

/* Every default parses, through the same path as the user's values. */
static void test_defaults_parse(void **state)
{
	const struct option_def *o;
	struct run_config cfg = {0};
	struct job_spec spec;

	(void)state;
	fresh(&spec);
	for (size_t i = 0; (o = options_row(i)); i++) {
		struct ioc_err err = {0};

		if (!o->def)
			continue;
		int ret =
		    o->scope == OPT_SCOPE_JOB
			? options_apply(&spec, o->name, o->def, &err)
			: options_apply_cli(&cfg, o, o->def, &err);
		if (ret)
			fail_msg("default %s=%s: %s", o->name, o->def,
				 err.msg);
	}
	job_spec_free(&spec);
	run_config_free(&cfg);
}

static void test_defaults(void **state)
{
	struct job_spec spec;

	(void)state;
	fresh(&spec);
	assert_string_equal(spec.name, "job0");
	assert_null(spec.filename);
	assert_int_equal(spec.nr_files, 0);
	assert_int_equal(spec.size, 0);
	assert_int_equal(spec.offset, 0);
	assert_int_equal(spec.bs, 4096);
	assert_int_equal(spec.rw, RW_READ);
	assert_int_equal(spec.rwmixread, 50);
	assert_int_equal(spec.iodepth, 1);
	assert_int_equal(spec.numjobs, 1);
	assert_int_equal(spec.runtime_ns, 0);
	assert_int_equal(spec.ramp_ns, 0);
	assert_false(spec.time_based);
	assert_string_equal(spec.ioengine, "io_uring");
	assert_false(spec.direct);
	assert_int_equal(spec.rate_iops, 0);
	assert_int_equal(spec.dist, DIST_UNIFORM);
	assert_false(spec.cpus_set);
	assert_int_equal(spec.randseed, 0x89);
	assert_int_equal(spec.set_mask[0], 0);
	assert_int_equal(spec.set_mask[1], 0);
	job_spec_free(&spec);
}

static void test_apply_values(void **state)
{
	struct job_spec s;

	(void)state;
	fresh(&s);
	apply_ok(&s, "bs", "64k");
	assert_int_equal(s.bs, 65536);
	apply_ok(&s, "blocksize", "8k");
	assert_int_equal(s.bs, 8192);
	apply_ok(&s, "size", "1g");
	assert_int_equal(s.size, GiB);
	apply_ok(&s, "offset", "1m");
	assert_int_equal(s.offset, 1 << 20);
	apply_ok(&s, "rw", "randwrite");
	assert_int_equal(s.rw, RW_RANDWRITE);
	apply_ok(&s, "readwrite", "readwrite");
	assert_int_equal(s.rw, RW_RW);
	apply_ok(&s, "rw", "randrw");
	assert_int_equal(s.rw, RW_RANDRW);
	apply_ok(&s, "rw", "read");
	assert_int_equal(s.rw, RW_READ);
	apply_ok(&s, "rw", "write");
	assert_int_equal(s.rw, RW_WRITE);
	apply_ok(&s, "rw", "randread");
	assert_int_equal(s.rw, RW_RANDREAD);
	apply_ok(&s, "rw", "rw");
	assert_int_equal(s.rw, RW_RW);
	apply_ok(&s, "rwmixread", "70");
	assert_int_equal(s.rwmixread, 70);
	apply_ok(&s, "rwmixwrite", "30");
	assert_int_equal(s.rwmixread, 70);
	apply_ok(&s, "rwmixwrite", "100");
	assert_int_equal(s.rwmixread, 0);
	apply_ok(&s, "iodepth", "65536");
	assert_int_equal(s.iodepth, 65536);
	apply_ok(&s, "numjobs", "4");
	assert_int_equal(s.numjobs, 4);
	apply_ok(&s, "runtime", "1m");
	assert_int_equal(s.runtime_ns, 60 * SEC);
	apply_ok(&s, "runtime", "30");
	assert_int_equal(s.runtime_ns, 30 * SEC);
	apply_ok(&s, "ramp_time", "500ms");
	assert_int_equal(s.ramp_ns, 500000000ull);
	apply_ok(&s, "time_based", NULL);
	assert_true(s.time_based);
	apply_ok(&s, "time_based", "0");
	assert_false(s.time_based);
	apply_ok(&s, "ioengine", "psync");
	assert_string_equal(s.ioengine, "psync");
	apply_ok(&s, "ioengine", "null");
	assert_string_equal(s.ioengine, "null");
	apply_ok(&s, "direct", "1");
	assert_true(s.direct);
	apply_ok(&s, "buffered", NULL);
	assert_false(s.direct);
	apply_ok(&s, "buffered", "0");
	assert_true(s.direct);
	apply_ok(&s, "direct", NULL);
	assert_true(s.direct);
	apply_ok(&s, "rate_iops", "1000");
	assert_int_equal(s.rate_iops, 1000);
	apply_ok(&s, "random_distribution", "zipf:1.2");
	assert_int_equal(s.dist, DIST_ZIPF);
	assert_true(s.zipf_theta > 1.19 && s.zipf_theta < 1.21);
	apply_ok(&s, "random_distribution", "zipf:0.5");
	assert_true(s.zipf_theta > 0.49 && s.zipf_theta < 0.51);
	apply_ok(&s, "random_distribution", "zipf:100");
	apply_ok(&s, "random_distribution", "random");
	assert_int_equal(s.dist, DIST_UNIFORM);
	apply_ok(&s, "random_distribution", "uniform");
	assert_int_equal(s.dist, DIST_UNIFORM);
	apply_ok(&s, "randseed", "42");
	assert_int_equal(s.randseed, 42);
	apply_ok(&s, "cpus_allowed", "0");
	assert_true(s.cpus_set);
	assert_true(CPU_ISSET(0, &s.cpus_allowed));
	apply_ok(&s, "name", "my-job");
	assert_string_equal(s.name, "my-job");
	apply_ok(&s, "filename", "/tmp/a:/tmp/b");
	assert_int_equal(s.nr_files, 2);
	assert_string_equal(s.files[0], "/tmp/a");
	assert_string_equal(s.files[1], "/tmp/b");
	apply_ok(&s, "filename", "/tmp/c");
	assert_int_equal(s.nr_files, 1);
	assert_string_equal(s.filename, "/tmp/c");
	job_spec_free(&s);
}

static void test_apply_bad_values(void **state)
{
	char longname[JOB_NAME_MAX + 8];

	(void)state;
	apply_bad("bs", "0", -ERANGE, "bs=0");
	apply_bad("bs", "2g", -ERANGE,
		  "bs=2g: out of range; accepted: 1 to 1g");
	apply_bad("bs", "4x", -EINVAL, "bs=4x");
	apply_bad("blocksize", "4q", -EINVAL, "bs=4q");
	apply_bad("iodepth", "0", -ERANGE, "iodepth=0");
	apply_bad("iodepth", "65537", -ERANGE, "iodepth=65537");
	apply_bad("numjobs", "0", -ERANGE, "numjobs=0");
	apply_bad("numjobs", "1025", -ERANGE, "numjobs");
	apply_bad("rwmixread", "150", -ERANGE, "rwmixread=150");
	apply_bad("rwmixwrite", "101", -ERANGE, "rwmixwrite=101");
	apply_bad("runtime", "-5", -EINVAL, "runtime=-5");
	apply_bad("runtime", "10x", -EINVAL, "runtime=10x");
	apply_bad("ramp_time", "-1s", -EINVAL, "ramp_time=-1s");
	apply_bad("size", "-1", -EINVAL, "size=-1");
	apply_bad("rw", "sideways", -EINVAL, "rw=sideways");
	/* the trim modes are fio's too (test_fio_trim runs them) */
	apply_bad("rw", "trimread", -EINVAL,
		  "read, write, randread, randwrite, rw, readwrite, "
		  "randrw, trim, randtrim, trimwrite, randtrimwrite");
	apply_bad("direct", "maybe", -EINVAL, "direct=maybe");
	apply_bad("time_based", "2", -EINVAL, "time_based=2");
	apply_bad("ioengine", "windowsaio", -EINVAL,
		  "ioengine=windowsaio: unknown engine; accepted:");
	apply_bad("ioengine", "", -EINVAL, "ioengine=");
	apply_bad("random_distribution", "zipf:0", -ERANGE,
		  "random_distribution=zipf:0");
	apply_bad("random_distribution", "zipf:1", -ERANGE, "zipf:1");
	apply_bad("random_distribution", "zipf:1.0", -ERANGE, "zipf:1.0");
	apply_bad("random_distribution", "zipf:101", -ERANGE, "zipf:101");
	apply_bad("random_distribution", "zipf:-2", -EINVAL, "zipf:-2");
	apply_bad("random_distribution", "zipf:nan", -EINVAL, "zipf:nan");
	apply_bad("random_distribution", "zipf:", -EINVAL, "zipf:");
	/* fio's: bare zipf is zipf:1.1, pareto needs 0 < h < 1 */
	apply_bad("random_distribution", "pareto:1", -ERANGE,
		  "random_distribution=pareto:1: pareto parameter out of range");
	apply_bad("random_distribution", "zoned:50/50:40/50", -ERANGE,
		  "access shares add up to 90%, not 100%");
	apply_bad("random_distribution", "zipf:1.2:0.5", -EINVAL,
		  "a center ':C' is not supported");
	/* fio refuses more than 100% only with shares missing */
	apply_bad("bssplit", "4k/60:8k/60:16k", -ERANGE, "more than 100%");
	apply_bad("bsrange", "4k", -EINVAL, "not a range MIN-MAX");
	apply_bad("rw", "read:-4x", -EINVAL, "rw=read:-4x: '-4x' is not a size");
	apply_bad("randseed", "x", -EINVAL, "randseed=x");
	apply_bad("rate_iops", "-1", -EINVAL, "rate_iops=-1");
	apply_bad("cpus_allowed", "3-1", -EINVAL, "cpus_allowed=3-1");
	apply_bad("cpus_allowed", "99999", -ERANGE, "cpus_allowed=99999");
	apply_bad("filename", "", -EINVAL, "filename=");
	apply_bad("filename", ":", -EINVAL, "filename=:: no path");
	apply_bad("filename", ":::", -EINVAL, "no path");
	apply_bad("name", "", -EINVAL, "name=");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	apply_bad("name", longname, -ERANGE, "too long");
	/* bare keys are booleans only */
	apply_bad("bs", NULL, -EINVAL, "option 'bs' needs a value (bs=SIZE)");
	apply_bad("rw", NULL, -EINVAL, "option 'rw' needs a value");
}

static void test_key_spelling(void **state)
{
	struct job_spec s;

	(void)state;
	fresh(&s);
	apply_ok(&s, "time-based", NULL);
	assert_true(s.time_based);
	apply_ok(&s, "ramp-time", "2s");
	assert_int_equal(s.ramp_ns, 2 * SEC);
	apply_ok(&s, "RAMP_TIME", "3s");
	assert_int_equal(s.ramp_ns, 3 * SEC);
	apply_ok(&s, "random-distribution", "zipf:1.1");
	assert_int_equal(s.dist, DIST_ZIPF);
	apply_ok(&s, "rate-iops", "5");
	assert_int_equal(s.rate_iops, 5);
	assert_ptr_equal(options_find("output_format"),
			 options_find("output-format"));
	assert_ptr_equal(options_find("cpus-allowed"),
			 options_find("cpus_allowed"));
	assert_null(options_find("time_base"));
	assert_null(options_find("time_based_"));
	assert_null(options_find(""));
	job_spec_free(&s);
}

static void test_set_mask(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};
	unsigned bs_bit = options_bit(options_find("bs"));

	(void)state;
	fresh(&s);
	assert_false(options_is_set(&s, "bs"));
	apply_ok(&s, "blocksize", "8k");
	assert_true(s.set_mask[bs_bit / 64] & (1ull << (bs_bit % 64)));
	/* the ground floor's helpers read the same bit, by place or name */
	assert_true(job_row_was_set(&s, bs_bit));
	assert_true(job_option_was_set(&s, "bs"));
	assert_true(job_option_was_set(&s, "blocksize"));
	assert_false(job_option_was_set(&s, "iodepth"));
	assert_false(job_option_was_set(&s, "nonsense"));
	assert_true(options_is_set(&s, "bs"));
	assert_true(options_is_set(&s, "blocksize"));
	assert_false(options_is_set(&s, "iodepth"));
	assert_false(options_is_set(&s, "nonsense"));

	/* a refused value sets nothing */
	assert_int_equal(options_apply(&s, "iodepth", "0", &err), -ERANGE);
	assert_false(options_is_set(&s, "iodepth"));

	/* rows sharing a field count as one */
	apply_ok(&s, "buffered", NULL);
	assert_true(options_is_set(&s, "direct"));
	apply_ok(&s, "rwmixwrite", "20");
	assert_true(options_is_set(&s, "rwmixread"));

	/* defaults chosen later do not override the user, nor count as set */
	assert_int_equal(options_set_default(&s, "bs", "4k", &err), 0);
	assert_int_equal(s.bs, 8192);
	assert_int_equal(options_set_default(&s, "direct", "1", &err), 0);
	assert_false(s.direct);
	assert_int_equal(options_set_default(&s, "iodepth", "32", &err), 0);
	assert_int_equal(s.iodepth, 32);
	assert_false(options_is_set(&s, "iodepth"));
	job_spec_free(&s);
}

static void test_unknown_and_unsupported(void **state)
{
	(void)state;
	apply_bad("foo", "1", -EINVAL, "unknown option 'foo'");
	apply_bad("blocksizee", "4k", -EINVAL, "unknown option 'blocksizee'");
	apply_bad("kb_base", "1000", -EINVAL,
		  "fio option 'kb_base' is not supported by iochar");
	apply_bad("write-barrier", "1", -EINVAL,
		  "fio option 'write-barrier' is not supported");
	apply_bad("verify", "crc33", -EINVAL, "unknown verify method 'crc33'");
	apply_bad("verify_pattern", "0xzz", -EINVAL, "cannot read the pattern");
	/* fio file options iochar does not do: one line saying why */
	apply_bad("opendir", "/nonexistent-dir", -ENOENT, "opendir=/nonexistent-dir");
	apply_bad("lockfile", "exclusive", -ENOTSUP, "lockfile=exclusive: file locking");
	apply_bad("lockfile", "readwrite", -ENOTSUP, "lockfile=readwrite");
	apply_bad("filesize", "2m-1m", -EINVAL, "filesize=2m-1m: HIGH is below LOW");
	apply_bad("filesize", "1m-x", -EINVAL, "filesize");
	apply_bad("filesize", "-1m", -EINVAL, "filesize=-1m");
	apply_bad("file_service_type", "zipf:1", -EINVAL, "out of range");
	apply_bad("file_service_type", "gauss:1:2", -EINVAL, "center");
	apply_bad("file_service_type", "roundrobin:0", -EINVAL, "file_service_type");
	/* command-line-only options have no place in a job */
	apply_bad("output-format", "json", -EINVAL,
		  "option 'output-format' is only valid on the command line");
	apply_bad("output", "x", -EINVAL, "only valid on the command line");
}

/* groups (issue 14): startdelay=T and fio's range LO-HI; loops;
 * group_reporting is a real option now. */
static void test_group_options(void **state)
{
	struct job_spec s;

	(void)state;
	fresh(&s);
	assert_int_equal(s.loops, 1);
	apply_ok(&s, "startdelay", "2");
	assert_int_equal(s.startdelay_ns, 2000000000ull);
	assert_int_equal(s.startdelay_max_ns, 2000000000ull);
	apply_ok(&s, "startdelay", "300ms-1s");
	assert_int_equal(s.startdelay_ns, 300000000ull);
	assert_int_equal(s.startdelay_max_ns, 1000000000ull);
	apply_ok(&s, "wait_for_previous", NULL);
	assert_true(s.stonewall);
	apply_ok(&s, "group_reporting", NULL);
	assert_true(s.group_reporting);
	apply_ok(&s, "wait_for", "writers");
	assert_string_equal(s.wait_for, "writers");
	job_spec_free(&s);
	apply_bad("startdelay", "2s-1s", -ERANGE, "startdelay=2s-1s: the range ends before it starts");
	apply_bad("startdelay", "-1s", -EINVAL, "startdelay=-1s");
	apply_bad("startdelay", "1s-x", -EINVAL, "startdelay");
	apply_bad("loops", "-1", -EINVAL, "loops");
}

static void test_ignored_options(void **state)
{
	struct job_spec s, before;

	(void)state;
	fresh(&s);
	memcpy(&before, &s, sizeof(s));
	apply_ok(&s, "threads", "4");
	assert_true(options_is_set(&s, "threads"));
	memcpy(s.set_mask, before.set_mask, sizeof(s.set_mask));
	assert_memory_equal(&s, &before, sizeof(s));
	job_spec_free(&s);
}

static void test_help(void **state)
{
	size_t len = 0;
	const struct option_def *o;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	options_print_help(f);
	fclose(f);
	for (size_t i = 0; (o = options_row(i)); i++) {
		char want[64];

		snprintf(want, sizeof(want), "--%s", o->name);
		if (!strstr(text, want))
			fail_msg("--help lacks %s", want);
	}
	assert_non_null(strstr(text, "--bs=SIZE, --blocksize"));
	assert_non_null(strstr(text, "[default: 4k; 1..1g]"));
	assert_non_null(strstr(text, "[default: 1; 1..65536]"));
	assert_non_null(strstr(text, "[default: io_uring]"));
	assert_non_null(strstr(text, "randread, randwrite"));
	assert_non_null(strstr(text, "accepted and ignored"));
	assert_non_null(strstr(text, "--help, -h"));
	assert_non_null(strstr(text, "libaio"));
	assert_non_null(strstr(text, RUN_SCRATCH_FILE));
	/* no line is wider than 80 columns */
	for (char *line = text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		if (nl - line > 80)
			fail_msg("help line too long: %.*s", (int)(nl - line),
				 line);
	}
	free(text);
}

/* ---- run_config_parse ---- */

#define ARGV(...) ((char *[]){"run", __VA_ARGS__})
#define ARGC(...) ((int)(sizeof(ARGV(__VA_ARGS__)) / sizeof(char *)))
#define PARSE(cfg, err, ...)                                                   \
	run_config_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), cfg, err)

static void parse_ok(struct run_config *cfg, int argc, char **argv)
{
	struct ioc_err err = {0};

	if (run_config_parse(argc, argv, cfg, &err))
		fail_msg("%s: %s", argc > 1 ? argv[1] : "run", err.msg);
}

#define PARSE_OK(cfg, ...) parse_ok(cfg, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void parse_bad(int argc, char **argv, const char *want)
{
	struct run_config cfg;
	struct ioc_err err = {0};

	assert_true(run_config_parse(argc, argv, &cfg, &err) < 0);
	assert_int_equal(err.usage, 1);
	msg_has(&err, want);
	/* cfg is left empty */
	assert_null(cfg.jobs);
	assert_int_equal(cfg.nr_jobs, 0);
	assert_null(cfg.output);
}

#define PARSE_BAD(want, ...)                                                   \
	parse_bad(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), want)

static void test_run_no_arguments_is_scratch(void **state)
{
	struct run_config cfg;
	char *argv[] = {"run"};
	struct job_spec *j;

	(void)state;
	parse_ok(&cfg, 1, argv);
	assert_int_equal(cfg.nr_jobs, 1);
	assert_true(cfg.scratch);
	assert_int_equal(cfg.format, OUTPUT_NORMAL);
	assert_null(cfg.output);
	j = &cfg.jobs[0];
	assert_string_equal(j->name, "job0");
	assert_int_equal(j->nr_files, 1);
	assert_string_equal(j->files[0], RUN_SCRATCH_FILE);
	assert_int_equal(j->rw, RW_RANDREAD);
	assert_int_equal(j->bs, 4096);
	assert_int_equal(j->iodepth, 32);
	assert_true(j->direct);
	assert_int_equal(j->size, GiB);
	assert_int_equal(j->runtime_ns, 10 * SEC);
	assert_true(j->time_based);
	assert_string_equal(j->ioengine, "io_uring");
	/* scratch defaults are defaults: not marked as the user's */
	assert_false(options_is_set(j, "iodepth"));
	run_config_free(&cfg);
}

static void test_run_scratch_keeps_explicit(void **state)
{
	struct run_config cfg;
	struct job_spec *j;

	(void)state;
	PARSE_OK(&cfg, "--rw=write", "--bs", "64k", "--iodepth=4", "--buffered",
		 "--size=10m", "--runtime=3s", "--time_based=0");
	assert_true(cfg.scratch);
	j = &cfg.jobs[0];
	assert_string_equal(j->files[0], RUN_SCRATCH_FILE);
	assert_int_equal(j->rw, RW_WRITE);
	assert_int_equal(j->bs, 65536);
	assert_int_equal(j->iodepth, 4);
	assert_false(j->direct);
	assert_int_equal(j->size, 10 << 20);
	assert_int_equal(j->runtime_ns, 3 * SEC);
	assert_false(j->time_based);
	run_config_free(&cfg);

	/* only what was set is kept; the rest is scratch */
	PARSE_OK(&cfg, "--runtime=1", "--size=4m");
	j = &cfg.jobs[0];
	assert_int_equal(j->size, 4 << 20);
	assert_int_equal(j->runtime_ns, SEC);
	assert_true(j->time_based);
	assert_int_equal(j->iodepth, 32);
	assert_int_equal(j->rw, RW_RANDREAD);
	run_config_free(&cfg);
}

static void test_run_with_filename_uses_fio_defaults(void **state)
{
	struct run_config cfg;
	struct job_spec *j;

	(void)state;
	PARSE_OK(&cfg, "--filename=/tmp/iochar-test.dat", "--name=fast");
	assert_false(cfg.scratch);
	j = &cfg.jobs[0];
	assert_string_equal(j->name, "fast");
	assert_string_equal(j->files[0], "/tmp/iochar-test.dat");
	assert_int_equal(j->rw, RW_READ);
	assert_int_equal(j->iodepth, 1);
	assert_false(j->direct);
	assert_int_equal(j->size, 0);
	assert_false(j->time_based);
	run_config_free(&cfg);
}

static void test_run_null_engine(void **state)
{
	struct run_config cfg;

	(void)state;
	PARSE_OK(&cfg, "--ioengine=null");
	assert_false(cfg.scratch);
	assert_int_equal(cfg.jobs[0].nr_files, 0);
	assert_int_equal(cfg.jobs[0].size, GiB);
	assert_int_equal(cfg.jobs[0].iodepth, 1);
	assert_int_equal(cfg.jobs[0].rw, RW_READ);
	run_config_free(&cfg);

	PARSE_OK(&cfg, "--ioengine", "null", "--size=8m", "--rw=randrw",
		 "--iodepth=16", "--numjobs=2", "--time_based", "--runtime=2s");
	assert_int_equal(cfg.jobs[0].size, 8 << 20);
	assert_int_equal(cfg.jobs[0].rw, RW_RANDRW);
	assert_int_equal(cfg.jobs[0].numjobs, 2);
	assert_true(cfg.jobs[0].time_based);
	run_config_free(&cfg);
}

static void test_run_forms(void **state)
{
	struct run_config cfg;
	struct job_spec *j;

	(void)state;
	PARSE_OK(&cfg, "--ioengine=null", "--output-format=json",
		 "--output=/tmp/out.json", "--direct", "0", "--time-based",
		 "--bs", "16k", "--rw", "randwrite");
	assert_int_equal(cfg.format, OUTPUT_JSON);
	assert_string_equal(cfg.output, "/tmp/out.json");
	j = &cfg.jobs[0];
	assert_false(j->direct);
	assert_true(options_is_set(j, "direct"));
	assert_true(j->time_based);
	assert_int_equal(j->bs, 16384);
	assert_int_equal(j->rw, RW_RANDWRITE);
	run_config_free(&cfg);

	PARSE_OK(&cfg, "--ioengine=null", "--output_format", "csv", "--output",
		 "a.csv", "--output=b.csv");
	assert_int_equal(cfg.format, OUTPUT_CSV);
	assert_string_equal(cfg.output, "b.csv");
	run_config_free(&cfg);

	/* later options win, as in fio */
	PARSE_OK(&cfg, "--ioengine=null", "--bs=8k", "--bs=16k");
	assert_int_equal(cfg.jobs[0].bs, 16384);
	run_config_free(&cfg);
	run_config_free(NULL);
}

static void test_run_help(void **state)
{
	struct run_config cfg;
	struct ioc_err err = {0};

	(void)state;
	assert_int_equal(PARSE(&cfg, &err, "--help"), RUN_CONFIG_HELP);
	assert_null(cfg.jobs);
	assert_int_equal(PARSE(&cfg, &err, "-h"), RUN_CONFIG_HELP);
	assert_int_equal(PARSE(&cfg, &err, "--bs=0", "--help"),
			 RUN_CONFIG_HELP);
	assert_int_equal(PARSE(&cfg, &err, "--nonsense", "-h"),
			 RUN_CONFIG_HELP);
	assert_string_equal(err.msg, "");
	/* after "--", -h is a job file name */
	assert_true(PARSE(&cfg, &err, "--", "-h") < 0);
	msg_has(&err, "-h: cannot read job file");
}

static void test_run_errors(void **state)
{
	(void)state;
	PARSE_BAD("unknown option 'blocksizee'", "--blocksizee=4k");
	PARSE_BAD("bs=0", "--bs=0");
	PARSE_BAD("iodepth=0", "--iodepth=0");
	PARSE_BAD("rwmixread=150", "--rwmixread=150");
	PARSE_BAD("runtime=-5", "--runtime=-5");
	PARSE_BAD("rw=sideways", "--rw=sideways");
	PARSE_BAD("bs=4q", "--bs=4q");
	PARSE_BAD("ioengine=windowsaio", "--ioengine=windowsaio");
	PARSE_BAD(
	    "--output-format=xml: unknown format; accepted: normal, json, "
	    "json+, csv",
	    "--output-format=xml");
	PARSE_BAD("random_distribution=zipf:0", "--random_distribution=zipf:0");
	PARSE_BAD("option 'bs' needs a value", "--bs");
	PARSE_BAD("option 'output' needs a value", "--output");
	PARSE_BAD("unknown argument '-x'", "-x");
	PARSE_BAD("more than one job file ('a.fio' and 'b.fio')", "a.fio",
		  "b.fio");
	PARSE_BAD("direct=maybe", "--direct=maybe");
	PARSE_BAD("--output=: empty value", "--output=");
	/* cross-option checks */
	PARSE_BAD("job 'job0': size=1k is smaller than bs=4k", "--size=1k",
		  "--bs=4k", "--filename=/tmp/x");
	/* fio's iolog rows: replay_align a power of 2, scales from 1 */
	PARSE_BAD("replay_align=12288 is not a power of 2", "--replay_align=12k");
	PARSE_BAD("replay_time_scale=0: out of range", "--replay_time_scale=0");
	PARSE_BAD("read_iolog=/nonexistent/iochar.log: No such file", "--name=r",
		  "--read_iolog=/nonexistent/iochar.log");
}

static void test_run_ramp_ok(void **state)
{
	struct run_config cfg;

	(void)state;
	PARSE_OK(&cfg, "--ioengine=null", "--time_based", "--runtime=2",
		 "--ramp_time=1", "--rate_iops=1000");
	assert_int_equal(cfg.jobs[0].ramp_ns, SEC);
	assert_int_equal(cfg.jobs[0].rate_iops, 1000);
	run_config_free(&cfg);
	/* ramp before a size-bound run needs no runtime */
	PARSE_OK(&cfg, "--ioengine=null", "--ramp_time=1", "--size=1m");
	run_config_free(&cfg);
}

/* What base/ cannot check (the engine named, the VD grammar) is checked
 * before the row parses, with the row's old messages; a refused value
 * leaves the job as it was, and a bare key is the row's own error. */
static void test_checks_above_base(void **state)
{
	struct ioc_err err = {0};
	struct job_spec s;

	(void)state;
	fresh(&s);
	assert_int_equal(options_apply(&s, "ioengine", "nosuch", &err), -EINVAL);
	assert_string_equal(err.msg, "ioengine=nosuch: unknown engine; "
				     "accepted: io_uring, libaio, psync, sync, "
				     "vsync, pvsync, pvsync2, mmap, posixaio, "
				     "null, falloc, ftruncate, filecreate, "
				     "filestat, filedelete, net");
	assert_string_equal(s.ioengine, "io_uring");
	assert_false(options_is_set(&s, "ioengine"));
	assert_int_equal(options_set_default(&s, "ioengine", "nosuch", &err),
			 -EINVAL);
	err = (struct ioc_err){0};
	assert_int_not_equal(options_apply(&s, "vd", "raid9,strip=64k", &err), 0);
	assert_non_null(strstr(err.msg, "unknown level 'raid9'"));
	assert_string_equal(s.vd, "");
	assert_int_equal(options_check_value(options_find("bs"), "x", &err), 0);
	assert_int_equal(options_check_value(options_find("ioengine"), NULL,
					     &err), 0);
	assert_int_equal(options_apply(&s, "ioengine", "null", &err), 0);
	assert_true(options_is_set(&s, "ioengine"));
	/* the command line's own rows are never set on a job */
	assert_false(options_is_set(&s, "output-format"));
	job_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_good),
	    cmocka_unit_test(test_size_bad),
	    cmocka_unit_test(test_size_messages),
	    cmocka_unit_test(test_time),
	    cmocka_unit_test(test_uint),
	    cmocka_unit_test(test_bool),
	    cmocka_unit_test(test_percent),
	    cmocka_unit_test(test_cpu_list),
	    cmocka_unit_test(test_cpus_online),
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_table_sane),
	    cmocka_unit_test(test_job_text_every_row),
	    cmocka_unit_test(test_job_text_stable),
	    cmocka_unit_test(test_json_job_every_row),
	    cmocka_unit_test(test_defaults_parse),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_apply_values),
	    cmocka_unit_test(test_apply_bad_values),
	    cmocka_unit_test(test_key_spelling),
	    cmocka_unit_test(test_set_mask),
	    cmocka_unit_test(test_unknown_and_unsupported),
	    cmocka_unit_test(test_ignored_options),
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_run_no_arguments_is_scratch),
	    cmocka_unit_test(test_run_scratch_keeps_explicit),
	    cmocka_unit_test(test_run_with_filename_uses_fio_defaults),
	    cmocka_unit_test(test_run_null_engine),
	    cmocka_unit_test(test_run_forms),
	    cmocka_unit_test(test_run_help),
	    cmocka_unit_test(test_group_options),
	    cmocka_unit_test(test_run_errors),
	    cmocka_unit_test(test_run_ramp_ok),
	    cmocka_unit_test(test_checks_above_base),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_plan.c - plan files: cross products and their labels, [global]
 * inheritance, plan keys and their defaults, errors naming ORIGIN:LINE and
 * the key, command-line overrides, the built-in plans, and plan_load. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "charz/plan.h"
#include "charz/plan_run.h"
#include <math.h>
#include "cli/options.h"

#define MS     1000000ull
#define SEC    1000000000ull
#define ORIGIN "t.ini"

static void parse_ok_with(const char *text, const char *const *over,
			  unsigned nr_over, struct plan *p)
{
	struct ioc_err err = {0};

	if (plan_parse(text, ORIGIN, over, nr_over, p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(err.msg, "");
}

static void parse_ok(const char *text, struct plan *p)
{
	parse_ok_with(text, NULL, 0, p);
}

/* Expect plan_parse to fail with code and a usage message starting with
 * prefix and containing want. */
static void expect_bad(const char *text, const char *const *over,
		       unsigned nr_over, int code, const char *prefix,
		       const char *want)
{
	struct ioc_err err = {0};
	struct plan p;
	int ret;

	memset(&p, 0x5a, sizeof(p));
	ret = plan_parse(text, ORIGIN, over, nr_over, &p, &err);
	if (ret != code)
		fail_msg("got %d, want %d (%s)", ret, code, err.msg);
	assert_int_equal(err.usage, 1);
	if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
		fail_msg("message '%s' does not start with '%s'", err.msg,
			 prefix);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
	/* a failed parse leaves nothing to free */
	assert_null(p.steps);
	assert_null(p.source);
	assert_int_equal(p.nr_steps, 0);
}

/* A file error at line (0: "ORIGIN: "). */
static void parse_bad(const char *text, int code, unsigned line,
		      const char *want)
{
	char prefix[64];

	if (line)
		snprintf(prefix, sizeof(prefix), ORIGIN ":%u: ", line);
	else
		snprintf(prefix, sizeof(prefix), ORIGIN ": ");
	expect_bad(text, NULL, 0, code, prefix, want);
}

/* ---- cross products ---- */

static void test_cross_product(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[global]\n"
		 "ioengine=null\n"
		 "[random]\n"
		 "rw=randrw\n"
		 "bs=4k, 8k\n"
		 "rwmixread=100,0,70,50\n"
		 "[sequential]\n"
		 "rw=rw\n"
		 "bs=256k,1m\n"
		 "rwmixread=100,0\n"
		 "[single]\n"
		 "bs=64k\n",
		 &p);
	assert_int_equal(p.nr_steps, 2 * 4 + 2 * 2 + 1);
	assert_string_equal(p.name, ORIGIN);
	assert_non_null(p.source);

	/* the first key listed turns slowest */
	static const char *const labels[] = {
	    "random bs=4k rwmixread=100",
	    "random bs=4k rwmixread=0",
	    "random bs=4k rwmixread=70",
	    "random bs=4k rwmixread=50",
	    "random bs=8k rwmixread=100",
	    "random bs=8k rwmixread=0",
	    "random bs=8k rwmixread=70",
	    "random bs=8k rwmixread=50",
	    "sequential bs=256k rwmixread=100",
	    "sequential bs=256k rwmixread=0",
	    "sequential bs=1m rwmixread=100",
	    "sequential bs=1m rwmixread=0",
	    "single",
	};
	static const unsigned mix[] = {100, 0, 70, 50};
	for (unsigned i = 0; i < p.nr_steps; i++)
		assert_string_equal(p.steps[i].label, labels[i]);
	for (unsigned i = 0; i < 8; i++) {
		const struct plan_step *s = &p.steps[i];

		assert_string_equal(s->section, "random");
		assert_string_equal(s->job.name, "random");
		assert_int_equal(s->job.rw, RW_RANDRW);
		assert_int_equal(s->job.bs, i < 4 ? 4096 : 8192);
		assert_int_equal(s->job.rwmixread, mix[i % 4]);
		assert_string_equal(s->job.ioengine, "null");
		assert_true(options_is_set(&s->job, "bs"));
	}
	assert_string_equal(p.steps[11].job.name, "sequential");
	assert_int_equal(p.steps[11].job.rw, RW_RW);
	assert_int_equal(p.steps[11].job.bs, 1 << 20);
	assert_int_equal(p.steps[11].job.rwmixread, 0);
	assert_int_equal(p.steps[12].job.bs, 65536);
	plan_free(&p);
	plan_free(&p); /* a freed plan is empty: freeing it again is fine */
	plan_free(NULL);
}

/* Keys take their place where they first appear, also when a later line
 * (a section, or [global] itself) replaces their value. */
static void test_key_order(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[global]\n"
		 "rwmixread=70,30\n"
		 "rw=randrw\n"
		 "[a]\n"
		 "bs=4k,8k\n"
		 "[b]\n"
		 "bs=16k,32k\n"
		 "rwmixread=90\n"
		 "iodepth=1,2\n"
		 "blocksize=64k,128k\n", /* an alias: replaces bs */
		 &p);
	assert_int_equal(p.nr_steps, 4 + 4);
	assert_string_equal(p.steps[0].label, "a rwmixread=70 bs=4k");
	assert_string_equal(p.steps[1].label, "a rwmixread=70 bs=8k");
	assert_string_equal(p.steps[2].label, "a rwmixread=30 bs=4k");
	assert_string_equal(p.steps[3].label, "a rwmixread=30 bs=8k");
	assert_string_equal(p.steps[4].label, "b bs=64k iodepth=1");
	assert_string_equal(p.steps[7].label, "b bs=128k iodepth=2");
	assert_int_equal(p.steps[4].job.rwmixread, 90);
	assert_int_equal(p.steps[7].job.bs, 128 << 10);
	assert_int_equal(p.steps[7].job.iodepth, 2);
	plan_free(&p);
}

/* Rows storing into one field are one setting: the last written wins. */
static void test_shared_fields(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[global]\n"
		 "direct=1\n"
		 "buffered=1\n"
		 "rwmixread=10,20\n"
		 "[a]\n"
		 "direct=1\n"
		 "rwmixwrite=30\n"
		 "[b]\n",
		 &p);
	assert_int_equal(p.nr_steps, 1 + 2);
	assert_string_equal(p.steps[0].label, "a");
	assert_true(p.steps[0].job.direct);
	assert_int_equal(p.steps[0].job.rwmixread, 70);
	assert_false(p.steps[1].job.direct);
	assert_string_equal(p.steps[1].label, "b rwmixread=10");
	assert_int_equal(p.steps[2].job.rwmixread, 20);
	plan_free(&p);
}

/* Labels never overflow and say when they were cut. */
static void test_label_truncated(void **state)
{
	struct plan p;
	const struct plan_step *s;

	(void)state;
	parse_ok("[a-rather-long-section-name-that-takes-up-most-of-the-63]\n"
		 "randseed=1234567890123456789,2\n"
		 "random_distribution=zipf:1.10000000000000000000000,"
		 "zipf:1.2\n"
		 "ramp_time=1000000000000us,2s\n"
		 "runtime=100000000000000us,3s\n",
		 &p);
	assert_int_equal(p.nr_steps, 16);
	s = &p.steps[0];
	assert_true(strlen(s->label) < PLAN_LABEL_MAX);
	assert_int_equal(strncmp(s->label, "a-rather-long-section-name", 26),
			 0);
	assert_string_equal(s->label + strlen(s->label) - 3, "...");
	/* the last step's values are short: it fits */
	s = &p.steps[15];
	assert_string_equal(
	    s->label, "a-rather-long-section-name-that-takes-up-most-of-the-63 "
		      "randseed=2 random_distribution=zipf:1.2 ramp_time=2s "
		      "runtime=3s");
	plan_free(&p);
}

/* The limit is PLAN_MAX_STEPS, exactly. */
static void test_max_steps(void **state)
{
	static const char base[] = "[big]\n"
				   "bs=1k,2k\nrw=read,write\nrwmixread=1,2\n"
				   "iodepth=1,2\nnumjobs=1,2\nsize=1m,2m\n"
				   "offset=0,1m\nrandseed=1,2\nrate_iops=0,1\n"
				   "runtime=1s,2s\nramp_time=0s,1s\n"
				   "ioengine=null,psync\n";
	char text[512];
	struct plan p;

	(void)state;
	parse_ok(base, &p);
	assert_int_equal(p.nr_steps, PLAN_MAX_STEPS);
	assert_string_equal(p.steps[PLAN_MAX_STEPS - 1].job.ioengine, "psync");
	plan_free(&p);

	snprintf(text, sizeof(text), "%sdirect=0,1\n", base);
	parse_bad(text, -E2BIG, 1, "[big]: more than 4096 steps");
	/* the sum over sections counts too: the section that passes it */
	snprintf(text, sizeof(text), "[one]\nbs=1k,2k\n%s", base);
	parse_bad(text, -E2BIG, 3, "[big]: more than 4096 steps");
}

/* ---- [global] ---- */

static void test_global_inheritance(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[global]\n"
		 "ioengine=null\n"
		 "bs=4k,8k\n"
		 "mode=search\n"
		 "latency_limit=2ms\n"
		 "[first]\n"
		 "iodepth=8\n"
		 "filename=/tmp/a:/tmp/b\n"
		 "[global]\n"
		 "bs=16k\n"
		 "mode=fixed\n"
		 "[second]\n"
		 "[third]\n"
		 "mode=curve\n",
		 &p);
	assert_int_equal(p.nr_steps, 2 + 1 + 1);
	/* the list from [global] multiplies [first] */
	assert_string_equal(p.steps[0].label, "first bs=4k");
	assert_string_equal(p.steps[1].label, "first bs=8k");
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(p.steps[i].mode, STEP_SEARCH);
		assert_int_equal(p.steps[i].latency_limit_ns, 2 * MS);
		assert_int_equal(p.steps[i].job.iodepth, 8);
		assert_int_equal(p.steps[i].job.nr_files, 2);
	}
	/* each step owns its files */
	assert_ptr_not_equal(p.steps[0].job.files[0], p.steps[1].job.files[0]);
	/* a later [global] changes the sections after it only; a section's
	 * own values do not leak into the next */
	assert_string_equal(p.steps[2].label, "second");
	assert_int_equal(p.steps[2].mode, STEP_FIXED);
	assert_int_equal(p.steps[2].latency_limit_ns, 2 * MS);
	assert_int_equal(p.steps[2].job.bs, 16384);
	assert_int_equal(p.steps[2].job.iodepth, 1);
	assert_int_equal(p.steps[2].job.nr_files, 0);
	assert_string_equal(p.steps[2].job.ioengine, "null");
	assert_int_equal(p.steps[3].mode, STEP_CURVE);
	assert_string_equal(p.steps[3].job.name, "third");
	plan_free(&p);
}

static void test_syntax(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("; a comment\n"
		 "# another\n"
		 "  [ global ]  \r\n"
		 "Latency-Limit = 500us ; trailing comment\r\n"
		 "time_based\r\n"
		 "runtime=5s\n"
		 "[step one]\n"
		 "\tMODE\t=\tSearch\n"
		 "rw = randread\n"
		 "cpus_allowed=0,0\n" /* a CPU list: its commas are no list */
		 "name=renamed",      /* no newline at the end */
		 &p);
	assert_int_equal(p.nr_steps, 1);
	assert_string_equal(p.steps[0].section, "step one");
	assert_string_equal(p.steps[0].label, "step one");
	assert_string_equal(p.steps[0].job.name, "renamed");
	assert_int_equal(p.steps[0].mode, STEP_SEARCH);
	assert_int_equal(p.steps[0].latency_limit_ns, 500000);
	assert_true(p.steps[0].job.time_based);
	assert_true(p.steps[0].job.cpus_set);
	assert_int_equal(CPU_COUNT(&p.steps[0].job.cpus_allowed), 1);
	plan_free(&p);
}

/* ---- plan keys ---- */

static void test_plan_key_defaults(void **state)
{
	struct plan p;
	const struct plan_step *s;

	(void)state;
	parse_ok("[plain]\n", &p);
	assert_int_equal(p.nr_steps, 1);
	s = &p.steps[0];
	assert_string_equal(s->label, "plain");
	assert_int_equal(s->mode, STEP_FIXED);
	assert_int_equal(s->targets, TARGETS_EACH);
	assert_int_equal(s->latency_limit_ns, 0);
	assert_int_equal(s->latency_stat, LAT_STAT_MEAN);
	assert_int_equal(s->max_iodepth, 256);
	assert_int_equal(s->max_numjobs, 8);
	assert_int_equal(s->nr_points, 10);
	for (unsigned i = 0; i < 10; i++)
		assert_int_equal(s->points[i], 10 * (i + 1));
	assert_int_equal(s->stop_latency_ns, 0);
	assert_int_equal(s->fill_passes, 2);
	assert_int_equal(s->max_rounds, 25);
	assert_int_equal(s->round_ns, 60 * SEC);
	/* the workload has the option table's defaults, none marked set */
	assert_int_equal(s->job.bs, 4096);
	assert_int_equal(s->job.iodepth, 1);
	assert_string_equal(s->job.ioengine, "io_uring");
	assert_false(options_is_set(&s->job, "bs"));
	assert_null(s->job.filename);
	plan_free(&p);
}

static void test_plan_keys(void **state)
{
	struct plan p;
	const struct plan_step *s;

	(void)state;
	parse_ok("[c]\n"
		 "mode=curve\n"
		 "targets=scaling\n"
		 "latency-limit=3ms\n"
		 "latency_stat=p99.9\n"
		 "max_iodepth=64\n"
		 "max_numjobs=4\n"
		 "points=120, 10,50,10,1000,1\n"
		 "stop_latency=1s\n"
		 "fill_passes=0\n"
		 "max_rounds=5\n"
		 "round_time=2m\n"
		 "[pre]\n"
		 "mode=precondition\n"
		 "targets=parallel\n"
		 "latency_stat=p99\n"
		 "round_time=1500ms\n"
		 "fill_passes=8\n",
		 &p);
	assert_int_equal(p.nr_steps, 2);
	s = &p.steps[0];
	/* a list in points makes no steps */
	assert_string_equal(s->label, "c");
	assert_int_equal(s->mode, STEP_CURVE);
	assert_int_equal(s->targets, TARGETS_SCALING);
	assert_int_equal(s->latency_limit_ns, 3 * MS);
	assert_int_equal(s->latency_stat, LAT_STAT_P99_9);
	assert_int_equal(s->max_iodepth, 64);
	assert_int_equal(s->max_numjobs, 4);
	/* sorted, duplicates dropped */
	assert_int_equal(s->nr_points, 5);
	assert_int_equal(s->points[0], 1);
	assert_int_equal(s->points[1], 10);
	assert_int_equal(s->points[2], 50);
	assert_int_equal(s->points[3], 120);
	assert_int_equal(s->points[4], 1000);
	assert_int_equal(s->stop_latency_ns, SEC);
	assert_int_equal(s->fill_passes, 0);
	assert_int_equal(s->max_rounds, 5);
	assert_int_equal(s->round_ns, 120 * SEC);
	s = &p.steps[1];
	assert_int_equal(s->mode, STEP_PRECONDITION);
	assert_int_equal(s->targets, TARGETS_PARALLEL);
	assert_int_equal(s->latency_stat, LAT_STAT_P99);
	assert_int_equal(s->round_ns, 1500 * MS);
	assert_int_equal(s->fill_passes, 8);
	assert_int_equal(s->nr_points, 10);
	plan_free(&p);
}

static void test_points(void **state)
{
	char text[512];
	size_t used;
	struct plan p;

	(void)state;
	parse_ok("[c]\npoints=7\n", &p);
	assert_int_equal(p.steps[0].nr_points, 1);
	assert_int_equal(p.steps[0].points[0], 7);
	plan_free(&p);

	/* PLAN_MAX_POINTS values, all kept; one more is an error */
	used = (size_t)snprintf(text, sizeof(text), "[c]\npoints=1");
	for (unsigned i = 2; i <= PLAN_MAX_POINTS; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 ",%u", i * 10);
	parse_ok(text, &p);
	assert_int_equal(p.steps[0].nr_points, PLAN_MAX_POINTS);
	assert_int_equal(p.steps[0].points[PLAN_MAX_POINTS - 1], 640);
	plan_free(&p);
	snprintf(text + used, sizeof(text) - used, ",5\n");
	parse_bad(text, -E2BIG, 2, "more than 64 points");

	parse_bad("[c]\npoints=0,10\n", -ERANGE, 2, "points=0: out of range");
	parse_bad("[c]\npoints=10,1001\n", -ERANGE, 2,
		  "points=1001: out of range");
	parse_bad("[c]\npoints=10,,20\n", -EINVAL, 2,
		  "points=10,,20: empty value in the list");
	parse_bad("[c]\npoints=10%\n", -EINVAL, 2, "points=10%: not a whole");
}

/* ---- errors ---- */

static void test_errors(void **state)
{
	(void)state;
	parse_bad("[global]\nbs=4k\n[s]\nfoo=1\n", -EINVAL, 4,
		  "unknown key 'foo' (neither a workload option");
	parse_bad("[s]\ngtod_cpu=1\n", -EINVAL, 2,
		  "fio option 'gtod_cpu' is not supported");
	parse_bad("[s]\noutput-format=json\n", -EINVAL, 2,
		  "output-format: an option of the command itself");
	/* a bad value anywhere in a list, at its own line */
	parse_bad("[s]\nrw=read\nbs=4k,0,8k\n", -ERANGE, 3,
		  "bs=0: out of range");
	parse_bad("[s]\nrw=read,sideways\n", -EINVAL, 2,
		  "rw=sideways: not one of the accepted values");
	parse_bad("[s]\nbs=4k,,8k\n", -EINVAL, 2,
		  "bs=4k,,8k: empty value in the list");
	parse_bad("[s]\nbs=4k,\n", -EINVAL, 2, "empty value in the list");
	parse_bad("[s]\nbs\n", -EINVAL, 2, "option 'bs' needs a value");
	/* even in a [global] no step uses */
	parse_bad("[s]\n[global]\niodepth=0\n", -ERANGE, 3, "iodepth=0");

	/* lists where one value is required */
	parse_bad("[s]\nfilename=/tmp/a,/tmp/b\n", -EINVAL, 2,
		  "filename=/tmp/a,/tmp/b: a list where one value is "
		  "required (separate files with ':')");
	parse_bad("[s]\nname=a,b\n", -EINVAL, 2,
		  "name=a,b: a list where one value is required");
	parse_bad("[s]\nmode=fixed,search\n", -EINVAL, 2,
		  "mode=fixed,search: a list where one value is required");
	parse_bad("[s]\nlatency_limit=1ms,2ms\n", -EINVAL, 2,
		  "latency_limit=1ms,2ms: a list where one value");

	/* plan key values */
	parse_bad("[s]\nmode=fast\n", -EINVAL, 2,
		  "mode=fast: not one of the accepted values: fixed, search, "
		  "curve, precondition");
	parse_bad("[s]\ntargets=all\n", -EINVAL, 2,
		  "targets=all: not one of the accepted values: each, "
		  "parallel, scaling");
	parse_bad("[s]\nlatency_stat=p95\n", -EINVAL, 2,
		  "latency_stat=p95: not one of the accepted values: mean, "
		  "p99, p99.9");
	parse_bad("[s]\nmax_iodepth=0\n", -ERANGE, 2, "max_iodepth=0");
	parse_bad("[s]\nmax_numjobs=2000\n", -ERANGE, 2, "max_numjobs=2000");
	parse_bad("[s]\nfill_passes=9\n", -ERANGE, 2, "fill_passes=9");
	parse_bad("[s]\nmax_rounds=0\n", -ERANGE, 2, "max_rounds=0");
	parse_bad("[s]\nmode\n", -EINVAL, 2,
		  "mode: needs a value, e.g. mode=search");

	/* times need their unit */
	parse_bad("[global]\nlatency_limit=2\n[s]\n", -EINVAL, 2,
		  "latency_limit=2: give a unit, e.g. 2ms");
	parse_bad("[s]\nstop_latency=100\n", -EINVAL, 2,
		  "stop_latency=100: give a unit, e.g. 100ms");
	parse_bad("[s]\nround_time=60\n", -EINVAL, 2,
		  "round_time=60: give a unit, e.g. 60s");
	parse_bad("[s]\nlatency_limit=2m\n", -EINVAL, 2,
		  "latency_limit=2m: 'm' means minutes; write 2ms");
	parse_bad("[s]\nlatency_limit=1.5ms\n", -EINVAL, 2,
		  "latency_limit=1.5ms: not a time");
	parse_bad("[s]\nlatency_limit=0ms\n", -ERANGE, 2,
		  "latency_limit=0ms: must be more than 0");
	parse_bad("[s]\nround_time=0s\n", -ERANGE, 2,
		  "round_time=0s: must be more than 0");

	/* a search needs a limit: the message names the section's line */
	parse_bad("[global]\nmode=search\n\n[rand]\nbs=4k\n", -EINVAL, 4,
		  "latency_limit: missing in [rand] (mode=search needs one");

	/* structure */
	parse_bad("bs=4k\n[s]\n", -EINVAL, 1, "bs: outside a section");
	parse_bad("; comment\nmode=search\n", -EINVAL, 2,
		  "mode: outside a section");
	parse_bad("[s]\n[t\n", -EINVAL, 2, "unterminated section header '[t'");
	parse_bad("[]\n", -EINVAL, 1, "empty section name");
	parse_bad("[s]\n=4k\n", -EINVAL, 2, "missing option name");
	parse_bad(
	    "[xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxx]\n",
	    -ERANGE, 1, "too long");

	/* nothing to run */
	parse_bad("", -EINVAL, 0, "no steps");
	parse_bad("; only comments\n", -EINVAL, 0, "no steps");
	parse_bad("[global]\nbs=4k,8k\n", -EINVAL, 0, "no steps");
}

/* ---- command-line overrides ---- */

static void test_overrides(void **state)
{
	static const char text[] = "[global]\n"
				   "rwmixread=100,0\n"
				   "direct=1\n"
				   "mode=search\n"
				   "[a]\n"
				   "rw=randrw\n"
				   "bs=4k\n"
				   "iodepth=2\n"
				   "[b]\n"
				   "rw=randrw\n";
	const char *const over[] = {
	    "--bs=8k,16k",     "iodepth=4", "latency_limit=1ms",
	    "rwmixread=70",    "buffered",  "--Max-Iodepth=16",
	    "ramp_time=1s,2s",
	};
	struct plan p;

	(void)state;
	parse_ok_with(text, over, sizeof(over) / sizeof(over[0]), &p);
	assert_int_equal(p.nr_steps, 2 * 2 + 2 * 2);
	/* a key the file had keeps its place; a new one comes last */
	assert_string_equal(p.steps[0].label, "a bs=8k ramp_time=1s");
	assert_string_equal(p.steps[1].label, "a bs=8k ramp_time=2s");
	assert_string_equal(p.steps[3].label, "a bs=16k ramp_time=2s");
	assert_string_equal(p.steps[4].label, "b bs=8k ramp_time=1s");
	for (unsigned i = 0; i < p.nr_steps; i++) {
		const struct plan_step *s = &p.steps[i];

		assert_int_equal(s->job.iodepth, 4);
		assert_int_equal(s->job.rwmixread, 70);
		assert_false(s->job.direct);
		assert_int_equal(s->mode, STEP_SEARCH);
		assert_int_equal(s->latency_limit_ns, MS);
		assert_int_equal(s->max_iodepth, 16);
	}
	assert_int_equal(p.steps[3].job.bs, 16384);
	assert_int_equal(p.steps[3].job.ramp_ns, 2 * SEC);
	plan_free(&p);
}

static void test_override_errors(void **state)
{
	static const char text[] = "[s]\nbs=4k\n";
	const char *bs0[] = {"bs=4k", "--bs=8k,0"};
	const char *foo[] = {"foo=1"};
	const char *unit[] = {"latency_limit=2"};
	const char *nokey[] = {"=3"};
	const char *fname[] = {"filename=/a,/b"};
	const char *search[] = {"mode=search"};

	(void)state;
	expect_bad(text, bs0, 2, -ERANGE,
		   "command line: ", "bs=0: out of range");
	expect_bad(text, foo, 1, -EINVAL,
		   "command line: ", "unknown key 'foo'");
	expect_bad(text, unit, 1, -EINVAL,
		   "command line: ", "latency_limit=2: give a unit, e.g. 2ms");
	expect_bad(text, nokey, 1, -EINVAL, "command line: ", "missing key");
	expect_bad(text, fname, 1, -EINVAL, "command line: ",
		   "filename=/a,/b: a list where one value is required");
	/* the section still names the step without a limit */
	expect_bad(text, search, 1, -EINVAL,
		   ORIGIN ":1: ", "latency_limit: missing in [s]");
	/* a file error comes first */
	expect_bad("[s]\nbs=0\n", foo, 1, -ERANGE, ORIGIN ":2: ", "bs=0");
}

/* ---- built-ins ---- */

static const struct plan_builtin *builtin(const char *name)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	fail_msg("no built-in plan '%s'", name);
	return NULL;
}

static void parse_builtin(const char *name, struct plan *p)
{
	struct ioc_err err = {0};
	char origin[64];
	/* raid-levels makes its VDs of the drives it is given */
	const char *drives[] = {"filename=a:b:c:d:e:f:g:h"};
	bool raid = !strcmp(name, "raid-levels");

	snprintf(origin, sizeof(origin), "plan %s", name);
	if (plan_parse(builtin(name)->text, origin, raid ? drives : NULL, raid, p, &err))
		fail_msg("%s", err.msg);
}

static void test_builtins_parse(void **state)
{
	static const struct {
		const char *name;
		unsigned steps;
	} want[] = {
	    {"whitepaper", 12}, {"four-corners", 4}, {"vdbench-curves", 4},
	    {"oltp", 1},	{"oracle", 1},	{"sql-server", 1},
	    {"dss", 1},		{"vdi-boot", 1}, {"vdi-login", 1},
	    {"quick", 4},	{"raid-levels", 32},
	};
	unsigned n = 0;

	(void)state;
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		n++;
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct plan_builtin *b = builtin(want[i].name);
		struct plan p;

		assert_true(strlen(b->summary) > 10);
		assert_int_equal(b->text[0],
				 ';'); /* a comment says what it is */
		parse_builtin(b->name, &p);
		assert_int_equal(p.nr_steps, want[i].steps);
		for (unsigned j = 0; j < p.nr_steps; j++) {
			/* the caller gives the targets */
			assert_null(p.steps[j].job.filename);
			if (p.steps[j].mode == STEP_SEARCH)
				assert_true(p.steps[j].latency_limit_ns > 0);
		}
		plan_free(&p);
	}
}

static void test_builtin_whitepaper(void **state)
{
	static const unsigned mix[] = {100, 0, 70, 50};
	struct plan p;

	(void)state;
	parse_builtin("whitepaper", &p);
	assert_int_equal(p.nr_steps, 2 * 4 + 2 * 2);
	for (unsigned i = 0; i < p.nr_steps; i++) {
		const struct plan_step *s = &p.steps[i];

		assert_int_equal(s->mode, STEP_SEARCH);
		assert_int_equal(s->latency_limit_ns, 2 * MS);
		assert_int_equal(s->latency_stat, LAT_STAT_MEAN);
		assert_true(s->job.direct);
		assert_true(s->job.time_based);
		assert_string_equal(s->job.ioengine, "io_uring");
		assert_int_equal(s->job.runtime_ns, 10 * SEC);
		assert_int_equal(s->job.ramp_ns, 2 * SEC);
		if (i < 8) {
			assert_int_equal(s->job.rw, RW_RANDRW);
			assert_int_equal(s->job.bs, i < 4 ? 4096 : 8192);
			assert_int_equal(s->job.rwmixread, mix[i % 4]);
		} else {
			assert_int_equal(s->job.rw, RW_RW);
			assert_int_equal(s->job.bs,
					 i < 10 ? 256 << 10 : 1 << 20);
			assert_int_equal(s->job.rwmixread, i % 2 ? 0 : 100);
		}
	}
	assert_string_equal(p.steps[2].label, "random bs=4k rwmixread=70");
	assert_string_equal(p.steps[11].label, "sequential bs=1m rwmixread=0");
	/* as the paper ran it: all targets at once and summed, each direction
	 * inside the limit, the random writes preconditioned */
	for (unsigned i = 0; i < p.nr_steps; i++) {
		assert_int_equal(p.steps[i].targets, TARGETS_PARALLEL);
		assert_int_equal(p.steps[i].latency_scope, LAT_SCOPE_EACH);
		assert_int_equal(p.steps[i].precondition, PRECOND_AUTO);
	}
	plan_free(&p);
	/* and told otherwise */
	static const char *const off[] = {"precondition=off", "targets=each"};
	struct ioc_err err = {0};
	assert_int_equal(plan_load("whitepaper", off, 2, &p, &err), 0);
	assert_int_equal(p.steps[1].precondition, PRECOND_OFF);
	assert_int_equal(p.steps[1].targets, TARGETS_EACH);
	plan_free(&p);
}

/* A precondition step runs PTS's workload (4K random write, QD 32 x 4
 * jobs) unless the section or the command line says otherwise; what is
 * given is honoured (the issue: --bs=8k was ignored). */
static void test_precondition_defaults(void **state)
{
	static const char *const over[] = {"bs=8k"};
	struct plan p;

	(void)state;
	parse_ok("[pre]\nmode=precondition\n[other]\n", &p);
	assert_int_equal(p.steps[0].job.rw, RW_RANDWRITE);
	assert_int_equal(p.steps[0].job.bs, 4096);
	assert_int_equal(p.steps[0].job.iodepth, PTS_IODEPTH);
	assert_int_equal(p.steps[0].job.numjobs, PTS_NUMJOBS);
	/* not a precondition step: the option table's defaults */
	assert_int_equal(p.steps[1].job.iodepth, 1);
	assert_int_equal(p.steps[1].job.numjobs, 1);
	plan_free(&p);

	parse_ok_with("[global]\niodepth=8\n[pre]\nmode=precondition\nrw=randrw\n"
		      "rwmixread=70\nnumjobs=2\n", over, 1, &p);
	assert_int_equal(p.steps[0].job.rw, RW_RANDRW);
	assert_int_equal(p.steps[0].job.rwmixread, 70);
	assert_int_equal(p.steps[0].job.bs, 8192);
	assert_int_equal(p.steps[0].job.iodepth, 8);
	assert_int_equal(p.steps[0].job.numjobs, 2);
	plan_free(&p);
}

/* latency_scope: each by default, total when asked, nothing else. */
static void test_latency_scope(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[a]\n[b]\nlatency_scope=total\n", &p);
	assert_int_equal(p.steps[0].latency_scope, LAT_SCOPE_EACH);
	assert_int_equal(p.steps[1].latency_scope, LAT_SCOPE_TOTAL);
	plan_free(&p);
	expect_bad("[a]\nlatency_scope=both\n", NULL, 0, -EINVAL, ORIGIN ":2: ",
		   "latency_scope=both: not one of the accepted values: each, total");
}

/* The estimate counts every fill still to come (2 passes of the target's
 * size at 500 MB/s, once per target) and every round, beside the runs:
 * here 2 x 1 GiB of fill, 2 x 3 rounds of 10 s, 8 search runs of 2 s. */
static void test_estimate_fill(void **state)
{
	struct plan p;

	(void)state;
	parse_ok("[global]\nfilename=/var/tmp/iochar-no-such-target\nsize=1g\n"
		 "max_rounds=3\nround_time=10s\ntime_based\nruntime=2s\n"
		 "[pre]\nmode=precondition\n"
		 "[w]\nmode=search\nlatency_limit=2ms\nrw=randwrite\n"
		 "precondition=auto\n", &p);
	double fill = 2.0 * (1ull << 30) / 500e6;
	double want = fill + 3 * 10 + 3 * 10 + 8 * 2;
	double got = (double)plan_time_estimate_ns(&p) / SEC;
	print_message("estimate %.2f s, want %.2f s\n", got, want);
	assert_true(fabs(got - want) < 0.01);
	plan_free(&p);
	/* without the preconditioning step the search's own fills */
	parse_ok("[w]\nfilename=/var/tmp/iochar-no-such-target\nsize=1g\n"
		 "mode=search\nlatency_limit=2ms\nrw=randrw\nprecondition=auto\n"
		 "max_rounds=3\nround_time=10s\n", &p);
	got = (double)plan_time_estimate_ns(&p) / SEC;
	assert_true(fabs(got - (fill + 30)) < 0.01);
	plan_free(&p);
}

static void test_builtin_details(void **state)
{
	struct plan p;
	uint64_t planned = 0;

	(void)state;
	parse_builtin("four-corners", &p);
	assert_string_equal(p.steps[0].label, "random-4k rw=randread");
	assert_string_equal(p.steps[3].label, "sequential-1m rw=write");
	assert_int_equal(p.steps[0].latency_limit_ns, 10 * MS);
	plan_free(&p);

	parse_builtin("vdbench-curves", &p);
	for (unsigned i = 0; i < p.nr_steps; i++) {
		const struct plan_step *s = &p.steps[i];

		assert_int_equal(s->mode, STEP_CURVE);
		assert_int_equal(s->nr_points, 12);
		assert_int_equal(s->points[0], 10);
		assert_int_equal(s->points[11], 120);
		assert_int_equal(s->stop_latency_ns, 100 * MS);
		assert_int_equal(s->job.rate_process, RATE_POISSON);
		assert_int_equal(s->job.iodepth * s->job.numjobs,
				 i < 2 ? 128 : 32);
	}
	plan_free(&p);

	parse_builtin("oltp", &p);
	assert_int_equal(p.steps[0].job.dist, DIST_ZIPF);
	assert_true(p.steps[0].job.zipf_theta > 1.09 &&
		    p.steps[0].job.zipf_theta < 1.11);
	assert_int_equal(p.steps[0].job.rwmixread, 70);
	assert_int_equal(p.steps[0].latency_limit_ns, 2 * MS);
	/* the data files and the redo log in one step (test_plan_apps runs it) */
	assert_int_equal(p.steps[0].nr_wl, 2);
	assert_int_equal(p.steps[0].wl[0].judge, WL_JUDGE_READ);
	assert_int_equal(p.steps[0].wl[1].judge, WL_JUDGE_WRITE);
	assert_int_equal(p.steps[0].wl[1].job.fdatasync_blocks, 1);
	assert_int_equal(p.steps[0].wl[1].job.rw, RW_WRITE);
	plan_free(&p);

	/* quick stays under ~40 s, counting a search as 8 points */
	parse_builtin("quick", &p);
	for (unsigned i = 0; i < p.nr_steps; i++) {
		const struct plan_step *s = &p.steps[i];
		uint64_t one = s->job.runtime_ns + s->job.ramp_ns;

		assert_true(s->job.time_based);
		assert_true(s->job.runtime_ns > 0);
		planned += s->mode == STEP_SEARCH ? 8 * one : one;
		assert_true(s->mode == STEP_SEARCH || s->mode == STEP_FIXED);
	}
	assert_true(planned <= 40 * SEC);
	assert_int_equal(p.steps[0].max_iodepth, 32);
	assert_int_equal(p.steps[0].max_numjobs, 2);
	plan_free(&p);
}

/* ---- plan_load ---- */

/* Work in a fresh directory, so a bare name cannot meet a stray file. */
struct tmpdir {
	char path[64];
	char old[4096];
};

static void enter_tmpdir(struct tmpdir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/iochar-plan-XXXXXX");
	if (!mkdtemp(d->path))
		fail_msg("mkdtemp: %s", strerror(errno));
	if (!getcwd(d->old, sizeof(d->old)) || chdir(d->path))
		fail_msg("chdir: %s", strerror(errno));
}

static void leave_tmpdir(struct tmpdir *d)
{
	if (chdir(d->old) || rmdir(d->path))
		fail_msg("leaving %s: %s", d->path, strerror(errno));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		fail_msg("write %s: %s", path, strerror(errno));
}

/* A NUL byte in a plan file cut it silently there ("bs=4k\0garbage" ran
 * as bs=4k, and what followed was never read); it is refused at its line
 * and column, as a job file's (issue 37 H9). */
static void test_load_nul(void **state)
{
	static const char text[] = "[global]\nioengine=null\n[x]\nbs=4k\0garbage\n"
				   "[y]\nbs=8k\n";
	struct ioc_err err = {0};
	struct tmpdir d;
	struct plan p;
	FILE *f;

	(void)state;
	enter_tmpdir(&d);
	f = fopen("nul.ini", "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f), sizeof(text) - 1);
	assert_int_equal(fclose(f), 0);
	memset(&p, 0x5a, sizeof(p));
	assert_int_equal(plan_load("nul.ini", NULL, 0, &p, &err), -EILSEQ);
	assert_int_equal(err.usage, 1);
	if (strncmp(err.msg, "nul.ini:4: NUL byte at column 6", 31))
		fail_msg("%s", err.msg);
	assert_null(p.steps);
	unlink("nul.ini");
	leave_tmpdir(&d);
}

static void test_load_file(void **state)
{
	static const char text[] = "[global]\nioengine=null\n[x]\nbs=4k,8k\n";
	const char *over[] = {"iodepth=3"};
	struct ioc_err err = {0};
	struct tmpdir d;
	struct plan p;
	char path[128];

	(void)state;
	enter_tmpdir(&d);
	snprintf(path, sizeof(path), "%s/my.ini", d.path);
	write_file(path, text);
	if (plan_load(path, over, 1, &p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(p.name, "my.ini");
	assert_string_equal(p.source, text);
	assert_int_equal(p.nr_steps, 2);
	assert_int_equal(p.steps[1].job.iodepth, 3);
	plan_free(&p);

	/* errors name the path given */
	write_file("bad.ini", "[x]\n\nbs=0\n");
	assert_int_equal(plan_load("bad.ini", NULL, 0, &p, &err), -ERANGE);
	assert_int_equal(strncmp(err.msg, "bad.ini:3: bs=0", 15), 0);
	assert_int_equal(err.usage, 1);

	/* a file takes precedence over the built-in of the same name */
	write_file("quick", text);
	memset(&err, 0, sizeof(err));
	if (plan_load("quick", NULL, 0, &p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(p.source, text);
	assert_int_equal(p.nr_steps, 2);
	plan_free(&p);

	unlink("quick");
	unlink("bad.ini");
	unlink(path);
	leave_tmpdir(&d);
}

static void test_load_builtin(void **state)
{
	const char *over[] = {"latency_limit=1ms", "filename=/tmp/x"};
	struct ioc_err err = {0};
	struct tmpdir d;
	struct plan p;

	(void)state;
	enter_tmpdir(&d);
	if (plan_load("whitepaper", over, 2, &p, &err))
		fail_msg("%s", err.msg);
	assert_string_equal(p.name, "whitepaper");
	assert_string_equal(p.source, builtin("whitepaper")->text);
	assert_int_equal(p.nr_steps, 12);
	for (unsigned i = 0; i < p.nr_steps; i++) {
		assert_int_equal(p.steps[i].latency_limit_ns, MS);
		assert_string_equal(p.steps[i].job.files[0], "/tmp/x");
	}
	plan_free(&p);

	/* a built-in's errors name it as "plan NAME" */
	const char *bad[] = {"max_iodepth=0"};
	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_load("quick", bad, 1, &p, &err), -ERANGE);
	assert_int_equal(strncmp(err.msg, "command line: max_iodepth=0", 27),
			 0);
	const char *search[] = {"mode=search", "latency_limit=0ms"};
	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_load("quick", search, 2, &p, &err), -ERANGE);

	leave_tmpdir(&d);
}

static void test_load_missing(void **state)
{
	struct ioc_err err = {0};
	struct plan p;

	(void)state;
	assert_int_equal(plan_load("no-such-plan", NULL, 0, &p, &err), -ENOENT);
	assert_int_equal(err.usage, 1);
	assert_string_equal(err.msg,
			    "no-such-plan: no such plan file or built-in plan "
			    "(built-ins: whitepaper, four-corners, "
			    "vdbench-curves, oltp, oracle, sql-server, dss, vdi-boot, "
			    "vdi-login, quick, raid-levels)");
	assert_null(p.steps);

	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_load("/nonexistent/quick", NULL, 0, &p, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "no such plan file"));

	memset(&err, 0, sizeof(err));
	assert_int_equal(plan_load("/tmp", NULL, 0, &p, &err), -EISDIR);
	assert_string_equal(err.msg,
			    "/tmp: cannot read plan file: Is a directory");
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(step_mode_name(STEP_FIXED), "fixed");
	assert_string_equal(step_mode_name(STEP_SEARCH), "search");
	assert_string_equal(step_mode_name(STEP_CURVE), "curve");
	assert_string_equal(step_mode_name(STEP_PRECONDITION), "precondition");
	assert_string_equal(step_mode_name((enum step_mode)99), "?");
	assert_string_equal(target_use_name(TARGETS_EACH), "each");
	assert_string_equal(target_use_name(TARGETS_PARALLEL), "parallel");
	assert_string_equal(target_use_name(TARGETS_SCALING), "scaling");
	assert_string_equal(target_use_name((enum target_use)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cross_product),
	    cmocka_unit_test(test_key_order),
	    cmocka_unit_test(test_shared_fields),
	    cmocka_unit_test(test_label_truncated),
	    cmocka_unit_test(test_max_steps),
	    cmocka_unit_test(test_global_inheritance),
	    cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_plan_key_defaults),
	    cmocka_unit_test(test_plan_keys),
	    cmocka_unit_test(test_points),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_overrides),
	    cmocka_unit_test(test_override_errors),
	    cmocka_unit_test(test_builtins_parse),
	    cmocka_unit_test(test_builtin_whitepaper),
	    cmocka_unit_test(test_precondition_defaults),
	    cmocka_unit_test(test_latency_scope),
	    cmocka_unit_test(test_estimate_fill),
	    cmocka_unit_test(test_builtin_details),
	    cmocka_unit_test(test_load_file),
	    cmocka_unit_test(test_load_builtin),
	    cmocka_unit_test(test_load_missing),
	    cmocka_unit_test(test_load_nul),
	    cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

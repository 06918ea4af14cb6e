/* test_job_options.c - what the job's rows drive below cli/: the checks
 * of values set without parsing (a plan's search sets iodepth itself), the
 * checks between options, the JSON members and their order, and the
 * report's table of the members it keeps. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/job_options.h"
#include "base/json_writer.h"
#include "cli/options.h"
#include "core/layout.h"
#include "harness.h"
#include "report/results_model.h"

static void fresh(struct job_spec *s)
{
	job_spec_init(s);
	job_options_set_defaults(s);
}

/* job_options_check at JOB_CHECK_RUN refuses spec with one line naming
 * the job and every word of want. */
static void expect_refused(const struct job_spec *spec, const char *want)
{
	struct ioc_err err = {0};

	assert_int_not_equal(job_options_check(spec, JOB_CHECK_RUN, &err), 0);
	assert_true(err.usage);
	expect_has(err.msg, "job job0");
	expect_has(err.msg, want);
	assert_null(strchr(err.msg, '\n'));
}

#define FIELD(f) offsetof(struct job_spec, f), sizeof(((struct job_spec *)0)->f)

/* Values stored without parsing are checked as parsing would have. */
static void test_values_checked(void **state)
{
	static const struct {
		size_t off, size;
		uint64_t v;
		const char *want;
	} bad[] = {
		{FIELD(iodepth), 0, "iodepth=0"},
		{FIELD(bs), 0, "bs=0"},
		{FIELD(numjobs), 2000, "numjobs=2000"},
		{FIELD(rwmixread), 101, "rwmixread=101"},
		{FIELD(rate_iops), 2000000000ull, "rate_iops=2000000000"},
	};
	struct job_spec s;

	(void)state;
	fresh(&s);
	assert_int_equal(job_options_check(&s, JOB_CHECK_RUN, NULL), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *field = (char *)&s + bad[i].off;

		fresh(&s);
		if (bad[i].size == sizeof(uint64_t))
			*(uint64_t *)field = bad[i].v;
		else
			*(unsigned *)field = (unsigned)bad[i].v;
		expect_refused(&s, bad[i].want);
	}
	fresh(&s);
	s.dist = DIST_ZIPF;
	s.zipf_theta = 1.0;
	expect_refused(&s, "theta must be > 0 and not 1");
}

/* The checks between options: time_based needs runtime when the job is
 * about to run, not yet when it was just parsed; size >= bs at both. */
static void test_between_options(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};

	(void)state;
	fresh(&s);
	s.time_based = true;
	assert_int_equal(job_options_check(&s, JOB_CHECK_PARSE, NULL), 0);
	expect_refused(&s, "time_based needs runtime=");
	fresh(&s);
	s.size = 1024;
	assert_int_equal(job_options_check(&s, JOB_CHECK_PARSE, &err), -EINVAL);
	expect_has(err.msg, "size=1k is smaller than bs=4k");
}

/* rate_iops has its limit in the row: refused when parsed, in --help. */
static void test_rate_limit_in_row(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};

	(void)state;
	fresh(&s);
	assert_int_equal(options_apply(&s, "rate_iops", "1000000000", &err), 0);
	assert_int_equal(options_apply(&s, "rate_iops", "1000000001", &err), -ERANGE);
	expect_has(err.msg, "rate_iops=1000000001");
	expect_has(err.msg, "1000000000");
}

static void write_members(FILE *f, const void *spec)
{
	struct jw w;

	jw_init(&w, f, 0);
	jw_object_begin(&w);
	job_options_emit_json(&w, spec);
	jw_object_end(&w);
	assert_int_equal(jw_finish(&w), 0);
}

static json_object *emitted(const struct job_spec *s)
{
	char *text = capture_text(write_members, s);
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	free(text);
	return o;
}

/* The members come in the order files have always had them (docs/output.md),
 * every stored row has one, and json_seq numbers are 1..N without gaps. */
static void test_json_order(void **state)
{
	static const char *const order[] = {
	    "name", "filename", "files", "size", "offset", "bs", "rw",
	    "rwmixread", "iodepth", "numjobs", "runtime_ns", "ramp_ns",
	    "time_based", "ioengine", "direct", "rate_iops", "rate_process",
	    "random_distribution", "cpus_allowed", "randseed", "verify",
	    "verify_fatal", "journal", "force",
	    /* fio's batching (issue 23) */
	    "iodepth_batch_submit", "iodepth_batch_complete_min",
	    "iodepth_batch_complete_max", "iodepth_low",
	    /* groups (issue 14) */
	    "cpus_allowed_policy", /* issue 20; its numa_* strings are left out when "" */
	    "group_reporting", "thread", "stonewall", "new_group", "wait_for",
	    "startdelay_ns", "loops",
	    /* verify methods as fio's */
	    "do_verify", "verify_only", "verify_interval", "verify_offset",
	    "verify_pattern", "verify_dump", "verify_backlog",
	    "verify_backlog_batch", "verify_async", "verify_state_save",
	    "verify_state_load", "verify_header_seed", "experimental_verify",
	    /* engines: flushes */
	    "fsync", "fdatasync", "end_fsync", "fsync_on_close", "sync",
	    /* pacing and fio logs (logs helper) */
	    "rate_bps", "rate_min_bps", "rate_iops_min", "rate_cycle_ns",
	    "rate_ignore_thinktime", "thinktime_ns", "thinktime_spin_ns",
	    "thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime_ns",
	    "write_bw_log", "write_iops_log", "write_lat_log", "write_hist_log",
	    "log_hist_ns", "log_hist_coarseness", "log_avg_ns",
	    "log_max_value", "log_offset", "log_prio", "log_compression",
	    "log_store_compressed", "per_job_logs",
	    /* files (issue 14) */
	    "nrfiles", "filesize", "directory", "filename_format",
	    "unique_filename", "unlink", "invalidate", "overwrite",
	    "allow_file_create", "create_serialize", "openfiles", "fallocate",
	    "file_service_type", "create_on_open", "pre_read", "create_only",
	    "file_append",
	    /* generator (issue 14, gen) */
	    "bsrange", "bssplit", "blockalign", "bs_unaligned", "bs_is_seq_rand",
	    "offset_increment", "io_size", "number_ios", "rw_sequencer",
	    "norandommap", "randrepeat", "allrandrepeat", "random_generator",
	    "percentage_random",
	    /* fix-opts (issue 14) */
	    "gtod_reduce", "exitall", "exit_what", "fill_device", "zonemode", "zonesize", "zonerange", "zoneskip", "prio", "prioclass",
	    /* job options behind single fio examples (fix-opts2) */
	    "flow_id", "flow", "flow_sleep", "io_submit_mode",
	    "buffer_compress_percentage", "buffer_compress_chunk",
	    "dedupe_percentage", "dedupe_mode", "dedupe_working_set_percentage",
	    "dedupe_global", "steadystate", "steadystate_duration",
	    "steadystate_ramp_time", "latency_target", "latency_window",
	    "latency_percentile",
	    /* fio's iologs (issue 16): the strings are left out when "" */
	    "read_iolog_chunked", "replay_no_stall", "replay_scale",
	    "replay_align", "replay_time_scale",
	    /* fio's percentile options (status) */
	    "clat_percentiles", "lat_percentiles", "slat_percentiles", "percentile_list",
	    "disk_util", "unified_rw_reporting", "continue_on_error", "ignore_error",
	    "error_dump",
	    /* fio's semantics (issue 35) */
	    "serialize_overlap", NULL,
	};
	struct job_spec s;
	size_t nr, i = 0;
	const struct option_def *rows = job_option_rows(&nr);

	(void)state;
	fresh(&s);
	json_object *o = emitted(&s);
	json_object_object_foreach(o, key, val) {
		(void)val;
		assert_non_null(order[i]);
		assert_string_equal(key, order[i]);
		i++;
	}
	assert_null(order[i]);
	json_object_put(o);
	/* json_seq: each of 1..N once; rows added later have 0 */
	unsigned max = 0, count = 0;
	for (size_t r = 0; r < nr; r++)
		if (rows[r].json_seq) {
			count++;
			max = rows[r].json_seq > max ? rows[r].json_seq : max;
			for (size_t q = 0; q < r; q++)
				assert_int_not_equal(rows[q].json_seq,
						     rows[r].json_seq);
		}
	assert_int_equal(count, max);
}

/* Every member the report keeps names a row, and the rows say whether
 * older files may lack it. */
static void test_report_fields(void **state)
{
	size_t nr;
	const struct rs_job_field *f = rs_job_fields(&nr);

	(void)state;
	assert_true(nr >= 19);
	for (size_t i = 0; i < nr; i++) {
		const struct option_def *o = rs_job_field_row(&f[i]);
		if (!o)
			fail_msg("rs_job keeps '%s': no such row", f[i].row);
		assert_true(job_option_stored(o));
	}
	assert_false(options_find("bs")->flags & OPT_F_JSON_OPTIONAL);
	assert_true(options_find("randseed")->flags & OPT_F_JSON_OPTIONAL);
}

/* The ground floor's rows store ioengine and vd as plain strings: what
 * they name is cli/'s check when parsed, and the run's when not. */
static void test_rows_below_cli(void **state)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);
	const struct option_def *eng = option_find_in(rows, nr, "ioengine");
	struct job_layout l = {0};
	struct ioc_err err = {0};
	struct job_spec s;

	(void)state;
	for (size_t i = 0; i < nr; i++)
		assert_int_equal(rows[i].scope, OPT_SCOPE_JOB);
	assert_null(option_find_in(rows, nr, "output-format"));
	fresh(&s);
	assert_int_equal(option_parse(eng, &s, "nosuch", &err), 0);
	assert_string_equal(s.ioengine, "nosuch");
	assert_int_not_equal(layout_job(&s, &l, &err), 0);
	expect_has(err.msg, "ioengine=nosuch: unknown; accepted:");
	layout_release(&l);
	/* too long for the field: refused, the field kept */
	char big[sizeof(s.vd) + 1];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	err = (struct ioc_err){0};
	assert_int_equal(option_parse(option_find_in(rows, nr, "vd"), &s, big,
				      &err), -E2BIG);
	expect_has(err.msg, "vd: longer than 4095 characters");
	assert_string_equal(s.vd, "");
	job_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_checked),
		cmocka_unit_test(test_between_options),
		cmocka_unit_test(test_rate_limit_in_row),
		cmocka_unit_test(test_json_order),
		cmocka_unit_test(test_report_fields),
		cmocka_unit_test(test_rows_below_cli),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

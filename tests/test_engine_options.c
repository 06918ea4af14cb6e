/* test_engine_options.c - engines' own options (engine_ops.options): fio's
 * names, their defaults (all zero), the refusal of another engine's option,
 * the job text MPI ranks compare, the JSON, --help, and runs with them;
 * and the engines' names said in errors, each engine of the table once. */
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
#include <sys/stat.h>

#include "base/json_writer.h"
#include "cli/options.h"
#include "engine/engine.h"
#include "engine/io_uring_opts.h"
#include "engine/pvsync2_opts.h"
#include "harness.h"
#include "output/json_parts.h"

static void fresh(struct job_spec *s)
{
	job_spec_init(s);
	options_set_defaults(s);
}

static void apply_ok(struct job_spec *s, const char *k, const char *v)
{
	struct ioc_err err = {0};

	if (options_apply(s, k, v, &err))
		fail_msg("%s=%s: %s", k, v ? v : "(bare)", err.msg);
}

static void write_text(FILE *f, const void *spec)
{
	assert_int_equal(options_write_job(spec, f), 0);
}

static void write_json(FILE *f, const void *spec)
{
	struct jw w;

	jw_init(&w, f, 0);
	json_emit_job(&w, spec);
	assert_int_equal(jw_finish(&w), 0);
}

static char *job_text(const struct job_spec *s)
{
	return capture_text(write_text, s);
}

static char *job_json(const struct job_spec *s)
{
	return capture_text(write_json, s);
}

/* Every engine option's default is all zero bytes (a job that names none
 * gets every default), and every row is found by its name. */
static void test_defaults_are_zero(void **state)
{
	unsigned rows = 0;

	(void)state;
	for (unsigned e = 0; engine_table[e]; e++)
		for (const struct option_def *o = engine_table[e]->options;
		     o && o->name; o++, rows++) {
			unsigned char blob[JOB_ENGINE_OPTS_MAX] = {0};
			const struct engine_ops *owner;

			assert_int_equal(o->scope, OPT_SCOPE_ENGINE);
			assert_true(o->off + o->size <= JOB_ENGINE_OPTS_MAX);
			assert_non_null(o->help);
			/* a row without a default (sqthread_poll_cpu) is
			 * unset at all zero */
			if (o->def)
				assert_int_equal(option_parse(o, blob, o->def,
							      NULL), 0);
			if (o->type != OPT_CUSTOM) /* custom: cannot tell */
				assert_false(option_differs_from_default(o, blob));
			for (size_t i = 0; i < sizeof(blob); i++)
				if (blob[i])
					fail_msg("%s: default is not zero", o->name);
			/* hipri, nowait, uncached: several engines have
			 * them; the job's engine's row is the one used */
			assert_ptr_equal(engine_option_resolve(
						 o->name, engine_table[e]->name,
						 &owner),
					 o);
			assert_ptr_equal(owner, engine_table[e]);
			assert_true(option_matches(options_find(o->name),
						   o->name));
		}
	assert_true(rows >= 5);
}

static void test_apply(void **state)
{
	struct job_spec s;
	const struct uring_opts *u = (const void *)s.engine_opts;

	(void)state;
	fresh(&s);
	assert_false(options_is_set(&s, "fixedbufs"));
	apply_ok(&s, "fixedbufs", "0");
	apply_ok(&s, "RegisterFiles", "no");
	apply_ok(&s, "hipri", NULL);
	assert_true(u->no_fixedbufs);
	assert_true(u->no_registerfiles);
	assert_true(u->hipri);
	assert_false(u->sqthread_poll);
	assert_string_equal(s.engine_opts_of, "io_uring");
	assert_true(options_is_set(&s, "fixedbufs"));
	assert_false(options_is_set(&s, "sqthread_poll"));
	assert_false(options_is_set(&s, "userspace_reap"));

	struct ioc_err err = {0};
	assert_int_equal(options_apply(&s, "userspace_reap", "1", &err), -EINVAL);
	assert_true(err.usage);
	expect_has(err.msg, "'userspace_reap'");
	expect_has(err.msg, "ioengine=libaio");
	expect_has(err.msg, "ioengine=io_uring");

	memset(&err, 0, sizeof(err));
	assert_int_equal(options_apply(&s, "fixedbufs", "maybe", &err), -EINVAL);
	expect_has(err.msg, "fixedbufs");
	job_spec_free(&s);
}

/* An option of another engine than the job's is refused, naming both. */
static void test_other_engine_refused(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};

	(void)state;
	fresh(&s);
	apply_ok(&s, "fixedbufs", "1");
	apply_ok(&s, "ioengine", "psync");
	assert_int_equal(engine_check_job(&s, &err), -EINVAL);
	assert_true(err.usage);
	expect_has(err.msg, "'fixedbufs'");
	expect_has(err.msg, "ioengine=io_uring");
	expect_has(err.msg, "ioengine=psync");
	apply_ok(&s, "ioengine", "io_uring");
	assert_int_equal(engine_check_job(&s, NULL), 0);
	job_spec_free(&s);
}

static void test_hipri_needs_direct(void **state)
{
	struct job_spec s;
	struct ioc_err err = {0};

	(void)state;
	fresh(&s);
	apply_ok(&s, "hipri", "1");
	assert_int_equal(engine_check_job(&s, &err), -EINVAL);
	expect_has(err.msg, "hipri=1 needs direct=1");
	apply_ok(&s, "direct", "1");
	assert_int_equal(engine_check_job(&s, NULL), 0);
	job_spec_free(&s);
}

/* hipri and nowait are io_uring's and pvsync2's: given to a job whose
 * engine is pvsync2 they are pvsync2's (its struct, its bits), and the
 * same names after ioengine=io_uring are io_uring's. */
static void test_shared_names(void **state)
{
	struct job_spec s;
	const struct pvsync2_opts *p = (const void *)s.engine_opts;
	struct ioc_err err = {0};

	(void)state;
	fresh(&s);
	apply_ok(&s, "ioengine", "pvsync2");
	apply_ok(&s, "hipri", "1");
	apply_ok(&s, "hipri_percentage", "30");
	apply_ok(&s, "nowait", "1");
	assert_string_equal(s.engine_opts_of, "pvsync2");
	assert_true(p->hipri && p->nowait);
	assert_int_equal(p->hipri_pct_off, 70);
	assert_true(options_is_set(&s, "nowait"));
	/* pvsync2's hipri does not need direct=1 (io_uring's does) */
	assert_int_equal(engine_check_job(&s, NULL), 0);
	apply_ok(&s, "uncached", "1");
	assert_int_equal(engine_check_job(&s, &err), -EINVAL);
	assert_true(err.usage);
	expect_has(err.msg, "uncached=1 is not supported");
	expect_has(err.msg, "RWF_ATOMIC");
	job_spec_free(&s);

	fresh(&s);
	apply_ok(&s, "nowait", "1");
	apply_ok(&s, "force_async", "2");
	apply_ok(&s, "nonvectored", "0");
	assert_string_equal(s.engine_opts_of, "io_uring");
	const struct uring_opts *u = (const void *)s.engine_opts;
	assert_true(u->nowait);
	assert_int_equal(u->force_async, 2);
	assert_int_equal(u->vectored, URING_VEC_VECTORED);
	assert_int_equal(engine_check_job(&s, NULL), 0);
	job_spec_free(&s);
}

/* MPI ranks compare the job text: an engine option changes it. */
static void test_job_text(void **state)
{
	struct job_spec a, b, c;

	(void)state;
	fresh(&a);
	fresh(&b);
	fresh(&c);
	apply_ok(&b, "fixedbufs", "0");
	apply_ok(&c, "ioengine", "libaio");
	apply_ok(&c, "userspace_reap", "1");
	char *ta = job_text(&a), *tb = job_text(&b), *tc = job_text(&c);
	assert_string_not_equal(ta, tb);
	assert_string_not_equal(ta, tc);
	expect_has(tb, "\nfixedbufs=1\n"); /* the stored no_fixedbufs */
	expect_has(tc, "\nuserspace_reap=1\n");
	free(ta);
	free(tb);
	free(tc);
	job_spec_free(&a);
	job_spec_free(&b);
	job_spec_free(&c);
}

/* The JSON names an engine option only where it is not the default, so
 * the JSON of a job without any stays what it was. */
static void test_json(void **state)
{
	struct job_spec s;

	(void)state;
	fresh(&s);
	char *plain = job_json(&s);
	assert_null(strstr(plain, "fixedbufs"));
	assert_null(strstr(plain, "sqthread_poll"));
	apply_ok(&s, "fixedbufs", "0");
	apply_ok(&s, "sqthread_poll", "0");
	char *set = job_json(&s);
	json_object *o = json_tokener_parse(set), *v;
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "fixedbufs", &v));
	assert_false(json_object_get_boolean(v));
	assert_false(json_object_object_get_ex(o, "sqthread_poll", NULL));
	assert_false(json_object_object_get_ex(o, "registerfiles", NULL));
	json_object_put(o);
	free(plain);
	free(set);
	job_spec_free(&s);
}

/* --help lists each engine's options under the engine. */
static void test_help(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	options_print_help(f);
	fclose(f);
	char *uring = strstr(text, "\n  io_uring "), *aio = strstr(text, "\n  libaio ");
	assert_non_null(uring);
	assert_non_null(aio);
	for (const char *const *k = ARGS("--fixedbufs", "--registerfiles",
					 "--sqthread_poll", "--hipri");
	     *k; k++) {
		char *at = strstr(text, *k);
		if (!at || at < uring || at > aio)
			fail_msg("%s is not listed under io_uring", *k);
	}
	char *reap = strstr(text, "--userspace_reap");
	assert_true(reap && reap > aio);
	free(text);
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* From the command line: one line, exit 2, nothing written. */
static void test_cli_refusal(void **state)
{
	const char *dir = *state;
	char fn[4300], target[4200];
	struct proc_out po;

	snprintf(target, sizeof(target), "%s/t.dat", dir);
	snprintf(fn, sizeof(fn), "--filename=%s", target);
	run_iochar(&po, dir, 0,
		   ARGS("run", fn, "--size=1m", "--rw=write", "--ioengine=psync",
			"--fixedbufs=1"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "fixedbufs");
	expect_has(po.err, "psync");
	assert_false(exists(target));
	proc_out_free(&po);

	run_iochar(&po, dir, 0,
		   ARGS("run", fn, "--size=1m", "--rw=write", "--hipri"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "hipri=1 needs direct=1");
	assert_false(exists(target));
	proc_out_free(&po);
}

/* A run moves the same bytes with buffers and files unregistered, with
 * libaio reaping in user space, and with a submission-polling thread (or
 * refuses that with a clear line where the kernel does not grant one). */
static void test_runs(void **state)
{
	const char *const *const cases[] = {
		ARGS("--ioengine=io_uring", "--fixedbufs=0", "--registerfiles=0"),
		ARGS("--ioengine=libaio", "--userspace_reap", "--direct=1"),
		ARGS("--ioengine=io_uring", "--sqthread_poll=1"),
		ARGS("--ioengine=io_uring", "--fixedbufs=0", "--nonvectored=0",
		     "--force_async=2"),
		ARGS("--ioengine=io_uring", "--sqthread_poll=1",
		     "--sqthread_poll_cpu=0"),
	};
	const char *dir = *state;
	char fn[4200];

	snprintf(fn, sizeof(fn), "--filename=%s/r.dat", dir);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const char *argv[16] = {"run", fn, "--size=1m", "--bs=4k",
					"--iodepth=8", "--rw=randread",
					"--output-format=json"};
		int n = 7;
		struct proc_out po;

		for (const char *const *a = cases[c]; *a; a++)
			argv[n++] = *a;
		argv[n] = NULL;
		run_iochar(&po, dir, 0, argv);
		if (po.status == 2 && strstr(po.err, "sqthread_poll=1")) {
			assert_int_equal(count_lines(po.err), 1);
			proc_out_free(&po);
			continue; /* not granted here: refused clearly */
		}
		if (po.status == 2 && strstr(po.err, "not available"))
			skip(); /* the engine itself is missing */
		if (po.status != 0)
			fail_msg("%s: status %d: %s", cases[c][0], po.status, po.err);
		json_object *o = parse_json(&po);
		assert_int_equal(jget_u64(o, "read.bytes"), 1u << 20);
		json_object_put(o);
		proc_out_free(&po);
	}
}

/* engine_names() lists the table: every engine once, in its order, and
 * nothing else (a hand-kept list missed or kept engines). */
static void test_engine_names_are_the_table(void **state)
{
	(void)state;
	char *names = strdup(engine_names()), *save = NULL;
	unsigned i = 0;

	assert_non_null(names);
	for (char *n = strtok_r(names, ", ", &save); n; n = strtok_r(NULL, ", ", &save), i++) {
		assert_non_null(engine_table[i]);
		assert_string_equal(n, engine_table[i]->name);
	}
	assert_null(engine_table[i]);
	assert_true(i > 10);
	free(names);
}

/* A synchronous engine (its queue() completes every I/O) has no commit,
 * getevents or event to stub out: NULL, as fio's ops treat them; every
 * other engine has all three. */
static void test_sync_engines_have_no_reap_hooks(void **state)
{
	(void)state;
	unsigned sync = 0;
	for (unsigned i = 0; engine_table[i]; i++) {
		const struct engine_ops *e = engine_table[i];
		bool is_sync = e->flags & ENGINE_SYNC;
		print_message("%s: %s\n", e->name, is_sync ? "synchronous" : "queues");
		assert_true(!e->commit == is_sync);
		assert_true(!e->getevents == is_sync);
		assert_true(!e->event == is_sync);
		assert_non_null(e->queue);
		sync += is_sync;
	}
	assert_true(sync >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_names_are_the_table),
		cmocka_unit_test(test_sync_engines_have_no_reap_hooks),
		cmocka_unit_test(test_defaults_are_zero),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_other_engine_refused),
		cmocka_unit_test(test_hipri_needs_direct),
		cmocka_unit_test(test_shared_names),
		cmocka_unit_test(test_job_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_help),
		cmocka_unit_test_setup_teardown(test_cli_refusal, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_runs, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_model_csv.c - the readers of `iochar model`: the CSV table reader
 * (util/csv_read.h), the figures table on it, the configuration INI; each
 * malformed input refused with one line naming file, line (and column),
 * and `iochar model` exiting 2 with that line; a NUL byte in any file it
 * reads refused, not taken as the text's end. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "harness.h"
#include "model/config_ini.h"
#include "model/figures.h"
#include "util/csv_read.h"

static void test_csv_reads_rfc4180(void **state)
{
	(void)state;
	struct csv_doc d;
	struct ioc_err err = {0};
	const char *text = "a,b,c\r\n1,\"x, \"\"y\"\"\",\r\n\n\"two\nlines\",,3";
	assert_int_equal(csv_doc_parse(text, "t.csv", &d, &err), 0);
	assert_int_equal(d.nr_cols, 3);
	assert_int_equal(d.nr_rows, 2);
	assert_string_equal(d.rows[0][1], "x, \"y\"");
	assert_string_equal(d.rows[0][2], "");
	assert_string_equal(d.rows[1][0], "two\nlines");
	assert_string_equal(d.rows[1][2], "3");
	assert_int_equal(d.line[0], 2);
	assert_int_equal(d.line[1], 4);
	assert_int_equal(csv_doc_col(&d, "c"), 2);
	assert_int_equal(csv_doc_col(&d, "z"), -1);
	csv_doc_free(&d);
}

static void expect_csv_error(const char *text, const char *want)
{
	struct csv_doc d;
	struct ioc_err err = {0};
	assert_int_equal(csv_doc_parse(text, "t.csv", &d, &err), -EINVAL);
	assert_true(err.usage);
	assert_null(strchr(err.msg, '\n'));
	if (strcmp(err.msg, want))
		fail_msg("got \"%s\", want \"%s\"", err.msg, want);
	csv_doc_free(&d);
}

static void test_csv_rejects_malformed(void **state)
{
	(void)state;
	expect_csv_error("", "t.csv: empty: no header line");
	expect_csv_error("a,b\n1,2,3\n", "t.csv:2: 3 fields, the header has 2");
	expect_csv_error("a,b\n1\n", "t.csv:2: 1 fields, the header has 2");
	expect_csv_error("a,b\n1,\"open\n", "t.csv:2:3: quoted field never closed");
	expect_csv_error("a,b\n1,x\"y\n", "t.csv:2:4: a quote inside an unquoted field");
	expect_csv_error("a,b\n\"x\"y,2\n", "t.csv:2:4: text after a closing quote");
	expect_csv_error("a,,b\n", "t.csv:1: column 2 has no name");
	expect_csv_error("a,b,a\n", "t.csv:1: column 'a' twice");
}

static const char head[] = "id,drive_type,drive_count,interface,controller,raid_level,"
			   "vd_count,disks_per_vd,access,read_pct,block_size_kib,metric,value\n";

static void expect_figs_error(const char *rows, const char *want)
{
	char text[1024];
	struct mdl_figs f;
	struct ioc_err err = {0};
	snprintf(text, sizeof(text), "%s%s", head, rows);
	assert_int_equal(mdl_figs_parse(text, "f.csv", &f, &err), -EINVAL);
	assert_true(err.usage);
	if (strcmp(err.msg, want))
		fail_msg("got \"%s\", want \"%s\"", err.msg, want);
	mdl_figs_free(&f);
}

static void test_figures_rejects_bad_fields(void **state)
{
	(void)state;
	expect_figs_error("X1,t,x,SAS,,,,,random,100,4,iops,1\n",
			  "f.csv:2: drive_count 'x': not a number");
	expect_figs_error("X1,t,2.5,SAS,,,,,random,100,4,iops,1\n",
			  "f.csv:2: drive_count 2.5: not a whole number");
	expect_figs_error("X1,t,2,SAS,,,,,random,120,4,iops,1\n",
			  "f.csv:2: read_pct 120: outside 0..100");
	expect_figs_error("X1,t,2,SAS,,,,,diagonal,100,4,iops,1\n",
			  "f.csv:2: access 'diagonal': expected random or sequential");
	expect_figs_error("X1,t,2,SAS,,R7,,,random,100,4,iops,1\n",
			  "f.csv:2: raid_level 'R7': expected JBOD, none, R0, R1, R5, R6, R10, R50 or R60");
	expect_figs_error("X1,t,2,SAS,,,,,random,100,4,furlongs,1\n",
			  "f.csv:2: metric 'furlongs': expected iops, MBps or limit_iops, limit_MBps");
	expect_figs_error(",t,2,SAS,,,,,random,100,4,iops,1\n", "f.csv:2: id: empty");
	struct mdl_figs f;
	struct ioc_err err = {0};
	assert_int_equal(mdl_figs_parse("id,access\nA,random\n", "f.csv", &f, &err), -EINVAL);
	assert_string_equal(err.msg, "f.csv:1: no column 'metric'");
	mdl_figs_free(&f);
	/* a plausible row of any shape is read: blanks, other levels */
	char text[512];
	snprintf(text, sizeof(text), "%s%s", head,
		 "X1,,,,,,,,sequential,,,limit_MBps,\nX2,t,3,SATA,RAID,R60,1,3,random,0,8,iops,\n"
		 "X3,t,2,SAS,,RAID 5,,,random,70%,4K,iops,\"3,000,000\"\n");
	memset(&err, 0, sizeof(err));
	if (mdl_figs_parse(text, "f.csv", &f, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(f.nr, 3);
	assert_true(f.rows[0].is_limit && f.rows[0].mbps);
	/* written by hand: a unit after the number, thousands separators */
	assert_true(f.rows[2].read_pct == 70 && f.rows[2].bs_kib == 4);
	assert_true(f.rows[2].value == 3e6);
	mdl_figs_free(&f);
}

static void expect_ini_error(const char *text, const char *want)
{
	struct mdl_cfg_file *cf = malloc(sizeof(*cf));
	struct ioc_err err = {0};
	assert_true(mdl_config_parse(text, "c.ini", cf, &err) < 0);
	assert_true(err.usage);
	if (strcmp(err.msg, want))
		fail_msg("got \"%s\", want \"%s\"", err.msg, want);
	free(cf);
}

static void test_config_ini(void **state)
{
	(void)state;
	struct mdl_cfg_file *cf = malloc(sizeof(*cf));
	struct ioc_err err = {0};
	const char *ok = "[config]\ndrives = 12\nraid = raid6\nstrip = 128k\n"
			 "[workload a]\nrw = randrw\nrwmixread = 70\nbs = 8k\niodepth = 8\nnumjobs = 2\n"
			 "latency_limit = 500us\n[workload b]\nrw = write\nbs = 1m\n";
	assert_int_equal(mdl_config_parse(ok, "c.ini", cf, &err), 0);
	assert_int_equal(cf->nr, 2);
	assert_int_equal(cf->c.layout.level, MDL_R6);
	assert_int_equal(cf->c.layout.strip_kib, 128);
	assert_int_equal(cf->c.path, MDL_PATH_RAID);
	assert_true(cf->w[0].random && cf->w[0].read_pct == 70 && cf->w[0].bs_kib == 8);
	assert_true(cf->w[0].outstanding_per_drive == 16);
	assert_true(cf->w[0].latency_limit_ms == 0.5);
	assert_true(!cf->w[1].random && cf->w[1].read_pct == 0 && cf->w[1].bs_kib == 1024);
	assert_string_equal(cf->name[1], "b");
	free(cf);
	expect_ini_error("[config]\nraid = R7\n[workload]\n",
			 "c.ini:2: raid=R7: expected JBOD, R0, R1, R5, R6, R10, R50 or R60");
	expect_ini_error("[config]\ndrvies = 3\n",
			 "c.ini:2: drvies: unknown key (docs/model.md lists them)");
	expect_ini_error("[config]\nrw = read\n", "c.ini:2: rw: belongs in a [workload NAME] section");
	expect_ini_error("[job]\n", "c.ini:1: [job]: expected [config] or [workload NAME]");
	expect_ini_error("[config]\ndrives = 3\n", "c.ini: no [workload NAME] section: nothing to predict");
	expect_ini_error("[workload]\nrw = sideways\n",
			 "c.ini:2: rw=sideways: expected randread, randwrite, randrw, read, write or rw");
}

/* The command: a malformed table is exit 2 with one line naming it. */
static void test_cli_errors(void **state)
{
	char *dir = *state, path[512];
	struct proc_out po;
	snprintf(path, sizeof(path), "%s/bad.csv", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "%sX1,t,2,SAS,,,,,random,1o0,4,iops,5\n", head);
	fclose(f);
	char arg[600];
	snprintf(arg, sizeof(arg), "--figures=%s", path);
	run_iochar(&po, NULL, 0, ARGS("model", "loo", arg));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "bad.csv:2: read_pct '1o0': not a number");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("model", "predict", "/nonexistent.json", arg));
	expect_exit(&po, 2);
	expect_has(po.err, "/nonexistent.json: No such file or directory");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("model", "forecast"));
	expect_exit(&po, 2);
	expect_has(po.err, "'forecast': expected fit, predict, loo or explain");
	proc_out_free(&po);
}

static void write_to(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* inventory= gives the NVMe drives' negotiated links: the fixture's two
 * drives on PCIe 4.0 x4 (a fit with no figures: link efficiency 0.9). */
static void test_config_inventory(void **state)
{
	char *dir = *state, inv[512], fit[512], cfg[512], arg[600];
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   ARGS("inventory", "--sysroot=tests/fixtures/inventory/nvme", "--output-format=json"));
	expect_exit(&po, 0);
	snprintf(inv, sizeof(inv), "%s/inv.json", dir);
	write_to(inv, po.out);
	proc_out_free(&po);
	snprintf(fit, sizeof(fit), "%s/fit.json", dir);
	write_to(fit, "{\"format\": \"iochar-model\", \"version\": 1}\n");
	snprintf(cfg, sizeof(cfg), "%s/c.ini", dir);
	static const struct {
		const char *extra;
		double mbps;
	} cases[] = {
		{"", 2 * 4 * 1969.2 * 0.9},
		{"pcie_lanes = 2\n", 2 * 2 * 1969.2 * 0.9}, /* the INI wins */
	};
	for (unsigned i = 0; i < 2; i++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "[config]\ninventory = %s\nseq_read_mbps = 9000\n%s[workload s]\nrw = read\nbs = 256k\n",
			 inv, cases[i].extra);
		write_to(cfg, text);
		snprintf(arg, sizeof(arg), "--config=%s", cfg);
		run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg, "--output-format=json"));
		expect_exit(&po, 0);
		json_object *arr = json_tokener_parse(po.out);
		assert_non_null(arr);
		json_object *o = json_object_array_get_idx(arr, 0);
		assert_string_equal(json_object_get_string(jget(o, "bound_by")), "drive-link");
		double got = jget_double(o, "mbps");
		if (got < cases[i].mbps * 0.999 || got > cases[i].mbps * 1.001)
			fail_msg("case %u: %.1f MB/s, want %.1f", i, got, cases[i].mbps);
		json_object_put(arr);
		proc_out_free(&po);
	}
}

/* Write len bytes of text (NUL bytes kept) to path. */
static void write_bytes(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A NUL byte ended the text where it stood: a figures table's rows after
 * it were dropped unread (its line said "12 fields, the header has 18"
 * when one was cut), and a fit file, configuration or inventory was read
 * short alike. Each now: exit 2, one line naming file, line and column. */
static void test_nul_refused(void **state)
{
	char *dir = *state, csv[512], fit[512], cfg[512], inv[512], arg[600], want[700];
	struct proc_out po;
	char text[2048];

	snprintf(csv, sizeof(csv), "%s/nul.csv", dir);
	int n = snprintf(text, sizeof(text), "%sX1,t,2,SAS,,,,,random,100,4,iops,5\n"
			 "@X2,t,4,SAS,,,,,random,100,4,iops,9\n", head);
	*strchr(text, '@') = '\0'; /* the start of line 3 */
	write_bytes(csv, text, (size_t)n);
	snprintf(arg, sizeof(arg), "--figures=%s", csv);
	run_iochar(&po, NULL, 0, ARGS("model", "loo", arg));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	snprintf(want, sizeof(want), "%s:3: NUL byte at column 1; the file must be text", csv);
	expect_has(po.err, want);
	proc_out_free(&po);

	snprintf(fit, sizeof(fit), "%s/fit.json", dir);
	write_bytes(fit, "{\"format\": \"iochar-model\", \"version\": 1}\n\0x", 44);
	snprintf(cfg, sizeof(cfg), "%s/c.ini", dir);
	write_to(cfg, "[config]\nseq_read_mbps = 9000\n[workload s]\nrw = read\nbs = 256k\n");
	snprintf(arg, sizeof(arg), "--config=%s", cfg);
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg));
	expect_exit(&po, 2);
	snprintf(want, sizeof(want), "%s:2: NUL byte at column 1", fit);
	expect_has(po.err, want);
	proc_out_free(&po);

	write_to(fit, "{\"format\": \"iochar-model\", \"version\": 1}\n");
	n = snprintf(text, sizeof(text), "[config]\nseq_read_mbps = 9000\n[workload s]\n"
		     "rw = read\nbs = 256k\n@[workload t]\nrw = write\n");
	*strchr(text, '@') = '\0';
	write_bytes(cfg, text, (size_t)n);
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg));
	expect_exit(&po, 2);
	snprintf(want, sizeof(want), "%s:6: NUL byte at column 1", cfg);
	expect_has(po.err, want);
	proc_out_free(&po);

	snprintf(inv, sizeof(inv), "%s/inv.json", dir);
	write_bytes(inv, "{\"block_devices\": []}\0", 22);
	snprintf(text, sizeof(text), "[config]\ninventory = %s\n[workload s]\nrw = read\n", inv);
	write_to(cfg, text);
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg));
	expect_exit(&po, 2);
	snprintf(want, sizeof(want), "inventory=%s:1: NUL byte at column 22", inv);
	expect_has(po.err, want);
	proc_out_free(&po);
}

/* -o by the rules of every results file (issue 37's audit): it was a
 * plain temporary file renamed over the path, so `model fit -o /dev/full`
 * turned the device node into a regular file and any existing file was
 * overwritten. Now a device is written directly (a full one: exit 1,
 * ENOSPC, the node kept), a file iochar did not write is refused without
 * --force (exit 2, kept), and an input is never the output. */
static void test_output_rules(void **state)
{
	char *dir = *state, fit[512], cfg[512], arg[600], dev[512], keep[512];
	struct proc_out po;
	struct stat st;

	snprintf(fit, sizeof(fit), "%s/fit.json", dir);
	write_to(fit, "{\"format\": \"iochar-model\", \"version\": 1}\n");
	snprintf(cfg, sizeof(cfg), "%s/c.ini", dir);
	write_to(cfg, "[config]\nseq_read_mbps = 9000\n[workload s]\nrw = read\nbs = 256k\n");
	snprintf(arg, sizeof(arg), "--config=%s", cfg);

	snprintf(keep, sizeof(keep), "%s/notes.txt", dir);
	write_to(keep, "mine\n");
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg, "-o", keep));
	expect_exit(&po, 2);
	expect_has(po.err, "not a results file iochar wrote");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	char *text = file_slurp(keep, NULL);
	assert_string_equal(text, "mine\n");
	free(text);
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg, "-o", keep, "--force"));
	expect_exit(&po, 0);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg, "-o", cfg));
	expect_exit(&po, 2);
	expect_has(po.err, "also an input");
	proc_out_free(&po);

	snprintf(dev, sizeof(dev), "%s/full", dir);
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 7)) < 0) {
		print_message("SKIP (the device part): mknod: %s (needs root)\n", strerror(errno));
		return;
	}
	run_iochar(&po, NULL, 0, ARGS("model", "predict", fit, arg, "-o", dev));
	expect_exit(&po, 1);
	expect_has(po.err, "No space left on device");
	proc_out_free(&po);
	assert_int_equal(stat(dev, &st), 0);
	assert_true(S_ISCHR(st.st_mode)); /* the node itself, not renamed over */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_reads_rfc4180),
		cmocka_unit_test(test_csv_rejects_malformed),
		cmocka_unit_test(test_figures_rejects_bad_fields),
		cmocka_unit_test(test_config_ini),
		cmocka_unit_test_setup_teardown(test_cli_errors, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_config_inventory, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_nul_refused, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_output_rules, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

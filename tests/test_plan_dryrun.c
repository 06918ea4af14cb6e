/* test_plan_dryrun.c - `iochar plan --dry-run` (and search, curve,
 * precondition): checked as a run would be, then the steps and the time
 * estimate, with nothing written: no target created, changed or laid
 * out, no results directory; its estimate is the run's first. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A plan that writes its targets: a PTS fill and rounds, then reads. */
static const char writes_plan[] =
	"[global]\nioengine=psync\nsize=4m\nruntime=1s\ntime_based\n"
	"[pre]\nmode=precondition\nfill_passes=1\nmax_rounds=1\nround_time=1s\n"
	"[reads]\nrw=randread\n";

/* (a) A target that does not exist stays so, and --out is not created. */
static void test_dry_run_missing_target(void **state)
{
	const char *dir = *state;
	char plan[4200], tgt[4200], out[4200], files[4300];
	snprintf(plan, sizeof(plan), "%s/p.ini", dir);
	snprintf(tgt, sizeof(tgt), "%s/missing.dat", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(files, sizeof(files), "--filename=%s", tgt);
	write_text(plan, writes_plan);
	struct proc_out po;
	run_iochar(&po, NULL, 0,
		   (const char *[]){"plan", plan, files, "--out", out, "--dry-run", NULL});
	expect_exit(&po, 0);
	expect_has(po.out, "step 1 of 2: pre (precondition)");
	expect_has(po.out, "step 2 of 2: reads (fixed)");
	expect_has(po.out, tgt);
	assert_false(file_exists(tgt));
	assert_false(file_exists(out));
	proc_out_free(&po);
}

/* (b) An existing target keeps its bytes and its mtime (--force: the
 * destructive-write guard would refuse it, as (c) checks). */
static void test_dry_run_existing_untouched(void **state)
{
	const char *dir = *state;
	char plan[4200], tgt[4200], files[4300];
	struct stat before, after;
	snprintf(plan, sizeof(plan), "%s/p.ini", dir);
	snprintf(tgt, sizeof(tgt), "%s/t.dat", dir);
	snprintf(files, sizeof(files), "--filename=%s", tgt);
	write_text(plan, writes_plan);
	make_file(tgt, 2 << 20); /* smaller than size=4m: a run would lay it out */
	uint64_t hash = file_hash(tgt);
	assert_int_equal(stat(tgt, &before), 0);
	struct proc_out po;
	for (unsigned i = 0; i < 2; i++) { /* the plan, and a one-step write */
		const char *plan_args[] = {"plan", plan, files, "--force", "--dry-run", NULL};
		const char *pre_args[] = {"precondition", files, "--size=4m", "--round_time=1s",
					  "--force", "--dry-run", NULL};
		run_iochar(&po, dir, 0, i ? pre_args : plan_args);
		expect_exit(&po, 0);
		expect_has(po.out, "dry run of plan");
		proc_out_free(&po);
	}
	assert_int_equal(stat(tgt, &after), 0);
	assert_int_equal(after.st_size, before.st_size);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
	assert_true(file_hash(tgt) == hash);
}

/* (c) Every refusal the run makes, the dry run makes in the same words
 * and exit: a bad key, a step that cannot run, the destructive-write
 * guard, an --out holding results (after which the run also says where
 * the results are: the error is its last line). */
static void test_dry_run_same_errors(void **state)
{
	const char *dir = *state;
	char plan[4200], tgt[4200], files[4300], out[4200], steps[4300];
	snprintf(plan, sizeof(plan), "%s/p.ini", dir);
	snprintf(tgt, sizeof(tgt), "%s/t.dat", dir);
	snprintf(files, sizeof(files), "--filename=%s", tgt);
	snprintf(out, sizeof(out), "%s/done", dir);
	snprintf(steps, sizeof(steps), "%s/steps", out);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(mkdir(steps, 0755), 0);
	write_text(plan, writes_plan);
	/* a FIFO at DIR/results.json: the rename into place replaced it */
	char fdir[4200], fifo[4300];
	snprintf(fdir, sizeof(fdir), "%s/fifo", dir);
	snprintf(fifo, sizeof(fifo), "%s/results.json", fdir);
	assert_int_equal(mkdir(fdir, 0755), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	const char *bad[][8] = {
	    {"plan", plan, files, "--bogus_key=1", NULL},
	    {"plan", plan, files, "--targets=scaling", NULL},
	    {"plan", plan, files, "--force", "--out", out, NULL},
	    {"search", files, "--runtime=1s", NULL},
	    {"plan", plan, files, NULL}, /* t.dat exists, iochar did not make it */
	    {"plan", plan, files, "--force", "--out", fdir, NULL},
	};
	const char *want[] = {"unknown key 'bogus_key'", "targets=scaling needs at least two",
			      "holds results already", "needs one", "refusing to write",
			      "results.json is not a regular file"};
	make_file(tgt, 1 << 20);
	uint64_t hash = file_hash(tgt);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_out real, dry;
		const char *args[10];
		unsigned n = 0;
		for (; bad[i][n]; n++)
			args[n] = bad[i][n];
		args[n] = NULL;
		run_iochar(&real, dir, 0, args);
		args[n] = "--dry-run";
		args[n + 1] = NULL;
		run_iochar(&dry, dir, 0, args);
		expect_exit(&real, 2);
		expect_exit(&dry, 2);
		assert_int_equal(count_lines(dry.err), 1);
		const char *last = real.err + strlen(real.err);
		while (last > real.err && last[-1] == '\n')
			last--;
		while (last > real.err && last[-1] != '\n')
			last--;
		assert_string_equal(dry.err, last);
		expect_has(dry.err, want[i]);
		assert_string_equal(dry.out, "");
		proc_out_free(&real);
		proc_out_free(&dry);
	}
	assert_true(file_hash(tgt) == hash);
}

/* "about 8s left" from the text after marker, up to a ')' or ' ('. */
static void estimate_after(const char *s, const char *marker, char *buf, size_t len)
{
	const char *p = strstr(s, marker);
	if (!p)
		fail_msg("no '%s' in:\n%s", marker, s);
	p += strlen(marker);
	size_t n = strcspn(p, ")\n");
	const char *paren = strstr(p, " (");
	if (paren && (size_t)(paren - p) < n)
		n = (size_t)(paren - p);
	snprintf(buf, len, "%.*s", (int)n, p);
}

/* (d) The dry run's estimate is the run's first, to the second: the same
 * plan on files not made yet (the layout and the fill counted). */
static void test_dry_run_estimate_is_the_runs(void **state)
{
	const char *dir = *state;
	char plan[4200], files[4300], out[4200], dry_eta[64], real_eta[64];
	snprintf(plan, sizeof(plan), "%s/p.ini", dir);
	snprintf(files, sizeof(files), "--filename=%s/a:%s/b", dir, dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	write_text(plan, writes_plan);
	struct proc_out dry, real;
	run_iochar(&dry, dir, 0,
		   (const char *[]){"plan", plan, files, "--targets=each", "--out", out,
				    "--dry-run", NULL});
	expect_exit(&dry, 0);
	run_iochar(&real, dir, 0,
		   (const char *[]){"plan", plan, files, "--targets=each", "--out", out, NULL});
	expect_exit(&real, 0);
	estimate_after(dry.out, "estimate: plan: ", dry_eta, sizeof(dry_eta));
	estimate_after(real.err, "iochar: step 1 of 2: pre (precondition; plan: ", real_eta,
		       sizeof(real_eta));
	expect_has(dry_eta, "about ");
	assert_string_equal(dry_eta, real_eta);
	proc_out_free(&dry);
	proc_out_free(&real);
}

/* (e) The whitepaper's twelve searches, its PTS preconditionings and
 * their fill in the estimate (one 16 MiB layout, then 2 passes). */
static void test_dry_run_whitepaper(void **state)
{
	const char *dir = *state;
	char tgt[4200], files[4300];
	snprintf(tgt, sizeof(tgt), "%s/wp.dat", dir);
	snprintf(files, sizeof(files), "--filename=%s", tgt);
	struct proc_out po;
	run_iochar(&po, dir, 0,
		   (const char *[]){"plan", "whitepaper", files, "--size=16m", "--dry-run", NULL});
	expect_exit(&po, 0);
	expect_has(po.out, "dry run of plan whitepaper: 12 steps");
	expect_has(po.out, "step 1 of 12: random bs=4k rwmixread=100 (search)");
	expect_has(po.out, "step 12 of 12: sequential bs=1m rwmixread=0 (search)");
	expect_has(po.out, "targets (parallel, all at once)");
	expect_has(po.out, "preconditioning (precondition=auto): 2 fill passes");
	expect_has(po.out, "at most 25 rounds of 1m, QD 32 x 4 jobs per target");
	expect_has(po.out, "estimate: I/O runs 19.2m; fills and layouts 48 MiB");
	expect_has(po.out, "preconditioning rounds at most 2.5h");
	expect_has(po.out, "estimate: plan: about 2.8h left");
	assert_false(file_exists(tgt));
	proc_out_free(&po);
}

/* A plan on RAID VDs: the dry run names each VD's members and the writes
 * they will get (none for reads), never "targets: none"; nothing is made. */
static void test_dry_run_vd_members(void **state)
{
	const char *dir = *state;
	char plan[4200], text[24000], m[3][4200];
	for (int i = 0; i < 3; i++)
		snprintf(m[i], sizeof(m[i]), "%s/m%d", dir, i);
	snprintf(plan, sizeof(plan), "%s/vd.ini", dir);
	snprintf(text, sizeof(text),
		 "[global]\nvd=raid5,strip=64k,members=%s:%s:%s\nsize=16m\nbs=4k\n"
		 "runtime=2s\nmode=fixed\n[w]\nrw=randwrite\n[r]\nrw=randread\n"
		 "[m]\nrw=randwrite\nvd=raid1,strip=64k,members=%s:%s\n",
		 m[0], m[1], m[2], m[0], m[1]);
	write_text(plan, text);
	struct proc_out po;
	run_iochar(&po, NULL, 0, (const char *[]){"plan", plan, "--dry-run", NULL});
	expect_exit(&po, 0);
	assert_null(strstr(po.out, "targets: none"));
	char want[13000];
	snprintf(want, sizeof(want), "VD raid5, strip 64k, 3 members: %s %s %s\n", m[0], m[1],
		 m[2]);
	expect_has(po.out, want);
	const char *w = strstr(po.out, "step 1 of 3"), *r = strstr(po.out, "step 2 of 3"),
		   *mir = strstr(po.out, "step 3 of 3");
	assert_true(w && r && mir);
	const char *ww = strstr(w, "member writes: each host write of the workload: its data "
				   "strips and the row's parity are written");
	assert_true(ww && ww < r);
	const char *rw = strstr(r, "member writes: none (the workload only reads)");
	assert_true(rw && rw < mir);
	expect_has(mir, "VD raid1");
	expect_has(mir, "member writes: each host write of the workload: every member gets a copy");
	for (int i = 0; i < 3; i++)
		assert_false(file_exists(m[i]));
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dry_run_missing_target, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_existing_untouched, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_same_errors, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_estimate_is_the_runs, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_whitepaper, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_vd_members, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

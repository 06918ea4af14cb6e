/* test_model_fit.c - the fit (src/model/fit*.c) recovers the parameters a
 * figures table was generated from, by the model itself, and predicts
 * every row of the published table without refusing one. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ini.h"
#include "model/fit.h"
#include "model/predict.h"

static void near_at(double a, double b, double rel, const char *what)
{
	if (!(fabs(a - b) <= rel * fabs(b)))
		fail_msg("%s: fitted %.6g, truth %.6g", what, a, b);
}

/* The truth the synthetic table is made from. */
static const struct mdl_drive truth_drive = {
	.type = "1TB SAS SSD", .iface = MDL_IF_SAS, .rr_iops = 180000, .rw_iops = 60000,
	.rr_media_iops = 500000, .sr_mbps = 900, .sw_mbps = 800,
};
static const struct mdl_ctrl truth_ctrl = {2.5e6, 12000, 11000, 200000};

struct gen_row {
	const char *ctrl, *level;
	unsigned n, vds, per;
	bool random;
	double read, bs;
};

static const struct gen_row gen_rows[] = {
	{"dual HBA", "JBOD", 12, 0, 0, true, 100, 4},
	{"dual HBA", "JBOD", 12, 0, 0, true, 0, 4},
	{"dual HBA", "JBOD", 12, 0, 0, true, 70, 4},
	{"dual HBA", "JBOD", 12, 0, 0, false, 100, 256},
	{"dual HBA", "JBOD", 12, 0, 0, false, 0, 256},
	{"RAID (ROC)", "R0", 24, 24, 1, true, 100, 4},
	{"RAID (ROC)", "R0", 24, 24, 1, false, 100, 256},
	{"RAID (ROC)", "R0", 24, 24, 1, false, 0, 256},
	{"RAID (ROC)", "R5", 24, 3, 8, true, 70, 4},
};

/* The model's own answer for g, with the truth, as a CSV line. */
static void gen_line(const struct gen_row *g, unsigned i, char *buf, size_t len)
{
	struct mdl_config c = {0};
	c.drive = truth_drive;
	c.drive_count = g->n;
	c.path = strstr(g->ctrl, "HBA") ? MDL_PATH_HBA : MDL_PATH_RAID;
	c.hba.count = 2;
	c.ctrl = truth_ctrl;
	c.links.eff_serial = 0.95;
	mdl_level_parse(g->level, &c.layout.level);
	c.layout.vd_count = g->vds;
	c.layout.disks_per_vd = g->per;
	struct mdl_workload w = {g->random, g->bs, g->read, 2, 32};
	struct mdl_answer a;
	mdl_eval(&c, &w, &a);
	snprintf(buf, len, "G%u,s,%s,%u,SAS,%s,%s,%u,%u,%s,%g,%g,%s,%.3f,%s,,exact,gen\n", i,
		 truth_drive.type, g->n, g->ctrl, g->level, g->vds, g->per,
		 g->random ? "random" : "sequential", g->read, g->bs,
		 g->random ? "iops" : "MBps", g->random ? a.iops : a.mbps,
		 g->random ? "IOPS" : "MBps");
}

static void test_fit_recovers_parameters(void **state)
{
	(void)state;
	char text[8192] = "id,server,drive_type,drive_count,interface,controller,raid_level,"
			  "vd_count,disks_per_vd,access,read_pct,block_size_kib,metric,value,"
			  "unit,latency_ms,qualifier,source\n";
	for (unsigned i = 0; i < sizeof(gen_rows) / sizeof(gen_rows[0]); i++)
		gen_line(&gen_rows[i], i, text + strlen(text), sizeof(text) - strlen(text));
	struct mdl_figs figs;
	struct ioc_err err = {0};
	if (mdl_figs_parse(text, "gen.csv", &figs, &err))
		fail_msg("%s", err.msg);
	struct mdl_fit *f = calloc(1, sizeof(*f));
	mdl_fit_figures(f, &figs, NULL, NULL);
	assert_int_equal(f->nr_drives, 1);
	const struct mdl_drive *d = &f->drives[0];
	near_at(d->rr_iops, truth_drive.rr_iops, 1e-6, "rand read");
	near_at(d->rw_iops, truth_drive.rw_iops, 1e-6, "rand write");
	near_at(d->rr_media_iops, truth_drive.rr_media_iops, 1e-6, "media read");
	near_at(d->sr_mbps, truth_drive.sr_mbps, 1e-6, "seq read");
	near_at(d->sw_mbps, truth_drive.sw_mbps, 1e-6, "seq write");
	near_at(f->ctrl.iops, truth_ctrl.iops, 1e-6, "controller iops");
	near_at(f->ctrl.read_mbps, truth_ctrl.read_mbps, 1e-6, "controller read");
	near_at(f->ctrl.write_mbps, truth_ctrl.write_mbps, 1e-6, "controller write");
	near_at(f->ctrl.parity_writes, truth_ctrl.parity_writes, 1e-6, "parity writes");
	mdl_figs_free(&figs);
	free(f);
}

static char *read_train(void)
{
	char *text = NULL;
	/* a copy of ../shared/paper-figures/train.csv */
	if (ini_read_file("tests/fixtures/model/train.csv", &text))
		fail_msg("tests/fixtures/model/train.csv: cannot read (run from the tree's top)");
	return text;
}

/* Every published row gets a finite prediction and a bound; the fit on
 * all rows reproduces them closely (the in-sample error: the
 * leave-one-out one is in docs/model.md). */
static void test_train_rows(void **state)
{
	(void)state;
	char *text = read_train();
	struct mdl_figs figs;
	struct ioc_err err = {0};
	if (mdl_figs_parse(text, "train.csv", &figs, &err))
		fail_msg("%s", err.msg);
	struct mdl_fit *f = calloc(1, sizeof(*f));
	struct mdl_pred *p = calloc(figs.nr, sizeof(*p));
	mdl_fit_figures(f, &figs, NULL, NULL);
	mdl_predict_rows(f, &figs, p);
	for (unsigned i = 0; i < figs.nr; i++) {
		assert_true(isfinite(p[i].value) && p[i].value > 0);
		assert_true(p[i].a.bound < MDL_B_NR);
	}
	double med, worst;
	unsigned n;
	mdl_pred_errors(p, figs.nr, &med, &worst, &n);
	assert_int_equal(n, figs.nr);
	assert_true(med < 0.02);
	assert_true(worst < 0.15);
	/* the paper's findings, each with its cause */
	for (unsigned i = 0; i < figs.nr; i++) {
		const char *id = figs.rows[i].id;
		if (!strcmp(id, "D001") || !strcmp(id, "D011"))
			assert_int_equal(p[i].a.bound, MDL_B_CONTROLLER);
		if (!strcmp(id, "D008") || !strcmp(id, "D009"))
			assert_int_equal(p[i].a.bound, MDL_B_PARITY);
		if (!strcmp(id, "D084"))
			assert_int_equal(p[i].a.bound, MDL_B_DRIVE_LINK);
		if (!strcmp(id, "D001"))
			assert_in_range(p[i].a.saturation_drives, 14, 16);
	}
	free(p);
	free(f);
	mdl_figs_free(&figs);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_recovers_parameters),
		cmocka_unit_test(test_train_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

#include "util/ini.h"
#include "model/config_ini.h"
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
static const struct mdl_ctrl truth_ctrl = {.iops = 2.5e6, .read_mbps = 12000,
					   .write_mbps = 11000, .parity_writes = 200000};

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

static struct mdl_fit *fit_train(void)
{
	char *text = read_train();
	struct mdl_figs figs;
	struct ioc_err err = {0};
	struct mdl_fit *f = calloc(1, sizeof(*f));
	if (mdl_figs_parse(text, "train.csv", &figs, &err))
		fail_msg("%s", err.msg);
	mdl_fit_figures(f, &figs, NULL, NULL);
	mdl_figs_free(&figs);
	free(text);
	return f;
}

/* The paper's 24 SATA SSDs behind the RAID controller, which train.csv
 * does not have: predicted from the SAS ceiling and the SATA JBOD rows.
 * SATA behind a SAS RAID-on-chip saturates at its lane-rate share of the
 * SAS command ceiling (tunnelled commands), not at the JBOD figures. */
static void test_heldout_sata_raid(void **state)
{
	(void)state;
	struct mdl_fit *f = fit_train();
	char *text = NULL;
	struct mdl_figs figs;
	struct ioc_err err = {0};
	if (ini_read_file("tests/fixtures/model/heldout_sata_raid.csv", &text) ||
	    mdl_figs_parse(text, "heldout_sata_raid.csv", &figs, &err))
		fail_msg("heldout_sata_raid.csv: %s", err.msg);
	assert_true(f->ctrl.sata_iops == 0); /* nothing in train.csv says it */
	struct mdl_pred *p = calloc(figs.nr, sizeof(*p));
	mdl_predict_rows(f, &figs, p);
	double med, worst;
	unsigned n;
	mdl_pred_errors(p, figs.nr, &med, &worst, &n);
	assert_int_equal(n, figs.nr);
	assert_true(med <= 0.15);
	for (unsigned i = 0; i < figs.nr; i++)
		if (figs.rows[i].is_limit) { /* the controller's SATA ceiling */
			assert_true(p[i].error <= 0.25);
			assert_int_equal(p[i].a.bound, MDL_B_CONTROLLER);
			near_at(p[i].value, f->ctrl.iops * 600 / 1200, 1e-9, "SATA ceiling");
		}
	free(p);
	mdl_figs_free(&figs);
	free(text);
	free(f);
}

/* A SATA ceiling a table states is fitted as its own and leaves the SAS
 * one alone. */
static void test_sata_ceiling_fitted(void **state)
{
	(void)state;
	const char *csv =
	    "id,drive_type,drive_count,interface,controller,access,read_pct,metric,value\n"
	    "a,SAS SSD,16,SAS,RAID (ROC),random,100,limit_iops,3000000\n"
	    "b,SATA SSD,24,SATA,RAID (ROC),random,100,limit_iops,1200000\n";
	struct mdl_figs figs;
	struct ioc_err err = {0};
	struct mdl_fit *f = calloc(1, sizeof(*f));
	if (mdl_figs_parse(csv, "t", &figs, &err))
		fail_msg("%s", err.msg);
	mdl_fit_figures(f, &figs, NULL, NULL);
	near_at(f->ctrl.iops, 3e6, 1e-9, "SAS ceiling");
	near_at(f->ctrl.sata_iops, 1.2e6, 1e-9, "SATA ceiling");
	struct mdl_config c = {.drive = {.iface = MDL_IF_SATA}, .ctrl = f->ctrl};
	near_at(mdl_ctrl_iops(&c), 1.2e6, 1e-9, "SATA drives' ceiling");
	c.drive.iface = MDL_IF_SAS;
	near_at(mdl_ctrl_iops(&c), 3e6, 1e-9, "SAS drives' ceiling");
	mdl_figs_free(&figs);
	free(f);

	/* a configuration's own SATA ceiling wins over the fit's */
	struct mdl_cfg_file *cf = calloc(1, sizeof(*cf));
	const char *ini = "[config]\ninterface=sata\ndrives=24\nraid=r0\nvd_count=24\n"
			  "rand_read_iops=80000\ncontroller_iops=3000000\n"
			  "controller_sata_iops=1200000\n[workload r]\nrw=randread\nbs=4k\n";
	if (mdl_config_parse(ini, "t.ini", cf, &err))
		fail_msg("%s", err.msg);
	mdl_config_default_path(&cf->c);
	struct mdl_answer a;
	mdl_eval(&cf->c, &cf->w[0], &a);
	assert_int_equal(a.bound, MDL_B_CONTROLLER);
	near_at(a.iops, 1.2e6, 1e-9, "the configuration's SATA ceiling");
	free(cf);
}

/* NVMe on CPU lanes: with the host's cores known, iochar's own CPU per
 * I/O binds 24 drives (24 x 987k IOPS) on 32 cores, not on 256. */
static void test_nvme_host_cpu(void **state)
{
	(void)state;
	struct mdl_fit *f = fit_train();
	struct mdl_config c = {.drive = {.type = "6.4TB NVMe P5600", .iface = MDL_IF_NVME},
			       .drive_count = 24, .path = MDL_PATH_DIRECT};
	struct mdl_workload w = {.random = true, .bs_kib = 4, .read_pct = 100};
	struct mdl_answer a;
	struct mdl_config none = c;
	mdl_fit_apply(f, &none);
	mdl_eval(&none, &w, &a);
	assert_int_equal(a.bound, MDL_B_DRIVES); /* cores unknown: no CPU bound */
	c.host.cores = 32;
	mdl_fit_apply(f, &c);
	near_at(c.host.cpu_us_per_io, MDL_IOCHAR_CPU_US_PER_IO, 1e-12, "default cost");
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_CPU);
	near_at(a.iops, 32 / (MDL_IOCHAR_CPU_US_PER_IO / 1e6), 1e-9, "cores / cost");
	c.host.cores = 256;
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_DRIVES);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_recovers_parameters),
		cmocka_unit_test(test_train_rows),
		cmocka_unit_test(test_heldout_sata_raid),
		cmocka_unit_test(test_sata_ceiling_fitted),
		cmocka_unit_test(test_nvme_host_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

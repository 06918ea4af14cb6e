/* test_search.c - the SLA search against simulated devices whose true best
 * is known by brute force over the whole integer grid (iodepth 1..256 x
 * numjobs 1..8, 2,048 points).
 *
 * The bounds asserted: the search's best scores at least 95 % of the true
 * best; it runs at most 20 points (56 % of the 9 x 4 = 36-point grid of
 * powers of two, under 1 % of the integer grid) on every model, at most 12
 * where jobs are needed and 8 (22 % of the 36) where one job is best; it
 * never runs a point twice and marks every point inside exactly when its
 * latency statistic is within the limit. test_search_virtio: two models
 * of a cloud VM's virtio disk (79 us at iodepth 1 and ~100k IOPS at the
 * top, a soft knee; and one whose IOPS fall past a peak) in at most 8
 * points, with 1 and 3 % noise too. test_search_sweep adds 648 models: at
 * least 99 % within 5 %, none under 95 %, at most 7 runs on average and
 * 22 on any (re-measured frontier breaks counted: one more run than
 * before them on the worst model).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "charz/search.h"
#include "sim_device.h"

#define MAX_QD	  256
#define MAX_NJ	  8
#define POW2_GRID 36 /* iodepth 1, 2 ... 256 x numjobs 1, 2, 4, 8 */

struct model {
	const char *name;
	double svc_ns;
	unsigned parallel;
	double job_max_iops, contention, tail;
	enum lat_stat stat;
	uint64_t limit_ns;
	unsigned max_points;
	bool one_job; /* the best has one job */
	double knee;  /* sim_device knee; 0 = its default */
};

static void dev_from(struct sim_device *d, const struct model *m)
{
	sim_init(d, m->svc_ns, m->parallel);
	d->job_max_iops = m->job_max_iops;
	d->contention = m->contention;
	d->tail = m->tail;
	d->knee = m->knee;
}

static void base_job(struct job_spec *job, enum rw_mode rw)
{
	assert_int_equal(sim_job(job, "search", "/tmp/x:/tmp/y", rw, 4096, 3, 5,
				 10000000000ull),
			 0);
}

static struct search_params params(const struct model *m)
{
	return (struct search_params){
	    .limit_ns = m->limit_ns,
	    .stat = m->stat,
	    .max_iodepth = MAX_QD,
	    .max_numjobs = MAX_NJ,
	    .plateau = 0.03,
	};
}

static uint64_t outstanding(const struct point *p)
{
	return (uint64_t)p->iodepth * p->numjobs;
}

/* The best inside over the whole integer grid, noise-free; false if none. */
static bool true_best(const struct sim_device *d, const struct job_spec *base,
		      const struct search_params *sp, struct point *best)
{
	struct job_spec job = *base; /* shallow: sim_model only reads */
	bool found = false;
	struct point p;

	for (unsigned nj = 1; nj <= sp->max_numjobs; nj++) {
		for (unsigned qd = 1; qd <= sp->max_iodepth; qd++) {
			job.iodepth = qd;
			job.numjobs = nj;
			sim_model(d, &job, &p);
			if (point_latency(&p, sp->stat) > (double)sp->limit_ns)
				continue;
			if (!found || sim_score(&p, base->rw) >
					  sim_score(best, base->rw)) {
				*best = p;
				found = true;
			}
		}
	}
	return found;
}

/* Invariants of any result: every point once, inside marked right, the
 * limits respected, one measurement per point, best the top inside, and
 * with confirm no point shown inside above the headline (the lower of the
 * best's two runs): every one that would be was run twice. */
static void check_result(const struct search_result *res,
			 const struct search_params *sp,
			 const struct sim_device *d, enum rw_mode rw)
{
	const struct point *best = res->found ? &res->points[res->best] : NULL;
	double top = best ? sim_score(best, rw) : 0;
	unsigned repeated = 0;

	if (best && res->confirmed) {
		assert_true(best->confirmed);
		assert_true(sim_score(best, rw) <= sim_score(&res->repeat, rw));
	}
	/* one call per point, plus the re-measured ones and the confirmations */
	assert_int_equal(d->calls, res->nr_points + res->nr_remeasured + res->nr_repeats);
	for (unsigned i = 0; i < res->nr_points; i++) {
		const struct point *p = &res->points[i];
		bool in = point_latency(p, sp->stat) <= (double)sp->limit_ns;

		assert_true(p->iodepth >= 1 && p->iodepth <= sp->max_iodepth);
		assert_true(p->numjobs >= 1 && p->numjobs <= sp->max_numjobs);
		assert_int_equal(p->inside, in && !p->repeat_missed);
		assert_true(p->runs == 1 || p->runs == 2);
		assert_true(p->call < d->calls);
		repeated += p->confirmed || p->repeat_missed;
		if (p->confirmed) /* the lower of its two runs is shown */
			assert_true(sim_score(p, rw) <= sim_score(&res->again[i], rw));
		if (p->call < SIM_LOG_MAX) {
			assert_int_equal(d->log[p->call].iodepth, p->iodepth);
			assert_int_equal(d->log[p->call].numjobs, p->numjobs);
			assert_int_equal(d->log[p->call].rw, rw);
		}
		for (unsigned j = 0; j < i; j++)
			assert_false(res->points[j].iodepth == p->iodepth &&
				     res->points[j].numjobs == p->numjobs);
		if (in)
			assert_non_null(best);
		if (!p->inside || !best)
			continue; /* a point dropped by its repeat is not ranked */
		assert_true(sim_score(p, rw) <= top);
		if (p != best && sim_score(p, rw) == top)
			assert_true(outstanding(best) <= outstanding(p));
	}
	assert_int_equal(repeated, res->nr_repeats);
	if (best)
		assert_true(best->inside);
}

/* Run m's search; returns best / true best, and prints the figures. */
static double run_model(const struct model *m, struct search_result *res,
			struct sim_device *d)
{
	struct search_params sp = params(m);
	struct ioc_err err = {.msg = ""};
	struct job_spec base;
	struct point tb;
	double ratio;

	dev_from(d, m);
	base_job(&base, RW_RANDREAD);
	assert_true(true_best(d, &base, &sp, &tb));
	assert_int_equal(search_run(&base, &sp, sim_measure, d, res, &err), 0);
	assert_true(res->found);
	check_result(res, &sp, d, base.rw);
	ratio = res->points[res->best].s.total.iops / tb.s.total.iops;
	print_message(
	    "%-10s %2u points (grid %d): best qd=%u nj=%u %.0f IOPS,"
	    " true best qd=%u nj=%u %.0f IOPS: %.1f %%\n",
	    m->name, res->nr_points, POW2_GRID, res->points[res->best].iodepth,
	    res->points[res->best].numjobs, res->points[res->best].s.total.iops,
	    tb.iodepth, tb.numjobs, tb.s.total.iops, 100 * ratio);
	assert_int_equal(base.iodepth, 3); /* base untouched */
	assert_int_equal(base.numjobs, 5);
	job_spec_free(&base);
	return ratio;
}

static const struct model models[] = {
    /* SAS SSD: the device saturates at 80k; jobs do not help */
    {"sas_ssd", 200e3, 16, 0, 0.02, 2, LAT_STAT_P99, 2000000, 8, true, 0},
    /* NVMe whose worker tops out at 250k IOPS: jobs needed for 640k */
    {"nvme_p99", 80e3, 64, 250e3, 0.01, 1, LAT_STAT_P99, 1000000, 12, false, 0},
    {"nvme_mean", 80e3, 64, 250e3, 0.01, 1, LAT_STAT_MEAN, 200000, 12, false,
     0},
    /* fast, worker-bound, tight limit: small depths, many jobs */
    {"fast_cpu", 20e3, 16, 300e3, 0, 3, LAT_STAT_P99, 60000, 20, false, 0},
    /* slow device, steep tail, limit on p99.9 */
    {"hdd_like", 5e6, 4, 0, 0.05, 3, LAT_STAT_P99_9, 40000000, 8, true, 0},
};

static void test_search_models(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct search_result res;
		struct sim_device d;
		double ratio = run_model(&models[i], &res, &d);

		assert_true(ratio >= 0.95);
		assert_true(res.nr_points <= models[i].max_points);
		if (models[i].one_job)
			assert_int_equal(res.points[res.best].numjobs, 1);
		search_result_free(&res);
	}
}

static void test_search_noise(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct search_params sp = params(&models[i]);
		struct ioc_err err = {.msg = ""};
		struct search_result res;
		struct sim_device d;
		struct job_spec base;
		struct point tb;

		dev_from(&d, &models[i]);
		base_job(&base, RW_RANDREAD);
		assert_true(true_best(&d, &base, &sp, &tb));
		d.noise = 0.01;
		d.noise_seed = 12345 + i;
		assert_int_equal(
		    search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
		assert_true(res.found);
		check_result(&res, &sp, &d, base.rw);
		double ratio =
		    res.points[res.best].s.total.iops / tb.s.total.iops;
		print_message(
		    "%-10s noise 1 %%: %2u points, %.1f %% of the true best\n",
		    models[i].name, res.nr_points, 100 * ratio);
		assert_true(ratio >= 0.95);
		assert_true(res.nr_points <= models[i].max_points);
		search_result_free(&res);
		job_spec_free(&base);
	}
}

/* The virtio disk of test_search_virtio, below: the model the outlier,
 * confirmation and gap tests bend one run of. */
#define VIRTIO_MODEL {"virtio", 63e3, 7, 0, 0, 0, LAT_STAT_MEAN, 2000000, 8, true, 0.8}

/* The virtio disk of the benchmark's 2-vCPU cloud VM (bench/README.md,
 * "Search against a fio grid"), as the issue measured it: 79 us at
 * iodepth 1 (12.6k IOPS), ~82k at 32, ~100k at 128 (the model: 105k at
 * 256), a knee much softer than a local SSD's (sim knee 0.8: the smooth
 * minimum of the linear rise and the ceiling, here 111k IOPS, bends
 * slowly); and as it measured in the benchmark's session, 7k at 1
 * (150 us), ~135k at 64, a peak near 160 and fewer IOPS past it (droop:
 * on the device 256 scored less than 128). Searched for a 2 ms mean, up to
 * 8 and up to 4 jobs (the benchmark's bound), without noise and with 1 %
 * and 3 %: at most 8 points (30 % of the benchmark's 27-point fio grid)
 * and at least 95 % of the brute-force best. */
static void test_search_virtio(void **state)
{
	static const struct model disks[] = {
	    VIRTIO_MODEL,
	    {"virtio_peak", 145e3, 36, 0, 0, 0, LAT_STAT_MEAN, 2000000, 8, true,
	     0.8},
	};
	static const double droop[] = {0, 0.15}, droop_q[] = {0, 128};
	static const double qd1_mean_ns[] = {79e3, 155e3};
	static const unsigned max_nj[] = {8, 4};
	static const double noise[] = {0, 0.01, 0.03};

	(void)state;
	for (unsigned k = 0; k < 2 * 2 * 3; k++) {
		const struct model *m = &disks[k / 6];
		struct search_params sp = params(m);
		struct ioc_err err = {.msg = ""};
		struct search_result res;
		struct sim_device d;
		struct job_spec base;
		struct point tb, qd1;

		sp.max_numjobs = max_nj[(k / 3) % 2];
		dev_from(&d, m);
		d.droop = droop[k / 6];
		d.droop_q = droop_q[k / 6];
		base_job(&base, RW_RANDREAD);
		assert_true(true_best(&d, &base, &sp, &tb));
		base.iodepth = base.numjobs = 1;
		sim_model(&d, &base, &qd1);
		assert_true(qd1.s.total.lat.mean > 0.95 * qd1_mean_ns[k / 6] &&
			    qd1.s.total.lat.mean < 1.05 * qd1_mean_ns[k / 6]);
		d.noise = noise[k % 3];
		d.noise_seed = 4242 + k;
		assert_int_equal(
		    search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
		assert_true(res.found);
		check_result(&res, &sp, &d, base.rw);
		const struct point *b = &res.points[res.best];
		double ratio = b->s.total.iops / tb.s.total.iops;
		print_message("%-11s nj<=%u noise %.0f %%: %u points, best "
			      "qd=%u nj=%u %.0f IOPS %.0f us; true best qd=%u "
			      "nj=%u %.0f IOPS: %.1f %%\n",
			      m->name, sp.max_numjobs, 100 * d.noise,
			      res.nr_points, b->iodepth, b->numjobs,
			      b->s.total.iops, b->s.total.lat.mean / 1e3,
			      tb.iodepth, tb.numjobs, tb.s.total.iops,
			      100 * ratio);
		assert_true(res.nr_points <= m->max_points);
		assert_true(ratio >= 0.95);
		search_result_free(&res);
		job_spec_free(&base);
	}
}

/* The virtio disk (test_search_virtio) with the third point (QD 64 after
 * 1 and 8) one bad run: a fifth of the IOPS at five times the latency, as
 * the 8K 70:30 climb saw (QD 64 at 16.7k IOPS and 3.8 ms after
 * 43.5k at QD 8). Without the re-measure the climb ended there and the
 * search settled at QD 8, a tenth of the limit; with it the outlier is
 * measured again and the climb reaches the true best. */
static void test_search_outlier(void **state)
{
	static const struct model m = VIRTIO_MODEL;
	struct search_params sp = params(&m);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	struct point tb;

	(void)state;
	dev_from(&d, &m);
	base_job(&base, RW_RANDREAD);
	assert_true(true_best(&d, &base, &sp, &tb));
	d.outlier_call = 3;
	d.outlier_factor = 0.2;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(d.log[2].iodepth, 64); /* the call the hook hit */
	assert_int_equal(res.nr_remeasured, 1);
	assert_true(res.found);
	check_result(&res, &sp, &d, base.rw);
	const struct point *b = &res.points[res.best];
	print_message("outlier at qd=64: best qd=%u nj=%u %.0f IOPS, %.1f %% of "
		      "the true best\n", b->iodepth, b->numjobs, b->s.total.iops,
		      100 * b->s.total.iops / tb.s.total.iops);
	assert_true(b->iodepth > 64);
	assert_true(b->s.total.iops >= 0.95 * tb.s.total.iops);
	search_result_free(&res);
	job_spec_free(&base);
}

/* The third point of a climb (QD 64 after 1 and 8) one bad run
 * whose latency alone is off, its IOPS as the model's (a hiccup): outside
 * the limit although the climb's trend put it well inside. On the virtio
 * disk (mean, 2 ms) at 3 times its latency (2.4 ms at QD 64, under the
 * old rule's 4 x QD 8's latency x 8), and on an SSD that one job
 * saturates at QD 64 (p99, 2 ms) at 12 times (2.7 ms). Re-measured, the climb goes on past it; without the trend check
 * it ends there and the best stays below it. */
static void test_search_outlier_latency(void **state)
{
	static const struct {
		struct model m;
		double lat;
	} cases[] = {
	    {VIRTIO_MODEL, 3},
	    {{"ssd_p99", 100e3, 64, 0, 0, 1, LAT_STAT_P99, 2000000, 8, true, 0}, 12},
	};

	(void)state;
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct model *m = &cases[k].m;
		struct search_params sp = params(m);
		struct ioc_err err = {.msg = ""};
		struct search_result res;
		struct sim_device d;
		struct job_spec base;
		struct point tb, at;
		unsigned q;

		dev_from(&d, m);
		base_job(&base, RW_RANDREAD);
		assert_true(true_best(&d, &base, &sp, &tb));
		d.outlier_call = 3;
		d.outlier_factor = 1; /* IOPS as the model's */
		d.outlier_lat = cases[k].lat;
		assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
		q = d.log[2].iodepth; /* the call the hook hit */
		assert_true(q > 8 && tb.iodepth > q);
		/* the outlier as run: outside, where the model is inside */
		base.iodepth = q;
		base.numjobs = 1;
		sim_model(&d, &base, &at);
		assert_true(point_latency(&at, sp.stat) * cases[k].lat > 2e6);
		assert_true(point_latency(&at, sp.stat) <= 2e6);
		assert_true(res.nr_remeasured >= 1);
		for (unsigned i = 0; i < res.nr_points; i++)
			if (res.points[i].iodepth == q && res.points[i].numjobs == 1)
				assert_int_equal(res.points[i].runs, 2);
		assert_true(res.found);
		check_result(&res, &sp, &d, base.rw);
		const struct point *b = &res.points[res.best];
		print_message("%s, latency x%.0f at qd=%u: best qd=%u %.0f IOPS, %.1f %% "
			      "of the true best\n", m->name, cases[k].lat, q, b->iodepth,
			      b->s.total.iops, 100 * b->s.total.iops / tb.s.total.iops);
		assert_true(b->iodepth > q);
		assert_true(b->s.total.iops >= 0.95 * tb.s.total.iops);
		search_result_free(&res);
		job_spec_free(&base);
	}
}

/* The first point (QD 1, one job) one bad run outside the limit: nothing
 * else is tried after a first point that misses, so without a second look
 * the search ends "none inside" on a device whose QD 1 is at a tenth of
 * the limit. It is measured again and the search goes on. */
static void test_search_outlier_first(void **state)
{
	static const struct model m = VIRTIO_MODEL;
	struct search_params sp = params(&m);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	struct point tb;

	(void)state;
	dev_from(&d, &m);
	base_job(&base, RW_RANDREAD);
	assert_true(true_best(&d, &base, &sp, &tb));
	d.outlier_call = 1;
	d.outlier_factor = 0.03; /* 79 us at QD 1 becomes 2.6 ms */
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	assert_int_equal(d.log[0].iodepth, 1);
	assert_int_equal(res.nr_remeasured, 1);
	assert_int_equal(res.points[0].runs, 2);
	assert_true(res.found);
	check_result(&res, &sp, &d, base.rw);
	assert_true(res.points[res.best].s.total.iops >= 0.95 * tb.s.total.iops);
	search_result_free(&res);
	job_spec_free(&base);
}

/* An NVMe whose one worker tops out at 250k (models[2]: jobs are needed
 * for 700k+), with the first split over 2 jobs one bad run at half its
 * IOPS: without a re-measure "more jobs do not help" and the search
 * stays at one job, a third of the device. */
static void test_search_outlier_jobs(void **state)
{
	struct search_params sp = params(&models[2]);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	struct point tb;
	unsigned split = 0;

	(void)state;
	dev_from(&d, &models[2]);
	base_job(&base, RW_RANDREAD);
	assert_true(true_best(&d, &base, &sp, &tb));
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	for (unsigned i = 0; i < res.nr_points && !split; i++)
		if (res.points[i].numjobs == 2)
			split = res.points[i].call + 1;
	assert_true(split > 0);
	search_result_free(&res);

	dev_from(&d, &models[2]);
	d.outlier_call = split;
	d.outlier_factor = 0.5;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	check_result(&res, &sp, &d, base.rw);
	assert_true(res.nr_remeasured >= 1);
	const struct point *b = &res.points[res.best];
	print_message("outlier at the 2-job split: best qd=%u nj=%u, %.1f %% of the "
		      "true best\n", b->iodepth, b->numjobs,
		      100 * b->s.total.iops / tb.s.total.iops);
	assert_true(b->numjobs > 1);
	assert_true(b->s.total.iops >= 0.95 * tb.s.total.iops);
	search_result_free(&res);
	job_spec_free(&base);
}

/* A 70:30 mix whose writes take 3 times the reads' latency: with
 * latency_scope=each (the default) the best is where the writes' mean
 * meets the limit; with total, where the combined mean does, and there
 * the writes are over it (the 4K 70:30 step: writes 2.04 ms,
 * "met" on a 2 ms limit). */
static void test_search_mixed_scope(void **state)
{
	static const struct model m = {"mixed", 100e3, 16, 0, 0, 0, LAT_STAT_MEAN,
				       2000000, 20, true, 0};
	struct ioc_err err = {.msg = ""};
	struct search_result each, total;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct search_params sp = params(&m);

		sp.scope = k ? LAT_SCOPE_TOTAL : LAT_SCOPE_EACH;
		dev_from(&d, &m);
		d.write_lat = 3;
		base_job(&base, RW_RANDRW);
		base.rwmixread = 70;
		assert_int_equal(search_run(&base, &sp, sim_measure, &d,
					    k ? &total : &each, &err), 0);
		job_spec_free(&base);
	}
	assert_true(each.found && total.found);
	for (unsigned i = 0; i < each.nr_points; i++) {
		const struct point *p = &each.points[i];
		bool w_ok = p->s.dir[DIR_WRITE].lat.mean <= 2e6;

		assert_int_equal(p->inside, w_ok && p->s.dir[DIR_READ].lat.mean <= 2e6);
	}
	const struct point *be = &each.points[each.best], *bt = &total.points[total.best];
	print_message("70:30, writes 3x slower: each: qd=%u write mean %.0f us; "
		      "total: qd=%u write mean %.0f us, total mean %.0f us\n",
		      be->iodepth, be->s.dir[DIR_WRITE].lat.mean / 1e3, bt->iodepth,
		      bt->s.dir[DIR_WRITE].lat.mean / 1e3, bt->s.total.lat.mean / 1e3);
	assert_true(be->s.dir[DIR_WRITE].lat.mean <= 2e6);
	assert_true(bt->s.total.lat.mean <= 2e6);
	assert_true(bt->s.dir[DIR_WRITE].lat.mean > 2e6);
	assert_true(outstanding(bt) > outstanding(be));
	search_result_free(&each);
	search_result_free(&total);
}

/* confirm: the best is run again. Noise-free, the repeat agrees (spread
 * 0). When the repeat misses the limit (an outlier on that call), the best
 * is dropped and the next one confirmed instead. */
static void test_search_confirm(void **state)
{
	struct search_params sp = params(&models[0]);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	unsigned calls, best_qd;

	(void)state;
	sp.confirm = true;
	dev_from(&d, &models[0]);
	base_job(&base, RW_RANDREAD);
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	check_result(&res, &sp, &d, base.rw);
	assert_true(res.confirmed);
	assert_int_equal(res.nr_dropped, 0);
	assert_true(res.spread < 1e-9);
	assert_int_equal(res.repeat.iodepth, res.points[res.best].iodepth);
	calls = d.calls;
	best_qd = res.points[res.best].iodepth;
	search_result_free(&res);

	dev_from(&d, &models[0]);
	d.outlier_call = calls; /* the repeat of the best */
	d.outlier_factor = 0.5;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	check_result(&res, &sp, &d, base.rw);
	assert_int_equal(res.nr_dropped, 1);
	assert_true(res.confirmed);
	assert_true(res.points[res.best].iodepth != best_qd ||
		    res.points[res.best].numjobs != 1);
	unsigned dropped = 0;
	for (unsigned i = 0; i < res.nr_points; i++)
		if (res.points[i].repeat_missed) {
			dropped++;
			assert_int_equal(res.points[i].iodepth, best_qd);
			assert_false(res.points[i].inside);
		}
	assert_int_equal(dropped, 1);
	search_result_free(&res);
	job_spec_free(&base);
}

/* confirm with run-to-run noise: the headline (points[best]) is the
 * lower-scoring of the best's two runs, the other is in repeat, and the
 * spread is theirs. Three ways: 3 % noise on every run; the repeat 8 %
 * luckier (the first run stays the headline); the repeat 15 % lower, its
 * latency as the model's: that point keeps its lower run (shows_repeat),
 * 16 % apart, and its neighbours' single runs now beat it, so they are
 * repeated too and the best of them, both runs alike, is the headline. */
static void test_search_confirm_noise(void **state)
{
	static const double repeat_iops[] = {0, 1.08, 0.85};
	struct ioc_err err = {.msg = ""};
	struct job_spec base;

	(void)state;
	base_job(&base, RW_RANDREAD);
	for (unsigned k = 0; k < 3; k++) {
		struct search_params sp = params(&models[1]);
		struct search_result res;
		struct sim_device d;
		unsigned calls = 0, qd = 0, nj = 0;

		sp.confirm = true;
		if (k) { /* where the repeat falls, from a run without the hook */
			dev_from(&d, &models[1]);
			assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
			calls = res.repeat.call;
			qd = res.points[res.best].iodepth;
			nj = res.points[res.best].numjobs;
			search_result_free(&res);
		}
		dev_from(&d, &models[1]);
		d.noise = k ? 0 : 0.03;
		d.noise_seed = 777;
		d.outlier_call = k ? calls + 1 : 0;
		d.outlier_factor = repeat_iops[k];
		d.outlier_lat = 1;
		assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
		check_result(&res, &sp, &d, base.rw);
		assert_true(res.confirmed);
		assert_int_equal(res.nr_dropped, 0);
		const struct point *b = &res.points[res.best], *r = &res.repeat;
		double lo = b->s.total.iops, hi = r->s.total.iops;

		assert_int_equal(r->iodepth, b->iodepth);
		assert_int_equal(r->numjobs, b->numjobs);
		assert_true(lo <= hi);
		assert_true(fabs(res.spread - (hi - lo) * 2 / (hi + lo)) < 1e-9);
		assert_int_equal(res.unsteady, res.spread > SEARCH_UNSTEADY);
		print_message("confirm %s: qd=%u nj=%u headline %.0f IOPS, other run %.0f, "
			      "spread %.1f %%%s, %u repeats\n", k ? (k == 1 ? "lucky repeat" : "low repeat")
			      : "noise 3 %", b->iodepth, b->numjobs, lo, hi,
			      100 * res.spread, res.unsteady ? ", unsteady" : "", res.nr_repeats);
		if (!k)
			assert_true(res.spread > 1e-4);
		if (k == 1) { /* the first run, the lower, stays the headline */
			assert_int_equal(b->iodepth, qd);
			assert_int_equal(b->numjobs, nj);
			assert_false(res.repeat_first);
			assert_true(fabs(res.spread - 0.08 * 2 / 2.08) < 1e-6);
			assert_int_equal(res.nr_repeats, 1);
		}
		if (k == 2) { /* the low one keeps its repeat; another leads */
			unsigned i;
			for (i = 0; i < res.nr_points; i++)
				if (res.points[i].iodepth == qd && res.points[i].numjobs == nj)
					break;
			assert_true(i < res.nr_points && i != res.best);
			assert_true(res.points[i].confirmed && res.points[i].shows_repeat);
			assert_true(fabs(res.points[i].s.total.iops /
					 res.again[i].s.total.iops - 0.85) < 1e-6);
			assert_true(lo > res.points[i].s.total.iops);
			assert_true(res.nr_repeats >= 2);
			assert_false(res.unsteady);
		}
		search_result_free(&res);
	}
	job_spec_free(&base);
}

/* A best dropped by its repeat leaves a gap on its line: the virtio disk
 * of test_search_virtio at one job, its best's repeat one bad run (half the IOPS, twice the latency). The edge
 * between the highest point inside below the dropped one and it is
 * narrowed again, so the best confirmed instead is near the frontier, not
 * a point the climb passed on its way (on the disk: qd 125 dropped, qd 64
 * at 58.6k reported, the grid's best 88.8k). */
static void test_search_confirm_gap(void **state)
{
	static const struct model disk = VIRTIO_MODEL;
	struct search_params sp = params(&disk);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	unsigned calls, qd, nj, below = 0;
	double first;

	(void)state;
	sp.confirm = true;
	sp.max_numjobs = 1; /* the best on the depth line, qd 197 after 64 */
	base_job(&base, RW_RANDREAD);
	dev_from(&d, &disk);
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	assert_true(res.confirmed);
	calls = d.calls;
	qd = res.points[res.best].iodepth;
	nj = res.points[res.best].numjobs;
	first = res.points[res.best].s.total.iops;
	for (unsigned i = 0; i < res.nr_points; i++) /* the climb's last inside below */
		if (res.points[i].numjobs == nj && res.points[i].iodepth < qd &&
		    res.points[i].inside && res.points[i].iodepth > below)
			below = res.points[i].iodepth;
	search_result_free(&res);
	assert_true(below > 0 && below + 1 < qd); /* a gap to narrow */

	dev_from(&d, &disk);
	d.outlier_call = calls; /* the best's repeat */
	d.outlier_factor = 0.5;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err), 0);
	check_result(&res, &sp, &d, base.rw);
	assert_int_equal(res.nr_dropped, 1);
	assert_true(res.confirmed);
	unsigned between = 0;
	for (unsigned i = 0; i < res.nr_points; i++)
		if (res.points[i].numjobs == nj && res.points[i].iodepth > below &&
		    res.points[i].iodepth < qd)
			between++;
	const struct point *b = &res.points[res.best];
	print_message("dropped qd=%u nj=%u %.0f IOPS (next inside below: qd=%u); "
		      "%u points between; confirmed qd=%u nj=%u %.0f IOPS\n",
		      qd, nj, first, below, between, b->iodepth, b->numjobs,
		      b->s.total.iops);
	assert_true(between >= 1);
	assert_true(b->s.total.iops >= 0.95 * first);
	search_result_free(&res);
	job_spec_free(&base);
}

/* Not even iodepth 1 meets the limit: one point, outside, nothing found. */
static void test_search_limit_below_qd1(void **state)
{
	struct model m = models[1];
	struct search_params sp;
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	m.limit_ns = 50000; /* the idle p99 is 120 us */
	sp = params(&m);
	dev_from(&d, &m);
	base_job(&base, RW_RANDREAD);
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 0);
	assert_false(res.found);
	assert_int_equal(res.nr_points, 1);
	assert_int_equal(res.nr_remeasured, 1); /* a second look before "none" */
	assert_int_equal(res.points[0].runs, 2);
	assert_int_equal(res.points[0].iodepth, 1);
	assert_int_equal(res.points[0].numjobs, 1);
	assert_false(res.points[0].inside);
	check_result(&res, &sp, &d, base.rw);
	search_result_free(&res);
	job_spec_free(&base);
}

/* Latency never reaches the limit: the IOPS plateau ends the climb long
 * before iodepth 256 (a further doubling would gain under the plateau),
 * and more jobs on a saturated device do not help. */
static void test_search_no_knee(void **state)
{
	struct model m = {"no_knee",	    100e3, 8,	 0, 0, 0, LAT_STAT_P99,
			  1000000000000ull, 5,	   true, 0};
	struct search_params sp = params(&m);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	struct point tb;

	(void)state;
	dev_from(&d, &m);
	base_job(&base, RW_RANDREAD);
	assert_true(true_best(&d, &base, &sp, &tb));
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 0);
	check_result(&res, &sp, &d, base.rw);
	assert_true(res.found);
	for (unsigned i = 0; i < res.nr_points; i++) {
		assert_true(res.points[i].inside);
		assert_true(outstanding(&res.points[i]) <= 64);
	}
	/* the climb at one job stopped where one more doubling of iodepth
	 * gains less than the plateau (the model, noise-free, says so) */
	unsigned n1 = 0;
	const struct point *top = NULL;
	struct job_spec dbl = base; /* shallow: sim_model only reads */
	struct point next;
	for (unsigned i = 0; i < res.nr_points; i++) {
		if (res.points[i].numjobs != 1)
			continue;
		n1++;
		if (!top || res.points[i].iodepth > top->iodepth)
			top = &res.points[i];
	}
	assert_true(n1 >= 2);
	dbl.iodepth = 2 * top->iodepth;
	dbl.numjobs = 1;
	sim_model(&d, &dbl, &next);
	assert_true(next.s.total.iops < top->s.total.iops * 1.03);
	double ratio = res.points[res.best].s.total.iops / tb.s.total.iops;
	print_message(
	    "no_knee: %u points, stopped at qd=%u, %.1f %% of the best\n",
	    res.nr_points, top->iodepth, 100 * ratio);
	assert_true(res.nr_points <= m.max_points);
	assert_true(ratio >= 0.95);
	search_result_free(&res);
	job_spec_free(&base);
}

/* A device whose reported IOPS fall with depth while its bandwidth grows
 * (sim iops_skew): sequential must rank by bandwidth, random by IOPS. */
static void test_search_sequential_by_bw(void **state)
{
	struct model m = {"skewed",	    500e3, 32,	  0, 0, 0, LAT_STAT_P99,
			  1000000000000ull, 20,	   false, 0};
	struct search_params sp = params(&m);
	struct ioc_err err = {.msg = ""};
	struct search_result seq, rnd;
	struct sim_device d;
	struct job_spec base;
	struct point tb;
	const struct point *bs, *br;

	(void)state;
	dev_from(&d, &m);
	d.iops_skew = 0.2;
	base_job(&base, RW_READ);
	base.bs = 128 << 10;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &seq, &err),
			 0);
	check_result(&seq, &sp, &d, RW_READ);
	assert_true(true_best(&d, &base, &sp, &tb));
	bs = &seq.points[seq.best];
	assert_true(bs->s.total.bw_bytes >= 0.95 * tb.s.total.bw_bytes);

	d.calls = 0;
	base.rw = RW_RANDREAD;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &rnd, &err),
			 0);
	check_result(&rnd, &sp, &d, RW_RANDREAD);
	br = &rnd.points[rnd.best];
	print_message("sequential best qd=%u nj=%u %.0f MB/s %.0f IOPS; random "
		      "best qd=%u nj=%u %.0f MB/s %.0f IOPS\n",
		      bs->iodepth, bs->numjobs, bs->s.total.bw_bytes / 1e6,
		      bs->s.total.iops, br->iodepth, br->numjobs,
		      br->s.total.bw_bytes / 1e6, br->s.total.iops);
	/* each is the top of its own figure, and the two disagree */
	assert_true(bs->s.total.bw_bytes > 2 * br->s.total.bw_bytes);
	assert_true(br->s.total.iops > 2 * bs->s.total.iops);
	search_result_free(&seq);
	search_result_free(&rnd);
	job_spec_free(&base);
}

static void test_search_error_propagates(void **state)
{
	struct search_params sp = params(&models[0]);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;
	char want[64];

	(void)state;
	dev_from(&d, &models[0]);
	d.fail_at = 3;
	base_job(&base, RW_RANDREAD);
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 -EIO);
	assert_int_equal(d.calls, 3); /* stopped at once */
	assert_int_equal(res.nr_points, 2);
	snprintf(want, sizeof(want),
		 "search iodepth=%u numjobs=%u: ", d.log[2].iodepth,
		 d.log[2].numjobs);
	assert_non_null(strstr(err.msg, want));
	assert_non_null(strstr(err.msg, "injected failure at call 3"));
	search_result_free(&res);
	search_result_free(&res); /* twice is harmless */
	search_result_free(NULL);
	job_spec_free(&base);
}

/* Run m with max_iodepth 100 and max_numjobs 3 and check no point passes
 * them; *qd_max, *nj_max: a point was run at 100, at 3. */
static void run_odd_limits(const struct model *m, bool *qd_max, bool *nj_max)
{
	struct search_params sp = params(m);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;

	sp.max_iodepth = 100;
	sp.max_numjobs = 3;
	dev_from(&d, m);
	base_job(&base, RW_RANDREAD);
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 0);
	check_result(&res, &sp, &d, base.rw);
	*qd_max = *nj_max = false;
	for (unsigned i = 0; i < res.nr_points; i++) {
		*qd_max |= res.points[i].iodepth == 100;
		*nj_max |= res.points[i].numjobs == 3;
	}
	search_result_free(&res);
	job_spec_free(&base);
}

/* Limits that are not powers of two are reached, never passed. */
static void test_search_odd_limits(void **state)
{
	/* linear far past 100 outstanding: the climb goes 64 -> 100 */
	struct model deep = {
	    "deep",	      10e3, 4096, 0, 0, 0, LAT_STAT_MEAN,
	    1000000000000ull, 20,   true, 0};
	/* worker-bound: numjobs goes 2 -> 3 */
	struct model cpu = {
	    "cpu", 10e3,  4096, 100e3, 0, 0, LAT_STAT_MEAN, 1000000000000ull,
	    20,	   false, 0};
	bool qd_max, nj_max;

	(void)state;
	run_odd_limits(&deep, &qd_max, &nj_max);
	assert_true(qd_max);
	run_odd_limits(&cpu, &qd_max, &nj_max);
	assert_true(nj_max);
}

static void test_search_bad_params(void **state)
{
	struct search_params sp = params(&models[0]);
	struct ioc_err err = {.msg = ""};
	struct search_result res;
	struct sim_device d;
	struct job_spec base;

	(void)state;
	dev_from(&d, &models[0]);
	base_job(&base, RW_RANDREAD);
	sp.limit_ns = 0;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 -EINVAL);
	sp = params(&models[0]);
	sp.max_numjobs = 0;
	assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res, &err),
			 -EINVAL);
	assert_int_equal(d.calls, 0);
	assert_int_equal(res.nr_points, 0);
	search_result_free(&res);
	job_spec_free(&base);
}

/* Many devices and limits: svc 20 us .. 5 ms, parallelism 1 .. 128, with
 * and without a per-worker ceiling, contention and a steep tail, limits of
 * 3 to 50 times the service time on the mean and on p99. The search must
 * find a point whenever the grid has one, be within 5 % of the grid's best
 * on at least 99 % of them (never under 95 %), average at most 7 runs
 * and at most 22 on any, re-measures included. */
static void test_search_sweep(void **state)
{
	static const double svc[] = { 20e3, 200e3, 5e6 };
	static const unsigned par[] = { 1, 16, 128 };
	static const double cpu[] = { 0, 100e3, 300e3 };
	static const double lim[] = { 3, 10, 50 };
	unsigned n = 0, found = 0, close = 0, points = 0, most = 0, again = 0;
	double worst = 1;

	(void)state;
	for (unsigned k = 0; k < 3 * 3 * 3 * 2 * 2 * 3 * 2; k++) {
		unsigned r = k;
		struct model m = {"sweep",
				  svc[r % 3],
				  par[(r / 3) % 3],
				  cpu[(r / 9) % 3],
				  0.02 * ((r / 27) % 2),
				  3.0 * ((r / 54) % 2),
				  LAT_STAT_MEAN,
				  0,
				  0,
				  false,
				  0};
		struct ioc_err err = { .msg = "" };
		struct search_result res;
		struct sim_device d;
		struct search_params sp;
		struct job_spec base;
		struct point tb;

		m.limit_ns = (uint64_t)(lim[(r / 108) % 3] * m.svc_ns);
		m.stat = (r / 324) % 2 ? LAT_STAT_P99 : LAT_STAT_MEAN;
		sp = params(&m);
		dev_from(&d, &m);
		base_job(&base, RW_RANDREAD);
		bool any = true_best(&d, &base, &sp, &tb);
		assert_int_equal(search_run(&base, &sp, sim_measure, &d, &res,
					    &err),
				 0);
		check_result(&res, &sp, &d, base.rw);
		assert_int_equal(res.found, any);
		n++;
		if (any) {
			double ratio = res.points[res.best].s.total.iops /
				       tb.s.total.iops;

			found++;
			close += ratio >= 0.95;
			worst = ratio < worst ? ratio : worst;
			/* a re-measured point costs a run too */
			unsigned runs = res.nr_points + res.nr_remeasured;

			points += runs;
			again += res.nr_remeasured;
			most = runs > most ? runs : most;
		}
		search_result_free(&res);
		job_spec_free(&base);
	}
	print_message("sweep: %u models, %u with a point inside: %u within 5 %% "
		      "(worst %.1f %%), %.1f runs on average, %u at most, %u "
		      "re-measured\n",
		      n, found, close, 100 * worst, (double)points / found,
		      most, again);
	assert_true(close >= 0.99 * found);
	assert_true(worst >= 0.95);
	assert_true(points <= 7 * found);
	assert_true(most <= 22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_search_models),
	    cmocka_unit_test(test_search_noise),
	    cmocka_unit_test(test_search_virtio),
	    cmocka_unit_test(test_search_outlier),
	    cmocka_unit_test(test_search_outlier_jobs),
	    cmocka_unit_test(test_search_outlier_latency),
	    cmocka_unit_test(test_search_outlier_first),
	    cmocka_unit_test(test_search_mixed_scope),
	    cmocka_unit_test(test_search_confirm),
	    cmocka_unit_test(test_search_confirm_noise),
	    cmocka_unit_test(test_search_confirm_gap),
	    cmocka_unit_test(test_search_limit_below_qd1),
	    cmocka_unit_test(test_search_no_knee),
	    cmocka_unit_test(test_search_sequential_by_bw),
	    cmocka_unit_test(test_search_error_propagates),
	    cmocka_unit_test(test_search_odd_limits),
	    cmocka_unit_test(test_search_bad_params),
	    cmocka_unit_test(test_search_sweep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

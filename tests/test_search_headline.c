/* test_search_headline.c - a search's headline never sits below a point
 * it shows as inside the limit.
 *
 * test_headline_disk: the case seen on a disk, rebuilt from its figures
 * (500 us mean limit): 7 x 4 first at 71,900 IOPS, its repeat 61,928;
 * 14 x 2 at 70,044 and 17 x 2 at 68,281 on one run each. Repeating the
 * best alone reported 7 x 4 at 61,928 ("lower of 2 runs") below both.
 * Now both are repeated too, and the headline is the best lower run.
 * test_headline_dropped: a repeat over the limit drops its point.
 * test_headline_property: over models with 1-10 % run-to-run noise and
 * many seeds, no point shown inside scores more than the headline, and
 * each point is repeated at most once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "charz/search.h"
#include "sim_device.h"

/* One constructed point: its runs' IOPS and mean latency, in order. */
struct scripted {
	unsigned qd, nj;
	double iops[2], lat_ns[2];
	unsigned calls;
};

struct script {
	struct scripted *p;
	unsigned n, calls;
};

static void fill(struct point *out, double iops, double lat_ns)
{
	memset(out, 0, sizeof(*out));
	out->s.total.iops = out->s.dir[DIR_READ].iops = iops;
	out->s.total.bw_bytes = out->s.dir[DIR_READ].bw_bytes = iops * 4096;
	out->s.total.ios = out->s.dir[DIR_READ].ios = (uint64_t)iops * 2;
	out->s.total.lat.mean = out->s.dir[DIR_READ].lat.mean = lat_ns;
	out->elapsed_ns = 2000000000ull;
}

/* measure_fn over a script: each (qd, nj)'s next run; unknown points
 * are an error (the confirmation must only repeat points it has). */
static int scripted_measure(void *arg, const struct job_spec *job, struct point *out,
			    struct ioc_err *err)
{
	struct script *s = arg;

	for (unsigned i = 0; i < s->n; i++) {
		struct scripted *p = &s->p[i];
		if (p->qd != job->iodepth || p->nj != job->numjobs)
			continue;
		if (p->calls >= 2)
			return err_set(err, EIO, "%ux%u run a third time", p->qd, p->nj);
		fill(out, p->iops[p->calls], p->lat_ns[p->calls]);
		p->calls++;
		s->calls++;
		return 0;
	}
	return err_set(err, EIO, "%ux%u not in the script", job->iodepth, job->numjobs);
}

/* res holds the script's first runs, as a search without confirm left
 * them, judged against limit_ns. */
static void first_runs(struct search_result *res, struct script *s, uint64_t limit_ns)
{
	memset(res, 0, sizeof(*res));
	res->points = calloc(s->n, sizeof(*res->points));
	assert_non_null(res->points);
	for (unsigned i = 0; i < s->n; i++) {
		struct point *p = &res->points[i];
		fill(p, s->p[i].iops[0], s->p[i].lat_ns[0]);
		p->iodepth = s->p[i].qd;
		p->numjobs = s->p[i].nj;
		p->runs = 1;
		p->call = i;
		p->inside = p->s.total.lat.mean <= (double)limit_ns;
		s->p[i].calls = 1;
	}
	res->nr_points = s->n;
}

static struct search_params disk_params(void)
{
	return (struct search_params){.limit_ns = 500000, .stat = LAT_STAT_MEAN,
				      .max_iodepth = 256, .max_numjobs = 8,
				      .plateau = 0.03, .confirm = true};
}

static unsigned index_of(const struct search_result *r, unsigned qd, unsigned nj)
{
	for (unsigned i = 0; i < r->nr_points; i++)
		if (r->points[i].iodepth == qd && r->points[i].numjobs == nj)
			return i;
	fail_msg("%ux%u not a point", qd, nj);
	return 0;
}

/* No point shown inside scores more than the headline. */
static void assert_no_point_above(const struct search_result *r)
{
	double head = r->points[r->best].s.total.iops;

	assert_true(r->found);
	for (unsigned i = 0; i < r->nr_points; i++)
		if (r->points[i].inside)
			assert_true(r->points[i].s.total.iops <= head);
}

static void test_headline_disk(void **state)
{
	struct scripted pts[] = {
	    {1, 1, {9500, 9400}, {105e3, 106e3}, 0},
	    {7, 4, {71900, 61928}, {389e3, 452e3}, 0},
	    {14, 2, {70044, 66120}, {399e3, 423e3}, 0},
	    {17, 2, {68281, 67010}, {498e3, 499e3}, 0},
	    {28, 4, {74100, 73000}, {1510e3, 1530e3}, 0}, /* outside */
	    {4, 4, {60000, 59000}, {266e3, 271e3}, 0},
	};
	struct script s = {pts, sizeof(pts) / sizeof(pts[0]), 0};
	struct search_params sp = disk_params();
	struct ioc_err err = {.msg = ""};
	struct search_result r;
	struct job_spec base;

	(void)state;
	assert_int_equal(sim_job(&base, "disk", "/tmp/x", RW_RANDREAD, 4096, 1, 1, 0), 0);
	first_runs(&r, &s, sp.limit_ns);
	assert_int_equal(search_confirm(&base, &sp, scripted_measure, &s, &r, &err), 0);
	assert_no_point_above(&r);
	/* 7x4 (71,900 then 61,928), 14x2 (70,044: above 61,928) and 17x2
	 * (68,281: above 66,120) were each repeated; 4x4 and 1x1 never beat */
	assert_int_equal(s.calls, 3);
	assert_int_equal(r.nr_repeats, 3);
	unsigned b = index_of(&r, 17, 2), i74 = index_of(&r, 7, 4), i142 = index_of(&r, 14, 2);
	assert_int_equal(r.best, b);
	assert_true(r.confirmed);
	assert_true(r.points[b].s.total.iops == 67010); /* the lower of its runs */
	assert_true(r.repeat.s.total.iops == 68281);
	assert_true(r.repeat_first);
	assert_true(r.points[i74].confirmed && r.points[i74].inside);
	assert_true(r.points[i74].s.total.iops == 61928);
	assert_true(r.again[i74].s.total.iops == 71900);
	assert_true(r.points[i142].s.total.iops == 66120);
	assert_false(r.points[index_of(&r, 4, 4)].confirmed);
	assert_false(r.points[index_of(&r, 28, 4)].inside);
	print_message("headline %ux%u %.0f IOPS (lower of %.0f and %.0f); 7x4 %.0f, 14x2 %.0f\n",
		      r.points[b].iodepth, r.points[b].numjobs, r.points[b].s.total.iops,
		      r.points[b].s.total.iops, r.repeat.s.total.iops,
		      r.points[i74].s.total.iops, r.points[i142].s.total.iops);
	search_result_free(&r);
	job_spec_free(&base);
}

/* A repeat over the limit drops its point (repeat_missed, not inside);
 * the next is repeated in turn. The refill between the dropped point and
 * the one below it is asked of points not in the script: none here, as
 * they are on other lines (numjobs 2 vs 4). */
static void test_headline_dropped(void **state)
{
	struct scripted pts[] = {
	    {13, 2, {71350, 52000}, {460e3, 2400e3}, 0},
	    {8, 4, {65000, 64000}, {480e3, 490e3}, 0},
	    {4, 1, {30000, 30500}, {130e3, 131e3}, 0},
	};
	struct script s = {pts, 3, 0};
	struct search_params sp = disk_params();
	struct ioc_err err = {.msg = ""};
	struct search_result r;
	struct job_spec base;

	(void)state;
	assert_int_equal(sim_job(&base, "disk", "/tmp/x", RW_RANDREAD, 4096, 1, 1, 0), 0);
	first_runs(&r, &s, sp.limit_ns);
	r.points[2].numjobs = pts[2].nj = 4; /* 4x4: the line below 8x4, no gap to refill */
	pts[2].qd = r.points[2].iodepth = 7;
	assert_int_equal(search_confirm(&base, &sp, scripted_measure, &s, &r, &err), 0);
	assert_no_point_above(&r);
	assert_int_equal(r.nr_dropped, 1);
	assert_true(r.points[0].repeat_missed && !r.points[0].inside);
	assert_true(r.again[0].s.total.lat.mean == 2400e3);
	assert_int_equal(r.best, 1);
	assert_true(r.points[1].s.total.iops == 64000);
	search_result_free(&r);
	job_spec_free(&base);
}

static const struct {
	double svc_ns;
	unsigned parallel;
	double job_max_iops, contention, tail;
	enum lat_stat stat;
	uint64_t limit_ns;
} models[] = {
    {200e3, 16, 0, 0.02, 2, LAT_STAT_P99, 2000000},
    {80e3, 64, 250e3, 0.01, 1, LAT_STAT_MEAN, 200000},
    {20e3, 16, 300e3, 0, 3, LAT_STAT_P99, 60000},
    {79e3, 160, 0, 0, 1, LAT_STAT_MEAN, 500000},
};

static void test_headline_property(void **state)
{
	static const double noise[] = {0.01, 0.03, 0.10};
	unsigned searches = 0, repeats = 0, points = 0;
	struct job_spec base;

	(void)state;
	assert_int_equal(sim_job(&base, "p", "/tmp/x", RW_RANDREAD, 4096, 1, 1, 0), 0);
	for (unsigned m = 0; m < sizeof(models) / sizeof(models[0]); m++)
		for (unsigned k = 0; k < 3; k++)
			for (uint64_t seed = 1; seed <= 40; seed++) {
				struct search_params sp = {
				    .limit_ns = models[m].limit_ns, .stat = models[m].stat,
				    .max_iodepth = 256, .max_numjobs = 8, .plateau = 0.03,
				    .confirm = true};
				struct ioc_err err = {.msg = ""};
				struct search_result r;
				struct sim_device d;

				sim_init(&d, models[m].svc_ns, models[m].parallel);
				d.job_max_iops = models[m].job_max_iops;
				d.contention = models[m].contention;
				d.tail = models[m].tail;
				d.noise = noise[k];
				d.noise_seed = seed * 7919 + m;
				assert_int_equal(search_run(&base, &sp, sim_measure, &d, &r, &err), 0);
				assert_int_equal(d.calls, r.nr_points + r.nr_remeasured + r.nr_repeats);
				assert_true(r.nr_repeats <= r.nr_points);
				if (r.found) {
					double head = r.points[r.best].s.total.iops;
					assert_true(r.confirmed);
					for (unsigned i = 0; i < r.nr_points; i++) {
						const struct point *p = &r.points[i];
						if (p->inside)
							assert_true(p->s.total.iops <= head);
						if (p->confirmed) /* inside on both runs */
							assert_true(point_latency(&r.again[i], sp.stat) <=
								    (double)sp.limit_ns);
					}
				} else {
					for (unsigned i = 0; i < r.nr_points; i++)
						assert_false(r.points[i].inside);
				}
				searches++;
				repeats += r.nr_repeats;
				points += r.nr_points;
				search_result_free(&r);
			}
	print_message("%u searches with 1-10 %% noise: %.1f points, %.1f repeats on average\n",
		      searches, (double)points / searches, (double)repeats / searches);
	job_spec_free(&base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_headline_disk),
	    cmocka_unit_test(test_headline_dropped),
	    cmocka_unit_test(test_headline_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

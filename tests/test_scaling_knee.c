/* test_scaling_knee.c - a scaling step's knee (charz/knee.h,
 * charz/scaling.h) on constructed measurements and on a modelled device
 * whose total grows per target up to a known ceiling: the knee named
 * only when the noise test decides it, placed exactly at 14, 15 or 16 of
 * 24 targets by bisection, "still grows" for a linear device, undecided
 * for a noisy one and for single runs; and four targets that gave 3.9x
 * one never called saturated after one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "charz/knee.h"
#include "charz/scaling.h"

/* n runs of a count at mean m, spread by +-noise x m (a deterministic
 * pattern: -1, 0, +1, ...). */
static struct knee_count runs(unsigned targets, double m, double noise, unsigned n)
{
	double x[SCALING_MAX_REPEATS];
	struct knee_count k;
	for (unsigned i = 0; i < n; i++)
		x[i] = m * (1 + noise * ((double)(i % 3) - 1));
	knee_count_set(&k, targets, x, n);
	return k;
}

static void test_step_judge(void **state)
{
	(void)state;
	struct knee_count a = runs(7, 700, 0.01, 3), b = runs(8, 800, 0.01, 3);
	double gain, band, share;
	/* +100 over 7 targets' 100 each: the whole share, a band of a few */
	assert_int_equal(knee_step_judge(&a, &b, &gain, &band, &share), KNEE_GROWS);
	assert_true(fabs(gain - 100) < 1e-9);
	assert_true(fabs(share - 50) < 1e-9);
	assert_true(band > 0 && band < 50);
	b = runs(8, 700, 0.01, 3);
	assert_int_equal(knee_step_judge(&a, &b, NULL, NULL, NULL), KNEE_FLAT);
	/* +50, exactly the share: the band straddles it */
	b = runs(8, 750, 0.01, 3);
	assert_int_equal(knee_step_judge(&a, &b, NULL, NULL, NULL), KNEE_STEP_UNDECIDED);
	/* a 20 % spread: +100 cannot be told from +50 */
	a = runs(7, 700, 0.2, 3);
	b = runs(8, 800, 0.2, 3);
	assert_int_equal(knee_step_judge(&a, &b, NULL, NULL, NULL), KNEE_STEP_UNDECIDED);
	/* one run each: no band, nothing decided */
	a = runs(1, 100, 0, 1);
	b = runs(2, 400, 0, 1);
	assert_int_equal(knee_step_judge(&a, &b, NULL, NULL, NULL), KNEE_STEP_UNDECIDED);
}

/* The three runs of one 4-target step: 4 targets measured 3.9x
 * one. Repeated, that is "still grows"; never "after 1 target". */
static void test_four_targets(void **state)
{
	(void)state;
	static const double m[] = {100, 195, 290, 390};
	struct knee_count c[4];
	struct knee_result r;
	for (unsigned i = 0; i < 4; i++)
		c[i] = runs(i + 1, m[i], 0.03, 3);
	knee_find(c, 4, &r);
	assert_int_equal(r.verdict, KNEE_STILL_GROWS);
	assert_int_equal(r.hi, 4);
	assert_int_equal(r.next, 0);
	/* one run per count (what gave three verdicts): undecided, whatever the values */
	for (unsigned i = 0; i < 4; i++)
		c[i] = runs(i + 1, i == 1 ? 105 : m[i], 0, 1);
	knee_find(c, 4, &r);
	assert_int_equal(r.verdict, KNEE_UNDECIDED);
	char line[400];
	scaling_describe(&r, "IOPS", 1, line, sizeof(line));
	assert_non_null(strstr(line, "one run per count gives no noise estimate"));
}

static void test_found_adjacent(void **state)
{
	(void)state;
	struct knee_count c[6];
	struct knee_result r;
	static const double m[] = {100, 200, 300, 310, 305, 312};
	for (unsigned i = 0; i < 6; i++)
		c[i] = runs(i + 1, m[i], 0.005, 3);
	knee_find(c, 6, &r);
	assert_int_equal(r.verdict, KNEE_FOUND);
	assert_int_equal(r.knee, 3);
	assert_int_equal(r.next, 0);
	char line[400];
	scaling_describe(&r, "IOPS", 3, line, sizeof(line));
	assert_non_null(strstr(line, "IOPS stops growing after 3 targets (4 gave +3.3 %"));
	assert_non_null(strstr(line, "3 runs per count, Welch's 95 % interval"));
	/* flat, then growing again into the largest count: it still grows */
	c[5] = runs(6, 600, 0.005, 3);
	knee_find(c, 6, &r);
	assert_int_equal(r.verdict, KNEE_STILL_GROWS);
	assert_int_equal(r.lo, 5);
	/* a noisy first step does not hide the growth after it */
	static const double m2[] = {100, 200, 300, 400, 410, 405};
	for (unsigned i = 0; i < 6; i++)
		c[i] = runs(i + 1, m2[i], i < 2 ? 0.4 : 0.005, 3);
	assert_int_equal(knee_step_judge(&c[0], &c[1], NULL, NULL, NULL), KNEE_STEP_UNDECIDED);
	knee_find(c, 6, &r);
	assert_int_equal(r.verdict, KNEE_FOUND);
	assert_int_equal(r.knee, 4);
	/* a knee undecided: from 4 to 5 the band straddles the share */
	c[4] = runs(5, 450, 0.05, 3);
	c[5] = runs(6, 455, 0.005, 3);
	knee_find(c, 6, &r);
	assert_int_equal(r.verdict, KNEE_UNDECIDED);
	assert_int_equal(r.lo, 4);
	assert_int_equal(r.hi, 5);
	scaling_describe(&r, "IOPS", 3, line, sizeof(line));
	assert_non_null(strstr(line, "IOPS: the knee is undecided: from 4 to 5 targets"));
	/* a knee after one target */
	for (unsigned i = 0; i < 6; i++)
		c[i] = runs(i + 1, 1000, 0.01, 3);
	knee_find(c, 6, &r);
	assert_int_equal(r.verdict, KNEE_FOUND);
	assert_int_equal(r.knee, 1);
}

/* A modelled device: per target IOPS each up to a ceiling, every count
 * measured `repeats` times with +-noise. */
struct model {
	double per, ceiling, noise;
	unsigned repeats;
	unsigned measured[SCALING_MAX_COUNTS], nr;
};

static int model_measure(void *arg, unsigned targets, struct knee_count *k, struct ioc_err *err)
{
	struct model *m = arg;
	(void)err;
	for (unsigned i = 0; i < m->nr; i++)
		assert_int_not_equal(m->measured[i], targets); /* never twice */
	m->measured[m->nr++] = targets;
	double v = fmin(m->per * targets, m->ceiling);
	*k = runs(targets, v, m->noise, m->repeats);
	return 0;
}

static struct knee_result sweep(struct model *m, unsigned n)
{
	struct knee_count c[SCALING_MAX_COUNTS];
	struct knee_result r;
	unsigned nr;
	struct ioc_err err = {0};
	assert_int_equal(scaling_sweep(n, model_measure, m, c, &nr, &r, &err), 0);
	assert_int_equal(nr, m->nr);
	return r;
}

static void test_first_counts(void **state)
{
	(void)state;
	unsigned s[SCALING_MAX_COUNTS];
	static const unsigned want24[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 24};
	assert_int_equal(scaling_first_counts(24, s), 10);
	assert_memory_equal(s, want24, sizeof(want24));
	assert_int_equal(scaling_first_counts(4, s), 4);
	assert_int_equal(s[3], 4);
	assert_int_equal(scaling_first_counts(64, s), 11); /* 1..8, 16, 32, 64 */
	assert_int_equal(s[10], 64);
}

/* A knee at 14, 15 and 16 of 24 targets: found exactly, by bisection
 * between the first counts (1..8, 16, 24), in a bounded number of counts. */
static void test_sweep_24(void **state)
{
	(void)state;
	for (unsigned knee = 14; knee <= 16; knee++) {
		struct model m = {.per = 100, .ceiling = 100.0 * knee, .noise = 0.01, .repeats = 3};
		struct knee_result r = sweep(&m, 24);
		assert_int_equal(r.verdict, KNEE_FOUND);
		assert_int_equal(r.knee, knee);
		assert_true(m.nr <= 20);
		bool have_knee = false, have_next = false;
		for (unsigned i = 0; i < m.nr; i++) {
			have_knee |= m.measured[i] == knee;
			have_next |= m.measured[i] == knee + 1;
		}
		assert_true(have_knee && have_next); /* both sides measured */
	}
	/* linear to the end: still grows at 24 */
	struct model lin = {.per = 100, .ceiling = 1e9, .noise = 0.01, .repeats = 3};
	struct knee_result r = sweep(&lin, 24);
	assert_int_equal(r.verdict, KNEE_STILL_GROWS);
	assert_int_equal(r.hi, 24);
	assert_int_equal(lin.nr, 10); /* nothing to refine */
	/* 30 % noise: a knee at 15 is not named */
	struct model noisy = {.per = 100, .ceiling = 1500, .noise = 0.3, .repeats = 3};
	r = sweep(&noisy, 24);
	assert_int_not_equal(r.verdict, KNEE_FOUND);
	/* single runs: never named */
	struct model single = {.per = 100, .ceiling = 1500, .noise = 0, .repeats = 1};
	r = sweep(&single, 24);
	assert_int_equal(r.verdict, KNEE_UNDECIDED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_judge),
		cmocka_unit_test(test_four_targets),
		cmocka_unit_test(test_found_adjacent),
		cmocka_unit_test(test_first_counts),
		cmocka_unit_test(test_sweep_24),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

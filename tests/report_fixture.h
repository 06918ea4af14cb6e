/* report_fixture.h - result sets for the report and compare tests: a real
 * small plan run with the null engine (fixed, search, curve and scaling
 * steps on two targets, a few seconds), and synthetic results.json files
 * whose per-second IOPS have a known mean and spread. */
#ifndef IOCHAR_TESTS_REPORT_FIXTURE_H
#define IOCHAR_TESTS_REPORT_FIXTURE_H

#include <stddef.h>

/* Run the small plan into DIR/NAME with iochar; fails the test on error. */
void fixture_plan(const char *dir, const char *name);

/* One synthetic workload: nr_iv per-second IOPS samples alternating
 * mean*(1+cov) and mean*(1-cov) (sample stdev ~ mean*cov), plus (with
 * 2 or more) a short last second far off; headline IOPS = mean. */
struct synth_workload {
	const char *label;
	double mean, cov;
	unsigned nr_iv;
};

/* Write DIR/NAME/results.json (steps inline, no steps/ directory) holding
 * one fixed random-read step per workload. */
void fixture_synthetic(const char *dir, const char *name,
		       const struct synth_workload *w, unsigned n);

/* The same with workload i at iodepth[i] (fixture_synthetic: all at 8). */
void fixture_synthetic_qd(const char *dir, const char *name,
			  const struct synth_workload *w, unsigned n,
			  const unsigned *iodepth);

/* Read a whole file (NUL-terminated, malloc'd); fails the test if absent. */
char *fixture_slurp(const char *path, size_t *len);

/* Run `iochar report ARGS... -o out` in dir, expecting exit 0, and return
 * dir/out's text (malloc'd). args ends with NULL and holds no -o. */
char *fixture_report_html(const char *dir, const char *out,
			  const char *const *args);

/* Write text to path. */
void fixture_write(const char *path, const char *text, size_t len);

/* `iochar report INPUT -o r.html` in dir (must exit 0); the report's
 * text (malloc'd). */
char *fixture_report(const char *dir, const char *input);

/* How many times what occurs in text. */
unsigned fixture_count(const char *text, const char *what);

/* In `iochar compare --output-format=json` output: the workloads[] entry
 * whose "workload" is key (fails the test when there is none), its
 * values[set], and that value's verdict. */
struct json_object *compare_workload(struct json_object *root, const char *key);
struct json_object *compare_value(struct json_object *root, const char *key,
				  unsigned set);
const char *compare_verdict(struct json_object *root, const char *key,
			    unsigned set);

#endif

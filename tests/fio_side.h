/* fio_side.h - running one job through the real fio and through iochar
 * side by side (each in its own directory of a test's tmpdir) and reading
 * what they leave: JSON documents, fio log files, directory listings. */
#ifndef IOCHAR_TESTS_FIO_SIDE_H
#define IOCHAR_TESTS_FIO_SIDE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is the program on PATH? */
bool side_have(const char *prog);

/* Run the job options opts (fio's --key=value words) with "fio" or
 * iochar ("iochar": iochar_path() run) in dir/sub (made), JSON (or the
 * --output-format opts name, json+) to dir/sub/out.json, stderr to dir/sub/err.txt. Returns the exit status
 * (-1: did not run). Bounded: each run is given `timeout 60`. */
int side_run(const char *tool, const char *dir, const char *sub,
	     const char *opts);

/* side_run of opts with fio in dir/fio and iochar in dir/iochar at the
 * same time (a paced or tiny job leaves the CPUs to the other): their
 * exit statuses in *rf and *ri. */
void side_run_both(const char *dir, const char *opts, int *rf, int *ri);

/* side_run_both of opts that both must run (exit 0, else the test fails
 * naming their err.txt), their documents in *f and *i (the caller puts
 * them). */
void side_run_both_json(const char *dir, const char *opts, json_object **f,
			json_object **i);

/* What a test asks of fio's run: NULL when it holds, else why not (in
 * why, len bytes). rc: fio's exit status; doc: its JSON, NULL if none. */
typedef const char *side_fio_check(int rc, json_object *doc, char *why,
				   size_t len);

/* fio's own behaviour varies on a busy machine (its jobs start one after
 * the other, it checks its flow counter once per flow_sleep), so a test
 * that compares with it gives fio up to tries runs in all before failing:
 * *doc and rc are fio's first (side_run_both's); while check says no,
 * opts run again with fio alone in dir/fio. Prints each try that did not
 * hold and which try did; fails the test naming the last reason when none
 * did. *doc is then the run that held (the caller puts it). */
void side_fio_tries(const char *dir, const char *opts, int rc,
		    json_object **doc, side_fio_check *check, unsigned tries);

/* SKIP the test (with the reason) when fio is not installed. */
void side_need_fio(void);

/* The JSON document at dir/sub/out.json (the caller puts it), NULL with a
 * message when it does not parse. */
json_object *side_json(const char *dir, const char *sub);

/* Sum over jobs[] of the number at "DIR.KEY" (e.g. "write.bw_bytes"). */
double side_jobs_sum(json_object *doc, const char *dir, const char *key);

/* A fio log file: its lines as numbers (at most 6 columns). */
struct side_log {
	size_t n;
	uint64_t (*v)[6];
	unsigned cols;	/* columns of every line; 0: none, or lines differ */
};

/* Read path into l (false when it cannot be opened). side_log_free. */
bool side_log_read(const char *path, struct side_log *l);
void side_log_free(struct side_log *l);

/* The names in dir ending in suffix ("" for all), sorted, one per line;
 * malloc'd. */
char *side_listing(const char *dir, const char *suffix);

/* The first words of a command line whose jobs come after: fio prints a
 * job's header line when the next --name comes, unless the JSON format
 * was already asked for. */
#define SIDE_JSON_FIRST "--output-format=json "

/* A job's options reading 4 MiB of "data" with the null engine. */
#define SIDE_NULL_READ "--filename=data --size=4m --ioengine=null --rw=read "

/* Write text to dir/name (the test fails if it cannot); the path into
 * path (cap bytes) unless path is NULL. */
void side_write_job(const char *dir, const char *name, const char *text,
		    char *path, size_t cap);

/* jobs[k] of doc (the test fails when there is none). */
json_object *side_job_at(json_object *doc, size_t k);

/* The number at key of o (the test fails, naming it, when missing). */
double side_num(json_object *o, const char *key);

/* The number at the '.'-separated path of jobs[0] of doc. */
double side_job0(json_object *doc, const char *path);

/* Fail the test, naming what, unless lo <= got <= hi. */
void side_expect_within(const char *what, double got, double lo, double hi);

/* qsort's comparison of two uint64_t. */
int side_cmp_u64(const void *a, const void *b);

#endif

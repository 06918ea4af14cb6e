/* results_fio.h - fio's own JSON results (`fio --output-format=json` or
 * json+, fio 3.x) read into the result-set model of results_model.h, so
 * `iochar report` and `compare` take a drawer of fio results as they take
 * iochar's.
 *
 * Each fio group (groupid) becomes one fixed step of the set: its jobs'
 * figures add up into the step's point as the workers of one iochar run
 * do; the first job of the group names the step and gives its options.
 * fio's "lat_ns" is iochar's latency; percentiles come from the merged
 * json+ bins (lat_ns, else clat_ns) when there are any, else from fio's
 * own percentile lists (docs/output.md, "fio's results"). A malformed
 * document is refused with one usage error naming the file and member.
 */
#ifndef IOCHAR_REPORT_RESULTS_FIO_H
#define IOCHAR_REPORT_RESULTS_FIO_H

#include <json-c/json.h>
#include <stdbool.h>

#include "report/results_json.h"
#include "report/results_model.h"
#include "util/err.h"

/* Is root fio's document: "fio version" and "jobs", and not iochar's
 * (which carries fio's layout beside its own "iochar_version")? */
bool results_is_fio(json_object *root);

/* root (results_is_fio) into s, which must be zeroed but for its path and
 * name; on failure s holds what was read (rs_set_free). */
int results_parse_fio(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err);

/* results_fio_dir.c: one direction ("read", "write", "trim") of fio's job
 * entries added up. */
struct fio_bin {
	uint64_t ns, count;
};

struct fio_dir {
	uint64_t ios, bytes, runtime_ms, n;
	double iops, bw_bytes, sum, sumsq;   /* latency sums, ns */
	uint64_t min, max;
	uint64_t pct[RS_NR_PCT];             /* the largest of the entries' lists */
	struct fio_bin *bins;                /* json+ */
	size_t nr_bins, cap_bins;
};

/* Add the direction key of job entry o (c names the entry) into d. */
int fio_dir_add(const struct rj_ctx *c, json_object *o, const char *key,
		struct fio_dir *d);

/* Add all of b into a (a total of directions). */
int fio_dir_merge(const struct rj_ctx *c, struct fio_dir *a, const struct fio_dir *b);

/* d as a model direction: sums, pooled mean and stddev, percentiles from
 * the bins when d has any. Sorts d's bins. */
void fio_dir_result(struct fio_dir *d, struct rs_dir *out);

void fio_dir_free(struct fio_dir *d);

#endif

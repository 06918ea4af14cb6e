/* fio_figures.c - see fio_figures.h. */
#include "output/fio_figures.h"

#include <math.h>

const double fio_pcts[FIO_NR_PCTS] = {1,  5,  10, 20, 30, 40, 50,    60,   70,
				      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

struct samples fio_per_second(const struct interval_series *s, enum io_dir d, bool kib)
{
	struct samples r = {0};
	double sum = 0, sq = 0;
	for (unsigned i = 0; i < s->len; i++) {
		double v = kib ? (double)s->v[i].bytes[d] / 1024 : (double)s->v[i].ios[d];
		r.min = r.n ? fmin(r.min, v) : v;
		r.max = fmax(r.max, v);
		sum += v;
		sq += v * v;
		r.n++;
	}
	if (r.n) {
		r.mean = sum / r.n;
		r.dev = sqrt(fmax(0, sq / r.n - r.mean * r.mean));
	}
	return r;
}

const struct hist *fio_dir_hist(const struct worker_result *wr, enum io_dir d,
				bool open_loop)
{
	const struct dir_stats *ds = &wr->stats.dir[d];
	return open_loop ? &ds->service : &ds->lat;
}

const struct hist *fio_dir_clat(const struct worker_result *wr, enum io_dir d,
				bool open_loop)
{
	const struct dir_stats *ds = &wr->stats.dir[d];
	return ds->clat.count ? &ds->clat : fio_dir_hist(wr, d, open_loop);
}

const struct hist *fio_dir_slat(const struct worker_result *wr, enum io_dir d)
{
	const struct dir_stats *ds = &wr->stats.dir[d];
	return ds->slat.count ? &ds->slat : NULL;
}

struct fio_job_counts fio_job_share(const struct run_result *r)
{
	unsigned n = r->nr_workers ? r->nr_workers : 1;
	return (struct fio_job_counts){
		.usr_cpu = r->cpu_usr_pct / n,
		.sys_cpu = r->cpu_sys_pct / n,
		.ctx = r->ctx / n,
		.majf = r->majf / n,
		.minf = r->minf / n,
	};
}

const char *const fio_depth_level_keys[DEPTH_BUCKETS] = {"1",  "2",  "4",   "8",
							 "16", "32", ">=64"};
const char *const fio_depth_batch_keys[DEPTH_BUCKETS] = {"0",  "4",  "8",   "16",
							 "32", "64", ">=64"};

bool fio_depth_shares(const uint64_t *c, double *pct)
{
	uint64_t total = 0;
	for (int b = 0; b < DEPTH_BUCKETS; b++)
		total += c[b];
	for (int b = 0; b < DEPTH_BUCKETS; b++)
		pct[b] = total ? 100.0 * (double)c[b] / (double)total : 0;
	return total != 0;
}

unsigned fio_plist(const struct job_spec *j, const double **out)
{
	if (j->nr_plist) {
		*out = j->plist;
		return j->nr_plist;
	}
	*out = fio_pcts;
	return FIO_NR_PCTS;
}

/* terse.c - fio's terse output, version 3 (`--output-format=terse`): one
 * line of ';'-separated fields per job (per worker, or per group with
 * group_reporting, as fio: fio_groups.h), in the order of fio's stat.c
 * show_thread_status_terse_all and HOWTO "Terse output". Fields iochar
 * does not measure are written as fio writes an unmeasured figure (0)
 * where fio itself writes 0 for them (slat), left empty where a 0 would
 * be a made-up measurement (the I/O depth distribution of a worker with
 * no measured I/O); each line ends with the disks' utilization, as
 * fio's (fio_disk.h). docs/output.md lists each. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/fio_disk.h"
#include "output/fio_figures.h"
#include "output/fio_groups.h"
#include "output/fio_mixed.h"
#include "output/formats.h"

#define TERSE_VERSION 3
#define TERSE_NR_PCTS 20 /* fio's FIO_IO_U_LIST_MAX_LEN */

/* min;max;mean;dev of h in us, fio's "%llu;%llu;%f;%f" */
static void lat_fields(FILE *f, const struct hist *h)
{
	if (!h || !h->count) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%llu;%llu;%f;%f", (unsigned long long)(h->min / 1000),
		(unsigned long long)(h->max / 1000), hist_mean(h) / 1000, hist_stdev(h) / 1000);
}

/* The job's percentiles of h (fio's: lat's with lat_percentiles, else
 * clat's with clat_percentiles, else none), padded to 20 with "0%=0". */
static void pct_fields(FILE *f, const struct hist *h, const struct job_spec *j)
{
	const double *pl;
	unsigned np = j->lat_percentiles || j->clat_percentiles ? fio_plist(j, &pl) : 0;
	for (unsigned i = 0; i < TERSE_NR_PCTS; i++) {
		if (!h || !h->count || i >= np)
			fputs(";0%=0", f);
		else
			fprintf(f, ";%f%%=%llu", pl[i],
				(unsigned long long)(hist_percentile(h, pl[i]) / 1000));
	}
}

/* One direction (or fio's mixed): io KiB, bw KiB/s, IOPS, runtime ms
 * (integers, as fio computes them from the runtime in ms), slat, clat,
 * percentiles, lat, bw. */
static void dir_fields(FILE *f, const struct fio_dir_view *v, const struct job_spec *j)
{
	uint64_t ms = v->ios ? v->elapsed_ns / 1000000 : 0;
	unsigned long long bw = ms ? 1000 * v->bytes / ms / 1024 : 0;
	unsigned long long iops = ms ? 1000 * v->ios / ms : 0;

	fprintf(f, ";%llu;%llu;%llu;%llu", (unsigned long long)(v->bytes >> 10), bw, iops,
		(unsigned long long)ms);
	lat_fields(f, v->slat); /* none: 0s, as fio's without slat */
	lat_fields(f, v->clat);
	pct_fields(f, j->lat_percentiles ? v->lat : v->clat, j);
	lat_fields(f, v->lat);
	fprintf(f, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)v->bw.min,
		(unsigned long long)v->bw.max, v->bw.n ? 100.0 : 0.0, v->bw.mean, v->bw.dev);
}

/* fio's directions in its terse v3: read and write, or the mixed one in
 * read's place (unified_rw_reporting=mixed), or both and then the mixed
 * one (both). 0 or -ENOMEM. */
static int dirs_fields(FILE *f, const struct worker_result *wr, bool open_loop,
		       const struct job_spec *j)
{
	for (int d = DIR_READ; d <= DIR_WRITE && fio_shows_dirs(j); d++) {
		struct fio_dir_view v = fio_dir_view_of(wr, (enum io_dir)d, open_loop, false);
		dir_fields(f, &v, j);
	}
	if (!fio_shows_mixed(j))
		return 0;
	struct fio_mixed *m = fio_mixed_new(wr, open_loop, false);
	if (!m)
		return -ENOMEM;
	dir_fields(f, &m->view, j);
	fio_mixed_free(m);
	return 0;
}

/* Share of all in [lo, hi) ns, %. */
static double share(const struct hist *all, double lo, double hi)
{
	uint64_t in = 0;
	for (unsigned i = 0; i < HIST_BUCKETS && all->count; i++) {
		double v = (double)hist_bucket_low(i);
		if (v >= lo && v < hi)
			in += all->buckets[i];
	}
	return all->count ? 100.0 * (double)in / (double)all->count : 0;
}

/* fio's "I/O latencies" in us then ms, "%3.2f%%": the first us bucket
 * holds everything under 2 us (fio's stat_calc_lat_nu folds ns in). */
static void latency_fields(FILE *f, const struct worker_result *wr, bool open_loop)
{
	static const double edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
	struct hist all;
	double lo = 0;

	hist_init(&all);
	for (int d = 0; d < DIR_ALL; d++) /* fio's: every direction's */
		hist_merge(&all, fio_dir_hist(wr, (enum io_dir)d, open_loop));
	for (unsigned e = 0; e < 10; e++) {
		fprintf(f, ";%3.2f%%", share(&all, lo, edges[e] * 1e3));
		lo = edges[e] * 1e3;
	}
	for (unsigned e = 0; e < 12; e++) {
		double hi = e == 11 ? INFINITY : (e < 10 ? edges[e] : 2000) * 1e6;
		fprintf(f, ";%3.2f%%", share(&all, lo, hi));
		lo = hi;
	}
}

/* 0 or -ENOMEM */
static int job_line(FILE *f, const struct run_result *r, const struct fio_entry *e)
{
	const struct worker_result *wr = &e->wr;
	struct fio_job_counts c = fio_job_share(r);
	c.ctx *= e->members; /* a merged group: its members' summed, as fio */
	c.majf *= e->members;
	c.minf *= e->members;

	fprintf(f, "%d;fio-3.33 (iochar %s);%s;%u;%d", TERSE_VERSION, IOCHAR_VERSION,
		r->jobs[wr->job].name, wr->group, wr->error < 0 ? -wr->error : wr->error);
	int ret = dirs_fields(f, wr, r->open_loop, &r->jobs[wr->job]);
	if (ret)
		return ret;
	fprintf(f, ";%f%%;%f%%;%llu;%llu;%llu", c.usr_cpu, c.sys_cpu,
		(unsigned long long)c.ctx, (unsigned long long)c.majf,
		(unsigned long long)c.minf);
	double pct[DEPTH_BUCKETS];
	bool have = fio_depth_shares(wr->stats.depth.level, pct);
	for (int b = 0; b < DEPTH_BUCKETS; b++)
		if (have)
			fprintf(f, ";%3.1f%%", pct[b]);
		else
			fputc(';', f); /* no measured I/O: no distribution */
	latency_fields(f, wr, r->open_loop);
	fio_disk_terse(f, r); /* every line carries every disk, as fio's */
	if (r->jobs[wr->job].continue_on_error) /* fio adds its error count then */
		fprintf(f, ";%llu;%d", (unsigned long long)wr->stats.err_total, wr->stats.err_first);
	fputc('\n', f);
	return 0;
}

int output_terse_write(const struct run_result *r, FILE *f)
{
	struct fio_entry *e;
	unsigned n;
	if (fio_entries_make(r, &e, &n))
		return -ENOMEM;
	int ret = 0;
	for (unsigned i = 0; i < n && !ret; i++)
		ret = job_line(f, r, &e[i]);
	fio_entries_free(e, n);
	return ret ? ret : ferror(f) ? -EIO : 0;
}

/* results_fio_dir.c - one direction of fio's job entries added up: the
 * sums, the pooled latency mean and stddev, and the percentiles (from the
 * json+ bins merged, or the largest of each entry's own list). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/results_fio.h"

#define WHERE_MAX 256

static int add_bin(const struct rj_ctx *c, struct fio_dir *d, uint64_t ns,
		   uint64_t count)
{
	if (d->nr_bins == d->cap_bins) {
		size_t cap = d->cap_bins ? 2 * d->cap_bins : 64;
		struct fio_bin *b = realloc(d->bins, cap * sizeof(*b));
		if (!b)
			return rj_oom(c);
		d->bins = b;
		d->cap_bins = cap;
	}
	d->bins[d->nr_bins++] = (struct fio_bin){ns, count};
	return 0;
}

/* json+ "bins": {"<ns>": count, ...}; c names "bins" (a key is not
 * echoed: it may hold anything, new lines too) */
static int add_bins(const struct rj_ctx *c, json_object *bins, struct fio_dir *d)
{
	json_object_object_foreach(bins, key, val) {
		char *end;
		errno = 0;
		unsigned long long ns = strtoull(key, &end, 10);
		if (!*key || *end || errno || *key == '-')
			return rj_fail(c, NULL, "a key is not a latency in ns");
		if (!json_object_is_type(val, json_type_int) || json_object_get_int64(val) < 0)
			return rj_fail(c, NULL, "a value is not a count");
		int ret = add_bin(c, d, ns, (uint64_t)json_object_get_int64(val));
		if (ret)
			return ret;
	}
	return 0;
}

/* The percentiles and bins of lat_ns when fio wrote them (lat_percentiles),
 * else of clat_ns; iochar's latency is fio's lat, clat is the nearest. */
static int add_dist(const struct rj_ctx *c, json_object *dir, struct fio_dir *d)
{
	static const char *const keys[] = {"lat_ns", "clat_ns"};
	char buf[WHERE_MAX], buf2[WHERE_MAX], pkey[32];
	int ret = 0;

	for (int k = 0; k < 2; k++) {
		json_object *l = rj_member(c, dir, keys[k], json_type_object, false, &ret);
		if (ret)
			return ret;
		json_object *pct = l ? rj_member(c, l, "percentile", json_type_object, false, &ret)
				     : NULL;
		if (ret)
			return ret;
		if (!pct)
			continue;
		struct rj_ctx lc = rj_child(c, keys[k], -1, buf, sizeof(buf));
		struct rj_ctx pc = rj_child(&lc, "percentile", -1, buf2, sizeof(buf2));
		for (int i = 0; i < RS_NR_PCT; i++) {
			uint64_t v = 0;
			snprintf(pkey, sizeof(pkey), "%f", rs_pct_value[i]);
			if ((ret = rj_u64(&pc, pct, pkey, false, &v)))
				return ret;
			if (v > d->pct[i])
				d->pct[i] = v;
		}
		json_object *bins = rj_member(&lc, l, "bins", json_type_object, false, &ret);
		if (ret || !bins)
			return ret;
		struct rj_ctx bc = rj_child(&lc, "bins", -1, buf2, sizeof(buf2));
		return add_bins(&bc, bins, d);
	}
	return 0;
}

int fio_dir_add(const struct rj_ctx *pc, json_object *o, const char *key,
		struct fio_dir *d)
{
	char buf[WHERE_MAX], buf2[WHERE_MAX];
	uint64_t ios = 0, bytes = 0, runtime = 0, n = 0, min = 0, max = 0;
	double iops = 0, bw = 0, mean = 0, sd = 0;
	int ret;
	json_object *v = rj_member(pc, o, key, json_type_object, strcmp(key, "trim") != 0,
				   &ret);
	if (!v)
		return ret;
	struct rj_ctx c = rj_child(pc, key, -1, buf, sizeof(buf));
	json_object *lat = rj_member(&c, v, "lat_ns", json_type_object, true, &ret);
	if (!lat)
		return ret;
	struct rj_ctx lc = rj_child(&c, "lat_ns", -1, buf2, sizeof(buf2));
	if ((ret = rj_u64(&c, v, "io_bytes", true, &bytes)) ||
	    (ret = rj_double(&c, v, "bw_bytes", true, &bw)) ||
	    (ret = rj_double(&c, v, "iops", true, &iops)) ||
	    (ret = rj_u64(&c, v, "total_ios", true, &ios)) ||
	    (ret = rj_u64(&c, v, "runtime", true, &runtime)) ||
	    (ret = rj_u64(&lc, lat, "N", true, &n)) ||
	    (ret = rj_u64(&lc, lat, "min", true, &min)) ||
	    (ret = rj_u64(&lc, lat, "max", true, &max)) ||
	    (ret = rj_double(&lc, lat, "mean", true, &mean)) ||
	    (ret = rj_double(&lc, lat, "stddev", true, &sd)))
		return ret;
	if (isnan(mean) || isnan(sd))
		mean = sd = 0;
	d->ios += ios;
	d->bytes += bytes;
	d->iops += isnan(iops) ? 0 : iops;
	d->bw_bytes += isnan(bw) ? 0 : bw;
	if (runtime > d->runtime_ms)
		d->runtime_ms = runtime;
	if (n) {
		d->min = d->n && d->min < min ? d->min : min;
		d->max = max > d->max ? max : d->max;
		d->n += n;
		d->sum += mean * (double)n;
		d->sumsq += sd * sd * (double)(n - 1) + mean * mean * (double)n;
	}
	return add_dist(&c, v, d);
}

int fio_dir_merge(const struct rj_ctx *c, struct fio_dir *a, const struct fio_dir *b)
{
	a->ios += b->ios;
	a->bytes += b->bytes;
	a->iops += b->iops;
	a->bw_bytes += b->bw_bytes;
	if (b->runtime_ms > a->runtime_ms)
		a->runtime_ms = b->runtime_ms;
	if (b->n) {
		a->min = a->n && a->min < b->min ? a->min : b->min;
		a->max = b->max > a->max ? b->max : a->max;
		a->n += b->n;
		a->sum += b->sum;
		a->sumsq += b->sumsq;
	}
	for (int i = 0; i < RS_NR_PCT; i++)
		if (b->pct[i] > a->pct[i])
			a->pct[i] = b->pct[i];
	for (size_t i = 0; i < b->nr_bins; i++) {
		int ret = add_bin(c, a, b->bins[i].ns, b->bins[i].count);
		if (ret)
			return ret;
	}
	return 0;
}

static int bin_cmp(const void *x, const void *y)
{
	const struct fio_bin *a = x, *b = y;
	return a->ns < b->ns ? -1 : a->ns > b->ns;
}

/* fio's rule (stat.c calc_clat_percentiles): the first bin at which the
 * running count reaches p % of all. */
static void bins_percentiles(struct fio_dir *d, uint64_t pct[RS_NR_PCT])
{
	double total = 0, run = 0;
	int i = 0;

	if (!d->nr_bins)
		return;
	qsort(d->bins, d->nr_bins, sizeof(*d->bins), bin_cmp);
	for (size_t b = 0; b < d->nr_bins; b++)
		total += (double)d->bins[b].count;
	if (total <= 0)
		return;
	for (size_t b = 0; b < d->nr_bins && i < RS_NR_PCT; b++) {
		run += (double)d->bins[b].count;
		while (i < RS_NR_PCT && run >= rs_pct_value[i] / 100.0 * total)
			pct[i++] = d->bins[b].ns;
	}
}

void fio_dir_result(struct fio_dir *d, struct rs_dir *out)
{
	struct rs_lat *l = &out->lat;
	double n = (double)d->n;

	out->ios = d->ios;
	out->bytes = d->bytes;
	out->iops = d->iops;
	out->bw_bytes = d->bw_bytes;
	l->min = d->min;
	l->max = d->max;
	l->mean = d->n ? d->sum / n : 0;
	double var = d->n > 1 ? (d->sumsq - d->sum * d->sum / n) / (n - 1) : 0;
	l->stdev = var > 0 ? sqrt(var) : 0;
	memcpy(l->pct, d->pct, sizeof(l->pct));
	bins_percentiles(d, l->pct);
}

void fio_dir_free(struct fio_dir *d)
{
	if (!d)
		return;
	free(d->bins);
	memset(d, 0, sizeof(*d));
}

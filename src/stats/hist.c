/* hist.c - see hist.h for the bucket layout and its error bound. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = HIST_EMPTY_MIN;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (src->buckets[i]) /* adding 0 would page dst's bucket in */
			dst->buckets[i] += src->buckets[i];
}

uint64_t hist_bucket_low(unsigned i)
{
	if (i < HIST_SUB)
		return i;
	unsigned shift = (i >> HIST_SUB_BITS) - 1;
	uint64_t sub = i - ((uint64_t)shift << HIST_SUB_BITS);
	return sub << shift;
}

uint64_t hist_bucket_high(unsigned i)
{
	if (i < HIST_SUB)
		return i;
	if (i == HIST_BUCKETS - 1)
		return UINT64_MAX;
	unsigned shift = (i >> HIST_SUB_BITS) - 1;
	uint64_t sub = i - ((uint64_t)shift << HIST_SUB_BITS);
	return ((sub + 1) << shift) - 1;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	if (h->count == 0)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;

	/* rank of the wanted value, 1-based: ceil(p/100 * count) */
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen < rank)
			continue;
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		if (i == HIST_BUCKETS - 1)
			hi = h->max;
		uint64_t v = lo + (hi - lo) / 2;
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_stdev(const struct hist *h)
{
	if (h->count < 2)
		return 0.0;
	/* n * sumsq - sum^2 is exact in 128 bits for any realistic run; do the
	 * final division in long double. */
	long double n = (long double)h->count;
	long double mean = (long double)h->sum / n;
	long double var = (long double)h->sumsq / n - mean * mean;
	return var > 0 ? (double)sqrtl(var) : 0.0;
}

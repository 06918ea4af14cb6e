/* hist.h - log-linear latency histogram with a fixed error bound.
 *
 * Values (nanoseconds) are grouped by their power of two; each power of two
 * is split into HIST_SUB linear sub-buckets. A value v >= HIST_SUB falls in a
 * bucket of width 2^(floor(log2 v) - HIST_SUB_BITS), i.e. at most v / HIST_SUB.
 * Values below HIST_SUB are stored exactly. Percentiles report the bucket's
 * midpoint, so the relative error of any reported percentile is at most
 * 1 / (2 * HIST_SUB) = 0.39 % (HIST_SUB = 128), clamped to [min, max].
 * Values at or above 2^HIST_MAX_BITS ns (~18 minutes) land in the last bucket;
 * max stays exact.
 *
 * Memory is fixed (HIST_BUCKETS counters, ~34 KiB). Merging adds counters, so a
 * merged histogram is exactly the histogram of all values recorded in its
 * parts (the same as HdrHistogram's hdr_add). Not thread-safe: one per worker,
 * merged by one thread after the workers stop.
 */
#ifndef IOCHAR_STATS_HIST_H
#define IOCHAR_STATS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 40
#define HIST_GROUPS (HIST_MAX_BITS - HIST_SUB_BITS + 1)
#define HIST_BUCKETS (HIST_GROUPS * HIST_SUB)

/* An empty histogram's min: above any value, so the first one recorded
 * replaces it. */
#define HIST_EMPTY_MIN UINT64_MAX

struct hist {
	uint64_t count;
	uint64_t min, max;          /* exact; min = HIST_EMPTY_MIN when empty */
	uint64_t sum;               /* exact, for the mean */
	unsigned __int128 sumsq;    /* exact, for the standard deviation */
	uint64_t buckets[HIST_BUCKETS];
};

/* Empty h. */
void hist_init(struct hist *h);

/* Bucket index of value v; exposed for tests. */
static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (msb >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	/* v >> shift lies in [HIST_SUB, 2 * HIST_SUB): the top HIST_SUB_BITS + 1
	 * bits of v. Each power of two above the exact range adds HIST_SUB. */
	return (shift << HIST_SUB_BITS) + (unsigned)(v >> shift);
}

/* Record one value. Hot path: a clz, a shift and a few adds. */
static inline void hist_record(struct hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->buckets[hist_index(v)]++;
}

/* Add every value of src into dst. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Lowest and highest value that map to bucket index i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_high(unsigned i);

/* Value at percentile p (0 < p <= 100): the smallest recorded value v such
 * that at least p % of values are <= v, reported as its bucket's midpoint and
 * clamped to [min, max]. Returns 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double p);

double hist_mean(const struct hist *h);
double hist_stdev(const struct hist *h); /* population standard deviation */

#endif

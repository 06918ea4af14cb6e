/* dump.c - IOCHAR_DIST_HIST_DIR: each rank writes the latency histogram
 * of its own total (both directions) to DIR/hist-RANK.txt after every
 * run, so a test can merge the ranks' samples itself and check that the
 * percentiles rank 0 reports are those of all I/Os. Format: a line
 * "count N min N max N sum N", then "index count" per non-empty bucket. */
#include <stdio.h>
#include <stdlib.h>

#include "dist/dist.h"
#include "dist/internal.h"

void dist_dump_hist(const struct dist *d, const struct run_result *r)
{
	const char *dir = getenv("IOCHAR_DIST_HIST_DIR");
	struct dir_stats all;
	char path[4096];

	if (!dir || !r->nr_workers)
		return;
	snprintf(path, sizeof(path), "%s/hist-%d.txt", dir, d->rank);
	FILE *f = fopen(path, "we");
	if (!f)
		return;
	stats_total(&r->total, &all);
	fprintf(f, "count %llu min %llu max %llu sum %llu\n",
		(unsigned long long)all.lat.count, (unsigned long long)all.lat.min,
		(unsigned long long)all.lat.max, (unsigned long long)all.lat.sum);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (all.lat.buckets[i])
			fprintf(f, "%u %llu\n", i, (unsigned long long)all.lat.buckets[i]);
	fclose(f);
}

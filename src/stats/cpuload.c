/* cpuload.c - see cpuload.h. */
#include "stats/cpuload.h"

#include <inttypes.h>
#include <stdio.h>

void cpuload_sample(struct cpuload *s)
{
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "re");

	s->ok = false;
	if (!f)
		return;
	/* cpu  user nice system idle iowait irq softirq steal ... */
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 4)
		return;
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	s->total = s->busy + v[3] + v[4];
	s->ok = true;
}

double cpuload_busy_pct(const struct cpuload *a, const struct cpuload *b)
{
	if (!a->ok || !b->ok || b->total <= a->total || b->busy < a->busy)
		return -1;
	return 100.0 * (double)(b->busy - a->busy) / (double)(b->total - a->total);
}

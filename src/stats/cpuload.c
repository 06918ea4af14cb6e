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
	s->user = v[0] + v[1];
	s->system = v[2];
	s->irq = v[5];
	s->softirq = v[6];
	s->steal = v[7];
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

void cpuload_shares(const struct cpuload *a, const struct cpuload *b, struct cpu_shares *out)
{
	*out = (struct cpu_shares){0};
	if (!a->ok || !b->ok || b->total <= a->total || b->busy < a->busy)
		return;
	double t = (double)(b->total - a->total) / 100.0;
	out->known = true;
	out->busy = (double)(b->busy - a->busy) / t;
	out->user = (double)(b->user - a->user) / t;
	out->system = (double)(b->system - a->system) / t;
	out->irq = (double)(b->irq - a->irq) / t;
	out->softirq = (double)(b->softirq - a->softirq) / t;
	out->steal = (double)(b->steal - a->steal) / t;
}

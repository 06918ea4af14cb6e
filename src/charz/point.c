/* point.c - see point.h. */
#include "charz/point.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static double lat_of(const struct lat_summary *l, enum lat_stat stat)
{
	switch (stat) {
	case LAT_STAT_MEAN:
		return l->mean;
	case LAT_STAT_P99:
		return (double)l->pct[PCT_P99];
	case LAT_STAT_P99_9:
		return (double)l->pct[PCT_P99_9];
	}
	return l->mean;
}

double point_latency(const struct point *p, enum lat_stat stat)
{
	return lat_of(&p->s.total.lat, stat);
}

double point_dir_latency(const struct point *p, enum io_dir d,
			 enum lat_stat stat)
{
	return lat_of(&p->s.dir[d].lat, stat);
}

double point_scope_latency(const struct point *p, enum lat_stat stat,
			   enum lat_scope scope)
{
	double worst = 0;
	bool any = false;

	if (p->judged)
		return p->judged_ns[stat];
	if (scope == LAT_SCOPE_TOTAL)
		return point_latency(p, stat);
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		double l = point_dir_latency(p, (enum io_dir)d, stat);

		if (!p->s.dir[d].ios)
			continue;
		any = true;
		worst = l > worst ? l : worst;
	}
	/* no direction counted (a summary without them): the total */
	return any ? worst : point_latency(p, stat);
}

bool point_within(const struct point *p, enum lat_stat stat,
		  enum lat_scope scope, uint64_t limit_ns)
{
	return !p->partial &&
	       point_scope_latency(p, stat, scope) <= (double)limit_ns;
}

const char *lat_scope_name(enum lat_scope scope)
{
	return scope == LAT_SCOPE_TOTAL ? "total" : "each";
}

double point_rate_tolerance(double asked, double seconds, bool poisson, double floor)
{
	double count = asked * seconds;
	if (!(count > 0))
		return floor;
	double noise = poisson ? 4 / sqrt(count) : 2 / count;
	return noise > floor ? noise : floor;
}

unsigned point_count_on_rate(const double *iv, unsigned n, double asked, bool poisson)
{
	double tol = point_rate_tolerance(asked, 1, poisson, POINT_RATE_TOL);
	unsigned on = 0;

	for (unsigned i = 0; i < n; i++)
		on += asked > 0 && iv[i] >= asked * (1 - tol) && iv[i] <= asked * (1 + tol);
	return on;
}

void point_count_seconds(const double *iv, unsigned nr_iv, uint64_t elapsed_ns,
			 double asked, bool poisson, unsigned *nr_sec, unsigned *on_rate)
{
	unsigned whole = (unsigned)(elapsed_ns / STATS_INTERVAL_NS);

	*nr_sec = whole;
	*on_rate = point_count_on_rate(iv, whole < nr_iv ? whole : nr_iv, asked, poisson);
}

const char *lat_stat_name(enum lat_stat stat)
{
	switch (stat) {
	case LAT_STAT_MEAN:
		return "mean";
	case LAT_STAT_P99:
		return "p99";
	case LAT_STAT_P99_9:
		return "p99.9";
	}
	return "?";
}

int lat_stat_parse(const char *s, enum lat_stat *out)
{
	if (!strcmp(s, "mean"))
		*out = LAT_STAT_MEAN;
	else if (!strcmp(s, "p99"))
		*out = LAT_STAT_P99;
	else if (!strcmp(s, "p99.9") || !strcmp(s, "p99_9"))
		*out = LAT_STAT_P99_9;
	else
		return -EINVAL;
	return 0;
}

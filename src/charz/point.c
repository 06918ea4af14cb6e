/* point.c - see point.h. */
#include "charz/point.h"

#include <errno.h>
#include <string.h>

double point_latency(const struct point *p, enum lat_stat stat)
{
	const struct lat_summary *l = &p->s.total.lat;
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

/* point.h - one point of an `iochar app` sweep: the benchmark's figures
 * (per run and per second), the device's for the same seconds, and the
 * trace captured meanwhile. */
#ifndef IOCHAR_APP_POINT_H
#define IOCHAR_APP_POINT_H

#include <stdbool.h>
#include <stdint.h>

#define APP_MAX_SECONDS 3600

struct app_second {
	double tps, qps, lat_p99_ms;
};

/* The device's figures over an interval (iostat's, from /sys/block). */
struct app_devfig {
	double read_iops, write_iops, read_mbps, write_mbps;
	double read_lat_ms, write_lat_ms, util_pct;
};

struct app_trace_sum {
	uint64_t ios, bytes;
	double read_share;
	unsigned nsizes;
	struct { uint64_t bytes; double share; } sizes[8];
};

struct app_point {
	unsigned threads;
	double seconds, tps, qps, lat_avg_ms, lat_p99_ms;
	uint64_t errors, reconnects;
	struct app_second sec[APP_MAX_SECONDS];
	unsigned nsec;
	bool has_dev;
	struct app_devfig dev;
	struct app_devfig dev_sec[APP_MAX_SECONDS];
	unsigned ndev_sec;
	char trace[64];          /* file name in the out dir; "" none */
	char trace_skipped[256]; /* why not */
	struct app_trace_sum tsum;
	char error[512];         /* non-empty: the point failed */
};

#endif

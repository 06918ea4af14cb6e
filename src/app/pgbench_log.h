/* pgbench_log.h - pgbench's per-transaction logs (-l, one file per
 * thread: PREFIX.PID, PREFIX.PID.N), each line "client transaction
 * latency_us script epoch_s epoch_us ...": the p99 over every
 * transaction (nearest rank), and per second of the run its TPS and
 * p99. Failed or skipped transactions (no latency) count as errors. */
#ifndef IOCHAR_APP_PGBENCH_LOG_H
#define IOCHAR_APP_PGBENCH_LOG_H

#include "app/point.h"
#include "util/err.h"

/* Read the logs of prefix into p (lat_p99_ms, sec[], nsec). 0, or
 * -errno when there are none or none has a transaction. */
int pgbench_log_read(const char *prefix, struct app_point *p, struct ioc_err *err);

/* Remove the logs of prefix. */
void pgbench_log_remove(const char *prefix);

/* The nearest-rank q-quantile (0 < q <= 1) of v[0..n) (sorted in place). */
double app_quantile(double *v, size_t n, double q);

#endif

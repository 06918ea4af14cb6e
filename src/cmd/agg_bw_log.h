/* agg_bw_log.h - fio's --bandwidth-log: the run's aggregate bandwidth,
 * all jobs together, in agg-read_bw.log, agg-write_bw.log and
 * agg-trim_bw.log of the working directory. */
#ifndef IOCHAR_CMD_AGG_BW_LOG_H
#define IOCHAR_CMD_AGG_BW_LOG_H

#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "util/err.h"

struct agg_bw_log {
	FILE *f[3]; /* read, write, trim */
	uint64_t last_ns, last_bytes[DIR_COUNT];
};

/* Create (or empty) the three files, as fio does at start, whether or
 * not a sample follows. 0, or -errno with a line in err naming the file. */
int agg_bw_log_open(struct agg_bw_log *l, struct ioc_err *err);

/* One sample at elapsed_ns of the run, from the bytes moved so far per
 * direction: fio's "msec, KiB/s, dir, 0, 0" line in each file, the
 * bandwidth since the last sample (trim: 0, iochar's live counts have
 * reads and writes only). */
void agg_bw_log_sample(struct agg_bw_log *l, uint64_t elapsed_ns,
		       const uint64_t bytes[DIR_COUNT]);

/* Close the files; 0 or -errno when one could not be written. */
int agg_bw_log_close(struct agg_bw_log *l);

#endif

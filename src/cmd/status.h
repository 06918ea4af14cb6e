/* status.h - what a person at a terminal sees while a run goes on: a live
 * status line (elapsed/remaining, IOPS, MB/s, mean latency) and the progress
 * of laying out files. Silent for the status line when stderr is not a
 * terminal, so logs and pipes get only the results. */
#ifndef IOCHAR_CMD_STATUS_H
#define IOCHAR_CMD_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/stats.h"

struct status {
	bool tty;             /* stderr is a terminal */
	bool line_shown;      /* a \r-line is on screen and must be cleared */
	uint64_t last_ios, last_lat_sum, last_bytes, last_ns;
	unsigned fill_quarter; /* last quarter of a fill reported to a log */
};

void status_init(struct status *s);

/* runner_hooks.tick */
void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns);

/* runner_hooks.fill_progress */
void status_fill(void *arg, const char *path, uint64_t done, uint64_t total);

/* Clear the status line, if one is shown, before other output. */
void status_clear(struct status *s);

#endif

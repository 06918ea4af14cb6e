/* status.h - what a person sees while a run goes on: on a terminal, one
 * live status line (elapsed/remaining, IOPS, MB/s and mean latency since
 * the last line, p99 latency of the point so far; in a plan, the step,
 * the point and the step's and whole plan's time left) redrawn each second, with every other message printed on its own line above it;
 * without a terminal (logs, pipes), one progress line every log interval
 * (default STATUS_LOG_EVERY_NS, 0 = none), so a long step is seen to
 * advance. Also the progress of laying out files, a note (util/note.h):
 * shown only while notes are, and kept for the JSON once a file is done. */
#ifndef IOCHAR_CMD_STATUS_H
#define IOCHAR_CMD_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "charz/eta.h"
#include "stats/stats.h"

#include <stdio.h>

#define STATUS_LOG_EVERY_NS (10 * 1000000000ull)

struct status {
	bool tty;             /* stderr is a terminal */
	bool line_shown;      /* a \r-line is on screen and must be cleared */
	uint64_t last_ios, last_lat_sum, last_bytes, last_ns;
	uint64_t log_every_ns; /* no terminal: a progress line this often */
	uint64_t next_log_ns;  /* elapsed time of the next one */
	unsigned fill_quarter; /* last quarter of a fill reported to a log */
	bool notes;            /* laying out files shown (util/note.h's
				* note_shown() at status_init); kept anyway */
	/* fio's --eta-newline: the live line is ended (kept on screen, a
	 * new one started) every this often; 0 = redrawn in place */
	uint64_t newline_every_ns, next_newline_ns;
	FILE *messages;        /* status_messages(), or NULL */
	/* a plan's estimate (charz/eta.h), set by the plan command: the
	 * line adds the step, the point and the step's and plan's time
	 * left. Borrowed; NULL for a single run. */
	const struct eta *eta;
};

/* Start with nothing shown; log lines every STATUS_LOG_EVERY_NS. */
void status_init(struct status *s);

/* A stream for the command's progress messages (e.g. a plan's "step 2 of
 * 8"): each write first clears the status line, so messages never glue
 * onto it, then goes to stderr. Owned by s; closed by status_clear's
 * caller through status_done. NULL when it cannot be made (then write to
 * stderr directly). */
FILE *status_messages(struct status *s);

/* Clear the line and close the messages stream; s stays usable. */
void status_done(struct status *s);

/* runner_hooks.tick */
void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns, const struct hist *lat);

/* runner_hooks.fill_progress */
void status_fill(void *arg, const char *path, uint64_t done, uint64_t total);

/* Clear the status line, if one is shown, before other output. */
void status_clear(struct status *s);

#endif

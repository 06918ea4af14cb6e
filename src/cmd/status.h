/* status.h - what a person sees while a run goes on: on a terminal, one
 * live status line redrawn from half a second in, then each second, as
 * wide as the terminal (TIOCGWINSZ, asked again after SIGWINCH) and never
 * wider, so it never wraps (redrawn at once when it is resized): the
 * time, then the last window's IOPS and
 * MB/s (read and write apart when both directions run) and its mean and
 * p99 latency, both of the same I/Os (the histogram's difference since
 * the last line); in a plan, the step, the point and the step's and whole
 * plan's time left; over many hosts, the sum of every host's figures
 * (their mean latency: the histograms stay on each host, so no p99). Any
 * other output, on stdout or stderr, from any thread, first erases it
 * (cmd/out_guard.h), so it stands on a line of its own above the line.
 * Without a terminal (logs, pipes), one progress line every log interval
 * (default STATUS_LOG_EVERY_NS, 0 = none), so a long step is seen to
 * advance. Also the progress of laying out files, a note (util/note.h):
 * shown only while notes are, and kept for the JSON once a file is done. */
#ifndef IOCHAR_CMD_STATUS_H
#define IOCHAR_CMD_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "charz/eta.h"
#include "cmd/status_line.h"
#include "stats/stats.h"

#include <stdio.h>

#define STATUS_LOG_EVERY_NS (10 * 1000000000ull)

struct status {
	bool tty;             /* stderr is a terminal */
	bool line_shown;      /* a \r-line is on screen (under out_guard_lock) */
	bool guarded;         /* out_guard_set(status's erase) */
	unsigned cols;        /* the terminal's width; 0 until asked */
	unsigned ranks;       /* hosts of the run (0, 1: one) */
	uint64_t last_ios[DIR_COUNT], last_bytes[DIR_COUNT], last_lat_sum, last_ns;
	bool both_dirs;       /* reads and writes seen: the line splits them */
	struct hist *prev;    /* the latency the last line saw (malloc'd) */
	struct hist *win;     /* the window's: what came since */
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
	struct status_piece last[10]; /* the line drawn last, to fit again */
	unsigned nr_last;
};

/* Start with nothing shown; log lines every STATUS_LOG_EVERY_NS. */
void status_init(struct status *s);

/* A stream for the command's progress messages (e.g. a plan's "step 2 of
 * 8"): each write first clears the status line, so messages never glue
 * onto it, then goes to stderr. Owned by s; closed by status_clear's
 * caller through status_done. NULL when it cannot be made (then write to
 * stderr directly). */
FILE *status_messages(struct status *s);

/* Clear the line, close the messages stream, let the output go
 * unguarded, free what the line kept; s stays usable. */
void status_done(struct status *s);

/* runner_hooks.tick */
void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns, const struct hist *lat);

/* runner_hooks.poll: the line drawn again at once, to the new width,
 * when the terminal was resized (SIGWINCH). */
void status_poll(void *arg);

/* runner_hooks.fill_progress */
void status_fill(void *arg, const char *path, uint64_t done, uint64_t total);

/* Clear the status line, if one is shown, before other output. */
void status_clear(struct status *s);

#endif

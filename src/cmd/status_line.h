/* status_line.h - the live status line's text: its pieces, each with a
 * priority, joined into the width of the terminal. The least important
 * go first when the line would not fit (a plan's step time left, the
 * point, the point's time left), and what is left is cut at the width:
 * the line never wraps, so "\r\033[K" erases all of it. */
#ifndef IOCHAR_CMD_STATUS_LINE_H
#define IOCHAR_CMD_STATUS_LINE_H

#include <stddef.h>

#define STATUS_PIECE_MAX 96

struct status_piece {
	char text[STATUS_PIECE_MAX]; /* with its separator before it (", ") */
	unsigned prio;               /* 0: always; higher: dropped sooner */
};

/* Into out (len bytes): the pieces, in their order, whose priority is at
 * most the highest level at which all of them take at most cols columns
 * (cols 0: no limit, every piece). When even the priority-0 pieces do
 * not fit: those that do, in their order, the first one cut to cols. A
 * separator at the line's start is dropped. */
void status_line_join(char *out, size_t len, const struct status_piece *p, unsigned n,
		      unsigned cols);

/* Figures as the line shows them, 3 significant digits: 123k, 61.2k,
 * 1.23M (IOPS); 482, 48.2, 4.82 (MB/s); "65.2 us", "1.20 ms" (latency,
 * ns in). buf of at least 24 bytes; returns buf. */
char *status_fmt_count(char *buf, size_t len, double v);
char *status_fmt_num(char *buf, size_t len, double v);
char *status_fmt_lat(char *buf, size_t len, double ns);

#endif

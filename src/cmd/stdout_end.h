/* stdout_end.h - a command's results on stdout, and what happens when
 * stdout cannot take them: a full disk (/dev/full, ENOSPC) is one line
 * naming the errno and exit 1; a reader that went away (`| head`) ends
 * the command quietly with exit 1, as cat and grep do, instead of killing
 * it with SIGPIPE. */
#ifndef IOCHAR_CMD_STDOUT_END_H
#define IOCHAR_CMD_STDOUT_END_H

#include <stdbool.h>

/* Ignore SIGPIPE, so a closed pipe is a write error (EPIPE) the command
 * sees, and make stdout a stream over fd 1 that remembers the first
 * errno its writes met, line-buffered on a terminal or when stderr goes
 * to the same file, and erases the live line first (cmd/out_guard.h, which
 * stderr gets too); call before anything is written (main does). */
void stdout_begin(void);

/* Whether a write to stdout has failed: a command that meets a write
 * error and sees this leaves the line to stdout_end (main's), which names
 * the real errno, and says nothing for a closed pipe. */
bool stdout_failed(void);

/* Flush stdout: 0, or 1 after printing "iochar: writing results to
 * stdout: <errno text>" naming the first write's errno, whichever write
 * met it (nothing for EPIPE; the line only once however often it is
 * called). main calls it after every command. */
int stdout_end(void);

#endif

/* stdout_end.h - a command's results on stdout, and what happens when
 * stdout cannot take them: a full disk (/dev/full, ENOSPC) is one line
 * naming the errno and exit 1; a reader that went away (`| head`) ends
 * the command quietly with exit 1, as cat and grep do, instead of killing
 * it with SIGPIPE. */
#ifndef IOCHAR_CMD_STDOUT_END_H
#define IOCHAR_CMD_STDOUT_END_H

/* Ignore SIGPIPE, so a closed pipe is a write error (EPIPE) the command
 * sees; call before anything is written. */
void stdout_begin(void);

/* Flush stdout: 0, or 1 after printing "iochar: writing results to
 * stdout: <errno text>" (nothing for EPIPE). glibc keeps the bytes a
 * failed write did not take, so the flush meets the error again and its
 * errno is the real one, whatever write failed first. */
int stdout_end(void);

#endif

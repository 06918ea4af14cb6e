/* stdout_end.c - see stdout_end.h. */
#define _GNU_SOURCE
#include "cmd/stdout_end.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/out_guard.h"

/* The first errno a write to fd 1 met. glibc drops the bytes a failed
 * write did not take and keeps only the error flag, so a later fflush
 * writes nothing and cannot name the error: it is kept here instead. */
static int first_err;
/* The line is said once: a command may end stdout itself (verify, to
 * fold it into its status) and main ends it again for every command. */
static bool said;

/* stdout's writes, as glibc's own would do them, remembering the errno */
static ssize_t fd1_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;

	(void)cookie;
	out_guard_erase(); /* the live status line, if one is shown */
	while (done < len) {
		ssize_t n = write(STDOUT_FILENO, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!first_err)
				first_err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	return (ssize_t)done; /* short: glibc sets the stream's error flag */
}

/* stdout and stderr are the same file (2>&1 into a log or a pipe): then
 * stdout goes out a line at a time, so a message on stderr never lands
 * in the middle of one of its lines. */
static bool shares_stderr(void)
{
	struct stat o, e;

	return !fstat(STDOUT_FILENO, &o) && !fstat(STDERR_FILENO, &e) &&
	       o.st_dev == e.st_dev && o.st_ino == e.st_ino;
}

void stdout_begin(void)
{
	static bool begun;

	signal(SIGPIPE, SIG_IGN);
	if (begun)
		return;
	begun = true;
	/* glibc lets stdout be assigned; fd 1 stays what it was, a terminal
	 * keeps the line buffering glibc would have given it, and so does a
	 * file stderr goes to too */
	out_guard_begin(); /* stderr's stream too */
	cookie_io_functions_t io = {.write = fd1_write};
	bool tty = isatty(STDOUT_FILENO);
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return; /* out of memory: glibc's stdout, errno unnamed */
	fflush(stdout);
	stdout = f;
	setvbuf(stdout, NULL, tty || shares_stderr() ? _IOLBF : _IOFBF, BUFSIZ);
}

bool stdout_failed(void)
{
	return ferror(stdout) != 0;
}

int stdout_end(void)
{
	errno = 0;
	bool failed = fflush(stdout) != 0;
	int e = first_err ? first_err : errno;

	if (!failed && !ferror(stdout))
		return 0;
	if (!e)
		e = EIO; /* a stream error no write could name */
	if (e != EPIPE && !said)
		fprintf(stderr, "iochar: writing results to stdout: %s\n",
			strerror(e));
	said = true;
	return 1;
}

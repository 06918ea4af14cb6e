/* stdout_end.c - see stdout_end.h. */
#include "cmd/stdout_end.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void stdout_begin(void)
{
	signal(SIGPIPE, SIG_IGN);
}

int stdout_end(void)
{
	errno = 0;
	bool failed = fflush(stdout) != 0;
	int e = errno;

	if (!failed && !ferror(stdout))
		return 0;
	if (!e)
		e = EIO; /* a stream error the flush could not name */
	if (e != EPIPE)
		fprintf(stderr, "iochar: writing results to stdout: %s\n",
			strerror(e));
	return 1;
}

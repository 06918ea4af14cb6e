/* trigger.c - fio's local triggers; see trigger.h. The runner's watch
 * ticks once a second, so a trigger comes within a second of its time
 * or of its file's appearance (fio checks a little more often). */
#include "cmd/trigger.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

bool trigger_armed(const struct trigger *t)
{
	return t->file || t->timeout_ns;
}

bool trigger_due(struct trigger *t, uint64_t elapsed_ns)
{
	struct stat sb;

	if (t->fired)
		return false;
	if (t->timeout_ns && elapsed_ns >= t->timeout_ns)
		t->fired = true;
	if (t->file && !stat(t->file, &sb)) {
		/* fio removes the file, so the next run does not fire at once */
		if (unlink(t->file))
			perror(t->file);
		t->fired = true;
	}
	return t->fired;
}

int trigger_exec(const struct trigger *t)
{
	int st;

	if (!t->cmd || !t->cmd[0])
		return 0;
	fflush(stdout); /* the command's output after iochar's so far */
	st = system(t->cmd);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

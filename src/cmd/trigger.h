/* trigger.h - fio's local triggers (--trigger-timeout, --trigger-file,
 * --trigger): at a time into the run, or when a file appears, fio stops
 * its jobs, runs the trigger command and reports what was done, exit 0
 * (fio's power-cut tests use them). */
#ifndef IOCHAR_CMD_TRIGGER_H
#define IOCHAR_CMD_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

struct trigger {
	const char *cmd;     /* --trigger, or NULL: stop only */
	const char *file;    /* --trigger-file, or NULL */
	uint64_t timeout_ns; /* --trigger-timeout, 0 = none */
	bool fired;
};

/* Is a trigger set at all? */
bool trigger_armed(const struct trigger *t);

/* Has the trigger come, at elapsed_ns into the run: the timeout passed,
 * or the file exists (removed then, as fio removes it)? true once. */
bool trigger_due(struct trigger *t, uint64_t elapsed_ns);

/* Run the trigger command through the shell, as fio's system(); its
 * output goes where iochar's does. Returns the command's exit status
 * (-1 when it could not run), 0 without a command. */
int trigger_exec(const struct trigger *t);

#endif

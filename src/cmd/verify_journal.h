/* verify_journal.h - `iochar verify --journal=FILE`: check the targets of
 * a crashed (or finished) run against its crash journal
 * (verify/journal.h). Called by cmd_verify once the arguments are parsed.
 */
#ifndef IOCHAR_CMD_VERIFY_JOURNAL_H
#define IOCHAR_CMD_VERIFY_JOURNAL_H

#include <stdbool.h>

#include "base/job.h"
#include "output/output.h"

/* Replay journal, read back its region of each target (the journal's own
 * target list, or filename's when spec has one: as many paths, in the same
 * order) and report every unit that breaks the journal's rules. Returns
 * the exit status: 0 clean, 1 failures or a read error, 2 bad input. */
int verify_journal_main(const char *journal, const struct job_spec *spec,
			bool fatal, enum output_format format);

#endif

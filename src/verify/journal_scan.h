/* journal_scan.h - checking targets against a replayed crash journal
 * (journal.h): the driving of `iochar verify --journal=FILE`, whose
 * command (cmd/verify_journal.c) picks the targets and prints. Every unit
 * of the journal's region on each target is read and judged by
 * journal_check_unit; failures are printed to stderr as they are found.
 */
#ifndef IOCHAR_VERIFY_JOURNAL_SCAN_H
#define IOCHAR_VERIFY_JOURNAL_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"
#include "verify/journal.h"
#include "verify/scan.h"

/* One target of the journal, and what its check found. */
struct journal_target {
	const char *path; /* borrowed */
	uint64_t size;	  /* bytes it holds (a VD: its capacity) */
	struct journal_counts c;
	int error; /* its read failed: msg says why */
	char msg[IOC_ERR_MAX];
};

/* How to read a target that is no plain file (a RAID VD, which verify/
 * does not know): hook points a scan's read hooks at it, where says where
 * a failed unit lies (after its failure line). */
struct journal_reader {
	void (*hook)(void *arg, struct vscan *p);
	vscan_where_fn where;
	void *arg;
};

/* t->path must exist; t->size gets its size. 0, or -errno with a usage
 * message (bad input: nothing was read). */
int journal_target_inspect(struct journal_target *t, struct ioc_err *err);

/* Check the journal's region of each of its targets t[0..nr_files) (read
 * through rd when not NULL), counting into t[i].c and *total; a target
 * shorter than the region lost its tail (counted missing). A read error
 * on one is recorded in it and the next still checked; fatal stops at
 * the first failure. Returns true when any target could not be read. */
bool journal_scan_targets(const struct journal_replay *r,
			  struct journal_target *t, bool fatal,
			  const struct journal_reader *rd,
			  struct journal_counts *total);

#endif

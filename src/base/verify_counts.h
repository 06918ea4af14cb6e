/* verify_counts.h - what data verification found, as counters: per worker while
 * a job runs, merged into the run's result, and per `iochar verify` pass.
 */
#ifndef IOCHAR_BASE_VERIFY_COUNTS_H
#define IOCHAR_BASE_VERIFY_COUNTS_H

#include <stdint.h>
#include <stdio.h>

struct jw;

struct verify_counts {
	uint64_t checked_units; /* units compared with what they should hold */
	uint64_t
	    unverified_units; /* read but not checkable (see docs/output.md) */
	uint64_t failures;    /* sum of the kinds below */
	uint64_t corrupted;   /* bad CRC or damaged header */
	uint64_t misplaced;   /* intact unit of another offset */
	uint64_t stale;	      /* intact, but an older write (lost write) */
	uint64_t never_written; /* a write of this run left no unit at all */
	uint64_t missing_units; /* past the target's end, inside the region
				 * its units were written for (truncated) */
};

static inline void verify_counts_add(struct verify_counts *to,
				     const struct verify_counts *from)
{
	to->checked_units += from->checked_units;
	to->unverified_units += from->unverified_units;
	to->failures += from->failures;
	to->corrupted += from->corrupted;
	to->misplaced += from->misplaced;
	to->stale += from->stale;
	to->never_written += from->never_written;
	to->missing_units += from->missing_units;
}

/* One line "WHAT: N units checked, N failures (corrupted N, ...,
 * missing N), N unverified" on f. */
void verify_counts_print(FILE *f, const char *what,
			 const struct verify_counts *c);

/* The counters as members of the JSON object open in w. */
void verify_counts_json(struct jw *w, const struct verify_counts *c);

#endif

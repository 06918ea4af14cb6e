/* scan.h - reading a target back and checking every unit of a range: the
 * engine of `iochar verify`.
 *
 * Without an expectation source the check is self-describing: a unit with
 * an iochar header must have a good CRC and name its own offset; a unit
 * without one is counted as unverified (it may be prefill data, or never
 * have been written). A source supplies the expected generation of each
 * unit, and then a missing or older unit is a failure too. Units are 4096
 * or 512 bytes; where a header says which, the scan follows it, so data
 * written with bs=512 checks under the default unit. A unit callback
 * (`check`) replaces the per-unit check altogether, with fixed-size
 * units: the crash journal's sector-wise rules (journal.h) use it.
 */
#ifndef IOCHAR_VERIFY_SCAN_H
#define IOCHAR_VERIFY_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"
#include "verify/block.h"
#include "base/verify_counts.h"

/* Fill exp for the unit at offset of the target (exp->offset is set
 * already). Returns 0 or -errno (with a message in err). */
typedef int (*vscan_expect_fn)(void *arg, uint64_t offset, struct vexpect *exp,
			       struct ioc_err *err);

/* Check the unit of len bytes at unit, read at target offset, in place of
 * the built-in check (e.g. the journal's sector-wise rules): count it and
 * report it too. Returns 0, 1 when the scan must stop, or -errno (with a
 * message in err). */
typedef int (*vscan_unit_fn)(void *arg, const uint8_t *unit, uint32_t len,
			     uint64_t offset, struct ioc_err *err);

/* Read len bytes of the target at offset off into buf, whole (e.g. through
 * a virtual drive). 0 or -errno with a message in err. */
typedef int (*vscan_read_fn)(void *arg, void *buf, size_t len, uint64_t off,
			     struct ioc_err *err);

/* Write more about where the unit at offset lives (e.g. the VD member)
 * after its failure line: one line to out. */
typedef void (*vscan_where_fn)(void *arg, FILE *out, uint64_t offset);

struct vscan {
	const char *path; /* opened and read; with read, only a label */
	vscan_read_fn read; /* NULL: read path */
	void *read_arg;
	vscan_where_fn where; /* NULL: nothing more to say */
	void *where_arg;
	uint64_t start, len;	/* the range; start a multiple of 512 */
	uint32_t unit;		/* unit where no header says otherwise */
	vscan_expect_fn expect; /* NULL: self-describing check */
	void *expect_arg;
	vscan_unit_fn check; /* NULL: vunit_check. Set: every unit is `unit`
			      * bytes (headers do not change it), checked,
			      * counted and reported by check alone */
	void *check_arg;
	bool stop_at_first; /* stop at the first failure */
	FILE *report;	    /* failure lines; NULL = none */
	uint64_t *printed;  /* failure lines so far, shared across scans
			     * to cap them (VREPORT_MAX_LINES); may be NULL */
	uint64_t *extent;   /* out: raised to the largest extent (block.h)
			     * an intact unit in its place names; the target
			     * must reach it. May be NULL */
};

/* Read [start, start + len) of path (O_DIRECT where the target allows it,
 * so a device's media is read, not the page cache) and check it, adding
 * verdicts to *c. Returns 0 (failures are counted, not errors), or -errno
 * with a message in err when the target cannot be read. */
int vscan_target(const struct vscan *p, struct verify_counts *c,
		 struct ioc_err *err);

#endif

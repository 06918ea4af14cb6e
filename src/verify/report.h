/* report.h - counting unit verdicts and writing failure lines.
 *
 * A failure is reported as one line of key=value fields, so it can be read
 * and grepped alike:
 *
 *   verify failure: target=/data/f offset=8192 kind=corrupted why="bad CRC"
 *   expected_gen=3 found_gen=3 expected_offset=8192 found_offset=8192
 *   crc=0x1a2b3c4d stored_crc=0x5e6f7081 first_diff=100 unit=4096
 *   data=696f6368 61727631 ... (the first 32 bytes of the unit)
 *
 * (on one line). A value that is not known is written "-".
 */
#ifndef IOCHAR_VERIFY_REPORT_H
#define IOCHAR_VERIFY_REPORT_H

#include <stdio.h>

#include "verify/block.h"
#include "base/verify_counts.h"

/* Failure lines a worker or a verify pass prints before it only counts;
 * a device that returns garbage must not bury the terminal. */
#define VREPORT_MAX_LINES 1000

/* Count one unit of kind k in c (VK_OK and failures are checked units). */
void vreport_count(struct verify_counts *c, enum vkind k);

/* Write f's line for target to out, in one write. */
void vreport_print(FILE *out, const char *target, const struct vfailure *f);

/* A target whose data ends (at end) before the region it was written for
 * does (at extent): returns the units of unit_len bytes in [end, extent)
 * (0 when extent <= end), to count as missing failures, after writing
 *   verify failure: target=T offset=END kind=missing why="..."
 *   missing=[END, EXTENT) bytes=N
 * to out (which may be NULL). */
uint64_t vreport_missing(FILE *out, const char *target, uint64_t end,
			 uint64_t extent, uint32_t unit_len);

/* Write the note that further failures are counted but not printed. */
void vreport_print_cap(FILE *out, const char *target);

#endif

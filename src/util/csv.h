/* csv.h - one CSV field, quoted as RFC 4180 asks and only when needed (a
 * comma, quote, CR or LF in it; quotes doubled). Every CSV writer in
 * iochar (run output, plan results, inventory, compare) uses it. */
#ifndef IOCHAR_UTIL_CSV_H
#define IOCHAR_UTIL_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write s, at most len bytes or up to its NUL, as one field to f. */
void csv_field_n(FILE *f, const char *s, size_t len);

/* Write the NUL-terminated s as one field to f. */
static inline void csv_field(FILE *f, const char *s)
{
	csv_field_n(f, s, SIZE_MAX);
}

#endif

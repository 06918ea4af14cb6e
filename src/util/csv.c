/* csv.c - see csv.h. */
#include "util/csv.h"

#include <string.h>

void csv_field_n(FILE *f, const char *s, size_t len)
{
	size_t n = strnlen(s, len);

	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\n', n) &&
	    !memchr(s, '\r', n)) {
		fwrite(s, 1, n, f);
		return;
	}
	putc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			putc('"', f);
		putc(s[i], f);
	}
	putc('"', f);
}

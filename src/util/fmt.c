/* fmt.c - see fmt.h. */
#include "util/fmt.h"

#include <stdio.h>

char *fmt_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	unsigned u = 0;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u == 0 || v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f %s", v, unit[u]);
	else
		snprintf(buf, len, "%.1f %s", v, unit[u]);
	return buf;
}

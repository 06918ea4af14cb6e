/* numfmt.c - see numfmt.h. */
#include "report/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DASH "\xe2\x80\x93" /* en dash: no value */

char *numfmt_thousands(char *buf, double v)
{
	char digits[32];
	if (!isfinite(v) || fabs(v) >= 1e18)
		return strcpy(buf, isfinite(v) ? "huge" : DASH);
	snprintf(digits, sizeof(digits), "%.0f", fabs(v));
	size_t n = strlen(digits), o = 0;
	if (v < 0 && strcmp(digits, "0"))
		buf[o++] = '-';
	for (size_t i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* v with 3 significant digits (at most 2 decimals), then suffix. */
static char *sig3(char *buf, double v, const char *suffix)
{
	if (v == 0) {
		snprintf(buf, NUMFMT_MAX, "0%s", suffix);
		return buf;
	}
	const char *f = fabs(v) >= 100 ? "%.0f%s" : fabs(v) >= 10 ? "%.1f%s" : "%.2f%s";
	snprintf(buf, NUMFMT_MAX, f, v, suffix);
	return buf;
}

char *numfmt_iops(char *buf, double v)
{
	if (!isfinite(v))
		return strcpy(buf, DASH);
	if (fabs(v) < 1e5)
		return numfmt_thousands(buf, v);
	if (fabs(v) < 1e6)
		return sig3(buf, v / 1e3, "K");
	if (fabs(v) < 1e12)
		return sig3(buf, v / 1e6, "M");
	return numfmt_thousands(buf, v);
}

char *numfmt_bw(char *buf, double b)
{
	if (!isfinite(b))
		return strcpy(buf, DASH);
	if (fabs(b) < 1e9)
		return sig3(buf, b / 1e6, " MB/s");
	if (fabs(b) < 1e15)
		return sig3(buf, b / 1e9, " GB/s");
	char t[NUMFMT_MAX];
	snprintf(buf, NUMFMT_MAX, "%s GB/s", numfmt_thousands(t, b / 1e9));
	return buf;
}

char *numfmt_lat(char *buf, double ns)
{
	if (!isfinite(ns))
		return strcpy(buf, DASH);
	if (fabs(ns) < 1e3)
		snprintf(buf, NUMFMT_MAX, "%.0f ns", ns);
	else if (fabs(ns) < 1e6)
		sig3(buf, ns / 1e3, " \xc2\xb5s");
	else if (fabs(ns) < 1e9)
		sig3(buf, ns / 1e6, " ms");
	else if (fabs(ns) < 1e12)
		sig3(buf, ns / 1e9, " s");
	else {
		char t[NUMFMT_MAX];
		snprintf(buf, NUMFMT_MAX, "%s s", numfmt_thousands(t, ns / 1e9));
	}
	return buf;
}

char *numfmt_size(char *buf, double b)
{
	static const char *const units[] = {"", "K", "M", "G", "T"};
	if (!isfinite(b) || b < 0)
		return strcpy(buf, DASH);
	unsigned u = 0;
	while (u < 4 && b >= 1024 && fmod(b, 1024) == 0) {
		b /= 1024;
		u++;
	}
	snprintf(buf, NUMFMT_MAX, "%.0f%s", b, units[u]);
	return buf;
}

char *numfmt_pct(char *buf, double pct)
{
	if (!isfinite(pct))
		return strcpy(buf, DASH);
	snprintf(buf, NUMFMT_MAX, "%+.1f %%", pct);
	return buf;
}

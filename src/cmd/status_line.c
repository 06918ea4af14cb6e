/* status_line.c - see status_line.h. */
#include "cmd/status_line.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/text_width.h"

/* The line's width with the pieces of priority at most level. */
static size_t width_at(const struct status_piece *p, unsigned n, unsigned level)
{
	size_t w = 0;
	for (unsigned i = 0; i < n; i++)
		if (p[i].prio <= level)
			w += text_width(p[i].text);
	return w;
}

void status_line_join(char *out, size_t len, const struct status_piece *p, unsigned n,
		      unsigned cols)
{
	unsigned level = 0, top = 0;
	size_t at = 0;

	for (unsigned i = 0; i < n; i++)
		top = p[i].prio > top ? p[i].prio : top;
	level = top;
	if (cols)
		for (level = 0; level < top && width_at(p, n, level + 1) <= cols; level++)
			;
	/* even the pieces of priority 0 are too wide: those that fit, in
	 * order, the first one at least (cut below) */
	size_t room = cols && width_at(p, n, 0) > cols ? cols : SIZE_MAX, used = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < n && at < len; i++) {
		const char *t = p[i].text;
		if (p[i].prio > level)
			continue;
		used += text_width(t);
		if (at && used > room)
			break;
		if (!at) /* the first piece shown: no separator before it */
			t += strspn(t, " ,:|");
		at += (size_t)snprintf(out + at, len - at, "%s", t);
	}
	if (cols)
		out[text_prefix_len(out, cols)] = '\0';
}

char *status_fmt_num(char *buf, size_t len, double v)
{
	if (v < 9.995)
		snprintf(buf, len, "%.2f", v);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

char *status_fmt_count(char *buf, size_t len, double v)
{
	static const char unit[] = " kMG";
	unsigned u = 0;
	char n[24];

	if (v < 999.5) {
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
	while (v >= 999.5 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, "%s%c", status_fmt_num(n, sizeof(n), v), unit[u]);
	return buf;
}

char *status_fmt_lat(char *buf, size_t len, double ns)
{
	char n[24];
	if (ns >= 999.5e3 * 1e3)
		snprintf(buf, len, "%s s", status_fmt_num(n, sizeof(n), ns / 1e9));
	else if (ns >= 999.5e3)
		snprintf(buf, len, "%s ms", status_fmt_num(n, sizeof(n), ns / 1e6));
	else
		snprintf(buf, len, "%s us", status_fmt_num(n, sizeof(n), ns / 1e3));
	return buf;
}

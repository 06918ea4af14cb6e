/* status.c - see status.h. */
#include "cmd/status.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/fmt.h"

void status_init(struct status *s)
{
	memset(s, 0, sizeof(*s));
	s->tty = isatty(STDERR_FILENO);
}

void status_clear(struct status *s)
{
	if (s->line_shown) {
		fputs("\r\033[K", stderr);
		s->line_shown = false;
	}
}

void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns)
{
	struct status *s = arg;
	uint64_t all_ios = ios[DIR_READ] + ios[DIR_WRITE];
	uint64_t all_bytes = bytes[DIR_READ] + bytes[DIR_WRITE];
	if (!s->tty)
		return;
	/* rates over the last tick, not the whole run, so changes show */
	double dt = (double)(elapsed_ns - s->last_ns) / 1e9;
	uint64_t dios = all_ios - s->last_ios;
	double iops = dt > 0 ? (double)dios / dt : 0;
	double mbs = dt > 0 ? (double)(all_bytes - s->last_bytes) / dt / 1e6 : 0;
	double lat_us = dios ? (double)(lat_sum_ns - s->last_lat_sum) / (double)dios / 1e3 : 0;
	s->last_ios = all_ios;
	s->last_bytes = all_bytes;
	s->last_lat_sum = lat_sum_ns;
	s->last_ns = elapsed_ns;

	unsigned el = (unsigned)(elapsed_ns / 1000000000ull);
	char left[32] = "";
	if (planned_ns > elapsed_ns)
		snprintf(left, sizeof(left), ", %us left",
			 (unsigned)((planned_ns - elapsed_ns + 999999999ull) / 1000000000ull));
	fprintf(stderr, "\r\033[K[%us%s] %.0f IOPS, %.1f MB/s, lat %.1f us", el,
		left, iops, mbs, lat_us);
	s->line_shown = true;
}

void status_fill(void *arg, const char *path, uint64_t done, uint64_t total)
{
	struct status *s = arg;
	char a[32], b[32];
	unsigned pct = total ? (unsigned)(done * 100 / total) : 100;

	if (s->tty) {
		fprintf(stderr, "\r\033[Kiochar: writing %s before the run: %s of %s (%u%%)",
			path, fmt_bytes(a, sizeof(a), done),
			fmt_bytes(b, sizeof(b), total), pct);
		s->line_shown = true;
		if (done == total)
			status_clear(s);
		return;
	}
	/* logs get a line per quarter, not one per update */
	unsigned quarter = pct / 25 + 1;
	if (quarter <= s->fill_quarter && done != total)
		return;
	s->fill_quarter = done == total ? 0 : quarter;
	fprintf(stderr, "iochar: writing %s before the run: %s of %s (%u%%)\n",
		path, fmt_bytes(a, sizeof(a), done), fmt_bytes(b, sizeof(b), total),
		pct);
}

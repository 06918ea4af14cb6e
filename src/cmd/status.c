/* status.c - see status.h. */
#define _GNU_SOURCE /* fopencookie */
#include "cmd/status.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/fmt.h"
#include "util/note.h"

void status_init(struct status *s)
{
	memset(s, 0, sizeof(*s));
	s->tty = isatty(STDERR_FILENO);
	s->notes = note_shown();
	s->log_every_ns = STATUS_LOG_EVERY_NS;
	s->next_log_ns = s->log_every_ns;
}

void status_clear(struct status *s)
{
	if (s->line_shown) {
		fputs("\r\033[K", stderr);
		s->line_shown = false;
	}
}

static ssize_t messages_write(void *cookie, const char *buf, size_t len)
{
	status_clear(cookie);
	size_t n = fwrite(buf, 1, len, stderr);
	fflush(stderr);
	return n ? (ssize_t)n : -1;
}

FILE *status_messages(struct status *s)
{
	if (!s->messages) {
		cookie_io_functions_t io = {.write = messages_write};
		s->messages = fopencookie(s, "w", io);
		if (s->messages)
			setvbuf(s->messages, NULL, _IOLBF, 0);
	}
	return s->messages;
}

void status_done(struct status *s)
{
	if (s->messages)
		fclose(s->messages);
	s->messages = NULL;
	status_clear(s);
}

/* Ticks of one run come about a second apart; one that comes sooner
 * after the last, or whose clock or counters went back, belongs to the
 * next run of a plan (each point starts at zero): its rates count from
 * that run's start, not from the last tick of the one before (which once
 * gave 1e10 IOPS over a few microseconds). */
#define STATUS_NEW_RUN_NS 500000000ull

static void restart_if_new_run(struct status *s, uint64_t elapsed_ns,
			       uint64_t ios, uint64_t bytes, uint64_t lat_sum)
{
	bool ran_before = s->last_ns || s->last_ios;
	if (!ran_before ||
	    (elapsed_ns >= s->last_ns + STATUS_NEW_RUN_NS && ios >= s->last_ios &&
	     bytes >= s->last_bytes && lat_sum >= s->last_lat_sum))
		return;
	s->last_ns = s->last_ios = s->last_bytes = s->last_lat_sum = 0;
	s->next_log_ns = s->log_every_ns;
}

/* ns as a short duration: 42s, 3m05s, 2.5h. */
static void fmt_dur(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = (ns + 999999999ull) / 1000000000ull;
	if (s < 120)
		snprintf(buf, len, "%llus", (unsigned long long)s);
	else if (s < 7200)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%.1fh", (double)s / 3600);
}

/* ", step 2/4 point 3, step 1m20s left, plan 5m02s left" of a plan under
 * way, else "". */
static void plan_fields(const struct status *s, uint64_t run_left_ns,
			char *buf, size_t len)
{
	const struct eta *e = s->eta;
	char a[32], b[32];
	buf[0] = 0;
	if (!e || e->cur >= e->nr)
		return;
	fmt_dur(a, sizeof(a), eta_step_left_ns(e, run_left_ns));
	fmt_dur(b, sizeof(b), eta_plan_left_ns(e, run_left_ns));
	snprintf(buf, len, " | step %u/%u point %u, step %s left, plan %s left",
		 e->cur + 1, e->nr, e->runs_started, a, b);
}

void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns, const struct hist *lat)
{
	struct status *s = arg;
	uint64_t all_ios = ios[DIR_READ] + ios[DIR_WRITE];
	uint64_t all_bytes = bytes[DIR_READ] + bytes[DIR_WRITE];

	restart_if_new_run(s, elapsed_ns, all_ios, all_bytes, lat_sum_ns);
	bool log_now = !s->tty && s->log_every_ns && elapsed_ns >= s->next_log_ns;
	if (!s->tty && !log_now)
		return;
	/* rates since the last line drawn, not the whole run, so changes show */
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
	/* p99 of the point so far: the histograms merge, nothing is sorted */
	char p99[40] = "";
	if (lat && lat->count)
		snprintf(p99, sizeof(p99), ", p99 %.1f us",
			 (double)hist_percentile(lat, 99.0) / 1e3);
	char plan[128];
	plan_fields(s, planned_ns > elapsed_ns ? planned_ns - elapsed_ns : 0, plan,
		    sizeof(plan));
	if (log_now) {
		while (s->next_log_ns <= elapsed_ns)
			s->next_log_ns += s->log_every_ns;
		fprintf(stderr, "iochar: [%us%s] %.0f IOPS, %.1f MB/s, lat %.1f us%s%s\n",
			el, left, iops, mbs, lat_us, p99, plan);
		return;
	}
	fprintf(stderr, "\r\033[K[%us%s] %.0f IOPS, %.1f MB/s, lat %.1f us%s%s", el,
		left, iops, mbs, lat_us, p99, plan);
	s->line_shown = true;
	if (s->newline_every_ns && elapsed_ns >= s->next_newline_ns) {
		while (s->next_newline_ns <= elapsed_ns)
			s->next_newline_ns += s->newline_every_ns;
		fputc('\n', stderr); /* this line stays: fio's --eta-newline */
		s->line_shown = false;
	}
}

void status_fill(void *arg, const char *path, uint64_t done, uint64_t total)
{
	struct status *s = arg;
	char a[32], b[32];
	unsigned pct = total ? (unsigned)(done * 100 / total) : 100;

	if (done == total) /* the JSON's notes say it, shown or not */
		note_keep("wrote %s before the run: %s", path,
			  fmt_bytes(b, sizeof(b), total));
	if (!s->notes)
		return;
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

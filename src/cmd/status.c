/* status.c - see status.h. */
#define _GNU_SOURCE /* fopencookie */
#include "cmd/status.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd/out_guard.h"
#include "cmd/status_line.h"
#include "util/fmt.h"
#include "util/note.h"
#include "util/text_width.h"

/* The terminal changed size: ask its width again before the next line. */
static volatile sig_atomic_t winch_seen = 1;

static void on_winch(int sig)
{
	(void)sig;
	winch_seen = 1;
}

static void winch_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sa.sa_flags = SA_RESTART; /* the workers' I/O calls go on */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
}

/* Under the guard's lock: the line is erased before any other output. */
static void status_erase(void *arg)
{
	struct status *s = arg;
	if (s->line_shown) {
		out_guard_raw("\r\033[K", 4);
		s->line_shown = false;
	}
}

void status_init(struct status *s)
{
	memset(s, 0, sizeof(*s));
	s->tty = isatty(STDERR_FILENO);
	s->notes = note_shown();
	s->log_every_ns = STATUS_LOG_EVERY_NS;
	s->next_log_ns = s->log_every_ns;
	winch_catch();
	out_guard_set(status_erase, s);
	s->guarded = true;
}

void status_clear(struct status *s)
{
	out_guard_lock();
	status_erase(s);
	out_guard_unlock();
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
	if (s->guarded)
		out_guard_set(NULL, NULL);
	s->guarded = false;
	free(s->prev);
	free(s->win);
	s->prev = s->win = NULL;
}

/* The terminal's width in columns (80 when it says none). */
static unsigned term_cols(struct status *s)
{
	if (winch_seen || !s->cols) {
		struct winsize ws = {0};
		winch_seen = 0;
		s->cols = !ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col ? ws.ws_col : 80;
	}
	return s->cols;
}

/* The columns a line may take: one short of the width, since a
 * character in the last column leaves some terminals about to wrap. */
static unsigned line_cols(struct status *s)
{
	unsigned cols = term_cols(s);
	return cols > 1 ? cols - 1 : 1;
}

/* line on the terminal in place of the one shown, under the guard's lock;
 * keep: end it there (fio's --eta-newline) instead of redrawing it. */
static void draw(struct status *s, const char *line, bool keep)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "\r\033[K%s%s", line, keep ? "\n" : "");

	out_guard_lock();
	out_guard_raw(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	s->line_shown = !keep;
	out_guard_unlock();
}

/* Ticks of one run come at least half a second apart; one that comes
 * sooner after the last, or whose clock or counters went back, belongs to
 * the next run of a plan (each point starts at zero): its rates count
 * from that run's start, not from the last tick of the one before (which
 * once gave 1e10 IOPS over a few microseconds). */
#define STATUS_NEW_RUN_NS 250000000ull

static void restart_if_new_run(struct status *s, uint64_t elapsed_ns,
			       const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
			       uint64_t lat_sum)
{
	bool back = elapsed_ns < s->last_ns + STATUS_NEW_RUN_NS || lat_sum < s->last_lat_sum;
	for (int d = 0; d < DIR_COUNT; d++)
		back |= ios[d] < s->last_ios[d] || bytes[d] < s->last_bytes[d];
	if (!(s->last_ns || s->last_lat_sum) || !back)
		return;
	memset(s->last_ios, 0, sizeof(s->last_ios));
	memset(s->last_bytes, 0, sizeof(s->last_bytes));
	s->last_ns = s->last_lat_sum = 0;
	s->both_dirs = false;
	if (s->prev)
		hist_init(s->prev);
	s->next_log_ns = s->log_every_ns;
}

/* The latency of the I/Os that completed since the last line: lat (the
 * run so far) less what that line saw. NULL when none is known. */
static const struct hist *window_latency(struct status *s, const struct hist *lat)
{
	if (!lat)
		return NULL;
	if (!s->prev) {
		s->prev = malloc(sizeof(*s->prev));
		s->win = malloc(sizeof(*s->win));
		if (!s->prev || !s->win) {
			free(s->prev);
			free(s->win);
			s->prev = s->win = NULL;
			return NULL;
		}
		hist_init(s->prev);
	}
	if (lat->count < s->prev->count) /* a new run's */
		hist_init(s->prev);
	struct hist *w = s->win;
	w->count = lat->count - s->prev->count;
	w->sum = lat->sum - s->prev->sum;
	w->sumsq = 0; /* not needed: no deviation is shown */
	w->min = lat->min;
	w->max = lat->max;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		w->buckets[i] = lat->buckets[i] - s->prev->buckets[i];
	*s->prev = *lat;
	return w->count ? w : NULL;
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

/* What one line shows of the window since the last. */
struct window {
	double iops[DIR_COUNT], mbs[DIR_COUNT];
	double mean_ns, p99_ns; /* < 0: not known */
};

/* ": 124k IOPS 482 MB/s", or with reads and writes both seen in the run
 * ": r/w 61.2k/61.3k IOPS 240/240 MB/s". */
static void rates_piece(const struct status *s, const struct window *w,
			struct status_piece *p)
{
	char a[24], b[24], c[24], d[24];
	double sum = w->mbs[0] + w->mbs[1];
	/* GB/s from 10 GB/s on: the figures stay 3 digits */
	double k = sum >= 9999.5 ? 1e-3 : 1;
	const char *unit = k < 1 ? "GB/s" : "MB/s";
	if (!s->both_dirs) {
		snprintf(p->text, sizeof(p->text), ": %s IOPS %s %s",
			 status_fmt_count(a, sizeof(a), w->iops[0] + w->iops[1]),
			 status_fmt_num(b, sizeof(b), sum * k), unit);
		return;
	}
	snprintf(p->text, sizeof(p->text), ": r/w %s/%s IOPS %s/%s %s",
		 status_fmt_count(a, sizeof(a), w->iops[DIR_READ]),
		 status_fmt_count(b, sizeof(b), w->iops[DIR_WRITE]),
		 status_fmt_num(c, sizeof(c), w->mbs[DIR_READ] * k),
		 status_fmt_num(d, sizeof(d), w->mbs[DIR_WRITE] * k), unit);
}

/* A plan's pieces: " | plan 5m02s left | step 2/4 (1m20s left) point 3",
 * the plan's time left first to stay and the step's first to go. */
static unsigned plan_pieces(const struct status *s, uint64_t run_left_ns,
			    struct status_piece *p)
{
	const struct eta *e = s->eta;
	char a[32];
	if (!e || e->cur >= e->nr)
		return 0;
	fmt_dur(a, sizeof(a), eta_plan_left_ns(e, run_left_ns));
	snprintf(p[0].text, sizeof(p[0].text), " | plan %s left", a);
	p[0].prio = 1;
	snprintf(p[1].text, sizeof(p[1].text), " | step %u/%u", e->cur + 1, e->nr);
	p[1].prio = 2;
	fmt_dur(a, sizeof(a), eta_step_left_ns(e, run_left_ns));
	snprintf(p[2].text, sizeof(p[2].text), " (%s left)", a);
	p[2].prio = 4;
	snprintf(p[3].text, sizeof(p[3].text), " point %u", e->runs_started);
	p[3].prio = 3;
	return 4;
}

/* The line's pieces (status_line.h), most needed at priority 0. */
static unsigned line_pieces(const struct status *s, uint64_t elapsed_ns,
			    uint64_t planned_ns, const struct window *w,
			    struct status_piece *p)
{
	char a[32], b[32];
	unsigned n = 0;
	uint64_t left = planned_ns > elapsed_ns ? planned_ns - elapsed_ns : 0;

	memset(p, 0, 10 * sizeof(*p));
	/* in a plan, the point's time goes before the plan's time left */
	snprintf(p[n].text, sizeof(p->text), "%llus",
		 (unsigned long long)(elapsed_ns / 1000000000ull));
	p[n++].prio = s->eta ? 2 : 0;
	if (left) {
		fmt_dur(a, sizeof(a), left);
		snprintf(p[n].text, sizeof(p->text), ", %s left", a);
		p[n++].prio = s->eta ? 3 : 1;
	}
	rates_piece(s, w, &p[n++]);
	if (w->mean_ns >= 0 && w->p99_ns >= 0)
		snprintf(p[n++].text, sizeof(p->text), ", lat %s p99 %s",
			 status_fmt_lat(a, sizeof(a), w->mean_ns),
			 status_fmt_lat(b, sizeof(b), w->p99_ns));
	else if (w->mean_ns >= 0)
		snprintf(p[n++].text, sizeof(p->text), ", lat %s",
			 status_fmt_lat(a, sizeof(a), w->mean_ns));
	n += plan_pieces(s, left, &p[n]);
	if (s->ranks > 1) /* the sums over the ranks (dist/step.c's heartbeats) */
		snprintf(p[n++].text, sizeof(p->text), " | all %u hosts", s->ranks);
	return n;
}

/* The window since the last line from the run's totals, and the line's
 * memory of them moved on. */
static void window_take(struct status *s, uint64_t elapsed_ns,
			const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
			uint64_t lat_sum_ns, const struct hist *lat, struct window *w)
{
	double dt = (double)(elapsed_ns - s->last_ns) / 1e9;
	uint64_t dios = 0;

	for (int d = 0; d < DIR_COUNT; d++) {
		w->iops[d] = dt > 0 ? (double)(ios[d] - s->last_ios[d]) / dt : 0;
		w->mbs[d] = dt > 0 ? (double)(bytes[d] - s->last_bytes[d]) / dt / 1e6 : 0;
		dios += ios[d] - s->last_ios[d];
		s->last_ios[d] = ios[d];
		s->last_bytes[d] = bytes[d];
	}
	s->both_dirs |= ios[DIR_READ] && ios[DIR_WRITE];
	/* mean and p99 of the same I/Os: the histogram's window; without
	 * one (no snapshot came), the mean of the counters' window alone */
	const struct hist *h = window_latency(s, lat);
	w->mean_ns = h ? hist_mean(h) : dios ? (double)(lat_sum_ns - s->last_lat_sum) / (double)dios : -1;
	w->p99_ns = h ? (double)hist_percentile(h, 99.0) : -1;
	s->last_lat_sum = lat_sum_ns;
	s->last_ns = elapsed_ns;
}

void status_tick(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		 const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		 uint64_t lat_sum_ns, const struct hist *lat)
{
	struct status *s = arg;
	struct status_piece p[10];
	struct window w;
	char line[512];

	restart_if_new_run(s, elapsed_ns, ios, bytes, lat_sum_ns);
	bool log_now = !s->tty && s->log_every_ns && elapsed_ns >= s->next_log_ns;
	window_take(s, elapsed_ns, ios, bytes, lat_sum_ns, lat, &w);
	if (!s->tty && !log_now)
		return;
	unsigned n = line_pieces(s, elapsed_ns, planned_ns, &w, p);
	if (log_now) {
		while (s->next_log_ns <= elapsed_ns)
			s->next_log_ns += s->log_every_ns;
		status_line_join(line, sizeof(line), p, n, 0);
		fprintf(stderr, "iochar: %s\n", line);
		return;
	}
	status_line_join(line, sizeof(line), p, n, line_cols(s));
	memcpy(s->last, p, n * sizeof(*p));
	s->nr_last = n;
	bool keep = false;
	if (s->newline_every_ns && elapsed_ns >= s->next_newline_ns) {
		while (s->next_newline_ns <= elapsed_ns)
			s->next_newline_ns += s->newline_every_ns;
		keep = true; /* this line stays: fio's --eta-newline */
	}
	draw(s, line, keep);
}

void status_poll(void *arg)
{
	struct status *s = arg;
	char line[512];

	if (!winch_seen || !s->tty || !s->nr_last)
		return;
	out_guard_lock();
	bool shown = s->line_shown;
	out_guard_unlock();
	if (!shown) /* a message since: the next tick draws it */
		return;
	status_line_join(line, sizeof(line), s->last, s->nr_last, line_cols(s));
	draw(s, line, false);
}

void status_fill(void *arg, const char *path, uint64_t done, uint64_t total)
{
	struct status *s = arg;
	char a[32], b[32], tail[160], line[512];
	unsigned pct = total ? (unsigned)(done * 100 / total) : 100;

	if (done == total) /* the JSON's notes say it, shown or not */
		note_keep("wrote %s before the run: %s", path,
			  fmt_bytes(b, sizeof(b), total));
	if (!s->notes)
		return;
	snprintf(tail, sizeof(tail), " before the run: %s of %s (%u%%)",
		 fmt_bytes(a, sizeof(a), done), fmt_bytes(b, sizeof(b), total), pct);
	if (s->tty) {
		/* a long path loses its start, so the line fits the width */
		size_t room = line_cols(s), fixed = strlen("iochar: writing ...") +
							text_width(tail);
		const char *shown = text_width(path) + fixed - 3 <= room
					    ? path
					    : text_suffix(path, room > fixed ? room - fixed : 0);
		snprintf(line, sizeof(line), "iochar: writing %s%s%s", shown == path ? "" : "...",
			 shown, tail);
		line[text_prefix_len(line, room)] = '\0';
		draw(s, line, false);
		if (done == total)
			status_clear(s);
		return;
	}
	/* logs get a line per quarter, not one per update */
	unsigned quarter = pct / 25 + 1;
	if (quarter <= s->fill_quarter && done != total)
		return;
	s->fill_quarter = done == total ? 0 : quarter;
	fprintf(stderr, "iochar: writing %s%s\n", path, tail);
}

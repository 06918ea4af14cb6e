/* text.c - the normal, human-readable output, in the spirit of fio's.
 *
 * Per job (with group_reporting, per group of jobs, as fio): a header
 * line, then for each direction that did I/O its rates, latency moments
 * and percentiles; fio's "Run status group N (all jobs):" lines; then the
 * run totals, the CPU cost and a note when the run was cut short. Figures come from summary.h; this file
 * only chooses units.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate_verdict.h"
#include "core/replay.h"
#include "engine/engine.h"
#include "inventory/environment.h"
#include "output/fio_disk.h"
#include "output/fio_groups.h"
#include "output/fio_mixed.h"
#include "output/formats.h"
#include "output/summary.h"
#include "output/vd_out.h"

#define NUM_MAX 32

/* v with three significant digits: "1.23", "12.3", "123". */
static void fmt_sig3(char *buf, size_t len, double v, const char *unit)
{
	if (v < 9.995)
		snprintf(buf, len, "%.2f%s", v, unit);
	else if (v < 99.95)
		snprintf(buf, len, "%.1f%s", v, unit);
	else
		snprintf(buf, len, "%.0f%s", v, unit);
}

/* v scaled by base until below it: "981", "12.3k", "1.05M" (decimal) or
 * "512B", "48.1MiB" (binary). Plain numbers below `exact` are printed whole. */
static void fmt_scaled(char *buf, size_t len, double v, double base,
		       const char *const *units, unsigned nr_units,
		       double exact)
{
	unsigned u = 0;

	if (v < exact) {
		snprintf(buf, len, v > 0 && v < 1 ? "%.2f%s" : "%.0f%s", v,
			 units[0]);
		return;
	}
	/* 999.7 would round to "1000": move up before formatting. */
	while (u + 1 < nr_units && v >= base - 0.5) {
		v /= base;
		u++;
	}
	fmt_sig3(buf, len, v, units[u]);
}

static void fmt_count(char *buf, size_t len, double v)
{
	static const char *const units[] = {"", "k", "M", "G", "T"};
	fmt_scaled(buf, len, v, 1000, units, 5, 10000);
}

static void fmt_bytes_bin(char *buf, size_t len, double v)
{
	static const char *const units[] = {"B",   "KiB", "MiB",
					    "GiB", "TiB", "PiB"};
	fmt_scaled(buf, len, v, 1024, units, 6, 1024);
}

static void fmt_bytes_dec(char *buf, size_t len, double v)
{
	static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	fmt_scaled(buf, len, v, 1000, units, 6, 1000);
}

/* A rate of v bytes a second in bits, as fio's bit-based engines show
 * theirs: "4000Mibit" (binary) or "4194Mbit" (decimal). */
static void fmt_bits(char *buf, size_t len, double v, bool dec)
{
	static const char *const bin[] = {"bit",   "Kibit", "Mibit",
					  "Gibit", "Tibit", "Pibit"};
	static const char *const decu[] = {"bit",  "kbit", "Mbit",
					   "Gbit", "Tbit", "Pbit"};
	fmt_scaled(buf, len, v * 8, dec ? 1000 : 1024, dec ? decu : bin, 6,
		   dec ? 1000 : 1024);
}

/* A rate, in bytes or (a bit-based engine's) bits. */
static void fmt_rate(char *buf, size_t len, double v, bool bits, bool dec)
{
	if (bits)
		fmt_bits(buf, len, v, dec);
	else if (dec)
		fmt_bytes_dec(buf, len, v);
	else
		fmt_bytes_bin(buf, len, v);
}

/* Does job's engine give its rates in bits (fio's net)? */
static bool job_bits(const struct job_spec *j)
{
	const struct engine_ops *e = engine_find(j->ioengine);

	return e && (e->flags & ENGINE_BIT_BASED);
}

/* A block size exactly: "4KiB", "1MiB", "4000B". */
static void fmt_bs(char *buf, size_t len, uint64_t bs)
{
	if (bs && bs % (1024 * 1024) == 0)
		snprintf(buf, len, "%" PRIu64 "MiB", bs / (1024 * 1024));
	else if (bs && bs % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "KiB", bs / 1024);
	else
		snprintf(buf, len, "%" PRIu64 "B", bs);
}

struct lat_unit {
	const char *name;
	double ns;
};

/* The unit that keeps typical values (the mean) between 1 and 9999. */
static struct lat_unit lat_unit_for(const struct lat_summary *l)
{
	double ref = l->mean;

	if (ref < 1e4)
		return (struct lat_unit){"nsec", 1};
	if (ref < 1e7)
		return (struct lat_unit){"usec", 1e3};
	if (ref < 1e10)
		return (struct lat_unit){"msec", 1e6};
	return (struct lat_unit){"sec", 1e9};
}

static void fmt_lat(char *buf, size_t len, double ns, struct lat_unit u)
{
	double v = ns / u.ns;

	if (v >= 100 || u.ns == 1)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* "  read: IOPS=12.3k, BW=48.1MiB/s (50.4MB/s)(481MiB/10001msec)" */
static void text_rate_line(FILE *f, const char *dir,
			   const struct dir_summary *s, bool bits)
{
	char iops[NUM_MAX], bw[NUM_MAX], bwd[NUM_MAX], total[NUM_MAX];

	fmt_count(iops, sizeof(iops), s->iops);
	fmt_rate(bw, sizeof(bw), s->bw_bytes, bits, false);
	fmt_rate(bwd, sizeof(bwd), s->bw_bytes, bits, true);
	fmt_bytes_bin(total, sizeof(total), (double)s->bytes);
	fprintf(f, "  %s: IOPS=%s, BW=%s/s (%s/s)(%s/%" PRIu64 "msec)\n", dir,
		iops, bw, bwd, total, s->elapsed_ns / 1000000);
}

/* "    <what> (usec): min=..." and its percentiles line. */
static void text_lat_lines(FILE *f, const char *what,
			   const struct lat_summary *l)
{
	struct lat_unit u = lat_unit_for(l);
	char a[NUM_MAX], b[NUM_MAX], c[NUM_MAX], d[NUM_MAX];

	fmt_lat(a, sizeof(a), (double)l->min, u);
	fmt_lat(b, sizeof(b), (double)l->max, u);
	fmt_lat(c, sizeof(c), l->mean, u);
	fmt_lat(d, sizeof(d), l->stdev, u);
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%s, stdev=%s\n", what,
		u.name, a, b, c, d);
	fprintf(f, "    %s percentiles (%s):", what, u.name);
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++) {
		fmt_lat(a, sizeof(a), (double)l->pct[i], u);
		fprintf(f, "%s %s=%s", i ? "," : "", summary_pcts[i].label, a);
	}
	putc('\n', f);
}

/* A replay (read_iolog) says whether it kept up with its log's schedule
 * (replay_verdict), and when behind whose lateness it was: iochar's (tool
 * lag) or the target's. */
static void text_replay_note(FILE *f, const struct run_result *r, unsigned job)
{
	struct replay_figures *g = malloc(sizeof(*g));
	if (!g || !replay_figures_of(r, job, g)) {
		free(g);
		return;
	}
	uint64_t lag = hist_percentile(&g->lag, 99), tool = hist_percentile(&g->tool_lag, 99);
	if (!g->verdict)
		fputs("  replay: as fast as possible (no schedule to keep)\n", f);
	else if (!strcmp(g->verdict, "kept up"))
		fprintf(f, "  replay: kept up with the log's schedule (p99 issue lag %.3f ms; "
			"%llu of %llu I/Os more than 1 ms late)\n", (double)lag / 1e6,
			(unsigned long long)g->behind, (unsigned long long)g->ios);
	else
		fprintf(f, "  replay: behind: could not keep up with the log's schedule: p99 "
			"issue lag %.3f ms, %llu of %llu I/Os more than 1 ms late, of it iochar's "
			"own (tool lag) p99 %.3f ms: %s\n", (double)lag / 1e6,
			(unsigned long long)g->behind, (unsigned long long)g->ios,
			(double)tool / 1e6, 2 * tool > lag ? "iochar was the limit" :
			"the target was slower than when the log was taken");
	free(g);
}

static void text_job_header(FILE *f, const struct job_spec *j)
{
	char bs[NUM_MAX];

	fmt_bs(bs, sizeof(bs), j->bs);
	fprintf(f,
		"%.*s: rw=%s, bs=%s, ioengine=%.*s, iodepth=%u, numjobs=%u\n",
		(int)sizeof(j->name), j->name, rw_name(j->rw), bs,
		(int)sizeof(j->ioengine), j->ioengine, j->iodepth, j->numjobs);
}

static void text_worker_errors(FILE *f, const struct run_result *r,
			       unsigned job)
{
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		if (w->job != job || w->error == 0)
			continue;
		fprintf(f, "  error (clone %u): %.*s\n", w->clone,
			(int)sizeof(w->error_msg),
			w->error_msg[0]
			    ? w->error_msg
			    : strerror(w->error < 0 ? -w->error : w->error));
	}
}

/* The group of job (its workers'), 0 when it has none. */
static unsigned job_group(const struct run_result *r, unsigned job)
{
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].job == job)
			return r->workers[i].group;
	return 0;
}

/* The text merges a job's clones always; with group_reporting a job joins
 * the block of the job before it when both are in one group (fio's rule,
 * fio_groups.h, by job). */
static bool joins_previous(const struct run_result *r, unsigned job)
{
	return job > 0 && r->jobs[job].group_reporting &&
	       job_group(r, job) == job_group(r, job - 1);
}

/* The figures of jobs first..last merged, rates over the longest
 * worker's time; *members counts the workers. 0 or -ENOMEM. */
static int summary_jobs(const struct run_result *r, unsigned first,
			unsigned last, struct stats_summary *s, unsigned *members)
{
	struct worker_stats all;
	uint64_t elapsed = 0;
	int ret = 0;

	stats_init(&all);
	*members = 0;
	for (unsigned i = 0; i < r->nr_workers && !ret; i++) {
		const struct worker_result *w = &r->workers[i];
		if (w->job < first || w->job > last)
			continue;
		ret = stats_merge(&all, &w->stats);
		elapsed = w->elapsed_ns > elapsed ? w->elapsed_ns : elapsed;
		(*members)++;
	}
	if (!ret)
		ret = summary_stats(&all, elapsed ? elapsed : r->elapsed_ns, s);
	stats_free(&all);
	return ret;
}

/* fio's "clat prio C/L" lines of direction d of ps, from two
 * priorities with samples on ("lat prio" with lat_percentiles). */
static void text_prio_lines(FILE *f, const struct prio_stats *ps, enum io_dir d,
			    const struct job_spec *j)
{
	struct lat_summary l;
	char what[48];

	if (prio_stats_with_samples(ps, d) < 2)
		return;
	for (unsigned i = 0; i < ps->nr[d]; i++) {
		const struct prio_hist *p = &ps->e[d][i];
		if (!p->h.count)
			continue;
		summary_lat(&p->h, &l);
		snprintf(what, sizeof(what), "%s prio %u/%u", j->lat_percentiles ? "lat" : "clat",
			 p->ioprio >> 13, p->ioprio & 7);
		text_lat_lines(f, what, &l);
	}
}

/* The per-priority latency of the workers of jobs first..last merged
 * (every direction into read's with mixed), NULL when they have none
 * (or out of memory: the lines are left out). */
static struct prio_stats *jobs_prios(const struct run_result *r, unsigned first, unsigned last,
				     bool mixed)
{
	struct prio_stats *ps = NULL;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		for (int d = 0; w->job >= first && w->job <= last && d < DIR_COUNT; d++)
			if (prio_stats_add(&ps, mixed ? DIR_READ : (enum io_dir)d, w->prio,
					   (enum io_dir)d)) {
				free(ps);
				return NULL;
			}
	}
	return ps;
}

/* fio's flush lines of the workers of jobs first..last: every fsync's
 * and fdatasync's latency (fsync=N, fdatasync=N), when they made any. */
static void text_sync_lines(FILE *f, const struct run_result *r, unsigned first, unsigned last)
{
	struct hist *all = malloc(sizeof(*all));
	struct lat_summary l;

	if (!all)
		return; /* out of memory: the lines are left out */
	hist_init(all);
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].job >= first && r->workers[i].job <= last)
			hist_merge(all, &r->workers[i].stats.sync_lat);
	if (all->count) {
		summary_lat(all, &l);
		fputs("  fsync/fdatasync/sync_file_range:\n", f);
		text_lat_lines(f, "sync", &l);
	}
	free(all);
}

/* fio's continue_on_error line: the errors of the workers of jobs
 * first..last counted, and the first one. */
static void text_error_line(FILE *f, const struct run_result *r, unsigned first, unsigned last)
{
	uint64_t total = 0;
	int e = 0;

	if (!r->jobs[first].continue_on_error)
		return;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		if (w->job < first || w->job > last)
			continue;
		if (!total)
			e = w->stats.err_first;
		total += w->stats.err_total;
	}
	fprintf(f, "  errors: total=%" PRIu64 ", first_error=%d/<%s>\n", total, e, strerror(e));
}

/* A direction's rate and latency lines (or fio's "mixed"'s). */
static void text_dir_lines(FILE *f, const char *name, const struct dir_summary *d,
			   bool bits)
{
	text_rate_line(f, name, d, bits);
	/* rate-limited: the latency is the response time from the due
	 * time, not fio's lat (from submission), so it says so; then
	 * its parts, iochar's lateness and the device's */
	text_lat_lines(f, d->paced ? "response lat" : "lat", &d->lat);
	if (d->paced) {
		text_lat_lines(f, "service lat", &d->service);
		text_lat_lines(f, "issue lag", &d->lag);
		text_lat_lines(f, "tool lag", &d->tool_lag);
	}
}

static int text_job(FILE *f, const struct run_result *r, unsigned job)
{
	struct stats_summary s;
	unsigned last = job, members = 0;

	if (joins_previous(r, job))
		return 0; /* in the block of the job before it */
	while (last + 1 < r->nr_jobs && joins_previous(r, last + 1))
		last++;
	int ret = last > job ? summary_jobs(r, job, last, &s, &members)
			     : summary_job(r, job, &s);

	if (ret)
		return ret;
	text_job_header(f, &r->jobs[job]);
	if (last > job)
		fprintf(f, "  (groupid=%u, jobs %.*s..%.*s, %u workers as one: group_reporting)\n",
			job_group(r, job), (int)sizeof(r->jobs[job].name), r->jobs[job].name,
			(int)sizeof(r->jobs[last].name), r->jobs[last].name, members);
	const struct job_spec *j = &r->jobs[job];
	struct prio_stats *ps = jobs_prios(r, job, last, false);
	for (int d = 0; d < DIR_ALL && fio_shows_dirs(j); d++)
		if (s.dir[d].ios) {
			text_dir_lines(f, summary_dir_name(d), &s.dir[d], job_bits(j));
			text_prio_lines(f, ps, (enum io_dir)d, j);
		}
	free(ps);
	if (fio_shows_mixed(j) && s.total.ios) { /* unified_rw_reporting */
		text_dir_lines(f, "mixed", &s.total, job_bits(j));
		ps = jobs_prios(r, job, last, true);
		text_prio_lines(f, ps, DIR_READ, j);
		free(ps);
	}
	text_sync_lines(f, r, job, last);
	text_error_line(f, r, job, last);
	if (r->jobs[job].read_iolog[0])
		text_replay_note(f, r, job);
	if (!s.total.ios)
		fputs("  no I/O completed\n", f);
	text_worker_errors(f, r, job);
	return text_emit_vd(f, r, job);
}

/* "  verify: 1234 units checked, 0 failures (...), 56 unverified" */
static void text_verify(FILE *f, const struct run_result *r)
{
	if (r->verify)
		verify_counts_print(f, "  verify", &r->verify_counts);
}

/* A rate-limited run: asked, achieved, and why not (core/rate_verdict.h). */
static void text_rate(FILE *f, const struct run_result *r)
{
	struct rate_verdict v;

	rate_verdict_judge(r, &v);
	if (!v.paced)
		return;
	const char *unit = v.bytes ? "B/s" : "IOPS";
	fprintf(f, "  rate: asked %.0f %s, achieved %.0f (%.1f%%)%s%s\n", v.asked, unit,
		v.achieved, v.asked ? 100 * v.achieved / v.asked : 0,
		v.reached ? "" : ": NOT REACHED: ", v.why);
}

static int text_totals(FILE *f, const struct run_result *r)
{
	struct stats_summary s;
	struct cpu_summary c;
	int ret = summary_stats(&r->total, r->elapsed_ns, &s);

	if (ret)
		return ret;
	fprintf(f,
		"All jobs (%" PRIu64 "msec measured after %" PRIu64
		"msec ramp; latency from %s):\n",
		r->elapsed_ns / 1000000, r->ramp_ns / 1000000,
		r->open_loop ? "scheduled issue time" : "submission");
	for (int d = 0; d < DIR_ALL; d++)
		if (s.dir[d].ios)
			text_rate_line(f, summary_dir_name(d), &s.dir[d], false);
	summary_cpu(r, &c);
	fprintf(f, "  cpu: usr=%.2f%%, sys=%.2f%%, %.0f ns per I/O\n",
		c.usr_pct, c.sys_pct, c.ns_per_io);
	if (r->tool_limited)
		fprintf(f, "  TOOL-LIMITED: %.*s\n",
			(int)sizeof(r->tool_limited_reason), r->tool_limited_reason);
	text_rate(f, r);
	text_verify(f, r);
	return 0;
}

static void text_environment(FILE *f, const struct run_result *r)
{
	static const struct environment none; /* a result without one */
	const struct environment *e = r->env ? r->env : &none;
	char mem[NUM_MAX];

	fmt_bytes_bin(mem, sizeof(mem), (double)e->mem_bytes);
	fprintf(
	    f, "iochar %s on %.*s: Linux %.*s %.*s, %u CPUs (%.*s), %s RAM\n",
	    summary_version(r), (int)sizeof(e->hostname), e->hostname,
	    (int)sizeof(e->kernel), e->kernel, (int)sizeof(e->machine),
	    e->machine, e->cpus, (int)sizeof(e->cpu_model), e->cpu_model, mem);
}

/* A run over many hosts: one line per host, then the start skew. */
static int text_hosts(FILE *f, const struct run_result *r)
{
	for (unsigned i = 0; i < r->nr_hosts; i++) {
		const struct host_result *h = &r->hosts[i];
		struct stats_summary s;
		int ret = summary_stats(&h->stats, h->elapsed_ns, &s);
		if (ret)
			return ret;
		fprintf(f, "Host %s (rank %d):%s", h->host, h->rank, h->lost ? " " : "\n");
		if (h->lost)
			fprintf(f, "LOST: %s\n", h->error_msg);
		else
			text_rate_line(f, "total", &s.total, false);
		if (!h->lost && h->error)
			fprintf(f, "  error: %s\n", h->error_msg);
	}
	if (r->nr_hosts)
		fprintf(f, "%u hosts; start skew %.3f ms (wall clocks, offsets corrected)\n",
			r->nr_hosts, (double)r->start_skew_ns / 1e6);
	return 0;
}

/* Why a partial run ended early: an error of a worker or a host (named
 * above), else a stop asked for by a signal. */
static const char *partial_reason(const struct run_result *r)
{
	for (unsigned i = 0; i < r->nr_workers; i++)
		if (r->workers[i].error)
			return "stopped by an error, see above";
	for (unsigned i = 0; i < r->nr_hosts; i++)
		if (r->hosts[i].error || r->hosts[i].lost)
			return "stopped by an error, see above";
	return "interrupted";
}

/* fio's unified_rw_reporting of group g: its jobs' modes or'ed, as
 * fio's group takes them (mixed with both is then neither). */
static unsigned group_unified(const struct run_result *r, const struct fio_entry *e,
			      unsigned nr_e, unsigned g)
{
	unsigned mode = 0;
	for (unsigned i = 0; i < nr_e; i++)
		if (e[i].wr.group == g && e[i].wr.job < r->nr_jobs)
			mode |= r->jobs[e[i].wr.job].unified_rw;
	return mode;
}

/* fio's MIXED group line: the directions' bytes and bandwidths summed,
 * the lowest and highest of their ranges (fio's show_mixed_group_stats). */
static void group_mix_add(struct fio_group_dir *mix, const struct fio_group_dir *gd)
{
	mix->io_bytes += gd->io_bytes;
	mix->agg_bw += gd->agg_bw;
	mix->min_bw = gd->min_bw < mix->min_bw ? gd->min_bw : mix->min_bw;
	mix->max_bw = gd->max_bw > mix->max_bw ? gd->max_bw : mix->max_bw;
	mix->min_run_ms = gd->min_run_ms < mix->min_run_ms ? gd->min_run_ms : mix->min_run_ms;
	mix->max_run_ms = gd->max_run_ms > mix->max_run_ms ? gd->max_run_ms : mix->max_run_ms;
}

/* fio's group lines take their unit from the group's first job. */
static bool group_bits(const struct run_result *r, const struct fio_entry *e,
		       unsigned nr_e, unsigned g)
{
	for (unsigned i = 0; i < nr_e; i++)
		if (e[i].wr.group == g && e[i].wr.job < r->nr_jobs)
			return job_bits(&r->jobs[e[i].wr.job]);
	return false;
}

static void group_line(FILE *f, const char *name, const struct fio_group_dir *gd,
		       bool bits)
{
	char a[NUM_MAX], ad[NUM_MAX], lo[NUM_MAX], hi[NUM_MAX], io[NUM_MAX];

	fmt_rate(a, sizeof(a), (double)gd->agg_bw, bits, false);
	fmt_rate(ad, sizeof(ad), (double)gd->agg_bw, bits, true);
	fmt_rate(lo, sizeof(lo), (double)gd->min_bw, bits, false);
	fmt_rate(hi, sizeof(hi), (double)gd->max_bw, bits, false);
	fmt_bytes_bin(io, sizeof(io), (double)gd->io_bytes);
	fprintf(f, "%s: bw=%s/s (%s/s), %s/s-%s/s, io=%s, run=%" PRIu64 "-%" PRIu64 "msec\n",
		name, a, ad, lo, hi, io, gd->min_run_ms, gd->max_run_ms);
}

/* fio's group lines: "Run status group N (all jobs):", then per direction
 * the group's aggregate bandwidth, its entries' range, bytes and run
 * times (fio's show_group_stats, in iochar's units); with
 * unified_rw_reporting, the directions as one "MIXED" line instead
 * (mixed) or after them (both). */
static void text_groups(FILE *f, const struct run_result *r,
			const struct fio_entry *e, unsigned nr_e)
{
	static const char *const names[DIR_ALL] = {"   READ", "  WRITE", "   TRIM"};
	unsigned groups = fio_group_count(r);

	for (unsigned g = 0; g < groups; g++) {
		unsigned mode = group_unified(r, e, nr_e, g);
		bool bits = group_bits(r, e, nr_e, g);
		struct fio_group_dir mix = { .min_bw = UINT64_MAX, .min_run_ms = UINT64_MAX };
		fprintf(f, "Run status group %u (all jobs):\n", g);
		for (int d = 0; d < DIR_ALL; d++) {
			struct fio_group_dir gd;
			fio_group_figures(e, nr_e, g, d, &gd);
			if (!gd.max_run_ms)
				continue;
			group_mix_add(&mix, &gd);
			if (mode != UNIFIED_RW_MIXED)
				group_line(f, names[d], &gd, bits);
		}
		if ((mode == UNIFIED_RW_MIXED || mode == UNIFIED_RW_BOTH) && mix.max_run_ms)
			group_line(f, "  MIXED", &mix, bits);
	}
}

int output_text_write(const struct run_result *r, FILE *f)
{
	struct fio_entry *e;
	unsigned nr_e;
	int ret = fio_entries_make(r, &e, &nr_e);

	if (ret)
		return ret;
	text_environment(f, r);
	for (unsigned j = 0; j < r->nr_jobs && !ret; j++)
		ret = text_job(f, r, j);
	if (!ret) {
		text_groups(f, r, e, nr_e);
		fio_disk_text(f, r); /* after the groups, as fio */
	}
	fio_entries_free(e, nr_e);
	if (!ret)
		ret = text_hosts(f, r);
	if (!ret)
		ret = text_totals(f, r);
	if (ret)
		return ret;
	if (r->partial)
		fprintf(f, "partial run (%s)\n", partial_reason(r));
	return ferror(f) ? -EIO : 0;
}

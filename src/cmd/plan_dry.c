/* plan_dry.c - see plan_dry.h. Reads the plan and the estimate only:
 * whatever it says, nothing was run. */
#include "cmd/plan_dry.h"

#include <inttypes.h>
#include <string.h>

#include "base/units.h"
#include "charz/plan_run.h"
#include "charz/point.h"
#include "util/fmt.h"
#include "vd/def.h"

/* A duration at the precision a plan's length deserves. */
static void fmt_dur(char *buf, size_t len, uint64_t ns)
{
	double s = (double)ns / 1e9;
	if (s < 10) /* a small fill's fraction of a second is still said */
		snprintf(buf, len, "%.1fs", s);
	else if (s < 120)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 7200)
		snprintf(buf, len, "%.1fm", s / 60);
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

/* The time e gives bytes of fills at its (assumed) fill rate. */
static uint64_t fill_ns(const struct eta *e, uint64_t bytes)
{
	struct eta_step s = {.fill_bytes = bytes};
	return eta_step_ns(e, &s);
}

static void print_workload(FILE *f, const struct plan_step *st)
{
	const struct job_spec *j = &st->job;
	char bs[32], lim[32];

	if (st->mode == STEP_APP) { /* a database's benchmark, not a fio workload */
		fprintf(f, "  app: bench=%s workload=%s threads=%s, each %.3gs\n", st->app_bench,
			st->app_workload[0] ? st->app_workload : "(its default)", st->app_threads,
			(double)st->app_time_ns / 1e9);
		return;
	}
	units_format_size(bs, sizeof(bs), j->bs);
	fprintf(f, "  workload: rw=%s bs=%s", rw_name(j->rw), bs);
	if (rw_is_mixed(j->rw))
		fprintf(f, " rwmixread=%u", j->rwmixread);
	if (st->mode == STEP_SEARCH)
		fprintf(f, ", QD x jobs per target searched up to %u x %u",
			st->max_iodepth ? st->max_iodepth : 256,
			st->max_numjobs ? st->max_numjobs : 8);
	else
		fprintf(f, ", QD %u x %u jobs per target", j->iodepth, j->numjobs);
	if (st->latency_limit_ns) {
		units_format_time(lim, sizeof(lim), st->latency_limit_ns);
		fprintf(f, ", latency_limit=%s %s", lim, lat_stat_name(st->latency_stat));
	}
	if (st->nr_wl)
		fprintf(f, ", with workloads=%s", st->workloads);
	fputc('\n', f);
}

/* What each host write of a VD becomes on its members. */
static const char *vd_member_writes(const struct vd_def *d)
{
	switch (d->level) {
	case VD_RAID1:
		return "every member gets a copy";
	case VD_RAID10:
		return "both members of its mirrored pair get a copy";
	case VD_RAID5:
	case VD_RAID6:
		return "its data strips and the row's parity are written "
		       "(read-modify-write or reconstruct-write, whichever reads fewer)";
	default:
		return "the member holding each strip is written";
	}
}

/* One VD of a step: its members, and the writes they will get (from the
 * workload, and from preconditioning when it runs). */
static void print_vd(FILE *f, const struct plan_step *st, const char *text)
{
	struct vd_def d;
	struct ioc_err err = {0};
	char strip[32];

	if (vd_def_parse(text, &d, &err)) { /* checked before: not expected */
		fprintf(f, "    VD %s\n", text);
		return;
	}
	units_format_size(strip, sizeof(strip), d.strip);
	fprintf(f, "    VD %s, strip %s, %u members:", vd_level_name(d.level), strip,
		d.nr_members);
	for (unsigned m = 0; m < d.nr_members; m++)
		fprintf(f, " %s%s", d.members[m], vd_member_failed(&d, m) ? " (failed)" : "");
	fputc('\n', f);
	bool writes = rw_writes(st->job.rw) || plan_step_preconditions(st);
	if (d.read_only || d.blocked || !writes) {
		fprintf(f, "      member writes: none (%s)\n",
			d.read_only || d.blocked ? vd_access_name(&d) : "the workload only reads");
		return;
	}
	fprintf(f, "      member writes: each host write of %s%s: %s%s\n",
		rw_writes(st->job.rw) ? "the workload" : "",
		!rw_writes(st->job.rw)		  ? "preconditioning"
		: plan_step_preconditions(st) ? " and of preconditioning"
						 : "",
		vd_member_writes(&d),
		vd_write_back(&d) ? "; write-back: through the cache, when it is destaged" : "");
}

static void print_targets(FILE *f, const struct plan_step *st)
{
	if (st->job.vd[0]) { /* a VD step: its members are the targets */
		unsigned n = vd_list_count(st->job.vd);
		fprintf(f, "  targets: %u RAID VD%s%s\n", n, n == 1 ? "" : "s",
			n > 1 ? ", each in turn" : "");
		for (unsigned i = 0; i < n; i++) {
			char one[4096];
			if (!vd_list_item(st->job.vd, i, one, sizeof(one)))
				print_vd(f, st, one);
		}
		return;
	}
	static const char *const how[] = {
	    [TARGETS_EACH] = "each, one after the other",
	    [TARGETS_PARALLEL] = "parallel, all at once",
	    [TARGETS_SCALING] = "scaling, 1 ... 8, 16, 32 ... all at once",
	};
	if (!st->job.nr_files) {
		fprintf(f, "  targets: none (ioengine=%s)\n", st->job.ioengine);
		return;
	}
	fprintf(f, "  targets (%s):", how[st->targets]);
	for (unsigned i = 0; i < st->job.nr_files; i++)
		fprintf(f, " %s", st->job.files[i]);
	fputc('\n', f);
	if (st->targets == TARGETS_SCALING)
		fprintf(f, "  scaling: %u run%s of each count, then counts between them where "
			"the knee is\n", st->scaling_repeats, st->scaling_repeats == 1 ? "" : "s");
}

static void print_precondition(FILE *f, const struct plan_step *st)
{
	char round[32];
	if (!plan_step_preconditions(st))
		return;
	/* a search's rounds run at PTS's depth (plan_run.c, pre_mode) */
	bool pts = st->mode == STEP_SEARCH;
	units_format_time(round, sizeof(round), st->round_ns);
	fprintf(f, "  preconditioning (%s): %u fill pass%s of 128K sequential writes per "
		"target (once per target and plan), then at most %u rounds of %s, "
		"QD %u x %u jobs per target, to steady state\n",
		st->mode == STEP_PRECONDITION ? "mode=precondition" : "precondition=auto",
		st->fill_passes, st->fill_passes == 1 ? "" : "es", st->max_rounds, round,
		pts ? PTS_IODEPTH : st->job.iodepth, pts ? PTS_NUMJOBS : st->job.numjobs);
}

static void print_step_eta(FILE *f, const struct eta *e, const struct eta_step *s)
{
	char run[32], runs[32], fill[32], fbytes[32], rounds[32];
	if (s->done) {
		fprintf(f, "  done earlier, kept (--resume): not run again\n");
		return;
	}
	fmt_dur(run, sizeof(run), s->run_ns);
	fmt_dur(runs, sizeof(runs), s->run_ns * s->runs * s->sets);
	fmt_bytes(fbytes, sizeof(fbytes), s->fill_bytes);
	fmt_dur(fill, sizeof(fill), fill_ns(e, s->fill_bytes));
	fmt_dur(rounds, sizeof(rounds), s->precond_ns);
	const char *sep = "";
	fprintf(f, "  estimate: ");
	if (s->runs) {
		fprintf(f, "I/O runs %u%s x %s x %u target set%s = %s", s->runs,
			s->search ? " (a search's usual climb)" : "", run, s->sets,
			s->sets == 1 ? "" : "s", runs);
		sep = "; ";
	}
	if (s->fill_bytes) {
		fprintf(f, "%sfills and layouts %s, %s", sep, fbytes, fill);
		sep = "; ";
	}
	if (s->precond_ns)
		fprintf(f, "%spreconditioning rounds at most %s", sep, rounds);
	if (!s->runs && !s->fill_bytes && !s->precond_ns)
		fprintf(f, "not time-bound (no runtime)");
	fputc('\n', f);
}

void plan_dry_print(FILE *f, const struct plan *p, const struct eta *e)
{
	uint64_t runs_ns = 0, fill_bytes = 0, precond_ns = 0;
	char a[48], b[48], c[48], d[48];

	fprintf(f, "dry run of plan %s: %u step%s; nothing is run or written\n", p->name,
		p->nr_steps, p->nr_steps == 1 ? "" : "s");
	for (unsigned i = 0; i < p->nr_steps; i++) {
		const struct plan_step *st = &p->steps[i];
		const struct eta_step *s = &e->steps[i];
		fprintf(f, "step %u of %u: %s (%s)\n", i + 1, p->nr_steps, st->label,
			step_mode_name(st->mode));
		print_workload(f, st);
		print_targets(f, st);
		print_precondition(f, st);
		print_step_eta(f, e, s);
		if (s->done)
			continue;
		runs_ns += s->run_ns * s->runs * s->sets;
		fill_bytes += s->fill_bytes;
		precond_ns += s->precond_ns;
	}
	fmt_dur(a, sizeof(a), runs_ns);
	fmt_bytes(b, sizeof(b), fill_bytes);
	fmt_dur(c, sizeof(c), fill_ns(e, fill_bytes));
	fmt_dur(d, sizeof(d), precond_ns);
	fprintf(f, "estimate: I/O runs %s; fills and layouts %s, %s at an assumed %.0f MB/s; "
		"preconditioning rounds at most %s\n", a, b, c, e->fill_bps / 1e6, d);
	bool all_done = true;
	for (unsigned i = 0; i < e->nr; i++)
		all_done &= e->steps[i].done;
	if (all_done && e->nr) { /* the run would say nothing: no step to start */
		fprintf(f, "estimate: plan: nothing left to run (every step done earlier)\n");
		return;
	}
	plan_fmt_left(a, sizeof(a), eta_plan_left_ns(e, 0));
	fprintf(f, "estimate: plan: %s (the run's first estimate)\n", a);
}

/* run_status.c - see run_status.h. The report is built as the runner's
 * collect() builds the final one, from copies: nothing a worker writes is
 * read while it runs (a finished worker's figures are final, and read
 * directly). */
#include "core/run_status.h"
#include "util/sparse_mem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* answers come at a worker's next publication: asked a little ahead, and
 * waited for a little past the due time, at most */
#define STATUS_ASK_AHEAD_NS 20000000ull
#define STATUS_WAIT_NS 200000000ull
#define STATUS_WAIT_STEP_NS 2000000ull
#define STATUS_SLOTS_SPARE 4             /* series slots beyond the seconds so far */

int run_status_init(struct run_status *s, void (*hook)(void *, const struct run_result *),
		    void *arg, uint64_t every_ns, uint64_t t0_ns, const struct run_result *r,
		    struct worker *w,
		    unsigned nr, const struct start_gate *gates, const struct sched_worker *sched,
		    uint64_t start_ns, uint64_t ramp_ns, const struct disk_watch *disks)
{
	memset(s, 0, sizeof(*s));
	if (!hook || !every_ns)
		return 0;
	s->copies = calloc(nr ? nr : 1, sizeof(*s->copies));
	s->copied_ns = calloc(nr ? nr : 1, sizeof(*s->copied_ns));
	if (!s->copies || !s->copied_ns) {
		free(s->copies);
		free(s->copied_ns);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nr; i++)
		stats_reset(&s->copies[i]); /* calloc'd: see stats_reset */
	*s = (struct run_status){
		.hook = hook, .arg = arg, .every_ns = every_ns, .next_ns = t0_ns + every_ns,
		.r = r, .w = w, .gates = gates, .sched = sched, .nr = nr,
		.start_ns = start_ns, .ramp_ns = ramp_ns, .disks = disks, .copies = s->copies,
		.copied_ns = s->copied_ns,
	};
	getrusage(RUSAGE_SELF, &s->ru0);
	return 0;
}

/* Room for want slots in c's series (else it keeps the slots it has). */
static void room(struct worker_stats *c, unsigned want)
{
	if (c->intervals.cap >= want)
		return;
	struct interval *v = realloc(c->intervals.v, want * sizeof(*v));
	if (v) {
		c->intervals.v = v;
		c->intervals.cap = want;
	}
}

/* Room in each copy's series for the seconds so far, then ask. */
static void ask(struct run_status *s, uint64_t now)
{
	unsigned want = (unsigned)((now - s->start_ns) / STATS_INTERVAL_NS) + STATUS_SLOTS_SPARE;
	for (unsigned i = 0; i < s->nr; i++) {
		if (atomic_load(&s->w[i].finished))
			continue; /* its own figures are final */
		room(&s->copies[i], want);
		stats_live_ask_full(&s->w[i].live, &s->copies[i]);
	}
}

static uint64_t usec_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000ull;
}

/* The process's CPU and counts since the start, as collect() takes them. */
static void process_so_far(const struct run_status *s, struct run_result *out)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	out->cpu_usr_ns = usec_ns(&ru.ru_utime) - usec_ns(&s->ru0.ru_utime);
	out->cpu_sys_ns = usec_ns(&ru.ru_stime) - usec_ns(&s->ru0.ru_stime);
	out->ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw - s->ru0.ru_nvcsw - s->ru0.ru_nivcsw);
	out->majf = (uint64_t)(ru.ru_majflt - s->ru0.ru_majflt);
	out->minf = (uint64_t)(ru.ru_minflt - s->ru0.ru_minflt);
	uint64_t span = out->elapsed_ns + out->ramp_ns;
	if (span) {
		out->cpu_usr_pct = 100.0 * (double)out->cpu_usr_ns / (double)span;
		out->cpu_sys_pct = 100.0 * (double)out->cpu_sys_ns / (double)span;
	}
}

/* Worker i as of now into wr, which must be zeroed (build's calloc): its
 * figures (final, or its last answer) and its measured time so far. */
static void worker_so_far(struct run_status *s, unsigned i, uint64_t now,
			  const unsigned *groups, struct worker_result *wr)
{
	const struct worker *w = &s->w[i];
	bool done = atomic_load(&w->finished);
	/* no compound literal: it would write all of wr's stats (sparse_mem.h) */
	wr->job = w->job_index;
	wr->clone = w->clone;
	wr->group = groups[w->job_index];
	if (!s->sched[i].started)
		return;
	uint64_t start = s->gates[i].start_ns, measure = start + w->job->ramp_ns;
	/* its figures are as of its answer: its time counts to then */
	uint64_t end = done ? w->end_ns : s->copied_ns[i] ? s->copied_ns[i] : now;
	if (done) { /* the worker wrote its last */
		room(&s->copies[i], w->stats.intervals.len);
		stats_copy_into(&s->copies[i], &w->stats);
	}
	sparse_copy(&wr->stats, &s->copies[i], sizeof(wr->stats));
	wr->start_ns = start - s->start_ns;
	wr->end_ns = end > s->start_ns ? end - s->start_ns : 0;
	wr->elapsed_ns = end > measure ? end - measure : 0;
}

/* The run so far into out (the caller frees out->workers, total, disks). */
static int build(struct run_status *s, uint64_t now, struct run_result *out)
{
	const struct run_result *r = s->r;
	unsigned *groups = calloc(r->nr_jobs ? r->nr_jobs : 1, sizeof(*groups));
	*out = *r; /* jobs, environment, start time: borrowed */
	out->workers = calloc(s->nr ? s->nr : 1, sizeof(*out->workers));
	out->hosts = NULL;
	out->nr_hosts = 0;
	out->steady = NULL;
	out->disks = NULL;
	out->nr_disks = 0;
	stats_init(&out->total);
	if (!groups || !out->workers) {
		free(groups);
		return -ENOMEM;
	}
	schedule_groups(r->jobs, r->nr_jobs, groups);
	out->nr_workers = s->nr;
	uint64_t measure = s->start_ns + s->ramp_ns;
	out->ramp_ns = s->ramp_ns;
	out->elapsed_ns = now > measure ? now - measure : 0;
	int ret = 0;
	for (unsigned i = 0; i < s->nr && !ret; i++) {
		worker_so_far(s, i, now, groups, &out->workers[i]);
		uint64_t late = out->workers[i].start_ns + s->w[i].job->ramp_ns;
		late = late > s->ramp_ns ? late - s->ramp_ns : 0;
		ret = stats_merge_at(&out->total, &out->workers[i].stats,
				     (unsigned)(late / STATS_INTERVAL_NS));
	}
	free(groups);
	process_so_far(s, out);
	if (!ret && s->disks && s->disks->n) {
		struct disk_watch now_dw = *s->disks;
		now_dw.v = malloc(s->disks->n * sizeof(*now_dw.v));
		if (!now_dw.v)
			return -ENOMEM;
		memcpy(now_dw.v, s->disks->v, s->disks->n * sizeof(*now_dw.v));
		disk_watch_stop(&now_dw); /* the deltas so far, on the copy */
		out->disks = now_dw.v;
		out->nr_disks = now_dw.n;
	}
	return ret;
}

static void report(struct run_status *s, uint64_t now)
{
	struct run_result so_far;
	if (build(s, now, &so_far) == 0)
		s->hook(s->arg, &so_far);
	/* else out of memory: this report is skipped, the run goes on */
	free(so_far.workers);
	stats_free(&so_far.total);
	free(so_far.disks);
}

/* Has every running worker answered the ask? */
static bool all_answered(const struct run_status *s)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (s->sched[i].started && !atomic_load(&s->w[i].finished) &&
		    !stats_live_full_answered(&s->w[i].live))
			return false;
	return true;
}

uint64_t run_status_poll(struct run_status *s, uint64_t now)
{
	if (!s->hook)
		return UINT64_MAX;
	if (!s->asked && now + STATUS_ASK_AHEAD_NS >= s->next_ns) {
		ask(s, now);
		s->asked = true;
	}
	if (now < s->next_ns)
		return s->asked ? s->next_ns : s->next_ns - STATUS_ASK_AHEAD_NS;
	if (now < s->next_ns + STATUS_WAIT_NS && !all_answered(s))
		return now + STATUS_WAIT_STEP_NS;
	/* answered or not, each worker's last copy is its figure: a worker
	 * stuck in one long I/O shows what it had */
	for (unsigned i = 0; i < s->nr; i++)
		if (stats_live_full_settle(&s->w[i].live))
			s->copied_ns[i] = s->w[i].live.full_at_ns;
	report(s, now);
	s->asked = false;
	while (s->next_ns <= now)
		s->next_ns += s->every_ns;
	return s->next_ns - STATUS_ASK_AHEAD_NS;
}

void run_status_free(struct run_status *s)
{
	if (!s)
		return;
	for (unsigned i = 0; s->copies && i < s->nr; i++)
		free(s->copies[i].intervals.v);
	free(s->copies);
	free(s->copied_ns);
	memset(s, 0, sizeof(*s));
}

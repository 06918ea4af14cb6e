/* steady_job.c - fio's steady-state detection for one job (steady_job.h). */
#include "core/steady_job.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int steady_job_init(struct steady_job *s, const struct job_spec *j)
{
	unsigned dur = (unsigned)(j->ss_dur_ns / 1000000000ull);
	*s = (struct steady_job){.rule = j->ss, .dur = dur ? dur : 1,
				 .ramp_ns = j->ss_ramp_ns};
	if (!s->rule.kind)
		s->rule.kind = SS_IOPS_SLOPE;
	s->iops = calloc(s->dur, sizeof(*s->iops));
	s->bw = calloc(s->dur, sizeof(*s->bw));
	return s->iops && s->bw ? 0 : -ENOMEM;
}

void steady_job_free(struct steady_job *s)
{
	if (!s)
		return;
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

unsigned steady_job_window(const struct steady_job *s, uint64_t *iops, uint64_t *bw)
{
	unsigned first = s->filled < s->dur ? 0 : s->next;
	for (unsigned i = 0; i < s->filled; i++) {
		iops[i] = s->iops[(first + i) % s->dur];
		bw[i] = s->bw[(first + i) % s->dur];
	}
	return s->filled;
}

/* Judge the full window: fio's criterion against the limit. */
static bool judge(struct steady_job *s)
{
	bool by_iops = s->rule.kind == SS_IOPS || s->rule.kind == SS_IOPS_SLOPE;
	bool by_slope = s->rule.kind == SS_IOPS_SLOPE || s->rule.kind == SS_BW_SLOPE;
	const uint64_t *ring = by_iops ? s->iops : s->bw;
	double n = s->dur, sum_y = 0, sum_xy = 0;
	for (unsigned i = 0; i < s->dur; i++) {
		double y = (double)ring[(s->next + i) % s->dur]; /* oldest first */
		sum_y += y;
		sum_xy += i * y;
	}
	double mean = sum_y / n;
	if (by_slope) {
		double sum_x = n * (n - 1) / 2, sum_x2 = (n - 1) * n * (2 * n - 1) / 6;
		double den = sum_x2 - sum_x * sum_x / n;
		s->slope = den > 0 ? (sum_xy - sum_x * sum_y / n) / den : 0;
		s->criterion = s->rule.pct ? 100.0 * s->slope / mean : s->slope;
		return fabs(s->criterion) < s->rule.limit;
	}
	s->deviation = 0;
	for (unsigned i = 0; i < s->dur; i++)
		s->deviation = fmax(s->deviation, fabs((double)ring[i] - mean));
	s->criterion = s->rule.pct ? 100.0 * s->deviation / mean : s->deviation;
	return s->criterion < s->rule.limit;
}

bool steady_job_sample(struct steady_job *s, uint64_t start_ns,
		       uint64_t now_ns, uint64_t ios, uint64_t bytes)
{
	if (s->attained)
		return true;
	if (!s->started) {
		s->started = true;
		s->start_ns = s->prev_ns = start_ns < now_ns ? start_ns : now_ns;
		s->ramp_over = !s->ramp_ns;
	}
	if (!s->ramp_over && now_ns - s->start_ns >= s->ramp_ns + 1000000000ull)
		s->ramp_over = true;
	/* fio: rates per elapsed millisecond, whole numbers */
	uint64_t ms = (now_ns - s->prev_ns) / 1000000ull;
	uint64_t dios = ios - s->prev_ios, dbytes = bytes - s->prev_bytes;
	s->prev_ns = now_ns;
	s->prev_ios = ios;
	s->prev_bytes = bytes;
	if (!s->ramp_over || !ms)
		return false;
	s->iops[s->next] = 1000 * dios / ms;
	s->bw[s->next] = 1000 * dbytes / ms;
	s->next = (s->next + 1) % s->dur;
	if (s->filled < s->dur)
		s->filled++;
	if (s->filled == s->dur && judge(s))
		s->attained = true;
	return s->attained;
}

/* lat_target.c - fio's latency-target depth search (lat_target.h). */
#include "core/lat_target.h"

static void new_cycle(struct lat_target *t, uint64_t now)
{
	t->ts_ns = now;
	t->ios_at = t->ios;
	t->failed = 0;
}

void lat_target_init(struct lat_target *t, const struct job_spec *j, uint64_t now)
{
	*t = (struct lat_target){
		.target_ns = j->latency_target_ns, .window_ns = j->latency_window_ns,
		.pct = j->latency_percentile, .iodepth = j->iodepth ? j->iodepth : 1,
		.qd = 1, .low = 1,
	};
	t->high = t->iodepth;
	new_cycle(t, now);
}

/* Missed: bisect down (fio's __lat_target_failed); false at depth 1. */
static bool ramp_down(struct lat_target *t, uint64_t now)
{
	if (t->qd == 1)
		return false;
	t->high = t->qd;
	if (t->qd == t->low)
		t->low--;
	t->qd = (t->qd + t->low) / 2;
	t->stable = 0;
	new_cycle(t, now);
	return true;
}

/* Met: double, or bisect up to the last failing depth (fio's
 * lat_target_success); the same depth twice ends the search. */
static enum lat_step ramp_up(struct lat_target *t, uint64_t now)
{
	unsigned qd = t->qd;
	enum lat_step step = LAT_GO;
	t->low = t->qd;
	/* stuck one below a failing depth: try it again now and then */
	if (t->qd + 1 == t->high && ++t->stable >= 3) {
		t->high++;
		t->stable = 0;
	}
	t->qd = t->high != t->iodepth ? (t->qd + t->high) / 2 : t->qd * 2;
	if (t->qd > t->iodepth)
		t->qd = t->iodepth;
	if (t->qd == qd) {
		step = t->end_run ? LAT_DONE : LAT_FINAL;
		t->end_run = true;
	}
	new_cycle(t, now);
	return step;
}

enum lat_step lat_target_io(struct lat_target *t, uint64_t lat_ns, uint64_t now)
{
	t->ios++;
	if (lat_ns <= t->target_ns)
		return LAT_GO;
	if (t->pct < 100.0) {
		t->failed++;
		return LAT_GO;
	}
	return ramp_down(t, now) ? LAT_QUIESCE : LAT_FATAL;
}

enum lat_step lat_target_check(struct lat_target *t, uint64_t now)
{
	if (now - t->ts_ns < t->window_ns)
		return LAT_GO;
	uint64_t ios = t->ios - t->ios_at;
	double ok = ios ? 100.0 * (double)(ios - t->failed) / (double)ios : 0;
	if (ios && ok >= t->pct)
		return ramp_up(t, now);
	return ramp_down(t, now) ? LAT_QUIESCE : LAT_GO;
}

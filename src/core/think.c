/* think.c - see think.h. */
#include "core/think.h"

#include <errno.h>

#include "base/job_options.h"
#include "core/pace.h"
#include "util/clock.h"

/* longest sleep of a think between looks at the stop flag */
#define THINK_SLEEP_MAX_NS 50000000ull
/* rate_min: fio lets the job settle this long before it looks */
#define RATE_SETTLE_NS 2000000000ull

void think_init(struct think *t, const struct job_spec *j, uint64_t start_ns)
{
	*t = (struct think){
		.last_ns = start_ns,
		.blocks_set = j->thinktime_ns && job_option_was_set(j, "thinktime_blocks"),
	};
}

bool think_due(const struct think *t, const struct job_spec *j,
	       uint64_t issued, uint64_t completed, uint64_t now)
{
	if (!j->thinktime_ns)
		return false;
	if (j->thinktime_iotime_ns) {
		/* fio: I/O time and think time since the last think began */
		if (now - t->last_ns >= j->thinktime_iotime_ns + j->thinktime_ns)
			return true;
		if (!t->blocks_set) /* blocks' default of 1 would think always */
			return false;
	}
	uint64_t b = j->thinktime_blocks_type == THINK_ISSUE ? issued : completed;
	uint64_t every = j->thinktime_blocks ? j->thinktime_blocks : 1;
	return b >= t->last_blocks + every;
}

uint64_t think_idle(struct think *t, const struct job_spec *j,
		    uint64_t counter, uint64_t deadline, atomic_bool *stop)
{
	uint64_t t0 = fast_ns();
	uint64_t spin = j->thinktime_spin_ns < j->thinktime_ns ?
				j->thinktime_spin_ns : j->thinktime_ns;
	uint64_t end = t0 + j->thinktime_ns, now = t0;

	if (end > deadline)
		end = deadline > t0 ? deadline : t0;
	while (now < t0 + spin && now < end) /* bounded by the clock */
		now = fast_ns();
	while (now < end && !atomic_load_explicit(stop, memory_order_relaxed)) {
		uint64_t until = end - now > THINK_SLEEP_MAX_NS ?
					 now + THINK_SLEEP_MAX_NS : end;
		now = pace_wait_until(until);
	}
	t->last_blocks = counter;
	t->last_ns = t0; /* fio: thinktime_iotime counts from the think's start */
	t->end_ns = now;
	t->nr++;
	return now;
}

void rate_watch_init(struct rate_watch *r, const struct job_spec *j,
		     uint64_t start_ns)
{
	*r = (struct rate_watch){
		.start_ns = start_ns,
		.armed = j->rate_min_bps[0] || j->rate_min_bps[1] ||
			 j->rate_iops_min[0] || j->rate_iops_min[1],
	};
}

int rate_watch_check(struct rate_watch *r, const struct job_spec *j,
		     uint64_t now, const uint64_t bytes[DIR_COUNT],
		     const uint64_t ios[DIR_COUNT], struct ioc_err *err)
{
	if (!r->armed || now < r->start_ns + RATE_SETTLE_NS)
		return 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!bytes[d] || (!j->rate_min_bps[d] && !j->rate_iops_min[d]))
			continue;
		if (r->at_ns[d]) {
			/* fio's whole milliseconds, so its rounding too */
			uint64_t spent = (now - r->at_ns[d]) / 1000000ull;
			if (spent < j->rate_cycle_ns / 1000000ull || !spent)
				continue;
			uint64_t b = (bytes[d] - r->bytes[d]) * 1000 / spent;
			uint64_t n = (ios[d] - r->ios[d]) * 1000 / spent;
			if (j->rate_min_bps[d] && b < j->rate_min_bps[d])
				return err_set(err, EIO, "%s: rate_min=%lluB/s not "
					       "met, got %lluB/s", j->name,
					       (unsigned long long)j->rate_min_bps[d],
					       (unsigned long long)b);
			if (!j->rate_min_bps[d] && n < j->rate_iops_min[d])
				return err_set(err, EIO, "%s: rate_iops_min=%llu "
					       "not met, got %llu IOPS", j->name,
					       (unsigned long long)j->rate_iops_min[d],
					       (unsigned long long)n);
		}
		r->at_ns[d] = now;
		r->bytes[d] = bytes[d];
		r->ios[d] = ios[d];
	}
	return 0;
}

/* pace.c - see pace.h. */
#include "core/pace.h"

#include <errno.h>
#include <math.h>
#include <sys/resource.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/clock.h"

void pace_init_rate(struct pace *p, uint64_t rate, bool poisson,
		    uint64_t start_ns, uint64_t seed)
{
	*p = (struct pace){
		.rate = rate,
		.start_ns = start_ns,
		.next_ns = start_ns,
		.poisson = poisson,
	};
	rng_seed(&p->rng, seed);
}

void pace_init(struct pace *p, const struct job_spec *j, uint64_t start_ns,
	       uint64_t seed)
{
	pace_init_rate(p, j->rate_iops, j->rate_process == RATE_POISSON,
		       start_ns, seed);
}

uint64_t pace_take(struct pace *p)
{
	return pace_take_n(p, 1);
}

void pace_shift(struct pace *p, uint64_t ns)
{
	p->start_ns += ns;
	p->next_ns += ns;
}

uint64_t pace_take_n(struct pace *p, uint64_t n)
{
	uint64_t due = p->next_ns;

	if (p->poisson) {
		/* exponential with mean n/rate: -ln(U) * n / rate, U in (0, 1] */
		double u = 1.0 - rng_unit(&p->rng);
		p->next_ns += (uint64_t)(-log(u) * 1e9 * (double)n / (double)p->rate);
	} else {
		p->taken += n;
		p->next_ns = p->start_ns +
			     (uint64_t)((unsigned __int128)p->taken * 1000000000u /
					p->rate);
	}
	return due;
}

/* sched_setattr(2)'s argument, as the kernel lays it out (glibc has no
 * wrapper). */
struct pace_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
};

/* The lead of this thread's sleeps (pace.h): each pacing thread learns
 * its own, as each may run on a CPU of its own; 0 never spins. */
static _Thread_local uint64_t lead_ns = PACE_SPIN_NS;

void pace_thread_init(bool spin, bool slice)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	lead_ns = spin ? PACE_SPIN_NS : 0;
	if (!slice)
		return;
#ifdef SYS_sched_setattr
	/* A short slice (EEVDF, Linux 6.12+) gives the woken worker an early
	 * deadline, so it preempts a CPU hog instead of queueing behind it
	 * for a whole slice; it changes neither priority nor nice, needs no
	 * privilege, and older kernels ignore it. Failure is harmless. */
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
	if (nice == -1 && errno)
		return;
	struct pace_sched_attr a = {
		.size = sizeof(a), .sched_policy = 0 /* SCHED_OTHER */,
		.sched_nice = nice, .sched_runtime = PACE_SLICE_NS,
	};
	syscall(SYS_sched_setattr, 0, &a, 0);
#endif
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

uint64_t pace_lead_ns(void)
{
	return lead_ns;
}

uint64_t pace_lead_next(uint64_t lead, uint64_t want, uint64_t woke)
{
	uint64_t late = woke > want ? woke - want : 0;

	if (late > lead)
		lead += PACE_LEAD_UP_NS;
	else
		lead = lead > 9 * PACE_LEAD_UP_NS ? lead - 9 * PACE_LEAD_UP_NS : 0;
	if (lead < PACE_SPIN_NS)
		lead = PACE_SPIN_NS;
	return lead > PACE_LEAD_MAX_NS ? PACE_LEAD_MAX_NS : lead;
}

uint64_t pace_wait(uint64_t t, uint64_t sleep_min)
{
	uint64_t now = fast_ns();
	uint64_t want = t > lead_ns ? t - lead_ns : 0;

	if (want < sleep_min)
		want = sleep_min;
	if (want > now) {
		clock_sleep_until(want);
		now = fast_ns();
		if (now < want || !lead_ns)
			return now; /* a signal (the caller looks again), or no spin */
		lead_ns = pace_lead_next(lead_ns, want, now);
	}
	while (now < t) {
		cpu_relax();
		now = fast_ns();
	}
	return now;
}

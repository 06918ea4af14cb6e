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

void pace_init(struct pace *p, const struct job_spec *j, uint64_t start_ns,
	       uint64_t seed)
{
	*p = (struct pace){
		.rate = j->rate_iops,
		.start_ns = start_ns,
		.next_ns = start_ns,
		.poisson = j->rate_process == RATE_POISSON,
	};
	rng_seed(&p->rng, seed);
}

uint64_t pace_take(struct pace *p)
{
	uint64_t due = p->next_ns;

	if (p->poisson) {
		/* exponential with mean 1/rate: -ln(U) / rate, U in (0, 1] */
		double u = 1.0 - rng_unit(&p->rng);
		p->next_ns += (uint64_t)(-log(u) * 1e9 / (double)p->rate);
	} else {
		p->taken++;
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

void pace_thread_init(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
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

uint64_t pace_wait_until(uint64_t t)
{
	uint64_t now = fast_ns();

	if (t > now + PACE_SPIN_NS) {
		clock_sleep_until(t - PACE_SPIN_NS);
		now = fast_ns();
		if (now + PACE_SPIN_NS < t)
			return now; /* a signal: the caller looks again */
	}
	while (now < t) {
		cpu_relax();
		now = fast_ns();
	}
	return now;
}

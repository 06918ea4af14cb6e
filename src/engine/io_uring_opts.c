/* io_uring_opts.c - the io_uring engine's options and what a job asking
 * for them needs. See io_uring_opts.h. */
#include "engine/io_uring_opts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <liburing.h>

#include "base/json_writer.h"
#include "base/units.h"
#include "engine/rwf.h"

#define URING_OPT(f)                                                           \
	.scope = OPT_SCOPE_ENGINE, .group = OPT_GROUP_ENGINE,                  \
	.off = offsetof(struct uring_opts, f),                                 \
	.size = sizeof(((struct uring_opts *)0)->f)

_Static_assert(sizeof(struct uring_opts) <= JOB_ENGINE_OPTS_MAX,
	       "io_uring's options must fit the job's engine_opts");

/* sqthread_poll_cpu=N: the CPU, and that one was given (fio's sqpoll_set:
 * without it the kernel places the thread). */
static int parse_sq_cpu(void *obj, const struct option_def *o,
			const char *v, struct ioc_err *err)
{
	struct uring_opts *u = obj;
	uint64_t cpu;
	int ret = units_parse_uint(o->name, v, 0, UINT32_MAX, &cpu, err);

	if (ret)
		return ret;
	u->sq_cpu = (uint32_t)cpu;
	u->sq_aff = true;
	return 0;
}

static int show_sq_cpu(const void *obj, const struct option_def *o, FILE *f)
{
	const struct uring_opts *u = obj;

	(void)o;
	return fprintf(f, "%d:%u", u->sq_aff, u->sq_cpu) < 0 ? -EIO : 0;
}

static void emit_sq_cpu(const void *obj, const struct option_def *o,
			struct jw *w)
{
	const struct uring_opts *u = obj;

	if (u->sq_aff)
		jw_kv_uint(w, o->name, u->sq_cpu);
}

static const struct opt_enum vec_values[] = {
	{"-1", URING_VEC_AUTO},
	{"1", URING_VEC_NON},
	{"0", URING_VEC_VECTORED},
	{NULL, 0},
};

static const struct opt_enum ring_values[] = {
	{"auto", URING_RING_AUTO},
	{"defer_taskrun", URING_RING_DEFER},
	{"coop_single", URING_RING_COOP_SINGLE},
	{"coop_taskrun", URING_RING_COOP},
	{"single_issuer", URING_RING_SINGLE},
	{"none", URING_RING_NONE},
	{NULL, 0},
};

const char *uring_ring_name(int r)
{
	for (const struct opt_enum *v = ring_values; v->name; v++)
		if (v->value == r)
			return v->name;
	return "?";
}

/* clang-format off */
const struct option_def uring_options[] = {
	{
		.name = "fixedbufs",
		.type = OPT_BOOL, URING_OPT(no_fixedbufs),
		.flags = OPT_F_INVERT | OPT_F_OWN_FIELD,
		.def = "1",
		.help = "register the I/O buffers with the kernel once (no "
			"page pinning per I/O); fio's default is 0",
	},
	{
		.name = "registerfiles",
		.type = OPT_BOOL, URING_OPT(no_registerfiles),
		.flags = OPT_F_INVERT | OPT_F_OWN_FIELD,
		.def = "1",
		.help = "register the files with the ring (no file lookup per "
			"I/O); fio's default is 0",
	},
	{
		.name = "sqthread_poll",
		.type = OPT_BOOL, URING_OPT(sqthread_poll),
		.def = "0",
		.help = "a kernel thread polls the submission queue "
			"(SQPOLL): no system call to submit, one CPU busy; "
			"needs CAP_SYS_NICE before Linux 5.11",
	},
	{
		.name = "hipri",
		.type = OPT_BOOL, URING_OPT(hipri),
		.def = "0",
		.help = "polled completions (IOPOLL): needs direct=1 and a "
			"device with poll queues (e.g. nvme poll_queues=N)",
	},
	{
		.name = "sqthread_poll_cpu",
		.type = OPT_CUSTOM, URING_OPT(sq_cpu),
		.parse = parse_sq_cpu, .show = show_sq_cpu,
		.emit = emit_sq_cpu,
		.arg = "CPU",
		.help = "with sqthread_poll=1: the CPU the polling thread "
			"runs on (IORING_SETUP_SQ_AFF); ignored without it, as "
			"by fio",
	},
	{
		.name = "nonvectored",
		.type = OPT_ENUM, URING_OPT(vectored),
		.values = vec_values,
		.def = "-1",
		.help = "-1 or 1: IORING_OP_READ/WRITE; 0: READV/WRITEV with "
			"one iovec (registered buffers always use "
			"READ_FIXED/WRITE_FIXED, as in fio)",
	},
	{
		.name = "uncached",
		.type = OPT_UINT, URING_OPT(uncached),
		.def = "0",
		.help = "fio's RWF_UNCACHED: only 0 (the flag never reached "
			"Linux)",
	},
	{
		.name = "nowait",
		.type = OPT_BOOL, URING_OPT(nowait),
		.def = "0",
		.help = "RWF_NOWAIT on reads and writes: an I/O that would "
			"block fails with EAGAIN instead",
	},
	{
		.name = "force_async",
		.type = OPT_UINT, URING_OPT(force_async),
		.def = "0",
		.help = "IOSQE_ASYNC on every Nth request (the kernel hands "
			"it to a worker thread at once); 0: never",
	},
	/* fix-opts (issue 14): fio's per-I/O priorities, in sqe->ioprio */
	CMDPRIO_ROWS(struct uring_opts, prio),
	{
		.name = "ring_setup",
		.type = OPT_ENUM, URING_OPT(ring),
		.values = ring_values,
		.def = "auto",
		.help = "how the ring runs completions: defer_taskrun "
			"(SINGLE_ISSUER+DEFER_TASKRUN: in the worker when it "
			"waits), coop_single (SINGLE_ISSUER+COOP_TASKRUN), "
			"coop_taskrun, single_issuer, none (interrupting "
			"task work), auto (the first of these the kernel has; "
			"bench/README.md has why)",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{ .name = NULL },
};
/* clang-format on */

/* Can this process have a ring with a submission-polling thread (on the
 * CPU sqthread_poll_cpu names)? */
static int probe_sqpoll(const struct uring_opts *o, struct ioc_err *err)
{
	struct io_uring ring;
	struct io_uring_params p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	if (o->sq_aff) {
		p.flags |= IORING_SETUP_SQ_AFF;
		p.sq_thread_cpu = o->sq_cpu;
	}
	ret = io_uring_queue_init_params(2, &ring, &p);
	if (ret < 0 && o->sq_aff)
		return err_usage(err, -ret,
				 "ioengine=io_uring: sqthread_poll_cpu=%u: the "
				 "kernel refused a polling thread on that CPU "
				 "(%s): is it online and allowed?",
				 o->sq_cpu, strerror(-ret));
	if (ret < 0)
		return err_usage(err, -ret,
				 "ioengine=io_uring: sqthread_poll=1: the "
				 "kernel refused a submission-polling thread "
				 "(%s); it needs CAP_SYS_NICE before Linux "
				 "5.11; use sqthread_poll=0",
				 strerror(-ret));
	io_uring_queue_exit(&ring);
	return 0;
}

int uring_check(const struct job_spec *job, struct ioc_err *err)
{
	const struct uring_opts *o = (const void *)job->engine_opts;

	if (o->hipri && !job->direct)
		return err_usage(err, EINVAL,
				 "job %s: hipri=1 needs direct=1: polled "
				 "completions work only for I/O that bypasses "
				 "the page cache",
				 job->name);
	int ret = rwf_check_uncached(job->name, "io_uring", o->uncached, err);

	if (ret)
		return ret;
	return o->sqthread_poll ? probe_sqpoll(o, err) : 0;
}

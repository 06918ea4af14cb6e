/* pvsync2_opts.c - the pvsync2 engine's options, as fio's engines/sync.c
 * declares them. See pvsync2_opts.h. */
#include "engine/pvsync2_opts.h"

#include <stddef.h>

#include "engine/rwf.h"

#define PV2_OPT(f)                                                             \
	.scope = OPT_SCOPE_ENGINE, .group = OPT_GROUP_ENGINE,                  \
	.off = offsetof(struct pvsync2_opts, f),                               \
	.size = sizeof(((struct pvsync2_opts *)0)->f)

_Static_assert(sizeof(struct pvsync2_opts) <= JOB_ENGINE_OPTS_MAX,
	       "pvsync2's options must fit the job's engine_opts");

/* clang-format off */
const struct option_def pvsync2_options[] = {
	{
		.name = "hipri",
		.type = OPT_BOOL, PV2_OPT(hipri),
		.def = "0",
		.help = "RWF_HIPRI on preadv2/pwritev2: polled completion "
			"(direct I/O to a device with poll queues)",
	},
	{
		.name = "hipri_percentage",
		.type = OPT_PERCENT, PV2_OPT(hipri_pct_off),
		.flags = OPT_F_INVERT | OPT_F_OWN_FIELD,
		.def = "100",
		.help = "with hipri=1: the % of I/Os, drawn at random, that "
			"carry RWF_HIPRI",
	},
	{
		.name = "nowait",
		.type = OPT_BOOL, PV2_OPT(nowait),
		.def = "0",
		.help = "RWF_NOWAIT: an I/O that would block fails with "
			"EAGAIN instead",
	},
	{
		.name = "uncached",
		.type = OPT_UINT, PV2_OPT(uncached),
		.def = "0",
		.help = "fio's RWF_UNCACHED: only 0 (the flag never reached "
			"Linux)",
	},
	{ .name = NULL },
};
/* clang-format on */

int pvsync2_check(const struct job_spec *job, struct ioc_err *err)
{
	const struct pvsync2_opts *o = (const void *)job->engine_opts;

	return rwf_check_uncached(job->name, "pvsync2", o->uncached, err);
}

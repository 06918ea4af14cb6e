/* seams.c - the installed seams (seams.h). */
#include "core/seams.h"

#include <stddef.h>

static const struct runner_seams none;
static const struct runner_seams *installed = &none;

void runner_seams_install(const struct runner_seams *s)
{
	installed = s ? s : &none;
}

const struct runner_seams *runner_seams(void)
{
	return installed;
}

const struct target_ops *runner_target_kind(const struct job_spec *job)
{
	for (const struct target_ops *const *k = installed->targets; k && *k; k++)
		if ((*k)->claims(job))
			return *k;
	return NULL;
}

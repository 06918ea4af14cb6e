/* seams.c - what the runner reaches above it, wired once. See seams.h. */
#include "cmd/seams.h"

#include "core/seams.h"
#include "inventory/environment.h"
#include "vd/target.h"
#include "verify/hooks.h"

static const struct target_ops *const target_kinds[] = {&vd_target_ops, NULL};

static const struct runner_seams seams = {
	.targets = target_kinds,
	.io = &verify_io_hooks,
	.env_collect = environment_new,
	.env_free = environment_destroy,
};

void cmd_seams_install(void)
{
	runner_seams_install(&seams);
}

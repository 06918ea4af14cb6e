/* environment.h - the machine a result was measured on.
 *
 * A small, fixed snapshot read from uname, /proc and /sys: enough to tell two
 * results apart and reproduce them. Reading never fails the run: a field that
 * cannot be read is left empty ("" or 0).
 */
#ifndef IOCHAR_INVENTORY_ENVIRONMENT_H
#define IOCHAR_INVENTORY_ENVIRONMENT_H

#include <stdbool.h>
#include <stdint.h>

#define ENV_STR 128

struct target_env {
	char path[4096];       /* as given */
	bool is_block;         /* block device (else regular file) */
	char device[ENV_STR];  /* kernel name of the disk behind it: "vda", "nvme0n1" */
	char model[ENV_STR];   /* /sys/block/<dev>/device/model, trimmed */
	char scheduler[ENV_STR]; /* the active one, e.g. "mq-deadline" */
	char fstype[ENV_STR];  /* for files: the filesystem type, e.g. "ext4" */
	uint64_t size;         /* bytes: device size, or file size */
	unsigned logical_block_size;
	bool rotational;
};

struct environment {
	char hostname[ENV_STR];
	char kernel[ENV_STR];     /* uname -r */
	char machine[32];         /* uname -m */
	char cpu_model[ENV_STR];
	unsigned cpus;            /* online */
	uint64_t mem_bytes;
	char iochar_version[32];
	struct target_env *targets; /* owned */
	unsigned nr_targets;
};

/* Fill env for the given target paths (may be 0 of them). Returns 0 or
 * -ENOMEM; any unreadable field stays empty. */
int environment_collect(struct environment *env, const char *const *paths,
			unsigned nr_paths);

/* Release env's memory; env may be NULL. */
void environment_free(struct environment *env);

#endif

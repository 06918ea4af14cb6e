/* environment.h - the machine a result was measured on, and its targets.
 *
 * The machine is the full inventory (inventory.h), read once per run; the
 * host fields below are copied from it (kept for the results' existing
 * "environment" keys and the text header), so there is one reader of the
 * machine. The targets add what the run's paths sit on. Reading never fails
 * the run: a field that cannot be read is left empty ("" or 0).
 */
#ifndef IOCHAR_INVENTORY_ENVIRONMENT_H
#define IOCHAR_INVENTORY_ENVIRONMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "inventory/inventory.h"

#define ENV_STR 128

struct target_env {
	char path[4096];       /* as given */
	bool is_block;         /* block device (else regular file) */
	char device[ENV_STR];  /* kernel name of the disk behind it: "vda", "nvme0n1" */
	/* the device its I/O ends on (inventory/backing.h): a partition's
	 * disk, a loop device's backing file's, a file's file system's:
	 * targets with the same one share a device */
	char backing_device[ENV_STR];
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
	struct inventory *inv;    /* owned; NULL when not collected */
};

/* Fill env, its inventory of the running machine included, for the given
 * target paths (may be 0 of them; a path given twice is listed once). Returns 0 or -ENOMEM (env then needs no
 * free); any unreadable field stays empty. */
int environment_collect(struct environment *env, const char *const *paths,
			unsigned nr_paths);

/* Look at env's targets again (a plan creates and fills files as its
 * steps run: collected before the first, they are empty or absent). */
void environment_refresh_targets(struct environment *env);

/* Release env's memory; env may be NULL. */
void environment_free(struct environment *env);

/* environment_collect into a new environment: the runner's environment
 * hook (core/seams.h). *out owned by the caller (environment_destroy).
 * 0 or -ENOMEM. */
int environment_new(const char *const *paths, unsigned nr_paths,
		    struct environment **out);

/* environment_free, then env itself; env may be NULL. */
void environment_destroy(struct environment *env);

#endif

/* place.h - where `iochar app` puts the database: a directory the user
 * names on a mounted file system (checked: there, a directory, writable,
 * with room), or a block device the user names with --force, on which a
 * file system is made (mkfs.ext4 or mkfs.xfs) and mounted on a private
 * directory for the run, unmounted at its end. Checking only reads; the
 * device is written only by app_place_make. */
#ifndef IOCHAR_APP_PLACE_H
#define IOCHAR_APP_PLACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

struct app_place {
	const char *dir_arg;  /* --directory */
	const char *dev_arg;  /* --filename */
	const char *mkfs;     /* "ext4" or "xfs" */
	bool force;
	char dir[1024];       /* where the data directory goes */
	char fs[32];          /* its file system type */
	bool made_fs, mounted;
	char device[64];      /* the block device under dir ("" none) */
	char devstat[128];    /* its /sys stat file */
};

/* Check p's directory or device for a data set of need bytes. 0, or a
 * usage error (exit 2) naming the culprit. Writes nothing. */
int app_place_check(struct app_place *p, uint64_t need, struct ioc_err *err);

/* For a device: make the file system (its output into log) and mount it
 * on a new directory under /tmp; then find the device under p->dir.
 * 0 or -errno with the reason. */
int app_place_make(struct app_place *p, const char *log, atomic_bool *stop,
		   struct ioc_err *err);

/* Unmount what app_place_make mounted and remove its directory. */
void app_place_undo(struct app_place *p);

#endif

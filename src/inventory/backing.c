/* backing.c - see backing.h. */
#define _GNU_SOURCE
#include "inventory/backing.h"
#include "inventory/sysfs.h"

#include <blkid/blkid.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#define BACKING_DEPTH 8 /* loop on a file on a loop ...: enough, and no cycle  \
			 */

/* The device number path's I/O goes to first: a block device's own, a
 * file's file system's (a missing file: its directory's). */
static int first_dev(const char *path, dev_t *dev, char *fs, size_t len)
{
	struct stat st;
	char tmp[PATH_MAX];

	if (stat(path, &st)) {
		inv_copy(tmp, sizeof(tmp), path);
		if (stat(dirname(tmp), &st))
			return -1;
	} else if (S_ISBLK(st.st_mode)) {
		*dev = st.st_rdev;
		return 0;
	}
	*dev = st.st_dev;
	struct statfs sf;
	inv_copy(tmp, sizeof(tmp), path);
	if (statfs(path, &sf) && statfs(dirname(tmp), &sf))
		snprintf(fs, len, "fs");
	else if (sf.f_type == 0x01021994)
		snprintf(fs, len, "tmpfs");
	else
		snprintf(fs, len, "fs 0x%lx", (unsigned long)sf.f_type);
	return 0;
}

/* The single slave of a stacked device (dm, md over one device), as a
 * device number; -1 when it has none or several. */
static int single_slave(const char *name, dev_t *dev)
{
	char **names = NULL, buf[32];
	unsigned nr = 0, maj, min;
	int ret = -1;

	sysfs_list("", &names, &nr, "/sys/block/%s/slaves", name);
	if (nr == 1 &&
	    !sysfs_read("", buf, sizeof(buf), "/sys/block/%s/slaves/%s/dev",
			name, names[0]) &&
	    sscanf(buf, "%u:%u", &maj, &min) == 2) {
		*dev = makedev(maj, min);
		ret = 0;
	}
	sysfs_list_free(names, nr);
	return ret;
}

void inventory_backing_device(const char *path, char *out, size_t len)
{
	char fs[32] = "", name[INV_BACKING_MAX], file[PATH_MAX];
	dev_t dev;

	snprintf(out, len, "?");
	if (first_dev(path, &dev, fs, sizeof(fs)))
		return;
	for (unsigned depth = 0; depth < BACKING_DEPTH; depth++) {
		dev_t whole;
		if (blkid_devno_to_wholedisk(dev, name, sizeof(name), &whole)) {
			/* no block device: a file system of its own (tmpfs) */
			snprintf(out, len, "%s %u:%u", fs[0] ? fs : "dev",
				 major(dev), minor(dev));
			return;
		}
		snprintf(out, len, "%s", name);
		if (!sysfs_read("", file, sizeof(file),
				"/sys/block/%s/loop/backing_file", name)) {
			fs[0] = '\0';
			if (first_dev(file, &dev, fs, sizeof(fs)))
				return;
			continue;
		}
		if (single_slave(name, &dev))
			return;
	}
}

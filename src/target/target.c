/* target.c - inspecting and opening files and block devices. */
#define _GNU_SOURCE
#include "target/target.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Logical block size of the disk holding dev (partitions ask their disk),
 * or 512 when sysfs does not say (tmpfs, overlay). */
static unsigned disk_lbs(dev_t dev)
{
	static const char *const fmts[] = {
		"/sys/dev/block/%u:%u/queue/logical_block_size",
		"/sys/dev/block/%u:%u/../queue/logical_block_size",
	};
	for (unsigned i = 0; i < 2; i++) {
		char p[128];
		snprintf(p, sizeof(p), fmts[i], major(dev), minor(dev));
		FILE *f = fopen(p, "re");
		unsigned v = 0;
		if (!f)
			continue;
		int n = fscanf(f, "%u", &v);
		fclose(f);
		if (n == 1 && v)
			return v;
	}
	return 512;
}

/* Does the filesystem of fd refuse O_DIRECT? Only EINVAL says so. */
static bool refuses_direct(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	return flags >= 0 && fcntl(fd, F_SETFL, flags | O_DIRECT) < 0 &&
	       errno == EINVAL;
}

/* The same for a file not created yet, through an unnamed temporary file
 * in dir: nothing appears there. Where O_TMPFILE is not supported the
 * answer is "no" and the open at run time finds out. */
static bool dir_refuses_direct(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	bool refuses = refuses_direct(fd);
	close(fd);
	return refuses;
}

static void inspect_parent(const char *path, struct target_info *info)
{
	char *copy = strdup(path);
	if (!copy)
		return;
	const char *dir = dirname(copy);
	struct stat st;
	info->parent_exists = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	info->parent_writable = info->parent_exists && access(dir, W_OK | X_OK) == 0;
	info->dio_align = info->parent_exists ? disk_lbs(st.st_dev) : 512;
	info->no_direct = info->parent_writable && dir_refuses_direct(dir);
	free(copy);
}

uint64_t target_fd_size(int fd)
{
	struct stat st;
	uint64_t size = 0;

	if (fstat(fd, &st) < 0)
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, &size) < 0 ? 0 : size;
	return st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

static int inspect_block(const char *path, struct target_info *info,
			 struct ioc_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_usage(err, errno, "%s: cannot open: %s", path,
				 strerror(errno));
	uint64_t size = 0;
	int ret = 0;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		ret = err_set(err, errno, "%s: cannot read device size: %s",
			      path, strerror(errno));
	info->size = size;
	info->dio_align = target_dio_align(fd);
	close(fd);
	return ret;
}

int target_inspect(const char *path, struct target_info *info,
		   struct ioc_err *err)
{
	struct stat st;

	memset(info, 0, sizeof(*info));
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return err_usage(err, errno, "%s: %s", path,
					 strerror(errno));
		inspect_parent(path, info);
		return 0;
	}
	info->exists = true;
	if (S_ISBLK(st.st_mode)) {
		info->is_block = true;
		return inspect_block(path, info, err);
	}
	if (S_ISDIR(st.st_mode))
		return err_usage(err, EISDIR,
				 "%s: is a directory; give a file or a block device",
				 path);
	if (!S_ISREG(st.st_mode))
		return err_usage(err, EINVAL,
				 "%s: not a regular file or block device", path);
	if (access(path, R_OK) < 0)
		return err_usage(err, errno, "%s: %s", path, strerror(errno));
	info->size = (uint64_t)st.st_size;
	info->allocated = (uint64_t)st.st_blocks * 512;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_usage(err, errno, "%s: cannot open: %s", path,
				 strerror(errno));
	info->dio_align = target_dio_align(fd);
	info->no_direct = refuses_direct(fd);
	close(fd);
	return 0;
}

int target_open(const char *path, bool write, bool direct, int *fd,
		struct ioc_err *err)
{
	return target_open_flags(path, write, direct, 0, fd, err);
}

int target_open_flags(const char *path, bool write, bool direct, int extra,
		      int *fd, struct ioc_err *err)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | extra;
	if (direct)
		flags |= O_DIRECT;
	*fd = open(path, flags);
	if (*fd >= 0)
		return 0;
	int e = errno;
	if (direct && e == EINVAL)
		return err_usage(err, e,
				 "%s: direct=1 is not supported by its filesystem; use direct=0",
				 path);
	return err_set(err, e, "%s: cannot open%s: %s", path,
		       write ? " for writing" : "", strerror(e));
}

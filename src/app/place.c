/* place.c - see place.h. */
#define _GNU_SOURCE
#include "app/place.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "app/devstat.h"
#include "app/proc.h"
#include "target/guard.h"
#include "target/target.h"

/* The file system type of the mount whose device is dev (mountinfo's
 * third field), into out; "?" if none. */
static void fs_type(dev_t dev, char *out, size_t size, bool *mounted)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mm[32];

	snprintf(out, size, "?");
	*mounted = false;
	if (!f)
		return;
	snprintf(mm, sizeof(mm), "%u:%u", major(dev), minor(dev));
	while (fgets(line, sizeof(line), f)) {
		char id[32], fst[64];
		const char *sep = strstr(line, " - ");
		if (sscanf(line, "%*s %*s %31s", id) != 1 || strcmp(id, mm) || !sep ||
		    sscanf(sep + 3, "%63s", fst) != 1)
			continue;
		snprintf(out, size, "%.31s", fst);
		*mounted = true;
		break;
	}
	fclose(f);
}

static int check_dir(struct app_place *p, uint64_t need, struct ioc_err *err)
{
	const char *d = p->dir_arg;
	struct statvfs vfs;
	struct stat st;
	bool m;

	if (stat(d, &st))
		return err_usage(err, errno, "--directory=%s: %s", d, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_usage(err, ENOTDIR, "--directory=%s: not a directory", d);
	if (access(d, W_OK | X_OK))
		return err_usage(err, EACCES, "--directory=%s: not writable", d);
	if (statvfs(d, &vfs))
		return err_usage(err, errno, "--directory=%s: %s", d, strerror(errno));
	uint64_t room = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (room < need)
		return err_usage(err, ENOSPC, "--directory=%s: %llu MiB free, the data set "
				 "and the server's files need about %llu MiB", d,
				 (unsigned long long)(room >> 20), (unsigned long long)(need >> 20));
	snprintf(p->dir, sizeof(p->dir), "%s", d);
	fs_type(st.st_dev, p->fs, sizeof(p->fs), &m);
	return 0;
}

/* Is the device (or a partition of it) mounted, or held by another
 * device (dm, md)? */
static bool dev_busy(dev_t rdev)
{
	char path[128], fst[32];
	bool mounted;
	DIR *d;
	struct dirent *e;
	bool held = false;

	fs_type(rdev, fst, sizeof(fst), &mounted);
	if (mounted)
		return true;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/holders", major(rdev), minor(rdev));
	if ((d = opendir(path))) {
		while (!held && (e = readdir(d)))
			held = e->d_name[0] != '.';
		closedir(d);
	}
	return held;
}

static int check_dev(struct app_place *p, uint64_t need, struct ioc_err *err)
{
	const char *d = p->dev_arg;
	struct target_info ti;
	struct stat st;
	char tool[256];

	if (stat(d, &st))
		return err_usage(err, errno, "--filename=%s: %s", d, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return err_usage(err, ENOTBLK, "--filename=%s: not a block device (a file "
				 "system's directory is --directory)", d);
	if (target_inspect(d, &ti, err))
		return err_usage(err, EINVAL, "%s", err->msg);
	if (!p->force) {
		if (guard_check(d, &ti, false, err))
			return err_usage(err, EPERM, "%s", err->msg);
		return err_usage(err, EPERM, "--filename=%s: iochar app makes a file system "
				 "on it, erasing what it holds (--force to do so)", d);
	}
	if (dev_busy(st.st_rdev))
		return err_usage(err, EBUSY, "--filename=%s: mounted or in use: refused "
				 "even with --force", d);
	if (ti.size < need)
		return err_usage(err, ENOSPC, "--filename=%s: %llu MiB, the data set and the "
				 "server's files need about %llu MiB", d,
				 (unsigned long long)(ti.size >> 20), (unsigned long long)(need >> 20));
	snprintf(tool, sizeof(tool), "mkfs.%s", p->mkfs);
	char path[300];
	if (!app_find_tool(tool, NULL, path, sizeof(path)))
		return err_usage(err, ENOENT, "--fs=%s: %s is not installed", p->mkfs, tool);
	snprintf(p->fs, sizeof(p->fs), "%s", p->mkfs);
	return 0;
}

int app_place_check(struct app_place *p, uint64_t need, struct ioc_err *err)
{
	if (!p->dir_arg == !p->dev_arg)
		return err_usage(err, EINVAL, "app: needs --directory=DIR or --filename=DEVICE "
				 "(one of them)");
	return p->dir_arg ? check_dir(p, need, err) : check_dev(p, need, err);
}

static int find_device(struct app_place *p)
{
	if (app_dev_find(p->dir, p->device, sizeof(p->device), p->devstat, sizeof(p->devstat)))
		p->device[0] = p->devstat[0] = '\0';
	return 0;
}

int app_place_make(struct app_place *p, const char *log, atomic_bool *stop,
		   struct ioc_err *err)
{
	char name[32], tool[300], tail[600];

	if (p->dir_arg)
		return find_device(p);
	snprintf(name, sizeof(name), "mkfs.%s", p->mkfs);
	if (!app_find_tool(name, NULL, tool, sizeof(tool)))
		return err_set(err, ENOENT, "app: %s is not installed", name);
	char *ext4[] = {tool, "-q", "-F", (char *)p->dev_arg, NULL};
	char *xfs[] = {tool, "-q", "-f", (char *)p->dev_arg, NULL};
	int rc = app_run(strcmp(p->mkfs, "xfs") ? ext4 : xfs, log, APP_AS_SELF, 600000, stop);
	if (rc) {
		app_log_tail(log, tail, sizeof(tail));
		return err_set(err, EIO, "app: %s %s failed (status %d): %s", tool, p->dev_arg,
			       rc, tail);
	}
	p->made_fs = true;
	snprintf(p->dir, sizeof(p->dir), "/tmp/iochar-app-mnt-XXXXXX");
	if (!mkdtemp(p->dir)) {
		p->dir[0] = '\0';
		return err_set(err, errno, "app: mount point: %s", strerror(errno));
	}
	if (mount(p->dev_arg, p->dir, p->mkfs, 0, NULL))
		return err_set(err, errno, "app: mount %s on %s: %s", p->dev_arg, p->dir,
			       strerror(errno));
	p->mounted = true;
	chmod(p->dir, 0755); /* a server running as another user gets through */
	return find_device(p);
}

void app_place_undo(struct app_place *p)
{
	if (p->mounted) {
		sync();
		for (int i = 0; i < 50 && umount2(p->dir, 0) && errno == EBUSY; i++)
			app_sleep_ms(100);
		if (umount2(p->dir, MNT_DETACH) && errno != EINVAL)
			fprintf(stderr, "iochar: app: umount %s: %s\n", p->dir, strerror(errno));
		p->mounted = false;
	}
	if (p->dev_arg && p->dir[0]) {
		rmdir(p->dir);
		p->dir[0] = '\0';
	}
}

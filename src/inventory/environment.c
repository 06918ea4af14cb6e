/* environment.c - see environment.h.
 *
 * Sources: the inventory (inventory.h) for the machine, and for each
 * target stat(2), /sys/dev/block/MAJ:MIN (the block device behind it; for a
 * partition the queue attributes come from its parent disk),
 * /proc/self/mountinfo (filesystem type; statfs(2) magic as a fallback) and
 * a read-only BLKGETSIZE64. Any of these may be missing (containers, tmpfs,
 * overlay): the field then stays empty, and nothing here fails the run.
 */
#include "inventory/environment.h"
#include "inventory/backing.h"
#include "inventory/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef IOCHAR_VERSION
#define IOCHAR_VERSION "unknown"
#endif

/* The host fields, from the inventory (the one reader of the machine). */
static void env_host(struct environment *env)
{
	const struct inventory *inv = env->inv;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	inv_copy(env->hostname, sizeof(env->hostname), inv->os.hostname);
	inv_copy(env->kernel, sizeof(env->kernel), inv->os.kernel);
	inv_copy(env->machine, sizeof(env->machine), inv->os.machine);
	inv_copy(env->cpu_model, sizeof(env->cpu_model), inv->cpu.model);
	env->cpus = inv->cpu.threads ? inv->cpu.threads
				     : (cpus > 0 ? (unsigned)cpus : 0);
	env->mem_bytes = inv->mem.total_bytes;
	inv_copy(env->iochar_version, sizeof(env->iochar_version),
		 IOCHAR_VERSION);
}

/* Queue and identity attributes of the disk whose sysfs directory is disk. */
static void target_disk_attrs(struct target_env *t, const char *disk)
{
	char buf[ENV_STR];
	uint64_t v;

	sysfs_read("", t->model, sizeof(t->model), "%s/device/model", disk);
	if (sysfs_read("", buf, sizeof(buf), "%s/queue/scheduler", disk) == 0)
		inv_parse_scheduler(buf, t->scheduler, sizeof(t->scheduler));
	if (sysfs_read_u64("", &v, "%s/queue/logical_block_size", disk) == 0 &&
	    v <= UINT_MAX)
		t->logical_block_size = (unsigned)v;
	if (sysfs_read_u64("", &v, "%s/queue/rotational", disk) == 0)
		t->rotational = v != 0;
}

/* Fill the device fields from block device number dev, through its sysfs
 * directory. A partition reports its own name and size but its parent
 * disk's queue attributes. No sysfs entry (tmpfs, overlay) leaves them. */
static void target_sysfs(struct target_env *t, dev_t dev, uint64_t *sectors)
{
	char link[64], dir[PATH_MAX], disk[PATH_MAX], path[PATH_MAX + 16];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(link, dir))
		return;
	inv_copy(disk, sizeof(disk), dir);
	inv_copy(t->device, sizeof(t->device), basename(disk));
	if (sysfs_read_u64("", sectors, "%s/size", dir) != 0)
		*sectors = 0;
	snprintf(path, sizeof(path), "%s/partition", dir);
	if (access(path, F_OK) == 0) {
		inv_copy(disk, sizeof(disk), dir);
		target_disk_attrs(t, dirname(disk));
	} else {
		target_disk_attrs(t, dir);
	}
}

/* Size of a block device, asked read-only (never opened for write). */
static uint64_t blockdev_size(const char *path, uint64_t sectors)
{
	uint64_t size = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &size) != 0)
			size = 0;
		close(fd);
	}
	return size ? size : sectors * 512;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Length of mount point mnt when it contains path, else 0. */
static size_t mount_prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(mnt, path, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

struct mount_match {
	int dev_match; /* the mount's device is the file's */
	size_t prefix; /* length of the mount point containing the path */
};

/* One mountinfo line: if it is a better home for (dev, path) than *best,
 * record it and copy its fstype. */
static void mountinfo_line(char *line, dev_t dev, const char *path,
			   struct mount_match *best, char *fstype, size_t len)
{
	unsigned maj, min;
	char mnt[PATH_MAX], type[ENV_STR];
	char *sep = strstr(line, " - ");

	if (!sep ||
	    sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3)
		return;
	if (sscanf(sep + 3, "%127s", type) != 1)
		return;
	unescape_octal(mnt);
	struct mount_match m = {
	    .dev_match = makedev(maj, min) == dev,
	    .prefix = mount_prefix_len(mnt, path),
	};
	if (!m.dev_match && !m.prefix)
		return;
	if (m.dev_match < best->dev_match ||
	    (m.dev_match == best->dev_match && m.prefix <= best->prefix))
		return;
	*best = m;
	inv_copy(fstype, len, type);
}

/* Filesystem type of the mount holding path (device dev), from
 * /proc/self/mountinfo. Returns 0 when found. */
static int fstype_mountinfo(dev_t dev, const char *path, char *out, size_t len)
{
	struct mount_match best = {0, 0};
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0)
		mountinfo_line(line, dev, path, &best, out, len);
	free(line);
	fclose(f);
	return out[0] ? 0 : -ENOENT;
}

static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
    {0xef53, "ext4"},	   {0x58465342, "xfs"},	    {0x9123683e, "btrfs"},
    {0x01021994, "tmpfs"}, {0x794c7630, "overlay"}, {0x6969, "nfs"},
    {0xf2f52010, "f2fs"},  {0x2fc12fc1, "zfs"},	    {0xca451a4e, "bcachefs"},
    {0x65735546, "fuse"},  {0xff534d42, "cifs"},    {0xfe534d42, "smb2"},
    {0x00c36400, "ceph"},  {0x858458f6, "ramfs"},   {0x4d44, "vfat"},
    {0x2011bab0, "exfat"}, {0x5346544e, "ntfs"},    {0x73717368, "squashfs"},
    {0x9660, "iso9660"},   {0x9fa0, "proc"},	    {0x62656572, "sysfs"},
};

static void fstype_statfs(const char *path, char *out, size_t len)
{
	struct statfs sf;

	if (statfs(path, &sf) != 0)
		return;
	for (size_t i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++) {
		if ((unsigned long)sf.f_type == fs_magics[i].magic) {
			inv_copy(out, len, fs_magics[i].name);
			return;
		}
	}
	snprintf(out, len, "0x%lx", (unsigned long)sf.f_type);
}

/* stat path, or its parent directory when it does not exist yet (a file
 * the run will create): *at is then the parent and *exists false. Returns
 * 0 or -errno. */
static int stat_or_parent(const char *path, struct stat *st, char *at,
			  size_t len, bool *exists)
{
	char tmp[PATH_MAX];

	inv_copy(at, len, path);
	*exists = true;
	if (stat(path, st) == 0)
		return 0;
	if (errno != ENOENT)
		return -errno;
	*exists = false;
	inv_copy(tmp, sizeof(tmp), path);
	inv_copy(at, len, dirname(tmp)); /* may return a static "." */
	return stat(at, st) == 0 ? 0 : -errno;
}

static void target_collect(struct target_env *t, const char *path)
{
	char at[PATH_MAX], real[PATH_MAX];
	uint64_t sectors = 0;
	struct stat st;
	bool exists;

	inv_copy(t->path, sizeof(t->path), path);
	if (!path[0] || stat_or_parent(path, &st, at, sizeof(at), &exists) != 0)
		return;
	inventory_backing_device(path, t->backing_device, sizeof(t->backing_device));
	t->is_block = exists && S_ISBLK(st.st_mode);
	target_sysfs(t, t->is_block ? st.st_rdev : st.st_dev, &sectors);
	if (t->is_block) {
		t->size = blockdev_size(path, sectors);
		return;
	}
	if (exists && S_ISREG(st.st_mode))
		t->size = (uint64_t)st.st_size;
	if (!realpath(at, real))
		inv_copy(real, sizeof(real), at);
	if (fstype_mountinfo(st.st_dev, real, t->fstype, sizeof(t->fstype)))
		fstype_statfs(at, t->fstype, sizeof(t->fstype));
}

int environment_collect(struct environment *env, const char *const *paths,
			unsigned nr_paths)
{
	memset(env, 0, sizeof(*env));
	env->inv = calloc(1, sizeof(*env->inv));
	if (!env->inv || inventory_collect(env->inv, NULL)) {
		free(env->inv);
		env->inv = NULL;
		return -ENOMEM;
	}
	env_host(env);
	if (nr_paths == 0)
		return 0;
	env->targets = calloc(nr_paths, sizeof(*env->targets));
	if (!env->targets) {
		environment_free(env);
		return -ENOMEM;
	}
	/* each path once: a plan's steps and a job's clones name the same
	 * targets again and again */
	for (unsigned i = 0; i < nr_paths; i++) {
		const char *path = paths[i] ? paths[i] : "";
		unsigned k;
		for (k = 0; k < env->nr_targets; k++)
			if (!strcmp(env->targets[k].path, path))
				break;
		if (k == env->nr_targets)
			target_collect(&env->targets[env->nr_targets++], path);
	}
	return 0;
}

void environment_refresh_targets(struct environment *env)
{
	for (unsigned i = 0; i < env->nr_targets; i++) {
		char path[sizeof(env->targets[i].path)];
		memcpy(path, env->targets[i].path, sizeof(path));
		memset(&env->targets[i], 0, sizeof(env->targets[i]));
		target_collect(&env->targets[i], path);
	}
}

void environment_free(struct environment *env)
{
	if (!env)
		return;
	free(env->targets);
	env->targets = NULL;
	env->nr_targets = 0;
	inventory_free(env->inv);
	free(env->inv);
	env->inv = NULL;
}

int environment_new(const char *const *paths, unsigned nr_paths,
		    struct environment **out)
{
	struct environment *env = malloc(sizeof(*env));
	*out = NULL;
	if (!env || environment_collect(env, paths, nr_paths)) {
		free(env);
		return -ENOMEM;
	}
	*out = env;
	return 0;
}

void environment_destroy(struct environment *env)
{
	environment_free(env);
	free(env);
}

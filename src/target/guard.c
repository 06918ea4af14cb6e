/* guard.c - the destructive-write guard. See guard.h.
 *
 * A block device is looked at as the set of devices writing to it would
 * damage: itself, its partitions, and whatever is stacked on either (the
 * holders in sysfs: dm, md, bcache, ...), recursively. That set is checked
 * against the mount table and the swap list; then holders, on-disk
 * signatures (libblkid) and an exclusive open, in that order, so that the
 * first refusal is the most specific one.
 */
#define _GNU_SOURCE
#include "target/guard.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/marker.h"

#define GUARD_MAX_DEVS	256 /* devices in one stack: far more than real ones */
#define GUARD_MAX_DEPTH 16  /* levels of partitions and holders followed */
#define GUARD_PATH_MAX	160 /* sysfs paths here are short (names < 32) */
#define GUARD_FOUND_MAX 256 /* one finding, as words */

struct guard_dev {
	dev_t devt;
	int parent;	/* index of the device it sits on; -1: the target */
	bool partition; /* a partition of its parent (else stacked on it) */
	char name[32];	/* kernel name, as under /sys/class/block */
};

struct guard_set {
	struct guard_dev d[GUARD_MAX_DEVS];
	unsigned nr;
};

/* Fill err with the one refusal line: what was found, and the way out. */
static int refuse(struct ioc_err *err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(struct ioc_err *err, const char *path, const char *fmt, ...)
{
	char found[GUARD_FOUND_MAX + 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(found, sizeof(found), fmt, ap);
	va_end(ap);
	if (path)
		return err_usage(
		    err, EPERM,
		    "%s: %s; refusing to write (use --force to override)", path,
		    found);
	return err_usage(err, EPERM,
			 "%s; refusing to write (use --force to override)",
			 found);
}

/* "a" or "an" before a signature name as blkid spells it ("an ext4", "an
 * LVM2_member", "an xfs", "a dos"): by its first sound, close enough. */
static const char *article(const char *word)
{
	static const char *const an_words[] = {
	    "xfs", "ntfs", "hfs", "hfsplus", "f2fs", "nilfs2", "ntfs3",
	};
	const char *vowels = "aeiouAEIOU", *an_letters = "FHLMNRSX";

	if (word[0] && strchr(vowels, word[0]))
		return "an";
	if (word[0] && strchr(an_letters, word[0]) && word[1] >= 'A' &&
	    word[1] <= 'Z')
		return "an"; /* an acronym: "an LVM2_member" */
	for (size_t i = 0; i < sizeof(an_words) / sizeof(an_words[0]); i++)
		if (strcmp(word, an_words[i]) == 0)
			return "an";
	return "a";
}

static int set_find(const struct guard_set *s, dev_t devt)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (s->d[i].devt == devt)
			return (int)i;
	return -1;
}

/* The dev_t in sysdir/dev ("MAJ:MIN"). 0 or -errno. */
static int read_devt(const char *sysdir, dev_t *out)
{
	char p[GUARD_PATH_MAX];
	unsigned maj, min;
	int n, ret = 0;

	if ((size_t)snprintf(p, sizeof(p), "%s/dev", sysdir) >= sizeof(p))
		return -ENAMETOOLONG;
	FILE *f = fopen(p, "re");
	if (!f)
		return -errno;
	n = fscanf(f, "%u:%u", &maj, &min);
	if (n == 2)
		*out = makedev(maj, min);
	else
		ret = -EINVAL;
	fclose(f);
	return ret;
}

static int collect(struct guard_set *s, const char *sysdir, const char *name,
		   int parent, bool partition, unsigned depth);

/* Partitions of the device at sysdir (named name) are its subdirectories
 * named after it that hold a "partition" file (loop0p1, sda1, nvme0n1p2). */
static void collect_partitions(struct guard_set *s, const char *sysdir,
			       const char *name, int me, unsigned depth)
{
	size_t len = strlen(name);
	DIR *d = opendir(sysdir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char sub[GUARD_PATH_MAX], mark[GUARD_PATH_MAX];
		if (strncmp(e->d_name, name, len) != 0 || !e->d_name[len])
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", sysdir,
				     e->d_name) >= sizeof(sub) ||
		    (size_t)snprintf(mark, sizeof(mark), "%s/partition", sub) >=
			sizeof(mark))
			continue;
		if (access(mark, F_OK) == 0)
			collect(s, sub, e->d_name, me, true, depth + 1);
	}
	closedir(d);
}

/* Holders are what the kernel has stacked on the device: each entry under
 * sysdir/holders names a device under /sys/class/block. */
static void collect_holders(struct guard_set *s, const char *sysdir, int me,
			    unsigned depth)
{
	char hdir[GUARD_PATH_MAX];
	struct dirent *e;
	DIR *d;

	if ((size_t)snprintf(hdir, sizeof(hdir), "%s/holders", sysdir) >=
	    sizeof(hdir))
		return;
	d = opendir(hdir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char sub[GUARD_PATH_MAX];
		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "/sys/class/block/%s",
				     e->d_name) >= sizeof(sub))
			continue;
		collect(s, sub, e->d_name, me, false, depth + 1);
	}
	closedir(d);
}

/* Add the device at sysdir, then its partitions and holders. Devices seen
 * before are skipped, which also ends any loop. Devices that vanish while
 * we look are skipped too: they can no longer be damaged. */
static int collect(struct guard_set *s, const char *sysdir, const char *name,
		   int parent, bool partition, unsigned depth)
{
	dev_t devt = 0;

	if (read_devt(sysdir, &devt) || set_find(s, devt) >= 0)
		return 0;
	if (s->nr == GUARD_MAX_DEVS)
		return -E2BIG;
	int me = (int)s->nr++;
	struct guard_dev *g = &s->d[me];
	g->devt = devt;
	g->parent = parent;
	g->partition = partition;
	snprintf(g->name, sizeof(g->name), "%s", name);
	if (depth >= GUARD_MAX_DEPTH)
		return 0;
	collect_partitions(s, sysdir, name, me, depth);
	collect_holders(s, sysdir, me, depth);
	return 0;
}

/* "it", "its partition /dev/loop0p1", "/dev/dm-0 (stacked on it)". */
static const char *subject(const struct guard_set *s, unsigned i, char *buf,
			   size_t len)
{
	const struct guard_dev *g = &s->d[i];

	if (i == 0)
		snprintf(buf, len, "it");
	else if (g->partition && g->parent == 0)
		snprintf(buf, len, "its partition /dev/%s", g->name);
	else
		snprintf(buf, len, "/dev/%s (stacked on it)", g->name);
	return buf;
}

/* Which device of s, if any, does a mount of devt or of the device node
 * source belong to? btrfs shows an anonymous devt in mountinfo, so the
 * source is asked too. */
static int mount_match(const struct guard_set *s, unsigned maj, unsigned min,
		       const char *source)
{
	struct stat st;
	int i = set_find(s, makedev(maj, min));

	if (i < 0 && source && strncmp(source, "/dev/", 5) == 0 &&
	    stat(source, &st) == 0 && S_ISBLK(st.st_mode))
		i = set_find(s, st.st_rdev);
	return i;
}

/* Is any device of s mounted? Mount points are shown as mountinfo escapes
 * them (a space is \040), which keeps the message on one line. */
static int check_mounts(const char *path, const struct guard_set *s,
			struct ioc_err *err)
{
	char *line = NULL, who[96];
	size_t cap = 0;
	int ret = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return refuse(err, path,
			      "cannot check whether it is mounted: "
			      "/proc/self/mountinfo: %s",
			      strerror(errno));
	errno = 0;
	while (!ret && getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		int mp = 0, mp_end = 0;
		char *sep, *fstype = NULL, *source = NULL, *save;

		if (sscanf(line, "%*u %*u %u:%u %*s %n%*s%n", &maj, &min, &mp,
			   &mp_end) != 2 ||
		    mp_end <= mp)
			continue;
		sep = strstr(line + mp_end, " - ");
		if (sep) {
			fstype = strtok_r(sep + 3, " \n", &save);
			source = fstype ? strtok_r(NULL, " \n", &save) : NULL;
		}
		int i = mount_match(s, maj, min, source);
		if (i < 0)
			continue;
		line[mp_end] = '\0';
		ret = refuse(err, path, "%s is mounted at %s%s%s%s",
			     subject(s, (unsigned)i, who, sizeof(who)),
			     line + mp, fstype ? " (" : "",
			     fstype ? fstype : "", fstype ? ")" : "");
	}
	if (!ret && ferror(f))
		ret = refuse(err, path,
			     "cannot check whether it is mounted: "
			     "/proc/self/mountinfo: %s",
			     strerror(errno ? errno : EIO));
	free(line);
	fclose(f);
	return ret;
}

/* Is any device of s active swap? No /proc/swaps: a kernel without swap. */
static int check_swap(const char *path, const struct guard_set *s,
		      struct ioc_err *err)
{
	char *line = NULL, who[96];
	size_t cap = 0;
	int ret = 0;
	FILE *f = fopen("/proc/swaps", "re");

	if (!f)
		return 0;
	while (!ret && getline(&line, &cap, f) > 0) {
		struct stat st;
		line[strcspn(line, " \t\n")] = '\0';
		if (line[0] != '/' || stat(line, &st) < 0 ||
		    !S_ISBLK(st.st_mode))
			continue;
		int i = set_find(s, st.st_rdev);
		if (i >= 0)
			ret = refuse(err, path, "%s is in use as swap",
				     subject(s, (unsigned)i, who, sizeof(who)));
	}
	free(line);
	fclose(f);
	return ret;
}

/* Has the kernel stacked anything on the device or its partitions? */
static int check_holders(const char *path, const struct guard_set *s,
			 struct ioc_err *err)
{
	char who[96];

	for (unsigned i = 1; i < s->nr; i++) {
		const struct guard_dev *g = &s->d[i];
		if (g->partition)
			continue;
		return refuse(err, path,
			      "%s is in use by /dev/%s, stacked on it (dm, md "
			      "or similar)",
			      subject(s, (unsigned)g->parent, who, sizeof(who)),
			      g->name);
	}
	return 0;
}

/* Describe what the probe found: "an ext4 filesystem", "a dos partition
 * table", "an LVM2_member signature". */
static void describe(blkid_probe pr, char *buf, size_t len)
{
	const char *type = NULL, *usage = NULL;

	if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
		const char *off = NULL;
		blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
		/* a GPT whose start was wiped is found by the backup header in
		 * the last sector: say so, the user may think the disk blank */
		bool backup = off && strtoull(off, NULL, 10) > 4096;
		snprintf(buf, len, "%s %s partition table%s%s%s", article(type),
			 type, backup ? " (its backup header, at byte " : "",
			 backup ? off : "", backup ? ")" : "");
		return;
	}
	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) != 0)
		type = "unknown";
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	snprintf(buf, len, "%s %s %s", article(type), type,
		 usage && strcmp(usage, "filesystem") == 0 ? "filesystem"
							   : "signature");
}

/* blkid found more than one signature and would not pick: list them all,
 * one per blkid_do_probe step, as wipefs does. */
static void describe_all(blkid_probe pr, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "several signatures:");

	blkid_reset_probe(pr);
	for (unsigned n = 0; n < 8 && used < len && blkid_do_probe(pr) == 0;
	     n++) {
		char one[64];
		describe(pr, one, sizeof(one));
		used += (size_t)snprintf(buf + used, len - used, "%s %s",
					 n ? "," : "", one);
	}
}

/* Does the device carry a partition table or a filesystem, RAID, LVM or
 * other signature? 1 (found says what), 0, or -errno. Read-only. */
static int probe_signatures(const char *dev, char *found, size_t len)
{
	int ret;
	blkid_probe pr;

	errno = 0;
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return errno ? -errno : -EIO;
	if (blkid_probe_enable_superblocks(pr, 1) ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_USAGE) ||
	    blkid_probe_enable_partitions(pr, 1) ||
	    /* as wipefs: a GPT counts without its protective MBR, so one whose
	     * first sectors were zeroed is found by its backup header */
	    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_FORCE_GPT |
						     BLKID_PARTS_MAGIC)) {
		ret = -EIO;
		goto out;
	}
	switch (blkid_do_safeprobe(pr)) {
	case 0:
		describe(pr, found, len);
		ret = 1;
		break;
	case 1:
		ret = 0;
		break;
	case -2:
		describe_all(pr, found, len);
		ret = 1;
		break;
	default:
		ret = errno ? -errno : -EIO;
		break;
	}
out:
	blkid_free_probe(pr);
	return ret;
}

/* Does anyone hold the device exclusively (a mount, swap, md, dm, another
 * program's O_EXCL)? Opened read-only and closed at once. */
static int check_exclusive(const char *path, struct ioc_err *err)
{
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EBUSY)
		return refuse(err, path,
			      "in use: another program or the kernel holds it "
			      "open exclusively");
	return refuse(err, path, "cannot check whether it is in use: %s",
		      strerror(errno));
}

static int guard_block(const char *path, struct ioc_err *err)
{
	char sysdir[GUARD_PATH_MAX], found[GUARD_FOUND_MAX], name[32] = "";
	struct guard_set *s = NULL;
	struct stat st;
	int ret;

	if (stat(path, &st) < 0)
		return refuse(err, path, "cannot look at it: %s",
			      strerror(errno));
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	/* the kernel name ("loop0") is what partitions are named after */
	char *real = realpath(sysdir, NULL);
	if (real) {
		snprintf(name, sizeof(name), "%s", strrchr(real, '/') + 1);
		free(real);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ENOMEM, "out of memory");
	ret = name[0] ? collect(s, sysdir, name, -1, false, 0) : -ENOENT;
	if (!ret && s->nr == 0)
		ret = -ENOENT;
	if (ret) {
		ret =
		    refuse(err, path,
			   "cannot check its partitions and holders in %s: %s",
			   sysdir, strerror(-ret));
		goto out;
	}
	if ((ret = check_mounts(path, s, err)) ||
	    (ret = check_swap(path, s, err)) ||
	    (ret = check_holders(path, s, err)))
		goto out;
	ret = probe_signatures(path, found, sizeof(found));
	if (ret > 0) {
		ret = refuse(err, path, "found %s", found);
		goto out;
	}
	if (ret < 0) {
		ret = refuse(err, path, "cannot probe it for signatures: %s",
			     strerror(-ret));
		goto out;
	}
	ret = check_exclusive(path, err);
out:
	free(s);
	return ret;
}

int guard_is_ours(const char *path)
{
	return target_marker_check(path);
}

static int guard_file(const char *path, struct ioc_err *err)
{
	int ours = guard_is_ours(path);

	if (ours == 1)
		return 0;
	if (ours == 0)
		return refuse(err, path,
			      "an existing file that iochar did not create");
	if (ours == -ENOTSUP)
		return refuse(err, NULL,
			      "cannot tell whether iochar created %s: its "
			      "filesystem has no user xattrs",
			      path);
	return refuse(err, path, "cannot tell whether iochar created it: %s",
		      strerror(-ours));
}

int guard_check(const char *path, const struct target_info *ti, bool force,
		struct ioc_err *err)
{
	if (force || !ti->exists)
		return 0;
	return ti->is_block ? guard_block(path, err) : guard_file(path, err);
}

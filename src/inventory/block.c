/* block.c - every block device of /sys/block: identity, size, queue
 * settings and stacking.
 *
 * Per disk X, below /sys/block/X: size, queue/{logical_block_size,
 * physical_block_size,rotational,scheduler,nr_requests}, mq/ (one entry per
 * hardware queue), holders/ (the disk's and its partitions': what is built
 * on it), slaves/, partitions (subdirectories holding a "partition" file), md/
 * (level, array_state, raid_disks, degraded), dm/ (name, uuid),
 * loop/backing_file, serial (virtio), and device/: model, vendor, rev or
 * firmware_rev, serial (nvme), vpd_pg80 (scsi; root only). Devices of size 0
 * (unused loop, zram, nbd slots) are left out, md arrays excepted.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inventory/block_transport.h"
#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

void inv_pci_of_path(const char *real, char *addr, size_t len)
{
	const char *p = real;

	inv_copy(addr, len, "");
	while (p && *p) {
		const char *next = strchr(p + 1, '/');
		size_t n = next ? (size_t)(next - p - 1) : strlen(p + 1);
		char comp[32];
		if (*p == '/' && n < sizeof(comp)) {
			memcpy(comp, p + 1, n);
			comp[n] = '\0';
			if (inv_is_pci_addr(comp))
				inv_copy(addr, len, comp);
		}
		p = next;
	}
}

/* SCSI unit serial number: VPD page 0x80, a 4-byte header whose last byte
 * is the length, then the (space-padded) serial. */
static void scsi_serial(const char *root, const char *name, char *out,
			size_t len)
{
	char path[4200], page[260];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/sys/block/%s/device/vpd_pg80", root,
		 name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, page, sizeof(page) - 1);
	close(fd);
	if (n < 4 || page[1] != (char)0x80)
		return;
	size_t sl = (unsigned char)page[3];
	if (sl > (size_t)n - 4)
		sl = (size_t)n - 4;
	char *s = page + 4;
	s[sl] = '\0';
	while (*s == ' ')
		s++;
	for (size_t e = strlen(s); e && (s[e - 1] == ' ' || !s[e - 1]); e--)
		s[e - 1] = '\0';
	for (char *c = s; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
	inv_copy(out, len, s);
}

static void block_identity(const char *root, struct inv_block *b)
{
	const char *n = b->name;

	sysfs_read(root, b->model, sizeof(b->model),
		   "/sys/block/%s/device/model", n);
	sysfs_read(root, b->vendor, sizeof(b->vendor),
		   "/sys/block/%s/device/vendor", n);
	/* virtio's device/vendor is a PCI id, not a name */
	if (!strncmp(b->vendor, "0x", 2))
		b->vendor[0] = '\0';
	if (sysfs_read(root, b->firmware, sizeof(b->firmware),
		       "/sys/block/%s/device/firmware_rev", n))
		sysfs_read(root, b->firmware, sizeof(b->firmware),
			   "/sys/block/%s/device/rev", n);
	if (sysfs_read(root, b->serial, sizeof(b->serial),
		       "/sys/block/%s/device/serial", n) ||
	    !b->serial[0])
		sysfs_read(root, b->serial, sizeof(b->serial),
			   "/sys/block/%s/serial", n);
	if (!b->serial[0])
		scsi_serial(root, n, b->serial, sizeof(b->serial));
}

static void block_queue(const char *root, struct inv_block *b)
{
	const char *n = b->name;
	char buf[256];
	uint64_t v;
	char **q;
	unsigned nq;

	if (sysfs_read_u64(root, &v, "/sys/block/%s/queue/logical_block_size",
			   n) == 0)
		b->logical_block_size = (unsigned)v;
	if (sysfs_read_u64(root, &v, "/sys/block/%s/queue/physical_block_size",
			   n) == 0)
		b->physical_block_size = (unsigned)v;
	if (sysfs_read_u64(root, &v, "/sys/block/%s/queue/rotational", n) == 0)
		b->rotational = v != 0;
	if (sysfs_read(root, buf, sizeof(buf), "/sys/block/%s/queue/scheduler",
		       n) == 0)
		inv_parse_scheduler(buf, b->scheduler, sizeof(b->scheduler));
	if (sysfs_read_u64(root, &v, "/sys/block/%s/queue/nr_requests", n) == 0)
		b->nr_requests = (unsigned)v;
	if (sysfs_list(root, &q, &nq, "/sys/block/%s/mq", n) == 0) {
		for (unsigned i = 0; i < nq; i++)
			if (isdigit((unsigned char)q[i][0]))
				b->hw_queues++;
		sysfs_list_free(q, nq);
	}
}

/* Names of a directory's entries as a space-separated list. */
static int list_into(const char *root, char *list, size_t len, const char *name,
		     const char *sub)
{
	char **v;
	unsigned nv;
	int ret = sysfs_list(root, &v, &nv, "/sys/block/%s/%s", name, sub);

	if (ret)
		return ret == -ENOMEM ? ret : 0;
	for (unsigned i = 0; i < nv; i++)
		inv_list_add(list, len, v[i]);
	sysfs_list_free(v, nv);
	return 0;
}

static int block_stacking(const char *root, struct inv_block *b)
{
	const char *n = b->name;
	char **v, buf[INV_STR];
	unsigned nv;
	int ret;

	ret = list_into(root, b->holders, sizeof(b->holders), n, "holders");
	if (!ret)
		ret =
		    list_into(root, b->slaves, sizeof(b->slaves), n, "slaves");
	if (ret)
		return ret;
	ret = sysfs_list(root, &v, &nv, "/sys/block/%s", n);
	if (ret == -ENOMEM)
		return ret;
	for (unsigned i = 0; i < nv && !ret; i++) {
		if (!sysfs_exists(root, "/sys/block/%s/%s/partition", n, v[i]))
			continue;
		inv_list_add(b->partitions, sizeof(b->partitions), v[i]);
		/* What is built on a partition is built on the disk. */
		char sub[INV_NAME + 16];
		snprintf(sub, sizeof(sub), "%s/holders", v[i]);
		ret = list_into(root, b->holders, sizeof(b->holders), n, sub);
	}
	sysfs_list_free(v, nv);
	if (ret)
		return ret;

	sysfs_read(root, b->md_level, sizeof(b->md_level),
		   "/sys/block/%s/md/level", n);
	sysfs_read(root, b->md_state, sizeof(b->md_state),
		   "/sys/block/%s/md/array_state", n);
	sysfs_read_int(root, &b->md_raid_disks, "/sys/block/%s/md/raid_disks",
		       n);
	sysfs_read_int(root, &b->md_degraded, "/sys/block/%s/md/degraded", n);
	sysfs_read(root, b->dm_name, sizeof(b->dm_name),
		   "/sys/block/%s/dm/name", n);
	if (sysfs_read(root, buf, sizeof(buf), "/sys/block/%s/dm/uuid", n) ==
		0 &&
	    buf[0]) {
		/* "LVM-<vg><lv>", "CRYPT-LUKS2-...", "mpath-...", "part1-..."
		 */
		size_t k = strcspn(buf, "-");
		buf[k < sizeof(b->dm_kind) ? k : sizeof(b->dm_kind) - 1] = '\0';
		for (char *c = buf; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		inv_copy(b->dm_kind, sizeof(b->dm_kind), buf);
	}
	sysfs_read(root, b->backing_file, sizeof(b->backing_file),
		   "/sys/block/%s/loop/backing_file", n);
	return 0;
}

/* An NVMe namespace with native multipath (Debian's default) is a head
 * disk under /sys/devices/virtual/nvme-subsystem/; the controllers' path
 * disks listed in its multipath/ hold the PCI function and the hardware
 * queues. The first path stands for them. */
static void nvme_multipath(const char *root, struct inv_block *b)
{
	char real[4096];
	char **paths, **q;
	unsigned np, nq;

	if (sysfs_list(root, &paths, &np, "/sys/block/%s/multipath", b->name))
		return;
	if (np && sysfs_real(root, real, sizeof(real),
			     "/sys/block/%s/multipath/%s", b->name,
			     paths[0]) == 0) {
		inv_pci_of_path(real, b->pci, sizeof(b->pci));
		if (!b->hw_queues && sysfs_list(root, &q, &nq, "%s/mq", real) == 0) {
			for (unsigned i = 0; i < nq; i++)
				if (isdigit((unsigned char)q[i][0]))
					b->hw_queues++;
			sysfs_list_free(q, nq);
		}
	}
	sysfs_list_free(paths, np);
}

static int block_one(struct inventory *inv, const char *name, bool *keep)
{
	const char *root = inv->root;
	struct inv_block *b = &inv->blocks[inv->nr_blocks];
	char real[4096] = "";
	uint64_t size;

	memset(b, 0, sizeof(*b));
	inv_copy(b->name, sizeof(b->name), name);
	b->rotational = -1;
	b->numa_node = -1;
	b->md_raid_disks = -1;
	b->md_degraded = -1;
	/* Size first: the many unused loop/nbd slots cost one read each. */
	if (sysfs_read_u64(root, &size, "/sys/block/%s/size", name) == 0)
		b->size = size * 512;
	*keep = b->size || sysfs_exists(root, "/sys/block/%s/md", name);
	if (!*keep)
		return 0;
	block_queue(root, b);
	block_identity(root, b);
	sysfs_real(root, real, sizeof(real), "/sys/block/%s", name);
	inv_block_transport(root, name, real, b->vendor, b->transport,
			    sizeof(b->transport), b->via, sizeof(b->via));
	inv_pci_of_path(real, b->pci, sizeof(b->pci));
	if (!b->pci[0])
		nvme_multipath(root, b);
	if (b->pci[0])
		sysfs_read_int(root, &b->numa_node,
			       "/sys/bus/pci/devices/%s/numa_node", b->pci);
	return block_stacking(root, b);
}

int inv_collect_blocks(struct inventory *inv)
{
	char **names;
	unsigned nr;
	int ret = sysfs_list(inv->root, &names, &nr, "/sys/block");

	if (ret)
		return ret == -ENOMEM ? ret : 0;
	inv->blocks = calloc(nr ? nr : 1, sizeof(*inv->blocks));
	if (!inv->blocks) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < nr; i++) {
		bool keep;
		ret = block_one(inv, names[i], &keep);
		if (ret)
			goto out;
		if (keep)
			inv->nr_blocks++;
	}
out:
	sysfs_list_free(names, nr);
	return ret;
}

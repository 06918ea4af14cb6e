/* fuzz_inventory.c - libFuzzer target for the inventory readers
 * (inventory/inventory.h) fed corrupt /proc and /sys files.
 *
 * The input is cut at NUL bytes into pieces; piece i becomes the contents
 * of files[i] below a scratch root that has the shape of a small machine
 * (a disk behind a PCI function, a NIC, a NUMA node). inventory_collect
 * then reads it, and every format is written. Besides the sanitizers, the
 * target checks the contract: collecting succeeds, strings stay
 * terminated, counts stay bounded, and the writers succeed.
 *
 *     make fuzz && build-fuzz/fuzz_inventory tests/fuzz/corpus/inventory
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "base/json_writer.h"

#include "fuzz.h"

#define FN "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"
#define NET FN "/net/eth0"
#define DISK FN "/nvme/nvme0/nvme0n1"

static const char *const files[] = {
    "proc/cpuinfo",
    "etc/os-release",
    "sys/devices/system/cpu/online",
    "sys/devices/system/node/online",
    DISK "/queue/scheduler",
    DISK "/size",
    FN "/nvme/nvme0/vpd_pg80",
    FN "/current_link_speed",
    FN "/max_link_width",
    NET "/speed",
    "sys/devices/system/node/node0/meminfo",
    "proc/meminfo",
    DISK "/dm/uuid",
    NET "/queues/rx-0/rps_cpus",
    "sys/devices/system/cpu/cpu0/topology/core_id",
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
};
#define NR_FILES (sizeof(files) / sizeof(files[0]))

static char root[64];

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *rel, const char *text, size_t len)
{
	char path[512], *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "we");
	CHECK(f);
	CHECK(fwrite(text, 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

static void link_rel(const char *target, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	put(rel, "", 0); /* make the parents */
	unlink(path);
	CHECK(symlink(target, path) == 0);
}

/* The machine's skeleton: the links sysfs has. */
static void setup(void)
{
	/* tmpfs when there is one: every input rewrites 16 files */
	snprintf(root, sizeof(root), "%s/iochar-fuzz-inv-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	CHECK(mkdtemp(root));
	atexit(cleanup);
	link_rel("../devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/"
		 "nvme0n1",
		 "sys/block/nvme0n1");
	link_rel("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0",
		 "sys/bus/pci/devices/0000:01:00.0");
	link_rel("../..", DISK "/device");
	link_rel("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/net/"
		 "eth0",
		 "sys/class/net/eth0");
	put(NET "/ifindex", "2\n", 2);
	put(DISK "/mq/0/nr_tags", "1\n", 2);
	put(DISK "/nvme0n1p1/partition", "1\n", 2);
}

static void check_str(const char *s, size_t size)
{
	CHECK(memchr(s, '\0', size) != NULL);
}
#define STR(field) check_str(field, sizeof(field))

static void check(const struct inventory *inv)
{
	STR(inv->os.hostname);
	STR(inv->os.distro);
	STR(inv->cpu.model);
	STR(inv->cpu.governor);
	CHECK(inv->cpu.threads <= 8192);
	CHECK(inv->cpu.cores <= inv->cpu.threads);
	CHECK(inv->mem.nr_nodes <= 8192);
	for (unsigned i = 0; i < inv->nr_blocks; i++) {
		const struct inv_block *b = &inv->blocks[i];
		STR(b->name);
		STR(b->scheduler);
		STR(b->serial);
		STR(b->dm_kind);
		STR(b->partitions);
	}
	for (unsigned i = 0; i < inv->nr_pcis; i++) {
		STR(inv->pcis[i].users);
		CHECK(inv->pcis[i].cur_width <= 32);
	}
	for (unsigned i = 0; i < inv->nr_nets; i++)
		CHECK(inv->nets[i].rps_queues <= inv->nets[i].rx_queues);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct inventory inv;
	size_t at = 0;
	struct jw w;

	if (!ready) {
		setup();
		ready = true;
	}
	for (size_t i = 0; i < NR_FILES; i++) {
		const uint8_t *nul = at < size ? memchr(data + at, 0, size - at)
					       : NULL;
		size_t len = at < size ? (nul ? (size_t)(nul - data) : size) - at
				       : 0;
		put(files[i], (const char *)data + at, len);
		at += len + (nul ? 1 : 0);
	}
	CHECK(inventory_collect(&inv, root) == 0);
	check(&inv);
	FILE *f = fopen("/dev/null", "we");
	CHECK(f);
	jw_init(&w, f, 0);
	inventory_json_emit(&w, &inv, true);
	CHECK(jw_finish(&w) == 0);
	CHECK(inventory_write_text(&inv, f, true) == 0);
	CHECK(inventory_write_csv(&inv, f, true) == 0);
	fclose(f);
	inventory_free(&inv);
	return 0;
}

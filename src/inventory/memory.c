/* memory.c - total memory and its NUMA layout.
 *
 * Sources: /proc/meminfo MemTotal, /sys/devices/system/node/online, and
 * per node nodeN/meminfo ("Node 0 MemTotal: 8071128 kB") and nodeN/cpulist.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

/* The kB value of key in a meminfo-style file (lines "... key: N kB"). */
static int meminfo_kb(const char *path, const char *key, uint64_t *kb)
{
	char line[256];
	size_t klen = strlen(key);
	int ret = -ENOENT;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *at = strstr(line, key);
		unsigned long long v;
		if (at && at[klen] == ':' &&
		    sscanf(at + klen + 1, " %llu", &v) == 1) {
			*kb = v;
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

struct node_walk {
	struct inventory *inv;
	unsigned cap;
};

static void node_one(unsigned id, void *arg)
{
	struct node_walk *w = arg;
	struct inv_memory *m = &w->inv->mem;
	struct inv_node *n;
	char path[4200];
	uint64_t kb;

	if (m->nr_nodes >= w->cap)
		return;
	n = &m->nodes[m->nr_nodes++];
	n->id = id;
	snprintf(path, sizeof(path),
		 "%s/sys/devices/system/node/node%u/meminfo", w->inv->root, id);
	if (meminfo_kb(path, "MemTotal", &kb) == 0)
		n->mem_bytes = kb * 1024;
	sysfs_read(w->inv->root, n->cpus, sizeof(n->cpus),
		   "/sys/devices/system/node/node%u/cpulist", id);
}

int inv_collect_memory(struct inventory *inv)
{
	char path[4200], online[1024];
	struct node_walk w = {.inv = inv};
	uint64_t kb;

	snprintf(path, sizeof(path), "%s/proc/meminfo", inv->root);
	if (meminfo_kb(path, "MemTotal", &kb) == 0)
		inv->mem.total_bytes = kb * 1024;
	if (sysfs_read(inv->root, online, sizeof(online),
		       "/sys/devices/system/node/online") != 0)
		return 0;
	w.cap = inv_cpulist_each(online, NULL, NULL);
	if (!w.cap)
		return 0;
	inv->mem.nodes = calloc(w.cap, sizeof(*inv->mem.nodes));
	if (!inv->mem.nodes)
		return -ENOMEM;
	inv_cpulist_each(online, node_one, &w);
	return 0;
}

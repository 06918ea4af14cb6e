/* pcie.c - the PCIe links behind block devices and network interfaces.
 *
 * For each PCI function a block device or NIC sits behind (the last PCI
 * address in its sysfs path), /sys/bus/pci/devices/ADDR gives vendor,
 * device, driver, numa_node and current_link_{speed,width} against
 * max_link_{speed,width}; a function running slower or narrower than it
 * can is flagged below_capability.
 *
 * Shared uplinks: a function's own link is the one to its parent port.
 * Every port further up (a switch's upstream port, the root port above
 * it) carries a link shared by all the functions below it. When such a
 * link is narrower, in MB/s after encoding, than the sum of the links of
 * two or more devices below it, it is oversubscribed: those devices cannot
 * all run at full speed at once. Functions of one device (a dual-port NIC)
 * share that device's link, so a device counts once. A root port and the
 * switch upstream port below it describe the same link; it is reported
 * once, at the lower port.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/pci_names.h"
#include "inventory/sysfs.h"

uint64_t inventory_pcie_mbps(unsigned speed, unsigned width)
{
	uint64_t bits = (uint64_t)speed * width; /* Mb/s on the wire */

	if (speed <= 5000)
		return bits * 8 / 10 / 8;
	if (speed < 64000)
		return bits * 128 / 130 / 8;
	return bits / 8;
}

/* "16.0 GT/s PCIe", "2.5 GT/s" -> MT/s; "Unknown" -> 0. */
static unsigned parse_speed(const char *s)
{
	char *end;
	double gt = strtod(s, &end);

	if (end == s || gt <= 0 || gt > 1000)
		return 0;
	return (unsigned)(gt * 1000 + 0.5);
}

/* Link speed and width read from the device directory dir ("/sys/...",
 * root not included); prefix "current" or "max". */
static void read_link(const char *root, const char *dir, const char *prefix,
		      unsigned *speed, unsigned *width)
{
	char buf[64];
	uint64_t w;

	if (sysfs_read(root, buf, sizeof(buf), "%s/%s_link_speed", dir,
		       prefix) == 0)
		*speed = parse_speed(buf);
	if (sysfs_read_u64(root, &w, "%s/%s_link_width", dir, prefix) == 0 &&
	    w <= 32)
		*width = (unsigned)w;
}

static struct inv_pci *pci_add(struct inventory *inv, const char *addr,
			       unsigned cap)
{
	for (unsigned i = 0; i < inv->nr_pcis; i++)
		if (!strcmp(inv->pcis[i].addr, addr))
			return &inv->pcis[i];
	if (inv->nr_pcis >= cap)
		return NULL;
	struct inv_pci *p = &inv->pcis[inv->nr_pcis++];
	inv_copy(p->addr, sizeof(p->addr), addr);
	return p;
}

static void pci_read(const char *root, struct inv_pci *p, const char *dir)
{
	p->numa_node = -1;
	sysfs_read(root, p->vendor, sizeof(p->vendor), "%s/vendor", dir);
	sysfs_read(root, p->device, sizeof(p->device), "%s/device", dir);
	sysfs_link_name(root, p->driver, sizeof(p->driver), "%s/driver", dir);
	sysfs_read_int(root, &p->numa_node, "%s/numa_node", dir);
	read_link(root, dir, "current", &p->cur_speed, &p->cur_width);
	read_link(root, dir, "max", &p->max_speed, &p->max_width);
	p->below_capability =
	    (p->cur_speed && p->max_speed && p->cur_speed < p->max_speed) ||
	    (p->cur_width && p->max_width && p->cur_width < p->max_width);
}

static int pci_cmp(const void *a, const void *b)
{
	return strcmp(((const struct inv_pci *)a)->addr,
		      ((const struct inv_pci *)b)->addr);
}

/* A port above some functions: where its path ends, and which functions
 * (indexes into inv->pcis) are below it. */
struct port {
	char addr[INV_PCI_ADDR];
	char dir[4096];
	unsigned depth;
	char below[INV_LIST];
	unsigned nr_devices;
	uint64_t demand;
};

/* The ports above function i other than its own parent port: prefixes of
 * real ending in a PCI address, all but the last two. */
static int ports_of(const char *real, struct port **ports, unsigned *nr,
		    unsigned *cap)
{
	char comps[32][INV_PCI_ADDR];
	size_t ends[32];
	unsigned n = 0;
	const char *p = real;

	while (p && *p && n < 32) {
		const char *next = strchr(p + 1, '/');
		size_t len = next ? (size_t)(next - p - 1) : strlen(p + 1);
		if (len == INV_PCI_ADDR - 4) {
			memcpy(comps[n], p + 1, len);
			comps[n][len] = '\0';
			if (inv_is_pci_addr(comps[n]))
				ends[n++] = (size_t)(p + 1 + len - real);
		}
		p = next;
	}
	for (unsigned k = 0; k + 2 < n; k++) {
		unsigned j;
		for (j = 0; j < *nr; j++)
			if (!strcmp((*ports)[j].addr, comps[k]))
				break;
		if (j < *nr)
			continue;
		if (*nr == *cap) {
			unsigned ncap = *cap ? *cap * 2 : 8;
			struct port *np = realloc(*ports, ncap * sizeof(*np));
			if (!np)
				return -ENOMEM;
			*ports = np;
			*cap = ncap;
		}
		struct port *pt = &(*ports)[(*nr)++];
		memset(pt, 0, sizeof(*pt));
		inv_copy(pt->addr, sizeof(pt->addr), comps[k]);
		size_t dl = ends[k] + 1; /* the path up to and with the port */
		inv_copy(pt->dir, dl < sizeof(pt->dir) ? dl : sizeof(pt->dir),
			 real);
		pt->depth = k;
	}
	return 0;
}

/* Fill port's functions and demand: each device's link counted once (the
 * widest of its functions). */
static void port_demand(const struct inventory *inv, char (*real)[4096],
			struct port *pt)
{
	char needle[INV_PCI_ADDR + 2];
	uint64_t dev_mbps[64];
	char dev_key[64][INV_PCI_ADDR];
	unsigned nd = 0;

	snprintf(needle, sizeof(needle), "/%s/", pt->addr);
	for (unsigned i = 0; i < inv->nr_pcis; i++) {
		const struct inv_pci *p = &inv->pcis[i];
		if (!strstr(real[i], needle))
			continue;
		inv_list_add(pt->below, sizeof(pt->below), p->addr);
		uint64_t mbps = inventory_pcie_mbps(p->cur_speed, p->cur_width);
		char key[INV_PCI_ADDR];
		inv_copy(key, sizeof(key), p->addr);
		key[strcspn(key, ".")] = '\0'; /* drop the function number */
		unsigned d;
		for (d = 0; d < nd; d++)
			if (!strcmp(dev_key[d], key))
				break;
		if (d == nd) {
			if (nd == 64)
				continue;
			inv_copy(dev_key[nd], sizeof(dev_key[nd]), key);
			dev_mbps[nd++] = 0;
		}
		if (mbps > dev_mbps[d])
			dev_mbps[d] = mbps;
	}
	pt->nr_devices = nd;
	for (unsigned d = 0; d < nd; d++)
		pt->demand += dev_mbps[d];
}

static int find_uplinks(struct inventory *inv, char (*real)[4096])
{
	struct port *ports = NULL;
	unsigned nr = 0, cap = 0, *best_depth;
	int ret = 0;

	best_depth = calloc(inv->nr_pcis, sizeof(*best_depth));
	if (!best_depth)
		return -ENOMEM;

	for (unsigned i = 0; i < inv->nr_pcis && !ret; i++)
		ret = ports_of(real[i], &ports, &nr, &cap);
	if (ret)
		goto out;
	inv->uplinks = calloc(nr ? nr : 1, sizeof(*inv->uplinks));
	if (!inv->uplinks) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned j = 0; j < nr; j++)
		port_demand(inv, real, &ports[j]);
	for (unsigned j = 0; j < nr; j++) {
		struct port *pt = &ports[j];
		bool same_below = false;
		for (unsigned k = 0; k < nr; k++)
			same_below |= ports[k].depth > pt->depth &&
				      !strcmp(ports[k].below, pt->below);
		if (same_below || pt->nr_devices < 2)
			continue;
		struct inv_uplink u = {0};
		inv_copy(u.addr, sizeof(u.addr), pt->addr);
		read_link(inv->root, pt->dir, "current", &u.speed, &u.width);
		u.mbps = inventory_pcie_mbps(u.speed, u.width);
		u.demand_mbps = pt->demand;
		inv_copy(u.functions, sizeof(u.functions), pt->below);
		if (!u.mbps || u.demand_mbps <= u.mbps)
			continue;
		inv->uplinks[inv->nr_uplinks++] = u;
		/* Each function keeps the nearest (deepest) such port. */
		char needle[INV_PCI_ADDR + 2];
		snprintf(needle, sizeof(needle), "/%s/", pt->addr);
		for (unsigned i = 0; i < inv->nr_pcis; i++) {
			if (!strstr(real[i], needle) ||
			    (inv->pcis[i].oversubscribed_by[0] &&
			     best_depth[i] >= pt->depth))
				continue;
			best_depth[i] = pt->depth;
			inv_copy(inv->pcis[i].oversubscribed_by, INV_PCI_ADDR,
				 pt->addr);
		}
	}
out:
	free(best_depth);
	free(ports);
	return ret;
}

int inv_collect_pcie(struct inventory *inv)
{
	unsigned cap = inv->nr_blocks + inv->nr_nets;
	char(*real)[4096] = NULL;
	int ret = 0;

	if (!cap)
		return 0;
	inv->pcis = calloc(cap, sizeof(*inv->pcis));
	if (!inv->pcis)
		return -ENOMEM;
	for (unsigned i = 0; i < inv->nr_blocks; i++) {
		struct inv_block *b = &inv->blocks[i];
		struct inv_pci *p =
		    b->pci[0] ? pci_add(inv, b->pci, cap) : NULL;
		if (p)
			inv_list_add(p->users, sizeof(p->users), b->name);
	}
	for (unsigned i = 0; i < inv->nr_nets; i++) {
		struct inv_net *n = &inv->nets[i];
		struct inv_pci *p =
		    n->pci[0] ? pci_add(inv, n->pci, cap) : NULL;
		if (p)
			inv_list_add(p->users, sizeof(p->users), n->name);
	}
	if (!inv->nr_pcis)
		return 0;
	qsort(inv->pcis, inv->nr_pcis, sizeof(*inv->pcis), pci_cmp);
	real = calloc(inv->nr_pcis, sizeof(*real));
	if (!real)
		return -ENOMEM;
	for (unsigned i = 0; i < inv->nr_pcis; i++) {
		struct inv_pci *p = &inv->pcis[i];
		if (sysfs_real(inv->root, real[i], sizeof(real[i]),
			       "/sys/bus/pci/devices/%s", p->addr) == 0)
			pci_read(inv->root, p, real[i]);
		else
			p->numa_node = -1;
		/* A trailing '/' lets "/ADDR/" match the function itself
		 * only for ports above it, never the function. */
		size_t l = strlen(real[i]);
		if (l && l + 1 < sizeof(real[i]))
			real[i][l] = '/', real[i][l + 1] = '\0';
	}
	ret = find_uplinks(inv, real);
	free(real);
	inv_pci_names(inv->pcis, inv->nr_pcis);
	return ret;
}

/* net.c - every network interface of /sys/class/net.
 *
 * Per interface X: operstate, speed (Mb/s; reading it fails with EINVAL
 * when the link is down), mtu, device/driver (absent for virtual
 * interfaces), queues/rx-N and tx-N, and queues/rx-N/rps_cpus (a hex CPU
 * mask; non-zero when Receive Packet Steering spreads that queue). The
 * hardware RSS spread is the number of rx queues.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

/* A CPU mask such as "00000000,0000000f": is any bit set? */
static bool mask_nonzero(const char *m)
{
	for (; *m; m++)
		if (*m != '0' && *m != ',')
			return true;
	return false;
}

static void net_queues(const char *root, struct inv_net *n)
{
	char **q, mask[256];
	unsigned nq;

	if (sysfs_list(root, &q, &nq, "/sys/class/net/%s/queues", n->name))
		return;
	for (unsigned i = 0; i < nq; i++) {
		if (!strncmp(q[i], "tx-", 3)) {
			n->tx_queues++;
		} else if (!strncmp(q[i], "rx-", 3)) {
			n->rx_queues++;
			if (sysfs_read(root, mask, sizeof(mask),
				       "/sys/class/net/%s/queues/%s/rps_cpus",
				       n->name, q[i]) == 0 &&
			    mask_nonzero(mask))
				n->rps_queues++;
		}
	}
	sysfs_list_free(q, nq);
}

void inventory_read_net(const char *root, struct inv_net *n, const char *name)
{
	char real[4096] = "";
	uint64_t v;

	memset(n, 0, sizeof(*n));
	inv_copy(n->name, sizeof(n->name), name);
	n->speed_mbps = -1;
	n->numa_node = -1;
	sysfs_read(root, n->operstate, sizeof(n->operstate),
		   "/sys/class/net/%s/operstate", name);
	/* -1 (or 4294967295 on old kernels) means unknown. */
	if (sysfs_read_int(root, &n->speed_mbps, "/sys/class/net/%s/speed",
			   name) ||
	    n->speed_mbps <= 0)
		n->speed_mbps = -1;
	if (sysfs_read_u64(root, &v, "/sys/class/net/%s/mtu", name) == 0)
		n->mtu = (unsigned)v;
	sysfs_link_name(root, n->driver, sizeof(n->driver),
			"/sys/class/net/%s/device/driver", name);
	net_queues(root, n);
	sysfs_real(root, real, sizeof(real), "/sys/class/net/%s", name);
	inv_pci_of_path(real, n->pci, sizeof(n->pci));
	if (n->pci[0])
		sysfs_read_int(root, &n->numa_node,
			       "/sys/bus/pci/devices/%s/numa_node", n->pci);
}

int inv_collect_nets(struct inventory *inv)
{
	char **names;
	unsigned nr;
	int ret = sysfs_list(inv->root, &names, &nr, "/sys/class/net");

	if (ret)
		return ret == -ENOMEM ? ret : 0;
	inv->nets = calloc(nr ? nr : 1, sizeof(*inv->nets));
	if (!inv->nets) {
		sysfs_list_free(names, nr);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nr; i++) {
		/* bonding_masters is a file in /sys/class/net, not a device */
		if (!sysfs_exists(inv->root, "/sys/class/net/%s/ifindex",
				  names[i]))
			continue;
		struct inv_net *n = &inv->nets[inv->nr_nets++];
		inventory_read_net(inv->root, n, names[i]);
		/* the kernel answers for the live system only, not a sysroot */
		if (!inv->root[0] && (n->profile = malloc(sizeof(*n->profile))))
			nic_profile_read(names[i], n->profile);
	}
	sysfs_list_free(names, nr);
	return 0;
}

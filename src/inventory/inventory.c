/* inventory.c - inventory_collect and the look-ups; see inventory.h. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

int inventory_collect(struct inventory *inv, const char *root)
{
	char real[PATH_MAX];
	int ret;

	memset(inv, 0, sizeof(*inv));
	/* Resolve the root once, so links resolved below it can be
	 * recognised as staying inside it. */
	if (root && root[0] && strcmp(root, "/") != 0) {
		if (realpath(root, real))
			inv_copy(inv->root, sizeof(inv->root), real);
		else
			inv_copy(inv->root, sizeof(inv->root), root);
	}
	inv_collect_os(inv);
	inv_collect_cpu(inv);
	ret = inv_collect_memory(inv);
	if (!ret)
		ret = inv_collect_blocks(inv);
	if (!ret)
		ret = inv_collect_nets(inv);
	if (!ret)
		ret = inv_collect_pcie(inv);
	if (ret)
		inventory_free(inv);
	return ret;
}

void inventory_free(struct inventory *inv)
{
	if (!inv)
		return;
	free(inv->mem.nodes);
	free(inv->blocks);
	for (unsigned i = 0; inv->nets && i < inv->nr_nets; i++)
		free(inv->nets[i].profile);
	free(inv->nets);
	free(inv->pcis);
	free(inv->uplinks);
	memset(inv, 0, sizeof(*inv));
}

const struct inv_block *inventory_block(const struct inventory *inv,
					const char *name)
{
	for (unsigned i = 0; i < inv->nr_blocks; i++)
		if (!strcmp(inv->blocks[i].name, name))
			return &inv->blocks[i];
	return NULL;
}

const struct inv_net *inventory_net(const struct inventory *inv,
				    const char *name)
{
	for (unsigned i = 0; i < inv->nr_nets; i++)
		if (!strcmp(inv->nets[i].name, name))
			return &inv->nets[i];
	return NULL;
}

const struct inv_pci *inventory_pci(const struct inventory *inv,
				    const char *addr)
{
	for (unsigned i = 0; i < inv->nr_pcis; i++)
		if (!strcmp(inv->pcis[i].addr, addr))
			return &inv->pcis[i];
	return NULL;
}

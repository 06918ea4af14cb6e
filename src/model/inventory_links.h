/* inventory_links.h - a configuration's links and host from an iochar
 * inventory (`iochar inventory --output-format=json`): the NVMe drives'
 * PCIe generation and width as negotiated (the narrowest of them), how
 * many there are, and the host's cores. What the configuration already
 * says wins. */
#ifndef IOCHAR_MODEL_INVENTORY_LINKS_H
#define IOCHAR_MODEL_INVENTORY_LINKS_H

#include "model/model.h"
#include "util/err.h"

/* Fill c's unset (0) links.pcie_gen, links.lanes_per_drive, drive_count
 * and host.cores, and an unknown interface, from the inventory JSON at
 * path. Not readable, not JSON, not an inventory: a usage error naming
 * path. */
int mdl_config_inventory(const char *path, struct mdl_config *c, struct ioc_err *err);

#endif

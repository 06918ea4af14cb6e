/* collect.h - the per-concern readers inventory_collect calls, in order.
 * Internal to src/inventory/. Each fills its part of inv from inv->root;
 * those returning int give 0 or -ENOMEM, nothing else fails. */
#ifndef IOCHAR_INVENTORY_COLLECT_H
#define IOCHAR_INVENTORY_COLLECT_H

#include <stddef.h>

struct inventory; /* inventory/inventory.h, included by each reader */

void inv_collect_os(struct inventory *inv);    /* os.c */
void inv_collect_cpu(struct inventory *inv);   /* cpu.c */
int inv_collect_memory(struct inventory *inv); /* memory.c */
int inv_collect_blocks(struct inventory *inv); /* block.c */
int inv_collect_nets(struct inventory *inv);   /* net.c */
/* pcie.c: the PCI functions named by blocks and nets, then the shared
 * uplinks; must run after both. */
int inv_collect_pcie(struct inventory *inv);

/* The PCI function a device sits behind: the last "DDDD:BB:DD.F" component
 * of its resolved sysfs path (real, root already taken off). "" if none. */
void inv_pci_of_path(const char *real, char *addr, size_t len);

#endif

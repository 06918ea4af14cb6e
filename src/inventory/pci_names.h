/* pci_names.h - PCI functions named as lspci names them: vendor and
 * device from pciutils' ID database (libpci, the pci.ids file), so the
 * inventory says "Samsung Electronics Co Ltd NVMe SSD Controller PM9A1"
 * and not only 0x144d:0xa80a. */
#ifndef IOCHAR_INVENTORY_PCI_NAMES_H
#define IOCHAR_INVENTORY_PCI_NAMES_H

#include "inventory/inventory.h"

/* Fill each function's vendor_name and device_name from its vendor and
 * device IDs; "" where the database has no name (or is missing). */
void inv_pci_names(struct inv_pci *pcis, unsigned nr);

#endif

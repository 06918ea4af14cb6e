/* pci_names.c - see pci_names.h. */
#include "inventory/pci_names.h"

#include <pci/pci.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0x144d" as a number; -1 when it is not one. */
static int pci_id(const char *s)
{
	char *end;
	long v = strtol(s, &end, 16);
	return s[0] && !*end && v >= 0 && v <= 0xffff ? (int)v : -1;
}

/* The name pci.ids gives flags' IDs into buf ("" when none); not udev's
 * hwdb, whose copy may be of another date: the same machine, the same name. */
static void lookup(struct pci_access *a, char *buf, size_t len, int flags, int vendor,
		   int device)
{
	char name[256];
	int how = flags | PCI_LOOKUP_NO_NUMBERS | PCI_LOOKUP_NO_HWDB;
	const char *n = pci_lookup_name(a, name, sizeof(name), how, vendor, device);
	snprintf(buf, len, "%s", n ? n : "");
}

void inv_pci_names(struct inv_pci *pcis, unsigned nr)
{
	struct pci_access *a;

	if (!nr || !(a = pci_alloc()))
		return;
	/* names only: no bus is scanned, so no access method is set up;
	 * a missing database gives no names, not an error */
	a->warning = a->error = NULL;
	for (unsigned i = 0; i < nr; i++) {
		int v = pci_id(pcis[i].vendor), d = pci_id(pcis[i].device);
		if (v < 0)
			continue;
		lookup(a, pcis[i].vendor_name, sizeof(pcis[i].vendor_name), PCI_LOOKUP_VENDOR, v, 0);
		if (d >= 0)
			lookup(a, pcis[i].device_name, sizeof(pcis[i].device_name),
			       PCI_LOOKUP_DEVICE, v, d);
	}
	pci_cleanup(a);
}

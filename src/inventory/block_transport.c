/* block_transport.c - what a block device is attached through.
 *
 * Derived from where the disk sits in the sysfs device tree (the resolved
 * /sys/block/X path), the subsystem its device/ belongs to, and the SCSI
 * vendor string: libata reports every ATA disk as vendor "ATA", including
 * a SATA disk behind a SAS HBA, whose path goes through the HBA's SAS
 * port/end_device nodes.
 */
#include <string.h>

#include "inventory/block_transport.h"
#include "inventory/sysfs.h"

static bool has(const char *real, const char *part)
{
	return strstr(real, part) != NULL;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Devices with no hardware below them (/sys/devices/virtual/block). */
static const char *virtual_kind(const char *root, const char *name)
{
	if (sysfs_exists(root, "/sys/block/%s/loop", name) ||
	    starts(name, "loop"))
		return "loop";
	if (sysfs_exists(root, "/sys/block/%s/md", name))
		return "md";
	if (sysfs_exists(root, "/sys/block/%s/dm", name))
		return "dm";
	if (starts(name, "zram"))
		return "zram";
	if (starts(name, "ram"))
		return "ram";
	if (starts(name, "nbd"))
		return "nbd";
	return "virtual";
}

/* A SCSI disk: the protocol the disk itself speaks, and the HBA transport
 * when that differs. */
static void scsi_kind(const char *real, const char *vendor, char *t,
		      size_t tlen, char *via, size_t vlen)
{
	bool sas_path = has(real, "/end_device-") || has(real, "/expander-") ||
			has(real, "/sas_");
	const char *kind = "scsi";

	if (!strcmp(vendor, "ATA"))
		kind = "sata";
	else if (sas_path)
		kind = "sas";
	else if (has(real, "/usb"))
		kind = "usb";
	else if (has(real, "/session"))
		kind = "iscsi";
	else if (has(real, "/rport-"))
		kind = "fc";
	inv_copy(t, tlen, kind);
	if (sas_path && strcmp(kind, "sas"))
		inv_copy(via, vlen, "sas");
	else if (has(real, "/usb") && strcmp(kind, "usb"))
		inv_copy(via, vlen, "usb");
	else if (has(real, "/virtio"))
		inv_copy(via, vlen, "virtio");
}

void inv_block_transport(const char *root, const char *name, const char *real,
			 const char *vendor, char *t, size_t tlen, char *via,
			 size_t vlen)
{
	char subsys[64] = "";

	if (has(real, "/nvme-subsystem/") || has(real, "/nvme/")) {
		inv_copy(t, tlen, "nvme");
		return;
	}
	if (has(real, "/devices/virtual/")) {
		inv_copy(t, tlen, virtual_kind(root, name));
		return;
	}
	sysfs_link_name(root, subsys, sizeof(subsys),
			"/sys/block/%s/device/subsystem", name);
	if (!strcmp(subsys, "scsi")) {
		scsi_kind(real, vendor, t, tlen, via, vlen);
		return;
	}
	if (!strcmp(subsys, "virtio") || has(real, "/virtio"))
		inv_copy(t, tlen, "virtio");
	else if (has(real, "/usb"))
		inv_copy(t, tlen, "usb");
	else if (!strcmp(subsys, "mmc") || has(real, "/mmc"))
		inv_copy(t, tlen, "mmc");
	else if (has(real, "/vbd-"))
		inv_copy(t, tlen, "xen");
	else
		inv_copy(t, tlen, subsys);
}

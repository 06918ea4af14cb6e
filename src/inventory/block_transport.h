/* block_transport.h - the transport of a block device (internal). */
#ifndef IOCHAR_INVENTORY_BLOCK_TRANSPORT_H
#define IOCHAR_INVENTORY_BLOCK_TRANSPORT_H

#include <stddef.h>

/* Name the transport of block device name, whose resolved sysfs path (root
 * taken off) is real and whose SCSI vendor (trimmed, "" if none) is vendor:
 * t gets nvme, sata, sas, scsi, usb, iscsi, fc, virtio, mmc, xen, loop, md,
 * dm, zram, ram, nbd, virtual, or the device's subsystem name; via gets the
 * HBA's transport when it differs ("sas" for SATA behind a SAS HBA), else
 * it is left as is. */
void inv_block_transport(const char *root, const char *name, const char *real,
			 const char *vendor, char *t, size_t tlen, char *via,
			 size_t vlen);

#endif

/* backing.h - the device a target's I/O ends on, so that targets sharing
 * one are known to: a block device's whole disk (partitions of one drive
 * are that drive), a file's file system's device, a loop device's backing
 * file's device (/sys/block/loopN/loop/backing_file), a device-mapper or
 * md device over a single device that device; followed until it stops
 * (libblkid's blkid_devno_to_wholedisk, sysfs). A RAID or LVM volume over
 * several devices is itself; a file system without a block device
 * (tmpfs, overlay, NFS) is named by its type and device number.
 */
#ifndef IOCHAR_INVENTORY_BACKING_H
#define IOCHAR_INVENTORY_BACKING_H

#include <stddef.h>

#define INV_BACKING_MAX 64

/* The backing device of path (a file, a block device, or a file still to
 * be made: its directory's) into out: a kernel name ("vda", "nvme0n1",
 * "md0"), "tmpfs 0:45" without a block device, or "?" when path and its
 * directory cannot be looked at. Reads only; never fails. */
void inventory_backing_device(const char *path, char *out, size_t len);

#endif

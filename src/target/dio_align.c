/* dio_align.c - how O_DIRECT I/O must be aligned on a file or device.
 * Kept apart because <linux/stat.h> (for statx's DIO fields, newer than
 * glibc's struct statx) cannot be mixed with <sys/stat.h>. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target/target.h"

unsigned target_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx = {0};
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
#endif
	int lbs = 0;
	if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		return (unsigned)lbs;
	return 512;
}

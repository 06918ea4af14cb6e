/* sysfs.h - small readers of /sys, /proc and /etc below a root prefix.
 *
 * Every inventory read goes through these, so that a fixture tree can
 * stand in for "/". root is "" for the running system or a directory
 * without a trailing slash; path formats start with "/" ("/sys/block/%s").
 * Readers return 0 or -errno and leave their output untouched on failure.
 */
#ifndef IOCHAR_INVENTORY_SYSFS_H
#define IOCHAR_INVENTORY_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYSFS_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* First line of the file, white space trimmed, cut to len. An empty file
 * reads as "" (0). */
int sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
    SYSFS_PRINTF(4, 5);

/* The file as a decimal (or 0x hex) number. */
int sysfs_read_u64(const char *root, uint64_t *out, const char *fmt, ...)
    SYSFS_PRINTF(3, 4);
int sysfs_read_int(const char *root, int *out, const char *fmt, ...)
    SYSFS_PRINTF(3, 4);

/* Last component of the symlink's target ("virtio_blk" for a driver link). */
int sysfs_link_name(const char *root, char *buf, size_t len, const char *fmt,
		    ...) SYSFS_PRINTF(4, 5);

/* The resolved path, with the root taken off again ("/sys/devices/..."). */
int sysfs_real(const char *root, char *buf, size_t len, const char *fmt, ...)
    SYSFS_PRINTF(4, 5);

bool sysfs_exists(const char *root, const char *fmt, ...) SYSFS_PRINTF(2, 3);

/* The directory's entries, "." and ".." left out, sorted by name (a
 * numeric tail sorts as a number: sda2 < sda10). *names is owned by the
 * caller: sysfs_list_free. An absent directory gives 0 entries (returns
 * -errno); only -ENOMEM is worth reporting. */
int sysfs_list(const char *root, char ***names, unsigned *nr, const char *fmt,
	       ...) SYSFS_PRINTF(4, 5);
void sysfs_list_free(char **names, unsigned nr);

/* Copy src into dst of size bytes, cut if needed. */
void inv_copy(char *dst, size_t size, const char *src);

/* The active scheduler of a queue/scheduler line: "[mq-deadline] kyber
 * none" -> "mq-deadline"; a lone "none" as is; out untouched otherwise. */
void inv_parse_scheduler(const char *line, char *out, size_t len);

/* Append name to a space-separated list held in size bytes (dropped, not
 * cut, when it does not fit). */
void inv_list_add(char *list, size_t size, const char *name);

#define INV_MAX_CPUS 8192 /* the kernel's largest NR_CPUS */

/* Call fn for each CPU or node number of a kernel list ("0-3,8,10-11").
 * Returns how many there were; malformed tails, numbers of INV_MAX_CPUS or
 * more, and entries past the INV_MAX_CPUS-th are ignored. */
unsigned inv_cpulist_each(const char *list, void (*fn)(unsigned, void *),
			  void *arg);

/* Is s a PCI function address "DDDD:BB:DD.F"? */
bool inv_is_pci_addr(const char *s);

#endif

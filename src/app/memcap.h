/* memcap.h - a memory limit, page cache included, on the database
 * server's processes: a memory cgroup of their own (cgroup v2's
 * memory.max, or v1's memory.limit_in_bytes where the memory controller
 * is mounted as v1). A buffer pool smaller than the data set keeps the
 * data off the server's own memory, but a server that reads through the
 * page cache (PostgreSQL) would still read it from the host's memory; the
 * cap makes the kernel evict the server's cached pages, so its reads
 * reach the device as the reviews' setups intend.
 *
 * Ownership: the caller owns struct app_memcap; make it before the server
 * starts, enter it in the server's child between fork and exec, remove it
 * once every process in it has ended.
 */
#ifndef IOCHAR_APP_MEMCAP_H
#define IOCHAR_APP_MEMCAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

struct app_memcap {
	bool on;
	bool v2;
	uint64_t bytes;
	char dir[200];   /* the cgroup's directory */
	char procs[220]; /* its cgroup.procs, for app_memcap_enter */
};

/* Make a cgroup limited to bytes (0: no limit yet), named for this
 * process. 0, or -errno with the reason (no memory controller, not
 * writable): the cap is then off and the caller says so. */
int app_memcap_make(struct app_memcap *c, uint64_t bytes, struct ioc_err *err);

/* Limit c to bytes now; the kernel evicts c's page cache down to it
 * (anonymous and shared memory it cannot evict stay). 0, or -errno with
 * the reason. */
int app_memcap_limit(struct app_memcap *c, uint64_t bytes, struct ioc_err *err);

/* What c's processes hold that no limit can evict: their anonymous and
 * shared memory (a buffer pool, PostgreSQL's shared_buffers); 0 when off
 * or unreadable. */
uint64_t app_memcap_own(const struct app_memcap *c);

/* Move the calling process into c (async-signal-safe: for a child
 * between fork and exec; its own children follow it). 0, or -errno; a
 * cap that is off is 0. */
int app_memcap_enter(const struct app_memcap *c);

/* How many bytes c's processes use now (page cache included); 0 when
 * off or unreadable. */
uint64_t app_memcap_usage(const struct app_memcap *c);

/* Remove c (its processes must have ended; retried briefly while the
 * kernel lets go of them). Safe to call more than once. */
void app_memcap_remove(struct app_memcap *c);

#endif

/* memcap.c - see memcap.h. */
#define _GNU_SOURCE
#include "app/memcap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Does file (a cgroup.controllers) list the memory controller? */
static bool lists_memory(const char *file)
{
	char buf[512];
	FILE *f = fopen(file, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *save, *w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
		if (!strcmp(w, "memory"))
			return true;
	return false;
}

static int write_str(const char *dir, const char *name, const char *val)
{
	char p[260];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, val, strlen(val));
	int e = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -e : 0;
}

/* Where the memory controller is: a cgroup v2 hierarchy that offers it
 * (the root, or the hybrid layout's unified one), else v1's. */
static int find_base(char *base, size_t len, bool *v2)
{
	static const char *const v2_roots[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"};
	for (size_t i = 0; i < sizeof(v2_roots) / sizeof(v2_roots[0]); i++) {
		char f[128];
		snprintf(f, sizeof(f), "%s/cgroup.controllers", v2_roots[i]);
		if (lists_memory(f)) {
			snprintf(base, len, "%s", v2_roots[i]);
			*v2 = true;
			/* children get the controller only where their parent
			 * hands it down; already so under systemd */
			(void)write_str(base, "cgroup.subtree_control", "+memory");
			return 0;
		}
	}
	if (access("/sys/fs/cgroup/memory/memory.limit_in_bytes", W_OK) == 0) {
		snprintf(base, len, "/sys/fs/cgroup/memory");
		*v2 = false;
		return 0;
	}
	return -ENOENT;
}

int app_memcap_make(struct app_memcap *c, uint64_t bytes, struct ioc_err *err)
{
	char base[64];
	int ret;

	*c = (struct app_memcap){0};
	if ((ret = find_base(base, sizeof(base), &c->v2)))
		return err_set(err, -ret, "no memory cgroup controller to limit the server's "
				   "page cache (neither cgroup v2's nor v1's is mounted)");
	snprintf(c->dir, sizeof(c->dir), "%s/iochar-app-%ld", base, (long)getpid());
	snprintf(c->procs, sizeof(c->procs), "%s/cgroup.procs", c->dir);
	if (mkdir(c->dir, 0755) && errno != EEXIST)
		return err_set(err, errno, "%s: %s", c->dir, strerror(errno));
	c->on = true;
	if (!bytes)
		return 0;
	if ((ret = app_memcap_limit(c, bytes, err))) {
		app_memcap_remove(c);
		return ret;
	}
	return 0;
}

int app_memcap_limit(struct app_memcap *c, uint64_t bytes, struct ioc_err *err)
{
	char val[32];

	if (!c->on)
		return err_set(err, ENOENT, "no memory cgroup to limit");
	snprintf(val, sizeof(val), "%" PRIu64, bytes);
	/* v1 refuses a memsw limit below the memory limit and the other way
	 * round: lowered, memory first; raised, memsw first */
	if (!c->v2 && bytes > c->bytes)
		(void)write_str(c->dir, "memory.memsw.limit_in_bytes", val);
	/* v1 refuses (EBUSY) a limit it could not reclaim down to yet:
	 * pages under writeback come free a moment later */
	int ret;
	for (int i = 0; i < 20; i++) {
		ret = write_str(c->dir, c->v2 ? "memory.max" : "memory.limit_in_bytes", val);
		if (ret != -EBUSY)
			break;
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
	if (ret)
		return err_set(err, -ret, "%s: cannot set its memory limit to %" PRIu64
			       " bytes: %s", c->dir, bytes, strerror(-ret));
	/* the cap is on memory, not a push into swap: v2 forbids swap;
	 * v1's memsw exists only with swap accounting (failure is harmless) */
	if (c->v2)
		(void)write_str(c->dir, "memory.swap.max", "0");
	else
		(void)write_str(c->dir, "memory.memsw.limit_in_bytes", val);
	c->bytes = bytes;
	return 0;
}

/* The value of key in c's memory.stat; 0 when absent. */
static uint64_t stat_value(const struct app_memcap *c, const char *key)
{
	char p[260], k[64];
	unsigned long long v, found = 0;

	snprintf(p, sizeof(p), "%s/memory.stat", c->dir);
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", k, &v) == 2)
		if (!strcmp(k, key)) {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

uint64_t app_memcap_own(const struct app_memcap *c)
{
	if (!c->on)
		return 0;
	/* v2: anon + shmem; v1: rss (anonymous) + shmem */
	return stat_value(c, c->v2 ? "anon" : "rss") + stat_value(c, "shmem");
}

int app_memcap_enter(const struct app_memcap *c)
{
	if (!c->on)
		return 0;
	int fd = open(c->procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* "0": the writing process, in either version */
	ssize_t n = write(fd, "0", 1);
	int e = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -e : 0;
}

uint64_t app_memcap_usage(const struct app_memcap *c)
{
	char p[260];
	unsigned long long v = 0;

	if (!c->on)
		return 0;
	snprintf(p, sizeof(p), "%s/%s", c->dir, c->v2 ? "memory.current" : "memory.usage_in_bytes");
	FILE *f = fopen(p, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

void app_memcap_remove(struct app_memcap *c)
{
	if (!c->on)
		return;
	/* the kernel lets go of exited processes a moment after they end */
	for (int i = 0; i < 100 && rmdir(c->dir) && errno == EBUSY; i++) {
		struct timespec ts = {0, 20000000};
		nanosleep(&ts, NULL);
	}
	c->on = false;
}

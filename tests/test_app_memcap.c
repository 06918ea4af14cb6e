/* test_app_memcap.c - the server's memory cap holds its page cache: a
 * process inside a 32 MiB cap reads a 96 MiB file through the page cache
 * and the cgroup's usage stays under the cap (the kernel evicted what it
 * read), while the same read outside the cap leaves the whole file
 * cached; the process is a member of the cgroup, and removing the cap
 * leaves nothing behind. Needs root and a memory cgroup controller (v2 or
 * v1): SKIP with the reason otherwise. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "app/memcap.h"

#define CAP (32ull << 20)
#define FILE_BYTES (96ull << 20)

/* Read path through the page cache, whole. */
static void read_all(const char *path)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		_exit(3);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* Pages of path resident in the page cache. */
static uint64_t cached_bytes(const char *path)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	void *p = mmap(NULL, FILE_BYTES, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(p != MAP_FAILED);
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = FILE_BYTES / (size_t)page;
	unsigned char *vec = malloc(pages);
	assert_non_null(vec);
	assert_int_equal(mincore(p, FILE_BYTES, vec), 0);
	uint64_t n = 0;
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	free(vec);
	munmap(p, FILE_BYTES);
	close(fd);
	return n * (uint64_t)page;
}

/* Drop path's cached pages (fadvise: no other file's cache is touched). */
static void uncache(const char *path)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static void test_cap_evicts_the_servers_cache(void **state)
{
	(void)state;
	if (!is_root()) {
		printf("SKIP: needs root (a cgroup of its own)\n");
		skip();
	}
	struct app_memcap c;
	struct ioc_err err = {0};
	if (app_memcap_make(&c, CAP, &err)) {
		printf("SKIP: %s\n", err.msg);
		skip();
	}
	char path[] = "/var/tmp/iochar-memcap-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	make_file(path, FILE_BYTES);

	/* outside the cap: the read leaves the file in the cache */
	uncache(path);
	pid_t p = fork();
	if (p == 0) {
		read_all(path);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(p, &st, 0), p);
	uint64_t free_cached = cached_bytes(path);

	/* inside: evicted down to the cap */
	uncache(path);
	p = fork();
	if (p == 0) {
		if (app_memcap_enter(&c))
			_exit(2);
		char self[64], line[512];
		snprintf(self, sizeof(self), "/proc/%d/cgroup", (int)getpid());
		FILE *f = fopen(self, "r");
		bool member = false;
		while (f && fgets(line, sizeof(line), f))
			member |= strstr(line, strrchr(c.dir, '/')) != NULL;
		if (f)
			fclose(f);
		if (!member)
			_exit(4);
		read_all(path);
		_exit(0);
	}
	assert_int_equal(waitpid(p, &st, 0), p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	uint64_t usage = app_memcap_usage(&c), capped_cached = cached_bytes(path);
	printf("96 MiB read: %.1f MiB cached without the cap, %.1f MiB with a 32 MiB cap "
	       "(the cgroup's usage %.1f MiB)\n", free_cached / 1048576.0,
	       capped_cached / 1048576.0, usage / 1048576.0);
	assert_true(free_cached > FILE_BYTES / 2);
	assert_true(capped_cached <= CAP);
	assert_true(usage <= CAP);

	uncache(path);
	char dir[sizeof(c.dir)];
	memcpy(dir, c.dir, sizeof(dir));
	app_memcap_remove(&c);
	assert_false(c.on);
	assert_false(file_exists(dir));
	app_memcap_remove(&c); /* twice: nothing */
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_evicts_the_servers_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

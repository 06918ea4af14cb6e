/* out_guard.c - see out_guard.h. */
#define _GNU_SOURCE
#include "cmd/out_guard.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*guard_erase)(void *);
static void *guard_arg;

void out_guard_lock(void)
{
	pthread_mutex_lock(&guard_lock);
}

void out_guard_unlock(void)
{
	pthread_mutex_unlock(&guard_lock);
}

void out_guard_set(void (*erase)(void *arg), void *arg)
{
	out_guard_lock();
	guard_erase = erase;
	guard_arg = arg;
	out_guard_unlock();
}

void out_guard_erase(void)
{
	out_guard_lock();
	if (guard_erase)
		guard_erase(guard_arg);
	out_guard_unlock();
}

static size_t fd_write(int fd, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}

void out_guard_raw(const char *buf, size_t len)
{
	fd_write(STDERR_FILENO, buf, len);
}

static ssize_t fd2_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	out_guard_erase();
	size_t n = fd_write(STDERR_FILENO, buf, len);
	return n ? (ssize_t)n : -1;
}

void out_guard_begin(void)
{
	static int begun;
	cookie_io_functions_t io = {.write = fd2_write};

	if (begun++)
		return;
	FILE *f = fopencookie(NULL, "w", io);
	if (!f)
		return; /* out of memory: glibc's stderr, unguarded */
	/* unbuffered, as stderr: glibc's printf then writes each call whole */
	setvbuf(f, NULL, _IONBF, 0);
	stderr = f;
}

/* journal_lock.c - see journal_lock.h.
 *
 * flock rather than fcntl locks: a POSIX record lock is dropped when the
 * process closes any descriptor of the file (journal_probe, the writer),
 * and an OFD lock reports no PID (F_OFD_GETLK gives -1); a flock lock
 * belongs to its open file description, and /proc/locks names the
 * process that took it. Locks are kept by inode, so the writer's own
 * open of the journal (a new description) never meets this process's
 * lock: only another process's.
 */
#define _GNU_SOURCE
#include "verify/journal_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define HELD_MAX 64 /* journals one process locks: a run's jobs, a plan's */

struct held {
	int fd;
	dev_t dev;
	ino_t ino;
	bool created; /* made empty here: removed at exit if still empty */
	char *path;
};

static struct held held[HELD_MAX];
static unsigned nr_held;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

/* A journal this process made only to lock is not left behind empty. */
static void remove_empty(void)
{
	struct stat a, b;

	for (unsigned i = 0; i < nr_held; i++)
		if (held[i].created && fstat(held[i].fd, &a) == 0 &&
		    a.st_size == 0 && stat(held[i].path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			unlink(held[i].path);
}

/* The PID holding a flock lock on the inode, from /proc/locks; 0 when
 * it cannot be told (no /proc, another PID namespace). *reading: the
 * lock is a verify's shared one, not a run's. */
static long holder_pid(const struct stat *st, bool *reading)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256], kind[8];
	long pid = 0;

	*reading = false;
	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		long p;
		unsigned maj, min;
		unsigned long ino;
		if (sscanf(line, "%*d: FLOCK %*s %7s %ld %x:%x:%lu", kind, &p, &maj,
			   &min, &ino) == 5 &&
		    maj == major(st->st_dev) && min == minor(st->st_dev) &&
		    ino == st->st_ino && p > 0) {
			pid = p;
			*reading = !strcmp(kind, "READ");
		}
	}
	fclose(f);
	return pid;
}

/* "process N" (or "another process") into by; true when it is reading. */
static bool holder(const struct stat *st, char *by, size_t len)
{
	bool reading;
	long pid = holder_pid(st, &reading);

	snprintf(by, len, "another process");
	if (pid)
		snprintf(by, len, "process %ld", pid);
	return reading;
}

static int refuse(const char *what, const char *path, const struct stat *st,
		  struct ioc_err *err)
{
	char by[48];
	bool reading = holder(st, by, sizeof(by));

	return err_usage(err, EWOULDBLOCK,
			 "%s=%s: in use by %s (%s); one run per journal: wait "
			 "for it to end or give this run another file",
			 what, path, by,
			 reading ? "an iochar verify reading it"
				 : "another iochar run's journal");
}

static bool already_held(const struct stat *st)
{
	for (unsigned i = 0; i < nr_held; i++)
		if (held[i].dev == st->st_dev && held[i].ino == st->st_ino)
			return true;
	return false;
}

/* Keep fd (locked) in the table. */
static int keep(int fd, const struct stat *st, bool created, const char *what,
		const char *path, struct ioc_err *err)
{
	static bool at_exit;
	char *copy = nr_held < HELD_MAX ? strdup(path) : NULL;

	if (!copy) {
		close(fd);
		return err_set(err, ENOMEM,
			       "%s=%s: more journals than one process locks "
			       "(%d), or out of memory",
			       what, path, HELD_MAX);
	}
	held[nr_held++] =
	    (struct held){fd, st->st_dev, st->st_ino, created, copy};
	if (created && !at_exit)
		at_exit = atexit(remove_empty) == 0;
	return 0;
}

/* Open (creating when missing) and lock path. */
static int take(const char *what, const char *path, struct ioc_err *err)
{
	bool created = false;
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		created = fd >= 0;
	}
	if (fd < 0)
		return err_usage(err, errno, "%s=%s: %s", what, path,
				 strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return err_set(err, e, "%s=%s: %s", what, path, strerror(e));
	}
	if (already_held(&st)) { /* this process's: its lock stays */
		close(fd);
		return 0;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			return refuse(what, path, &st, err);
		return err_set(err, e, "%s=%s: lock: %s", what, path,
			       strerror(e));
	}
	return keep(fd, &st, created, what, path, err);
}

int journal_lock(const char *what, const char *path, struct ioc_err *err)
{
	pthread_mutex_lock(&held_lock);
	int ret = take(what, path, err);
	pthread_mutex_unlock(&held_lock);
	return ret;
}

int journal_lock_shared(const char *what, const char *path, struct ioc_err *err)
{
	static int kept = -1; /* held until exit, as a run's is */
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 0; /* the reader says what is wrong with it */
	}
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		if (kept >= 0)
			close(kept);
		kept = fd;
		return 0;
	}
	int e = errno;
	close(fd);
	if (e != EWOULDBLOCK)
		return 0; /* no lock to be had here (a file system without
			   * flock): read it as before */
	char by[48];
	holder(&st, by, sizeof(by));
	return err_usage(err, EWOULDBLOCK,
			 "%s=%s: in use by %s, a run still writing it: its blocks "
			 "in flight would read as lost; verify once that run has ended",
			 what, path, by);
}

/* db.c - see db.h: what the servers share. */
#define _GNU_SOURCE
#include "app/db.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* A port free on 127.0.0.1 now (the kernel's pick); 0 on failure. */
static unsigned free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unsigned port = 0;

	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

int app_db_dirs(struct app_db *db, const char *parent, struct ioc_err *err)
{
	snprintf(db->sockdir, sizeof(db->sockdir), "/tmp/iochar-app-sock-XXXXXX");
	if (!mkdtemp(db->sockdir)) {
		db->sockdir[0] = '\0';
		return err_set(err, errno, "app: socket directory: %s", strerror(errno));
	}
	snprintf(db->datadir, sizeof(db->datadir), "%s/iochar-app-%s-XXXXXX", parent,
		 db->ops->name);
	if (!mkdtemp(db->datadir)) {
		int e = errno;
		db->datadir[0] = '\0';
		return err_set(err, e, "app: %s: cannot make the data directory: %s",
			       parent, strerror(e));
	}
	if (db->as.uid != (uid_t)-1 &&
	    (chown(db->datadir, db->as.uid, db->as.gid) ||
	     chown(db->sockdir, db->as.uid, db->as.gid)))
		return err_set(err, errno, "app: %s: chown: %s", db->datadir, strerror(errno));
	db->port = free_port();
	if (!db->port)
		return err_set(err, EADDRNOTAVAIL, "app: no free port on 127.0.0.1");
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void app_rm_tree(const char *path)
{
	if (path[0])
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

void app_db_teardown(struct app_db *db)
{
	if (db->pid > 0)
		app_kill(db->pid, SIGTERM, 60000);
	db->pid = 0;
	app_memcap_remove(&db->cap);
	app_rm_tree(db->datadir);
	app_rm_tree(db->sockdir);
	db->datadir[0] = db->sockdir[0] = '\0';
}

void app_db_conf(struct app_db *db, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (db->nconf >= APP_DB_CONF_MAX)
		return;
	snprintf(db->conf[db->nconf].key, sizeof(db->conf[0].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(db->conf[db->nconf].val, sizeof(db->conf[0].val), fmt, ap);
	va_end(ap);
	db->nconf++;
}

int app_db_launch(struct app_db *db, char *const argv[],
		  int (*ready)(const struct app_db *db), atomic_bool *stop,
		  struct ioc_err *err)
{
	char tail[600];
	pid_t pid = app_spawn_in(argv, db->log, db->as, &db->cap);

	if (pid < 0)
		return err_set(err, (int)pid, "app: %s: %s", argv[0], strerror((int)-pid));
	db->pid = pid;
	for (unsigned t = 0; t < 1200; t++) {
		if (atomic_load(stop))
			return err_set(err, EINTR, "app: stopped while %s started", db->ops->name);
		int rc = app_wait(pid, 0);
		if (rc != APP_RUNNING) {
			db->pid = 0;
			app_log_tail(db->log, tail, sizeof(tail));
			return err_set(err, EIO, "app: %s ended at start (status %d): %s",
				       db->ops->name, rc, tail);
		}
		if (!ready(db))
			return 0;
		app_sleep_ms(100);
	}
	app_log_tail(db->log, tail, sizeof(tail));
	return err_set(err, ETIMEDOUT, "app: %s not ready after 120 s: %s", db->ops->name, tail);
}

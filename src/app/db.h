/* db.h - the database servers `iochar app` runs on the device under test,
 * as an ops table (one file per server, like fio's engines): each made
 * privately, with its data directory on the target, its own socket
 * directory and loopback port, its buffer pool of a stated size, started,
 * asked, and stopped; db.c holds what they share. */
#ifndef IOCHAR_APP_DB_H
#define IOCHAR_APP_DB_H

#include <stdatomic.h>
#include <stdint.h>

#include "app/memcap.h"
#include "app/proc.h"
#include "util/err.h"

#define APP_DB_CONF_MAX 16

struct app_db;

struct app_db_ops {
	const char *name; /* "mariadb", "postgresql" */
	/* The tools are there: their paths and the version into db; 0 or
	 * -ENOENT naming the Debian package. */
	int (*probe)(struct app_db *db, struct ioc_err *err);
	/* Make the data directory (db->datadir, empty) and start the server,
	 * ready for clients, with the benchmark's database made; 0 or -errno
	 * with the reason (the log's tail). */
	int (*start)(struct app_db *db, atomic_bool *stop, struct ioc_err *err);
	/* Answer sql with one value into out; 0 or -errno. */
	int (*query)(const struct app_db *db, const char *sql, char *out, size_t size);
	const char *dataset_sql; /* the benchmark database's bytes */
};

struct app_db {
	const struct app_db_ops *ops;
	char datadir[1024]; /* on the target, made by app_db_dirs */
	char sockdir[128];  /* private, under /tmp */
	char log[1024];     /* the server's and its tools' output */
	char bindir[256];   /* the server's programs */
	char version[64];
	unsigned port;      /* free on 127.0.0.1 */
	unsigned max_conn;  /* the most clients a point opens */
	uint64_t buffer_pool;
	struct app_user as; /* who the server runs as */
	pid_t pid;          /* the server, 0 when not running */
	struct app_memcap cap; /* the server's memory, page cache included */
	struct { char key[48], val[96]; } conf[APP_DB_CONF_MAX];
	unsigned nconf;
};

extern const struct app_db_ops app_db_mariadb, app_db_postgresql;

/* Make db->datadir (under parent, owned by db->as) and db->sockdir, pick
 * a free port. 0 or -errno with the reason. */
int app_db_dirs(struct app_db *db, const char *parent, struct ioc_err *err);

/* Stop the server (SIGTERM: a clean shutdown; SIGKILL after 60 s), then
 * remove its data and socket directories. Safe to call more than once. */
void app_db_teardown(struct app_db *db);

/* Note key=value in the configuration the results carry. */
void app_db_conf(struct app_db *db, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Start the server with argv (its log db->log) and wait until ready()
 * answers 0 (at most 120 s; the server's death or *stop ends it). */
int app_db_launch(struct app_db *db, char *const argv[],
		  int (*ready)(const struct app_db *db), atomic_bool *stop,
		  struct ioc_err *err);

/* Remove path and everything under it (not crossing mounts). */
void app_rm_tree(const char *path);

#endif

/* postgres.c - PostgreSQL as `iochar app` runs it: initdb makes the data
 * directory (trust authentication: only our own socket and loopback port
 * reach it), postgres serves it with its socket in a private directory,
 * listening on 127.0.0.1 only, shared_buffers sized by the caller, as a
 * user other than root (it refuses root): db->as. The server binaries
 * are Debian's /usr/lib/postgresql/VERSION/bin, the newest. */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

#include "app/db.h"

static struct {
	char initdb[300], postgres[300], isready[300], psql[300];
} tools;

/* The newest /usr/lib/postgresql/N/bin with a postgres in it. */
static bool find_bindir(char *out, size_t size)
{
	glob_t g;
	bool ok = false;

	if (glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g))
		return false;
	for (size_t i = 0; i < g.gl_pathc; i++) { /* numeric order: 9 < 15 */
		char *p = g.gl_pathv[i];
		if (!ok || strlen(p) > strlen(out) + 9 ||
		    (strlen(p) == strlen(out) + 9 && strcmp(p, out) > 0)) {
			snprintf(out, size, "%.*s", (int)(strlen(p) - 9), p);
			ok = true;
		}
	}
	globfree(&g);
	return ok;
}

static int pg_probe(struct app_db *db, struct ioc_err *err)
{
	char out[256];

	if (!find_bindir(db->bindir, sizeof(db->bindir)))
		return err_set(err, ENOENT, "app: PostgreSQL is needed (Debian: apt-get "
			       "install postgresql postgresql-contrib)");
	snprintf(tools.initdb, sizeof(tools.initdb), "%s/initdb", db->bindir);
	snprintf(tools.postgres, sizeof(tools.postgres), "%s/postgres", db->bindir);
	snprintf(tools.isready, sizeof(tools.isready), "%s/pg_isready", db->bindir);
	snprintf(tools.psql, sizeof(tools.psql), "%s/psql", db->bindir);
	char *argv[] = {tools.postgres, "--version", NULL};
	app_output(argv, APP_AS_SELF, out, sizeof(out));
	const char *v = strstr(out, ") "); /* "pgbench (PostgreSQL) 15.18 (Debian ...)" */
	snprintf(db->version, sizeof(db->version), "%.63s", v ? v + 2 : out);
	db->version[strcspn(db->version, " \n")] = '\0';
	return 0;
}

static int pg_query(const struct app_db *db, const char *sql, char *out, size_t size)
{
	char port[16];
	snprintf(port, sizeof(port), "%u", db->port);
	char *argv[] = {tools.psql, "-X", "-h", (char *)db->sockdir, "-p", port, "-U",
			"postgres", "-At", "-c", (char *)sql, "postgres", NULL};
	int rc = app_output(argv, APP_AS_SELF, out, size);
	out[strcspn(out, "\n")] = '\0';
	return rc ? -EIO : 0;
}

static int pg_ready(const struct app_db *db)
{
	char port[16], out[256];
	snprintf(port, sizeof(port), "%u", db->port);
	char *argv[] = {tools.isready, "-q", "-h", (char *)db->sockdir, "-p", port, NULL};
	return app_output(argv, APP_AS_SELF, out, sizeof(out));
}

static int pg_initdb(struct app_db *db, atomic_bool *stop, struct ioc_err *err)
{
	char tail[600];
	char *argv[] = {tools.initdb, "-D", db->datadir, "-U", "postgres", "--auth=trust",
			"-E", "UTF8", "--locale=C", "--no-sync", NULL};
	int rc = app_run(argv, db->log, db->as, 300000, stop);
	if (rc) {
		app_log_tail(db->log, tail, sizeof(tail));
		return err_set(err, EIO, "app: initdb failed (status %d): %s", rc, tail);
	}
	return 0;
}

static int pg_start(struct app_db *db, atomic_bool *stop, struct ioc_err *err)
{
	char c[8][200];
	int ret = pg_initdb(db, stop, err);

	if (ret)
		return ret;
	snprintf(c[0], 200, "port=%u", db->port);
	snprintf(c[1], 200, "listen_addresses=127.0.0.1");
	snprintf(c[2], 200, "unix_socket_directories=%s", db->sockdir);
	snprintf(c[3], 200, "shared_buffers=%llukB", (unsigned long long)(db->buffer_pool >> 10));
	snprintf(c[4], 200, "max_connections=%u", db->max_conn + 16);
	snprintf(c[5], 200, "fsync=on");
	snprintf(c[6], 200, "synchronous_commit=on");
	snprintf(c[7], 200, "max_wal_size=1GB");
	char *argv[] = {tools.postgres, "-D", db->datadir, "-c", c[0], "-c", c[1], "-c", c[2],
			"-c", c[3], "-c", c[4], "-c", c[5], "-c", c[6], "-c", c[7], NULL};
	for (unsigned i = 0; i < 8; i++) {
		const char *eq = strchr(c[i], '=');
		char key[48];
		if (i == 2) /* the socket directory: a temporary name */
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - c[i]), c[i]);
		app_db_conf(db, key, "%s", eq + 1);
	}
	return app_db_launch(db, argv, pg_ready, stop, err);
}

const struct app_db_ops app_db_postgresql = {
	.name = "postgresql",
	.probe = pg_probe,
	.start = pg_start,
	.query = pg_query,
	.dataset_sql = "SELECT pg_database_size('postgres')",
};

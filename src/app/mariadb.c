/* mariadb.c - MariaDB as `iochar app` runs it: mariadb-install-db makes
 * the data directory, mariadbd serves it with no option file of the
 * machine's (--no-defaults), on a private socket and a loopback port, as
 * root (mariadbd allows --user=root), the InnoDB buffer pool sized by the
 * caller. Durable commits (innodb_flush_log_at_trx_commit=1, the default)
 * so the benchmark's commits reach the device. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/db.h"

#define SOCK_NAME "mariadb.sock"

struct maria_tools {
	char server[256], install[256], client[256], admin[256];
};

/* Found by probe, used by the rest (one server per run). */
static struct maria_tools tools;

static int maria_probe(struct app_db *db, struct ioc_err *err)
{
	char out[512], *v;

	if (!app_find_tool("mariadbd", NULL, tools.server, sizeof(tools.server)) ||
	    !app_find_tool("mariadb-install-db", NULL, tools.install, sizeof(tools.install)) ||
	    !app_find_tool("mariadb", NULL, tools.client, sizeof(tools.client)) ||
	    !app_find_tool("mariadb-admin", NULL, tools.admin, sizeof(tools.admin)))
		return err_set(err, ENOENT, "app: MariaDB is needed (Debian: apt-get "
			       "install mariadb-server mariadb-client)");
	char *argv[] = {tools.server, "--version", NULL};
	app_output(argv, APP_AS_SELF, out, sizeof(out));
	v = strstr(out, "Ver ");
	snprintf(db->version, sizeof(db->version), "%s", v ? v + 4 : "?");
	db->version[strcspn(db->version, " -\n")] = '\0';
	snprintf(db->bindir, sizeof(db->bindir), "%s", tools.server);
	return 0;
}

static void sock_path(const struct app_db *db, char *out, size_t size)
{
	snprintf(out, size, "%s/" SOCK_NAME, db->sockdir);
}

static int maria_query(const struct app_db *db, const char *sql, char *out, size_t size)
{
	char sock[256], sarg[300];
	sock_path(db, sock, sizeof(sock));
	snprintf(sarg, sizeof(sarg), "--socket=%s", sock);
	char *argv[] = {tools.client, "--no-defaults", sarg, "-uroot", "-N", "-B",
			"-e", (char *)sql, NULL};
	int rc = app_output(argv, APP_AS_SELF, out, size);
	out[strcspn(out, "\n")] = '\0';
	return rc ? -EIO : 0;
}

static int maria_ready(const struct app_db *db)
{
	char sock[256], sarg[300], out[256];
	sock_path(db, sock, sizeof(sock));
	snprintf(sarg, sizeof(sarg), "--socket=%s", sock);
	char *argv[] = {tools.admin, "--no-defaults", sarg, "-uroot", "ping", NULL};
	return app_output(argv, APP_AS_SELF, out, sizeof(out));
}

static int maria_install(struct app_db *db, atomic_bool *stop, struct ioc_err *err)
{
	char darg[1100], tail[600];
	snprintf(darg, sizeof(darg), "--datadir=%s", db->datadir);
	char *argv[] = {tools.install, "--no-defaults", darg, "--user=root",
			"--auth-root-authentication-method=normal", "--skip-test-db",
			"--skip-name-resolve", NULL};
	int rc = app_run(argv, db->log, APP_AS_SELF, 300000, stop);
	if (rc) {
		app_log_tail(db->log, tail, sizeof(tail));
		return err_set(err, EIO, "app: mariadb-install-db failed (status %d): %s", rc, tail);
	}
	return 0;
}

/* The server's options, noted in db's configuration as well. */
static void maria_args(struct app_db *db, char a[][1100], unsigned *n)
{
	char sock[256];
	sock_path(db, sock, sizeof(sock));
	snprintf(a[(*n)++], 1100, "--datadir=%s", db->datadir);
	snprintf(a[(*n)++], 1100, "--socket=%s", sock);
	snprintf(a[(*n)++], 1100, "--pid-file=%s/mariadb.pid", db->sockdir);
	snprintf(a[(*n)++], 1100, "--port=%u", db->port);
	snprintf(a[(*n)++], 1100, "--bind-address=127.0.0.1");
	snprintf(a[(*n)++], 1100, "--user=root");
	snprintf(a[(*n)++], 1100, "--skip-log-bin");
	snprintf(a[(*n)++], 1100, "--innodb-buffer-pool-size=%llu",
		 (unsigned long long)db->buffer_pool);
	snprintf(a[(*n)++], 1100, "--innodb-log-file-size=%u", 64u << 20);
	snprintf(a[(*n)++], 1100, "--innodb-flush-log-at-trx-commit=1");
	snprintf(a[(*n)++], 1100, "--max-connections=%u", db->max_conn + 16);
	app_db_conf(db, "innodb_buffer_pool_size", "%llu", (unsigned long long)db->buffer_pool);
	app_db_conf(db, "innodb_log_file_size", "%u", 64u << 20);
	app_db_conf(db, "innodb_flush_log_at_trx_commit", "1");
	app_db_conf(db, "max_connections", "%u", db->max_conn + 16);
	app_db_conf(db, "log_bin", "OFF");
	app_db_conf(db, "port", "%u", db->port);
}

static int maria_start(struct app_db *db, atomic_bool *stop, struct ioc_err *err)
{
	char a[12][1100], *argv[16] = {tools.server, "--no-defaults"};
	unsigned n = 0, k = 2;
	int ret = maria_install(db, stop, err);

	if (ret)
		return ret;
	maria_args(db, a, &n);
	for (unsigned i = 0; i < n; i++)
		argv[k++] = a[i];
	argv[k] = NULL;
	ret = app_db_launch(db, argv, maria_ready, stop, err);
	if (ret)
		return ret;
	char out[256];
	if (maria_query(db, "CREATE DATABASE sbtest", out, sizeof(out)))
		return err_set(err, EIO, "app: mariadb: CREATE DATABASE sbtest: %s", out);
	char flush[64];
	if (!maria_query(db, "SELECT @@innodb_flush_method", flush, sizeof(flush)))
		app_db_conf(db, "innodb_flush_method", "%s", flush);
	return 0;
}

const struct app_db_ops app_db_mariadb = {
	.name = "mariadb",
	.probe = maria_probe,
	.start = maria_start,
	.query = maria_query,
	.dataset_sql = "SELECT SUM(data_length + index_length) FROM "
		       "information_schema.tables WHERE table_schema = 'sbtest'",
};

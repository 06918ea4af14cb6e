/* run.c - the run's sequence (app.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "app/devstat.h"

/* page cache the server may keep beside its own memory, at least */
#define APP_CACHE_ROOM (16ull << 20)

/* The smallest buffer pool the servers take (InnoDB's floor is a few
 * MiB; a smaller pool than this is not worth stating a ratio for). */
#define MIN_POOL (8ull << 20)
/* What the servers write beside the data: InnoDB's redo log and system
 * tablespace, PostgreSQL's WAL segments and catalogs. */
#define SERVER_FILES (256ull << 20)

uint64_t app_room_needed(struct app_run *r)
{
	r->dataset_est = r->bench->ops->estimate(&r->cfg);
	uint64_t pool = (uint64_t)((double)r->dataset_est / r->memory_ratio);
	r->db.buffer_pool = pool < MIN_POOL ? MIN_POOL : (pool + 0xfffff) & ~0xfffffull;
	return r->dataset_est * 2 + SERVER_FILES;
}

/* Can user as search dir (and so reach a directory made in it)? Asked
 * of a child that becomes as: access() answers for the real user. */
static bool user_can_enter(const char *dir, struct app_user as)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return true; /* cannot ask: the server's start will say */
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(as.gid) || setuid(as.uid))
			_exit(2);
		_exit(access(dir, X_OK) ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return true;
	return !WIFEXITED(st) || WEXITSTATUS(st) != 1;
}

/* PostgreSQL refuses to run as root: it runs as the user "iochar-db"
 * (made by scripts/deps.sh) or else "nobody". */
static int db_user(struct app_run *r, struct ioc_err *err)
{
	struct passwd *pw;

	r->db.as = APP_AS_SELF;
	if (r->bench->ops->db != &app_db_postgresql || geteuid() != 0)
		return 0;
	if (!(pw = getpwnam("iochar-db")) && !(pw = getpwnam("nobody")))
		return err_set(err, ENOENT, "app: PostgreSQL refuses root and there is no "
			       "user iochar-db or nobody to run it as");
	r->db.as = (struct app_user){pw->pw_uid, pw->pw_gid};
	if (r->place.dir_arg && !user_can_enter(r->place.dir_arg, r->db.as))
		return err_usage(err, EACCES, "--directory=%s: PostgreSQL runs as %s, who cannot "
				 "get into it (it and its parents need o+x)", r->place.dir_arg,
				 pw->pw_name);
	return 0;
}

int app_check(struct app_run *r, struct ioc_err *err)
{
	int ret = app_place_check(&r->place, app_room_needed(r), err);
	char name[64], stat[128];

	if (ret)
		return ret;
	if (r->latency_device && r->place.dir_arg &&
	    app_dev_find(r->place.dir_arg, name, sizeof(name), stat, sizeof(stat)))
		return err_usage(err, ENODEV, "latency metric device: %s's file system (%s) has "
				 "no block device to judge", r->place.dir_arg, r->place.fs);
	r->db.ops = r->bench->ops->db;
	r->cfg.db = &r->db;
	if ((ret = r->db.ops->probe(&r->db, err)) || (ret = r->bench->ops->probe(&r->cfg, err)))
		return ret;
	return db_user(r, err);
}

static void progress(const struct app_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void progress(const struct app_run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->progress)
		return;
	fprintf(stderr, "app: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* OUT/server.pid: which process the server was, for whoever checks that
 * it is gone after the run. */
static void note_pid(const struct app_run *r)
{
	char path[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/server.pid", r->outdir);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "%d\n", (int)r->db.pid);
		fclose(f);
	}
}

/* The server's memory cgroup, made before it starts (no limit yet): a
 * server that reads through the page cache (PostgreSQL) would otherwise
 * serve the data set from the host's memory, whatever its buffer pool.
 * Not on a file system that is memory (tmpfs): its files are the
 * server's unevictable memory there, and a cap would only kill it. */
static void cap_make(struct app_run *r)
{
	struct ioc_err err = {0};

	/* the type app_place found in mountinfo */
	if (!strcmp(r->place.fs, "tmpfs") || !strcmp(r->place.fs, "ramfs")) {
		snprintf(r->cap_note, sizeof(r->cap_note),
			 "none: the data directory is on %s, which is memory", r->place.fs);
		return;
	}
	if (app_memcap_make(&r->db.cap, 0, &err))
		snprintf(r->cap_note, sizeof(r->cap_note), "none: %.190s", err.msg);
}

/* Once loaded: the server may keep what it holds (its buffer pool, its
 * processes' memory) and as much page cache again as its buffer pool (at
 * least APP_CACHE_ROOM), which the kernel evicts down to as it reads: a
 * data set 8 times the pool then has a quarter of itself in memory, and
 * most reads reach the device. 4 MiB more per client covers what each
 * connection takes during the sweep. */
static void cap_set(struct app_run *r)
{
	struct ioc_err err = {0};

	if (!r->db.cap.on)
		return;
	/* the load's pages written out first: dirty ones cannot be evicted,
	 * and the limit would be refused (v1) or kill the server (v2) */
	int fd = open(r->place.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)syncfs(fd);
		close(fd);
	}
	uint64_t room = r->db.buffer_pool > APP_CACHE_ROOM ? r->db.buffer_pool : APP_CACHE_ROOM;
	uint64_t cap = app_memcap_own(&r->db.cap) + room + (uint64_t)r->db.max_conn * (4u << 20);
	if (app_memcap_limit(&r->db.cap, cap, &err)) {
		snprintf(r->cap_note, sizeof(r->cap_note), "none: %.190s", err.msg);
		return;
	}
	r->server_cap = cap;
	snprintf(r->cap_note, sizeof(r->cap_note),
		 "what the server held after the load, %.0f MiB of page cache (as much as "
		 "its buffer pool, at least %u MiB) and 4 MiB per client",
		 (double)room / 1048576.0, (unsigned)(APP_CACHE_ROOM >> 20));
}

/* The server up with the data set loaded and measured. */
static int set_up(struct app_run *r, atomic_bool *stop, struct ioc_err *err)
{
	char log[1200], out[64];
	int ret;

	snprintf(log, sizeof(log), "%s/mkfs.out", r->outdir);
	if ((ret = app_place_make(&r->place, log, stop, err)))
		return ret;
	snprintf(r->db.log, sizeof(r->db.log), "%s/%s.log", r->outdir, r->db.ops->name);
	r->db.max_conn = 0;
	for (unsigned i = 0; i < r->nthreads; i++)
		if (r->threads[i] > r->db.max_conn)
			r->db.max_conn = r->threads[i];
	if ((ret = app_db_dirs(&r->db, r->place.dir, err)))
		return ret;
	cap_make(r);
	if ((ret = r->db.ops->start(&r->db, stop, err)))
		return ret;
	note_pid(r);
	r->cfg.db = &r->db;
	r->cfg.outdir = r->outdir;
	r->cfg.progress = r->progress && isatty(2) ? "loading the data set" : NULL;
	progress(r, "%s: loading the data set (about %.0f MiB)...", r->bench->name,
		 (double)r->dataset_est / 1048576.0);
	double t0 = app_now_s();
	if ((ret = r->bench->ops->prepare(&r->cfg, stop, err)))
		return ret;
	r->load_s = app_now_s() - t0;
	if (!r->db.ops->query(&r->db, r->db.ops->dataset_sql, out, sizeof(out)))
		r->dataset_bytes = strtoull(out, NULL, 10);
	progress(r, "%s: data set loaded in %.1f s", r->bench->name, r->load_s);
	cap_set(r);
	return 0;
}

static void stamp(char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Is the server still there? A server that died ends the sweep: the
 * points after it would only fail; its log says why. */
static int server_alive(struct app_run *r, struct ioc_err *err)
{
	char tail[600];
	int rc = app_wait(r->db.pid, 0);

	if (rc == APP_RUNNING)
		return 0;
	r->db.pid = 0;
	app_log_tail(r->db.log, tail, sizeof(tail));
	return err_set(err, EIO, "app: %s ended during the run (status %d): %s",
		       r->db.ops->name, rc, tail);
}

static int sweep(struct app_run *r, atomic_bool *stop, struct ioc_err *err)
{
	for (unsigned i = 0; i < r->nthreads; i++) {
		struct app_point *p = &r->points[i];
		p->threads = r->threads[i];
		if (r->progress)
			fprintf(stderr, "app: %s: %u thread(s) for %u s...\n", r->bench->name,
				p->threads, r->secs);
		r->npoints = i + 1;
		int ret = app_point_run(r, p, stop);
		if (ret == -EINTR)
			return err_set(err, EINTR, "app: stopped by a signal");
		if (ret && r->progress)
			fprintf(stderr, "app: %u thread(s): %s\n", p->threads, p->error);
		if ((ret = server_alive(r, err)))
			return ret;
	}
	return 0;
}

int app_execute(struct app_run *r, atomic_bool *stop, struct ioc_err *err)
{
	int ret;

	stamp(r->started, sizeof(r->started));
	r->points = calloc(r->nthreads, sizeof(*r->points));
	if (!r->points)
		return err_set(err, ENOMEM, "app: out of memory");
	ret = set_up(r, stop, err);
	if (!ret)
		ret = sweep(r, stop, err);
	if (ret && atomic_load(stop))
		ret = err_set(err, EINTR, "app: stopped by a signal");
	app_db_teardown(&r->db);
	app_place_undo(&r->place);
	r->complete = !ret;
	if (ret)
		snprintf(r->failure, sizeof(r->failure), "%.599s", err->msg);
	return ret;
}

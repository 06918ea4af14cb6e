/* test_app_run.c - `iochar app`: real database benchmarks on a target
 * iochar sets up and tears down. sysbench against MariaDB on a loop
 * device iochar formats and mounts (--force), and on a tmpfs directory;
 * pgbench against PostgreSQL on a tmpfs directory; tiny data sets, 2 s
 * points, thread counts 1 and 2. Checked: TPS > 0, p99 >= average, the
 * device's write IOPS > 0 for the write workload, the captured trace
 * replayed by `iochar run --read_iolog` and by fio 3.33 (the same I/Os as
 * the trace's summary counts), nothing left behind (server process by its
 * recorded pid, data directory, mount), also after a SIGTERM mid-run and
 * after a benchmark that fails (exit 1 with its reason).
 * SKIP without root or the Debian packages (scripts/deps.sh installs
 * them). Refused inputs: test_app_args.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

struct fixture {
	char *dir;     /* /dev/shm scratch: the target directory, backing files */
	char out[4200];
	char target[4200];
	char dev[64];  /* a loop device, "" none */
};

static bool have(const char *path)
{
	return access(path, X_OK) == 0;
}

static bool have_postgres(void)
{
	return system("ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1") == 0;
}

/* SKIP unless root and the packages of bench are there. */
static bool ready(bool pg)
{
	if (!is_root()) {
		print_message("SKIP: iochar app needs root (servers, mkfs, mount)\n");
		return false;
	}
	if (!pg && !(have("/usr/sbin/mariadbd") && have("/usr/bin/sysbench"))) {
		print_message("SKIP: mariadb-server and sysbench are not installed "
			      "(scripts/deps.sh)\n");
		return false;
	}
	if (pg && !(have_postgres() && have("/usr/bin/pgbench"))) {
		print_message("SKIP: postgresql and postgresql-contrib are not installed "
			      "(scripts/deps.sh)\n");
		return false;
	}
	return true;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->dir = shmdir_make();
	snprintf(f->out, sizeof(f->out), "%s/out", f->dir);
	snprintf(f->target, sizeof(f->target), "%s/target", f->dir);
	assert_int_equal(mkdir(f->target, 0755), 0);
	chmod(f->dir, 0755); /* PostgreSQL runs as another user: it must get through */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->dev[0])
		loop_detach(f->dev);
	tmpdir_remove(f->dir);
	free(f);
	return 0;
}

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* Nothing of iochar app's is mounted any more. */
static void expect_unmounted(void)
{
	char *m = file_slurp("/proc/self/mountinfo", NULL);

	assert_non_null(m);
	assert_null(strstr(m, "/tmp/iochar-app-mnt-"));
	free(m);
}

/* The server whose pid the run recorded is gone. */
static void expect_server_gone(const struct fixture *f)
{
	char path[4300];
	int pid = 0;

	snprintf(path, sizeof(path), "%s/server.pid", f->out);
	FILE *p = fopen(path, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%d", &pid), 1);
	fclose(p);
	assert_true(pid > 0);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static json_object *results(const struct fixture *f)
{
	char path[4300];

	snprintf(path, sizeof(path), "%s/results.json", f->out);
	json_object *o = json_object_from_file(path);
	assert_non_null(o);
	assert_int_equal(jget_u64(o, "iochar_app"), 1);
	return o;
}

/* Each point measured: TPS > 0, p99 >= average, a per-second series. */
static void expect_points(json_object *o, unsigned n)
{
	json_object *pts = jget(o, "points");

	assert_int_equal(json_object_array_length(pts), n);
	for (unsigned i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		json_object *e;
		if (json_object_object_get_ex(p, "error", &e))
			fail_msg("point %u failed: %s", i, json_object_get_string(e));
		assert_true(jget_double(p, "tps") > 0);
		assert_true(jget_double(p, "lat_p99_ms") >= jget_double(p, "lat_avg_ms"));
		assert_true(json_object_array_length(jget(p, "per_second")) >= 1);
	}
	assert_true(json_object_get_boolean(jget(o, "complete")));
}

static int truncate_new(const char *path, uint64_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	int ret = fd < 0 ? -1 : ftruncate(fd, (off_t)size);

	if (fd >= 0)
		close(fd);
	return ret;
}

/* Replay trace with iochar and fio onto new files: both issue as many
 * I/Os as the trace summary counts. */
static void expect_replayable(const struct fixture *f, json_object *point)
{
	char trace[4300], a[4300], b[4300], cmd[9000];
	uint64_t ios = jget_u64(point, "trace_summary.ios");
	struct proc_out po;

	snprintf(trace, sizeof(trace), "%s/%s", f->out,
		 json_object_get_string(jget(point, "trace")));
	snprintf(a, sizeof(a), "--replay_redirect=%s/replay-iochar", f->dir);
	assert_true(ios > 0);
	char rd[4400];
	snprintf(rd, sizeof(rd), "--read_iolog=%s", trace);
	run_iochar(&po, NULL, 0, ARGS("run", "--name=replay", rd, a, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *r = parse_json(&po);
	json_object *job = json_object_array_get_idx(jget(r, "jobs"), 0);
	assert_int_equal(jget_u64(job, "read.total_ios") + jget_u64(job, "write.total_ios"), ios);
	json_object_put(r);
	proc_out_free(&po);
	if (!have("/usr/bin/fio")) {
		print_message("fio is not installed: the trace replayed by iochar only\n");
		return;
	}
	/* fio reads past a new file's end as an error (a short read): the
	 * device's size, sparse, as the device was */
	snprintf(b, sizeof(b), "%s/replay-fio", f->dir);
	assert_int_equal(truncate_new(b, 512ull << 20), 0);
	snprintf(b, sizeof(b), "%s/fio.json", f->dir);
	snprintf(cmd, sizeof(cmd), "fio --name=replay --read_iolog=%s --replay_redirect=%s/replay-fio "
		 "--output-format=json --output=%s >/dev/null 2>&1", trace, f->dir, b);
	assert_int_equal(system(cmd), 0);
	json_object *fo = json_object_from_file(b);
	assert_non_null(fo);
	job = json_object_array_get_idx(jget(fo, "jobs"), 0);
	assert_int_equal(jget_u64(job, "read.total_ios") + jget_u64(job, "write.total_ios"), ios);
	json_object_put(fo);
}

static void test_sysbench_on_device(void **state)
{
	struct fixture *f = *state;
	char backing[4300], dev[80], out[4300];
	struct proc_out po;

	if (!ready(false))
		skip();
	snprintf(backing, sizeof(backing), "%s/disk.img", f->dir);
	if (!loop_attach(backing, 512ull << 20, 512, f->dev, sizeof(f->dev)))
		skip();
	snprintf(dev, sizeof(dev), "--filename=%s", f->dev);
	snprintf(out, sizeof(out), "--out=%s", f->out);
	run_iochar(&po, NULL, 0, ARGS("app", "sysbench-write", dev, "--force", "--threads=1,2",
				      "--time=2s", "--tables=1", "--table-size=2000", out,
				      "--latency-target=1000ms", "--latency-metric=device"));
	expect_exit(&po, 0);
	expect_has(po.out, "threads");
	proc_out_free(&po);
	json_object *o = results(f);
	expect_points(o, 2);
	assert_string_equal(json_object_get_string(jget(o, "target.fs")), "ext4");
	assert_true(json_object_get_boolean(jget(o, "target.made_fs")));
	/* SLOB's criterion: the device's read latency, well inside 1 s on RAM */
	assert_string_equal(json_object_get_string(jget(o, "latency_target.metric")), "device");
	assert_int_equal(jget_u64(o, "latency_target.best_threads"), 2);
	json_object *p = json_object_array_get_idx(jget(o, "points"), 1);
	assert_true(jget_double(p, "device.write_iops") > 0);
	assert_true(json_object_array_length(jget(p, "device.per_second")) >= 1);
	expect_replayable(f, p);
	expect_server_gone(f);
	expect_unmounted();
	json_object_put(o);
}

/* results.csv: a header and one row per point, its TPS the JSON's. */
static void expect_csv_rows(const struct fixture *f, json_object *o)
{
	char path[4300], tps[64];
	size_t n = json_object_array_length(jget(o, "points"));

	snprintf(path, sizeof(path), "%s/results.csv", f->out);
	char *csv = file_slurp(path, NULL);
	assert_non_null(csv);
	assert_int_equal(count_lines(csv), n + 1);
	assert_memory_equal(csv, "bench,workload,threads,seconds,tps,", 35);
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(jget(o, "points"), i);
		snprintf(tps, sizeof(tps), ",%.3f,", jget_double(p, "tps"));
		expect_has(csv, tps);
	}
	free(csv);
}

static void test_sysbench_on_tmpfs(void **state)
{
	struct fixture *f = *state;
	char dir[4300], out[4300];
	struct proc_out po;

	if (!ready(false))
		skip();
	snprintf(dir, sizeof(dir), "--directory=%s", f->target);
	snprintf(out, sizeof(out), "--out=%s", f->out);
	run_iochar(&po, NULL, 0, ARGS("app", "sysbench-oltp", dir, "--threads=1,2", "--time=2s",
				      "--tables=1", "--table-size=1000", out,
				      "--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po); /* stdout is the same JSON */
	expect_points(o, 2);
	assert_string_equal(json_object_get_string(jget(o, "database.name")), "mariadb");
	json_object *p = json_object_array_get_idx(jget(o, "points"), 0);
	/* tmpfs has no block device: no device figures, no trace, and why */
	assert_true(json_object_is_type(jget(p, "device"), json_type_null));
	expect_has(json_object_get_string(jget(p, "trace_skipped")), "no block device");
	/* tmpfs files are the server's memory: no cap, said so */
	assert_true(json_object_is_type(jget(o, "dataset.server_memory_cap_bytes"), json_type_null));
	expect_has(json_object_get_string(jget(o, "dataset.server_memory_cap")),
		   "on tmpfs, which is memory");
	assert_true(dir_empty(f->target));
	expect_server_gone(f);
	expect_csv_rows(f, o);
	json_object_put(o);
	proc_out_free(&po);
}

static void test_pgbench_on_tmpfs(void **state)
{
	struct fixture *f = *state;
	char dir[4300], out[4300];
	struct proc_out po;

	if (!ready(true))
		skip();
	snprintf(dir, sizeof(dir), "--directory=%s", f->target);
	snprintf(out, sizeof(out), "--out=%s", f->out);
	run_iochar(&po, NULL, 0, ARGS("app", "pgbench", dir, "--threads=1,2", "--time=2s",
				      "--scale=1", out, "--latency-target=1000ms"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	json_object *o = results(f);
	expect_points(o, 2);
	assert_string_equal(json_object_get_string(jget(o, "database.name")), "postgresql");
	assert_string_equal(json_object_get_string(jget(o, "workload")), "tpcb-like");
	/* TPC-B (sort of): 7 statements a transaction */
	json_object *p = json_object_array_get_idx(jget(o, "points"), 0);
	double ratio = jget_double(p, "qps") / jget_double(p, "tps");
	assert_true(ratio > 6.99 && ratio < 7.01);
	assert_int_equal(jget_u64(o, "latency_target.best_threads"), 2);
	assert_true(dir_empty(f->target));
	expect_server_gone(f);
	json_object_put(o);
}

/* PostgreSQL reads through the page cache: with the data set just loaded
 * all of it is cached, and its reads would never reach the device
 * whatever shared_buffers is. The server's memory cap (page cache
 * included) makes them reach it: a select-only run over a data set ~8x
 * the pool on a loop device reads from the device. */
static void test_pgbench_reads_reach_the_device(void **state)
{
	struct fixture *f = *state;
	char backing[4300], dev[80], out[4300];
	struct proc_out po;

	if (!ready(true))
		skip();
	snprintf(backing, sizeof(backing), "%s/disk.img", f->dir);
	if (!loop_attach(backing, 768ull << 20, 512, f->dev, sizeof(f->dev)))
		skip();
	snprintf(dev, sizeof(dev), "--filename=%s", f->dev);
	snprintf(out, sizeof(out), "--out=%s", f->out);
	run_iochar(&po, NULL, 0, ARGS("app", "pgbench", dev, "--force", "--workload=select-only",
				      "--threads=2", "--time=2s", "--scale=8", out));
	expect_exit(&po, 0);
	proc_out_free(&po);
	json_object *o = results(f);
	json_object *cap = jget(o, "dataset.server_memory_cap_bytes");
	if (json_object_is_type(cap, json_type_null)) {
		const char *why = json_object_get_string(jget(o, "dataset.server_memory_cap"));
		/* only a machine without the controller may skip: a cap that
		 * could not be set is a failure */
		if (!strstr(why, "no memory cgroup controller"))
			fail_msg("no memory cap: %s", why);
		print_message("SKIP: no memory cap here: %s\n", why);
		json_object_put(o);
		skip();
	}
	json_object *p = json_object_array_get_idx(jget(o, "points"), 0);
	print_message("pgbench -S, scale 8 (%.0f MiB), server capped at %.0f MiB: %.0f device "
		      "reads/s\n", jget_double(o, "dataset.bytes") / 1048576.0,
		      (double)json_object_get_int64(cap) / 1048576.0,
		      jget_double(p, "device.read_iops"));
	assert_true((uint64_t)json_object_get_int64(cap) < jget_u64(o, "dataset.bytes"));
	assert_true(jget_double(p, "device.read_iops") > 0);
	expect_server_gone(f);
	expect_unmounted();
	json_object_put(o);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Start iochar app with a long point on f's loop device (with --force)
 * or else its target directory; SIGTERM it once the server runs. */
static int run_and_kill(const struct fixture *f, const char *bench)
{
	char where[4300], out[4300], pidf[4300];
	struct stat st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		if (f->dev[0])
			snprintf(where, sizeof(where), "--filename=%s", f->dev);
		else
			snprintf(where, sizeof(where), "--directory=%s", f->target);
		snprintf(out, sizeof(out), "--out=%s", f->out);
		freopen("/dev/null", "w", stdout);
		execl(iochar_path(), "iochar", "app", bench, where, "--force", "--threads=1",
		      "--time=30s", "--tables=1", "--table-size=1000", "--scale=1", out,
		      (char *)NULL);
		_exit(127);
	}
	snprintf(pidf, sizeof(pidf), "%s/server.pid", f->out);
	for (int t = 0; t < 600 && stat(pidf, &st); t++) /* at most 60 s */
		sleep_ms(100);
	sleep_ms(1500); /* the benchmark under way */
	kill(pid, SIGTERM);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_killed_mid_run(void **state)
{
	struct fixture *f = *state;

	if (!ready(false))
		skip();
	assert_int_equal(run_and_kill(f, "sysbench-oltp"), 130);
	expect_server_gone(f);
	assert_true(dir_empty(f->target));
	json_object *o = results(f);
	assert_false(json_object_get_boolean(jget(o, "complete")));
	json_object_put(o);
}

/* The same on a device: the file system iochar mounted is gone too. */
static void test_killed_mid_run_on_device(void **state)
{
	struct fixture *f = *state;
	char backing[4300];

	if (!ready(false))
		skip();
	snprintf(backing, sizeof(backing), "%s/disk.img", f->dir);
	if (!loop_attach(backing, 512ull << 20, 512, f->dev, sizeof(f->dev)))
		skip();
	assert_int_equal(run_and_kill(f, "sysbench-write"), 130);
	expect_server_gone(f);
	expect_unmounted();
	json_object *o = results(f);
	assert_false(json_object_get_boolean(jget(o, "complete")));
	json_object_put(o);
}

/* A benchmark that fails (a sysbench earlier in PATH that fails its
 * load): exit 1 with its reason, and nothing left behind. */
static void test_failure_cleans_up(void **state)
{
	struct fixture *f = *state;
	char bin[4300], tool[4400], path[8192], dir[4300], out[4300];
	const char *old = getenv("PATH");
	struct proc_out po;

	if (!ready(false))
		skip();
	snprintf(bin, sizeof(bin), "%s/bin", f->dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	snprintf(tool, sizeof(tool), "%s/sysbench", bin);
	FILE *t = fopen(tool, "w");
	assert_non_null(t);
	fputs("#!/bin/sh\ncase \"$*\" in *--version*) echo 'sysbench 1.0.20'; exit 0;; esac\n"
	      "echo 'FATAL: failure injected by the test' >&2\nexit 1\n", t);
	fclose(t);
	chmod(tool, 0755);
	char *saved = strdup(old ? old : "/usr/bin:/bin");
	snprintf(path, sizeof(path), "%s:%s", bin, saved);
	setenv("PATH", path, 1);
	snprintf(dir, sizeof(dir), "--directory=%s", f->target);
	snprintf(out, sizeof(out), "--out=%s", f->out);
	run_iochar(&po, NULL, 0, ARGS("app", "sysbench-oltp", dir, "--threads=1", "--time=2s",
				      "--tables=1", "--table-size=1000", out));
	setenv("PATH", saved, 1);
	free(saved);
	expect_exit(&po, 1);
	expect_has(po.err, "failure injected by the test");
	proc_out_free(&po);
	expect_server_gone(f);
	assert_true(dir_empty(f->target));
	json_object *o = results(f);
	assert_false(json_object_get_boolean(jget(o, "complete")));
	expect_has(json_object_get_string(jget(o, "failure")), "sysbench prepare failed");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sysbench_on_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysbench_on_tmpfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pgbench_on_tmpfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pgbench_reads_reach_the_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_mid_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_mid_run_on_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_cleans_up, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

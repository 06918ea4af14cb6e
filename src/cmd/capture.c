/* capture.c - `iochar capture DEVICE... --time=T -o FILE`: records the
 * block devices' I/O for T with blktrace, then merges the per-CPU files
 * into one binary dump as fio's read_iolog (and iochar's) reads it
 * (`blkparse -D DIR -i DEV... -d FILE -O`), removes the per-CPU files and
 * prints what was captured per direction (the dump read back by
 * base/blktrace.c). Capturing only reads the kernel's trace buffers: no
 * I/O to the devices. Every input is checked before blktrace starts
 * (exit 2); a missing blktrace, an unmounted debugfs or a refusing kernel
 * is exit 1 with the reason. SIGINT/SIGTERM end the capture early; what
 * was traced so far is still merged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/blktrace.h"
#include "cli/args.h"
#include "cmd/capture_ftrace.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"

#define CAP_MAX_DEVS 16
#define DEBUGFS_MAGIC_NR 0x64626720
#define DEBUGFS_DIR "/sys/kernel/debug"

struct capture_args {
	const char *devs[CAP_MAX_DEVS];
	unsigned nr_devs;
	uint64_t time_ns;
	const char *output;
	bool force;
};

static int add_dev(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err)
{
	struct capture_args *a = obj;

	(void)o;
	if (a->nr_devs >= CAP_MAX_DEVS)
		return err_usage(err, E2BIG, "%s: at most %d devices", v, CAP_MAX_DEVS);
	a->devs[a->nr_devs++] = v;
	return 0;
}

#define CROW(F, nm, ty) ARG_ROW(struct capture_args, F, nm, ty)

static const struct arg_def rows[] = {
	{.o.name = "device", .o.type = OPT_CUSTOM, .o.parse = add_dev,
	 .flags = ARG_POS | ARG_MANY, .o.arg = "DEVICE",
	 .o.help = "a block device to trace (several: one dump of all)"},
	{CROW(time_ns, "time", OPT_TIME), .letter = 'w', .o.arg = "T",
	 .o.min = 1000000, .o.max = 86400ull * 1000000000ull,
	 .o.help = "how long to trace (no suffix: seconds; e.g. 1500ms; 1ms to 24h)"},
	{ARG_STR(struct capture_args, output, "output"), .letter = 'o',
	 .label = "-o", .missing = "%s: needs a file name", .o.arg = "FILE",
	 .o.help = "the binary trace to write (fio's read_iolog=FILE replays it)"},
	{CROW(force, "force", OPT_BOOL),
	 .o.help = "write FILE over an existing file that is no block trace"},
};

static const struct args_spec spec = {
	.usage = "usage: iochar capture DEVICE... --time=T -o FILE [--force]\n",
	.about = "Records the block devices' I/O for T with blktrace (needs root, the\n"
		 "blktrace package and debugfs at " DEBUGFS_DIR "), merges it into\n"
		 "one binary trace as `blkparse -d` writes it, and prints the I/Os per\n"
		 "direction. Replay it with `iochar run --read_iolog=FILE` or fio's\n"
		 "read_iolog (replay_redirect= sends it to another device or file).\n"
		 "Only reads the kernel's trace: nothing is written to the devices.\n"
		 "FILE must be new or a block trace (else --force).\n",
	ARGS_TABLE(rows),
	.unknown = "capture: unknown option '%s'; accepted: --time, -o, --force",
	.extra = "capture: unexpected argument '%s'",
};

static const char *base_name(const char *dev)
{
	const char *b = strrchr(dev, '/');
	return b ? b + 1 : dev;
}

/* Every device a block device, names unique (blktrace names its files by
 * the base name), time and output given, output new or a trace. */
static int check_args(const struct capture_args *a, struct ioc_err *err)
{
	struct stat st;

	if (!a->nr_devs)
		return err_usage(err, EINVAL, "capture: needs a block device");
	for (unsigned i = 0; i < a->nr_devs; i++) {
		const char *d = a->devs[i];
		if (stat(d, &st))
			return err_usage(err, errno, "capture: %s: %s", d, strerror(errno));
		if (!S_ISBLK(st.st_mode))
			return err_usage(err, ENOTBLK, "capture: %s: not a block device", d);
		for (unsigned k = 0; k < i; k++) {
			if (!strcmp(base_name(a->devs[k]), base_name(d)))
				return err_usage(err, EINVAL, "capture: %s: given twice "
						 "(or two devices of one name)", d);
		}
	}
	if (!a->time_ns)
		return err_usage(err, EINVAL, "capture: needs --time=T (how long to trace)");
	if (!a->output || !a->output[0])
		return err_usage(err, EINVAL, "capture: needs -o FILE (the trace to write)");
	if (stat(a->output, &st) == 0 && !a->force) {
		FILE *f = S_ISREG(st.st_mode) ? fopen(a->output, "rb") : NULL;
		bool swap, ok = f && (st.st_size == 0 || blktrace_is(f, &swap));
		if (f)
			fclose(f);
		if (!ok)
			return err_usage(err, EEXIST, "-o %s: exists and is no block "
					 "trace (--force writes over it)", a->output);
	}
	return 0;
}

/* The path of tool name in $PATH or the sbin directories (blktrace is in
 * /usr/sbin, often not in a user's PATH); false if none. */
static bool find_tool(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
	for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* Are the tools there? 0, or -ENOENT with the package to install. */
static int check_env(char *bt, char *bp, size_t size, struct ioc_err *err)
{
	if (!find_tool("blktrace", bt, size) || !find_tool("blkparse", bp, size))
		return err_set(err, ENOENT, "capture: blktrace and blkparse are needed "
			       "(Debian: apt-get install blktrace)");
	return 0;
}

/* Is debugfs mounted (blktrace's relay files are there)? -EPERM if not,
 * as a refusing kernel: the tracefs way is tried then. */
static int check_debugfs(struct ioc_err *err)
{
	struct statfs fs;

	if (statfs(DEBUGFS_DIR, &fs) || fs.f_type != DEBUGFS_MAGIC_NR)
		return err_set(err, EPERM, "capture: debugfs is not mounted at "
			       DEBUGFS_DIR " (mount -t debugfs none " DEBUGFS_DIR ")");
	return 0;
}

/* Start argv with stdout and stderr into log; its pid, or -errno. */
static pid_t spawn(char *const argv[], const char *log)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		setpgid(0, 0); /* a terminal's Ctrl-C is ours: we stop it in order */
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* The last non-empty line of file path into out ("" if none). */
static void last_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[512];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(out, size, "%s", line);
	}
	fclose(f);
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Is there a per-CPU file of device dev in dir? */
static bool trace_made(const char *dir, const char *dev)
{
	char pre[300];
	DIR *d = opendir(dir);
	struct dirent *e;
	bool seen = false;

	if (!d)
		return false;
	snprintf(pre, sizeof(pre), "%s.blktrace.", base_name(dev));
	while (!seen && (e = readdir(d)))
		seen = !strncmp(e->d_name, pre, strlen(pre));
	closedir(d);
	return seen;
}

/* Has blktrace made a per-CPU file of every device in dir (it makes them
 * just before it starts the trace)? */
static bool traces_made(const char *dir, const struct capture_args *a)
{
	for (unsigned i = 0; i < a->nr_devs; i++)
		if (!trace_made(dir, a->devs[i]))
			return false;
	return true;
}

/* Wait for pid to end, at most ms; its exit status (-1 if still running,
 * -2 if killed by a signal). */
static int wait_ms(pid_t pid, unsigned ms)
{
	int st;

	for (unsigned t = 0;; t += 10) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -2;
		if (r < 0 || t >= ms)
			return -1;
		sleep_ms(10);
	}
}

/* Stop blktrace as Ctrl-C does (it then writes out its buffers), killing
 * it if it does not end in 10 s; its exit status. */
static int stop_trace(pid_t pid)
{
	int rc;

	kill(pid, SIGINT);
	rc = wait_ms(pid, 10000);
	if (rc == -1) {
		kill(pid, SIGKILL);
		rc = wait_ms(pid, 10000);
	}
	return rc;
}

struct capture_run {
	char bt[1024], bp[1024]; /* the tools */
	char dir[1100];          /* the per-CPU files, next to the output */
	char log[1200];          /* the tools' own output, for their errors */
};

/* Trace a's devices for a->time_ns (less if stop is set), into r->dir.
 * 0, or -errno with the reason (blktrace's own last line). */
static int trace(struct capture_run *r, const struct capture_args *a,
		 atomic_bool *stop, struct ioc_err *err)
{
	char *argv[4 + 2 * CAP_MAX_DEVS] = {r->bt, "-D", r->dir};
	unsigned n = 3;
	char why[512];
	pid_t pid;
	int rc;

	for (unsigned i = 0; i < a->nr_devs; i++) {
		argv[n++] = "-d";
		argv[n++] = (char *)a->devs[i];
	}
	argv[n] = NULL;
	snprintf(r->log, sizeof(r->log), "%s/blktrace.out", r->dir);
	pid = spawn(argv, r->log);
	if (pid < 0)
		return err_set(err, (int)pid, "capture: blktrace: %s", strerror((int)-pid));
	for (unsigned t = 0; !traces_made(r->dir, a); t += 10) {
		rc = wait_ms(pid, 0);
		if (rc != -1 || t >= 10000 || atomic_load(stop)) {
			if (rc == -1)
				stop_trace(pid);
			last_line(r->log, why, sizeof(why));
			/* EPERM: the kernel refuses the relay files (lockdown) */
			return err_set(err, strstr(why, "not permitted") ? EPERM : EIO,
				       "capture: blktrace did not start: %s",
				       why[0] ? why : "(no message)");
		}
		sleep_ms(10);
	}
	fprintf(stderr, "capture: tracing %u device(s) for %.3f s\n", a->nr_devs,
		(double)a->time_ns / 1e9);
	for (uint64_t end = now_ns() + a->time_ns; now_ns() < end && !atomic_load(stop);) {
		uint64_t left = (end - now_ns()) / 1000000;
		sleep_ms(left > 50 ? 50 : (unsigned)left + 1);
		if (wait_ms(pid, 0) != -1) {
			last_line(r->log, why, sizeof(why));
			return err_set(err, EIO, "capture: blktrace ended early: %s",
				       why[0] ? why : "(no message)");
		}
	}
	rc = stop_trace(pid);
	if (rc) {
		last_line(r->log, why, sizeof(why));
		return err_set(err, EIO, "capture: blktrace failed (status %d): %s", rc, why);
	}
	return 0;
}

/* blkparse the per-CPU files into a->output. 0 or -errno. */
static int merge(struct capture_run *r, const struct capture_args *a,
		 struct ioc_err *err)
{
	char *argv[8 + 2 * CAP_MAX_DEVS] = {r->bp, "-q", "-O", "-D", r->dir,
					    "-d", (char *)a->output};
	unsigned n = 7;
	char why[512];
	int rc;

	for (unsigned i = 0; i < a->nr_devs; i++)
		if (trace_made(r->dir, a->devs[i])) { /* none: it had no I/O */
			argv[n++] = "-i";
			argv[n++] = (char *)base_name(a->devs[i]);
		}
	argv[n] = NULL;
	snprintf(r->log, sizeof(r->log), "%s/blkparse.out", r->dir);
	unlink(a->output); /* checked: new, a trace, or --force */
	if (n == 7) { /* nothing traced: an empty trace */
		int fd = open(a->output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return err_set(err, errno, "capture: %s: %s", a->output, strerror(errno));
		close(fd);
		return 0;
	}
	pid_t pid = spawn(argv, r->log);
	if (pid < 0)
		return err_set(err, (int)pid, "capture: blkparse: %s", strerror((int)-pid));
	rc = wait_ms(pid, 600000);
	if (rc == -1) {
		kill(pid, SIGKILL);
		wait_ms(pid, 10000);
	}
	if (rc || access(a->output, F_OK)) {
		last_line(r->log, why, sizeof(why));
		return err_set(err, EIO, "capture: blkparse failed (status %d): %s", rc,
			       why[0] ? why : "(no message)");
	}
	return 0;
}

/* Remove the files in r->dir (blktrace's and the tools' output). */
static void remove_files(const struct capture_run *r)
{
	DIR *d = opendir(r->dir);
	struct dirent *e;
	char p[1400];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", r->dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
}

static void remove_dir(const struct capture_run *r)
{
	remove_files(r);
	rmdir(r->dir);
}

/* Print the I/Os of the trace written, per direction, as a replay sees
 * them (its queue events). 0 or -errno. */
static int summarize(const struct capture_args *a, double secs, bool early,
		     struct ioc_err *err)
{
	static const char *names[] = {"reads", "writes", "trims", "syncs", "datasyncs"};
	struct iolog_replay_opts o = {.redirect = a->output, .time_scale = 100};
	struct iolog log;
	uint64_t nr[5] = {0}, bytes[5] = {0};
	struct stat st;
	bool swap;
	int ret = 0;

	if (stat(a->output, &st) == 0 && st.st_size == 0) {
		log = (struct iolog){0};
	} else {
		FILE *f = fopen(a->output, "rb");
		if (!f)
			return err_set(err, errno, "capture: %s: %s", a->output, strerror(errno));
		ret = blktrace_is(f, &swap) ? blktrace_read(&log, f, a->output, &o, swap, err)
					    : err_set(err, EIO, "capture: %s: no block trace", a->output);
		fclose(f);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < log.nr; i++) {
		nr[log.e[i].op]++;
		bytes[log.e[i].op] += log.e[i].len;
	}
	printf("capture: %s: %zu I/Os in %.3f s%s", a->output, log.nr, secs,
	       early ? " (stopped early)" : "");
	for (int k = 0; k < 5; k++)
		if (nr[k] || k < 2)
			printf(", %llu %s (%llu bytes)", (unsigned long long)nr[k], names[k],
			       (unsigned long long)bytes[k]);
	printf("\n");
	iolog_free(&log);
	return 0; /* the trace is written; a stdout failure is main's stdout_end */
}

int cmd_capture(int argc, char **argv)
{
	struct capture_args a = {0};
	struct ioc_err err = {0};
	struct capture_run r;
	int ret;

	ret = args_parse(&spec, argc, argv, &a, &err);
	if (ret == ARGS_HELP) {
		args_help(&spec, stdout);
		return 0;
	}
	if (ret || check_args(&a, &err)) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (check_env(r.bt, r.bp, sizeof(r.bt), &err)) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return 1;
	}
	atomic_bool *stop = signals_catch();
	snprintf(r.dir, sizeof(r.dir), "%s.capture-XXXXXX", a.output);
	if (!mkdtemp(r.dir)) {
		fprintf(stderr, "iochar: capture: %s: %s\n", r.dir, strerror(errno));
		return 1;
	}
	uint64_t t0 = now_ns();
	ret = check_debugfs(&err);
	if (!ret)
		ret = trace(&r, &a, stop, &err);
	if (ret == -EPERM) {
		fprintf(stderr, "iochar: %s; tracing through tracefs's blk tracer instead\n",
			err.msg);
		err = (struct ioc_err){0};
		remove_files(&r);
		ret = capture_ftrace(r.dir, a.devs, a.nr_devs, a.time_ns, stop, &err);
	}
	double secs = (double)(now_ns() - t0) / 1e9;
	if (!ret)
		ret = merge(&r, &a, &err);
	remove_dir(&r);
	if (!ret)
		ret = summarize(&a, atomic_load(stop) ? secs : (double)a.time_ns / 1e9,
				atomic_load(stop), &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return 1;
	}
	return atomic_load(stop) ? EXIT_SIGNAL : 0;
}

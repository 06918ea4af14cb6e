/* capture_session.c - see capture_session.h. */
#define _GNU_SOURCE
#include "cmd/capture_session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/capture_ftrace.h"

#define DEBUGFS_MAGIC_NR 0x64626720
#define DEBUGFS_DIR "/sys/kernel/debug"

struct capture_session {
	const char *devs[CAP_MAX_DEVS]; /* into paths: the caller's may go */
	char paths[CAP_MAX_DEVS][256];
	unsigned nr;
	char bt[1024], bp[1024]; /* the tools */
	char dir[1100];          /* the per-CPU files */
	char log[1200];          /* the tools' own output, for their errors */
	pid_t pid;               /* blktrace; 0 with the tracefs thread */
	pthread_t thread;        /* the tracefs way */
	bool threaded;
	atomic_bool stop;
	int ft_ret;
	struct ioc_err ft_err;
};

static const char *base_name(const char *dev)
{
	const char *b = strrchr(dev, '/');
	return b ? b + 1 : dev;
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

static int find_tools(struct capture_session *s, struct ioc_err *err)
{
	if (!find_tool("blktrace", s->bt, sizeof(s->bt)) ||
	    !find_tool("blkparse", s->bp, sizeof(s->bp)))
		return err_set(err, ENOENT, "capture: blktrace and blkparse are needed "
			       "(Debian: apt-get install blktrace)");
	return 0;
}

int capture_tools(struct ioc_err *err)
{
	struct capture_session s;
	return find_tools(&s, err);
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

/* Has blktrace made a per-CPU file of every device (it makes them just
 * before it starts the trace)? */
static bool traces_made(const struct capture_session *s)
{
	for (unsigned i = 0; i < s->nr; i++)
		if (!trace_made(s->dir, s->devs[i]))
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

/* blktrace started, its files made. 0, or -errno with the reason
 * (-EPERM: the kernel refuses the relay files). */
static int blktrace_start(struct capture_session *s, struct ioc_err *err)
{
	char *argv[4 + 2 * CAP_MAX_DEVS] = {s->bt, "-D", s->dir};
	unsigned n = 3;
	char why[512];
	int rc;

	for (unsigned i = 0; i < s->nr; i++) {
		argv[n++] = "-d";
		argv[n++] = (char *)s->devs[i];
	}
	argv[n] = NULL;
	snprintf(s->log, sizeof(s->log), "%s/blktrace.out", s->dir);
	s->pid = spawn(argv, s->log);
	if (s->pid < 0) {
		int e = (int)s->pid;
		s->pid = 0;
		return err_set(err, e, "capture: blktrace: %s", strerror(-e));
	}
	for (unsigned t = 0; !traces_made(s); t += 10) {
		rc = wait_ms(s->pid, 0);
		if (rc != -1 || t >= 10000) {
			if (rc == -1)
				stop_trace(s->pid);
			s->pid = 0;
			last_line(s->log, why, sizeof(why));
			/* EPERM: the kernel refuses the relay files (lockdown) */
			return err_set(err, strstr(why, "not permitted") ? EPERM : EIO,
				       "capture: blktrace did not start: %s",
				       why[0] ? why : "(no message)");
		}
		sleep_ms(10);
	}
	return 0;
}

static void *ftrace_thread(void *arg)
{
	struct capture_session *s = arg;
	sigset_t all;

	sigfillset(&all); /* signals are the main thread's */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	s->ft_ret = capture_ftrace(s->dir, s->devs, s->nr, 365ull * 86400 * 1000000000ull,
				   &s->stop, &s->ft_err);
	return NULL;
}

/* Remove the files in s->dir (the tracer's and the tools' output). */
static void remove_files(const struct capture_session *s)
{
	DIR *d = opendir(s->dir);
	struct dirent *e;
	char p[1400];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", s->dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
}

int capture_begin(struct capture_session **out, const char *const *devs, unsigned nr,
		  const char *workdir_prefix, struct ioc_err *err)
{
	struct capture_session *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!s)
		return err_set(err, ENOMEM, "capture: out of memory");
	s->nr = nr < CAP_MAX_DEVS ? nr : CAP_MAX_DEVS;
	for (unsigned i = 0; i < s->nr; i++) {
		snprintf(s->paths[i], sizeof(s->paths[i]), "%s", devs[i]);
		s->devs[i] = s->paths[i];
	}
	snprintf(s->dir, sizeof(s->dir), "%s-XXXXXX", workdir_prefix);
	if ((ret = find_tools(s, err)) || !mkdtemp(s->dir)) {
		ret = ret ? ret : err_set(err, errno, "capture: %s: %s", s->dir, strerror(errno));
		free(s);
		return ret;
	}
	ret = check_debugfs(err);
	if (!ret)
		ret = blktrace_start(s, err);
	if (ret == -EPERM) { /* the tracefs way: it reports its own failure at the end */
		remove_files(s);
		*err = (struct ioc_err){0};
		s->threaded = !(ret = -pthread_create(&s->thread, NULL, ftrace_thread, s));
		if (ret)
			err_set(err, ret, "capture: thread: %s", strerror(-ret));
		else /* capture_ftrace reads the pipe 100 ms after it set the tracer */
			sleep_ms(200);
	}
	if (ret) {
		remove_files(s);
		rmdir(s->dir);
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

const char *capture_via(const struct capture_session *s)
{
	return s->threaded ? "tracefs's blk tracer" : "blktrace";
}

bool capture_failed(struct capture_session *s, struct ioc_err *err)
{
	char why[512];

	if (s->threaded || !s->pid || wait_ms(s->pid, 0) == -1)
		return false;
	s->pid = 0;
	last_line(s->log, why, sizeof(why));
	err_set(err, EIO, "capture: blktrace ended early: %s", why[0] ? why : "(no message)");
	return true;
}

/* blkparse the per-CPU files into output. 0 or -errno. */
static int merge(struct capture_session *s, const char *output, struct ioc_err *err)
{
	char *argv[8 + 2 * CAP_MAX_DEVS] = {s->bp, "-q", "-O", "-D", s->dir,
					    "-d", (char *)output};
	unsigned n = 7;
	char why[512];
	int rc;

	for (unsigned i = 0; i < s->nr; i++)
		if (trace_made(s->dir, s->devs[i])) { /* none: it had no I/O */
			argv[n++] = "-i";
			argv[n++] = (char *)base_name(s->devs[i]);
		}
	argv[n] = NULL;
	snprintf(s->log, sizeof(s->log), "%s/blkparse.out", s->dir);
	unlink(output); /* checked by the caller: new, a trace, or --force */
	if (n == 7) { /* nothing traced: an empty trace */
		int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return err_set(err, errno, "capture: %s: %s", output, strerror(errno));
		close(fd);
		return 0;
	}
	pid_t pid = spawn(argv, s->log);
	if (pid < 0)
		return err_set(err, (int)pid, "capture: blkparse: %s", strerror((int)-pid));
	rc = wait_ms(pid, 600000);
	if (rc == -1) {
		kill(pid, SIGKILL);
		wait_ms(pid, 10000);
	}
	if (rc || access(output, F_OK)) {
		last_line(s->log, why, sizeof(why));
		return err_set(err, EIO, "capture: blkparse failed (status %d): %s", rc,
			       why[0] ? why : "(no message)");
	}
	return 0;
}

/* The tracer stopped: 0, or -errno with its reason. */
static int stop_tracer(struct capture_session *s, struct ioc_err *err)
{
	char why[512];

	if (s->threaded) {
		atomic_store(&s->stop, true);
		pthread_join(s->thread, NULL);
		if (s->ft_ret)
			*err = s->ft_err;
		return s->ft_ret;
	}
	if (!s->pid)
		return err_set(err, EIO, "capture: blktrace ended early");
	int rc = stop_trace(s->pid);
	if (rc) {
		last_line(s->log, why, sizeof(why));
		return err_set(err, EIO, "capture: blktrace failed (status %d): %s", rc, why);
	}
	return 0;
}

int capture_end(struct capture_session *s, const char *output, struct ioc_err *err)
{
	int ret = stop_tracer(s, err);

	if (!ret)
		ret = merge(s, output, err);
	remove_files(s);
	rmdir(s->dir);
	free(s);
	return ret;
}

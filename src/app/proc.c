/* proc.c - see proc.h. */
#define _GNU_SOURCE
#include "app/proc.h"
#include "app/memcap.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void app_sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

double app_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child: become as, die with the parent, output into log. */
static void child_setup(const char *log, struct app_user as, pid_t parent)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	setpgid(0, 0);
	if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(126);
	if (as.uid != (uid_t)-1 &&
	    (setgroups(0, NULL) || setgid(as.gid) || setuid(as.uid)))
		_exit(126);
	/* after setuid, which clears it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(126);
	signal(SIGPIPE, SIG_DFL);
}

pid_t app_spawn(char *const argv[], const char *log, struct app_user as)
{
	return app_spawn_in(argv, log, as, NULL);
}

pid_t app_spawn_in(char *const argv[], const char *log, struct app_user as,
		   const struct app_memcap *cap)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* while still root: the cgroup's files are root's */
		if (cap && app_memcap_enter(cap))
			_exit(125);
		child_setup(log, as, parent);
		execv(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* both sides: no race with a kill of the group */
	return pid;
}

int app_wait(pid_t pid, unsigned ms)
{
	int st;

	for (unsigned t = 0;; t += 10) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (r < 0)
			return 128 + SIGKILL; /* not ours any more: gone */
		if (t >= ms)
			return APP_RUNNING;
		app_sleep_ms(10);
	}
}

void app_kill(pid_t pid, int sig, unsigned grace_ms)
{
	if (pid <= 0)
		return;
	kill(-pid, sig);
	if (app_wait(pid, grace_ms) == APP_RUNNING) {
		kill(-pid, SIGKILL);
		app_wait(pid, 10000);
	}
	kill(-pid, SIGKILL); /* anything it left in its group */
}

int app_run_ticking(char *const argv[], const char *log, struct app_user as,
		    unsigned timeout_ms, atomic_bool *stop, const char *label)
{
	pid_t pid = app_spawn(argv, log, as);
	double t0 = app_now_s(), next = t0 + 1.0;

	if (pid < 0)
		return (int)pid;
	for (unsigned t = 0; t < timeout_ms; t += 50) {
		int rc = app_wait(pid, 50);
		if (rc != APP_RUNNING || (stop && atomic_load(stop))) {
			if (label && app_now_s() >= t0 + 1.0)
				fputc('\n', stderr);
			if (rc != APP_RUNNING)
				return rc;
			break;
		}
		if (label && app_now_s() >= next) {
			fprintf(stderr, "\rapp: %s: %.0f s", label, app_now_s() - t0);
			next += 1.0;
		}
	}
	app_kill(pid, SIGTERM, 5000);
	return stop && atomic_load(stop) ? -EINTR : -ETIMEDOUT;
}

int app_run(char *const argv[], const char *log, struct app_user as,
	    unsigned timeout_ms, atomic_bool *stop)
{
	return app_run_ticking(argv, log, as, timeout_ms, stop, NULL);
}

void app_log_tail(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char lines[3][240] = {{0}};
	char line[240];
	unsigned n = 0;

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0])
			snprintf(lines[n++ % 3], sizeof(lines[0]), "%s", line);
	}
	fclose(f);
	for (unsigned i = n > 3 ? n - 3 : 0; i < n; i++) {
		size_t len = strlen(out);
		snprintf(out + len, size - len, "%s%s", len ? "; " : "", lines[i % 3]);
	}
}

bool app_find_tool(const char *name, const char *dirs, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char buf[8192];

	snprintf(buf, sizeof(buf), "%s:%s:/usr/sbin:/sbin:/usr/bin:/bin", dirs ? dirs : "",
		 path ? path : "");
	for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

int app_output(char *const argv[], struct app_user as, char *out, size_t size)
{
	char tmp[] = "/tmp/iochar-app-out-XXXXXX";
	int fd = mkstemp(tmp), rc;
	ssize_t n;

	out[0] = '\0';
	if (fd < 0)
		return -errno;
	if (as.uid != (uid_t)-1 && fchown(fd, as.uid, as.gid))
		rc = -errno;
	else
		rc = app_run(argv, tmp, as, 30000, NULL);
	n = pread(fd, out, size - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(tmp);
	return rc;
}

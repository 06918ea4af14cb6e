/* net_harness.h - helpers for the network tests: free ports, processes
 * run in the background with their output in files, bounded waits, and
 * kills by PID. Header-only (static inline), included by tests/test_net*.c
 * only; include after cmocka.h and harness.h. */
#ifndef IOCHAR_TESTS_NET_HARNESS_H
#define IOCHAR_TESTS_NET_HARNESS_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t nh_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A TCP port on 127.0.0.1 that nothing listens on right now. */
static inline unsigned nh_free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t l = sizeof(a);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unsigned port;

	assert_true(s >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&a, &l), 0);
	port = ntohs(a.sin_port);
	close(s);
	return port;
}

/* Is something listening on TCP port (any address, v4 or v6)? Read from
 * /proc so that no connection is made: iperf3 would take a probe for a
 * client. */
static inline bool nh_listening(unsigned port)
{
	static const char *const files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
	char line[512];

	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char local[64];
			unsigned st;
			if (sscanf(line, " %*d: %63s %*s %x", local, &st) != 2)
				continue;
			char *colon = strrchr(local, ':');
			if (colon && st == 0x0A &&
			    strtoul(colon + 1, NULL, 16) == port) {
				fclose(f);
				return true;
			}
		}
		fclose(f);
	}
	return false;
}

static inline bool nh_wait_listen(unsigned port, unsigned ms)
{
	uint64_t end = nh_now_ms() + ms;

	while (nh_now_ms() < end) {
		if (nh_listening(port))
			return true;
		usleep(20000);
	}
	return false;
}

enum nh_listen { NH_LISTENING, NH_EXITED, NH_TIMED_OUT };

/* Wait up to ms for pid to listen on port, watching that it has not
 * exited (then reaped, its status in *status). */
static inline enum nh_listen nh_await_listen(pid_t pid, unsigned port,
					     unsigned ms, int *status)
{
	uint64_t end = nh_now_ms() + ms;

	while (nh_now_ms() < end) {
		if (nh_listening(port))
			return NH_LISTENING;
		if (waitpid(pid, status, WNOHANG) == pid)
			return NH_EXITED;
		usleep(20000);
	}
	return NH_TIMED_OUT;
}

/* Start argv (argv[0] a path or a name on PATH) with stdout and stderr
 * into the files out and err (NULL = /dev/null). Returns the PID. */
static inline pid_t nh_spawn(const char *const *argv, const char *out,
			     const char *err)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int o = open(out ? out : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err ? err : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0)
			_exit(126);
		dup2(o, 1);
		dup2(e, 2);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Wait up to ms for pid; kill it (SIGKILL, by PID) if it is still
 * running then. Returns its exit status, 128 + signal, or -1 if it had to
 * be killed. */
static inline int nh_wait(pid_t pid, unsigned ms)
{
	uint64_t end = nh_now_ms() + ms;
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st)
					     : 128 + WTERMSIG(st);
		if (r < 0)
			return -1;
		if (nh_now_ms() >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			return -1;
		}
		usleep(10000);
	}
}

/* The whole of a file as a NUL-terminated string (caller frees). */
static inline char *nh_slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return strdup("");
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Start the server argv, one of whose words is the buffer ports, on a
 * free port (into *port and ports) and wait until it listens. A port
 * picked free can be taken before the server binds it (another process's
 * connection, a bind race): a server that exits before listening is told
 * on stdout with its errors and started again on another port, three
 * times at most. Returns its PID; fails the test if it never listens. */
static inline pid_t nh_serve(const char *const *argv, char ports[16],
			     unsigned *port, const char *out, const char *err)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int st = 0;
		*port = nh_free_port();
		snprintf(ports, 16, "%u", *port);
		pid_t pid = nh_spawn(argv, out, err);
		switch (nh_await_listen(pid, *port, 10000, &st)) {
		case NH_LISTENING:
			return pid;
		case NH_EXITED: {
			/* iperf3 -J writes its error to stdout */
			char *o = out ? nh_slurp(out) : strdup("");
			char *e = err ? nh_slurp(err) : strdup("");
			printf("%s exited (status %d) before listening on "
			       "port %u: %s%s; trying another port\n",
			       argv[0], st, *port, o, e);
			free(o);
			free(e);
			break;
		}
		case NH_TIMED_OUT:
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			fail_msg("%s did not listen on port %u within 10 s",
				 argv[0], *port);
		}
	}
	fail_msg("%s exited before listening on three ports", argv[0]);
	return -1;
}

/* An `iochar net server` under test: its scratch directory, its log
 * (stderr) and output, a client's output and errors there, its port and
 * PID. */
struct nh_srv {
	char dir[64];
	char log[96], out[96], cli_out[96], cli_err[96];
	unsigned port;
	char ports[16];
	pid_t pid;
};

/* Make s->dir from the mkdtemp template tmpl and name the files in it;
 * false if mkdtemp failed. */
static inline bool nh_srv_files(struct nh_srv *s, const char *tmpl)
{
	snprintf(s->dir, sizeof(s->dir), "%s", tmpl);
	if (!mkdtemp(s->dir))
		return false;
	snprintf(s->log, sizeof(s->log), "%s/server.log", s->dir);
	snprintf(s->out, sizeof(s->out), "%s/server.out", s->dir);
	snprintf(s->cli_out, sizeof(s->cli_out), "%s/client.out", s->dir);
	snprintf(s->cli_err, sizeof(s->cli_err), "%s/client.err", s->dir);
	return true;
}

/* Start `iochar net server -p PORT opts... extra...` (either NULL) on a
 * free port, into s->pid, and wait until it listens (nh_serve). */
static inline void nh_srv_spawn(struct nh_srv *s, const char *const *opts,
				const char *const *extra)
{
	const char *argv[48] = {iochar_path(), "net", "server", "-p"};
	int n = 4;

	argv[n++] = s->ports;
	for (const char *const *o = opts; o && *o; o++)
		argv[n++] = *o;
	for (const char *const *e = extra; e && *e; e++)
		argv[n++] = *e;
	argv[n] = NULL;
	s->pid = nh_serve(argv, s->ports, &s->port, s->out, s->log);
}

/* Run `iochar net client 127.0.0.1 -p PORT --output-format=iochar-json --timeout timeout_ms
 * extra...` against s, its output into s->cli_out and s->cli_err; its
 * exit status (-1 if killed after run_ms). */
static inline int nh_client(const struct nh_srv *s, const char *timeout_ms,
			    const char *const *extra, unsigned run_ms)
{
	const char *argv[32] = {iochar_path(), "net", "client", "127.0.0.1",
				"-p", s->ports, "--output-format=iochar-json", "--timeout", timeout_ms};
	int n = 9;

	for (const char *const *e = extra; e && *e; e++)
		argv[n++] = *e;
	argv[n] = NULL;
	return nh_wait(nh_spawn(argv, s->cli_out, s->cli_err), run_ms);
}

/* Number of times needle occurs in s. */
static inline unsigned nh_count(const char *s, const char *needle)
{
	unsigned n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Is prog on PATH? */
static inline bool nh_have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* |a - b| <= pct % of the larger. */
static inline bool nh_within(double a, double b, double pct)
{
	double hi = a > b ? a : b, d = a > b ? a - b : b - a;
	return hi > 0 && d <= hi * pct / 100;
}

#endif

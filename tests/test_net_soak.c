/* test_net_soak.c - `iochar net server` for about 20 s under a mixed,
 * bounded flood (idle, slow, garbage and malformed connections, from the
 * real clients' own address and others in 127.0.0.0/8), while stock
 * iperf3 and iochar clients run one after the other: every one of them
 * must be served, and the server must have dropped each kind of bad
 * connection with its log line and still stop cleanly on SIGTERM.
 *
 * The server's handshake limits are set below the flood (--max-pending
 * 160, --max-peer-pending 64), so the flood keeps them full and real
 * clients get in only by the oldest handshake making way.
 *
 * The flood runs in a child process that ends by itself at the deadline
 * (and is killed by PID if it does not); it holds at most FLOOD_HOLD
 * connections at once. Loopback only.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>

#include "harness.h"
#include "net/net_harness.h"
#include "net/proto.h"

#define SOAK_MS 20000
#define FLOOD_HOLD 300   /* idle connections held at once, at most */
#define RUN_MS 30000

/* A connection from src to port, or -1 (the flood ignores failures). */
static int flood_connect(unsigned port, const char *src)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	struct timeval tv = {1, 0};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	inet_pton(AF_INET, src, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0) {
		a.sin_port = htons((uint16_t)port);
		inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
			return fd;
	}
	close(fd);
	return -1;
}

static void flood_send(int fd, const void *buf, size_t len)
{
	if (fd >= 0 && send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* the server may have dropped it already: that is the point */
	}
}

/* One connection of kind k that sends its bad bytes and goes. */
static void flood_one(unsigned port, unsigned k)
{
	static const char *const srcs[] = {"127.0.0.1", "127.0.0.2", "127.0.0.3"};
	char cookie[NET_COOKIE_SIZE], junk[NET_COOKIE_SIZE];
	uint8_t len[4];
	int fd = flood_connect(port, srcs[k % 3]);

	net_cookie_make(cookie);
	switch (k % 5) {
	case 0: /* garbage instead of a cookie */
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (char)(i * 37 + k);
		flood_send(fd, junk, sizeof(junk));
		break;
	case 1: /* a 4 GB length */
		memset(len, 0xff, 4);
		flood_send(fd, cookie, sizeof(cookie));
		flood_send(fd, len, 4);
		break;
	case 2: /* truncated parameters */
		net_len_encode(200, len);
		flood_send(fd, cookie, sizeof(cookie));
		flood_send(fd, len, 4);
		flood_send(fd, "{\"tcp\":true,", 12);
		break;
	case 3: /* parameters of the wrong type */
		net_len_encode(20, len);
		flood_send(fd, cookie, sizeof(cookie));
		flood_send(fd, len, 4);
		flood_send(fd, "{\"parallel\": \"lots\"}", 20);
		break;
	default: { /* a reset mid-cookie */
		struct linger l = {1, 0};
		flood_send(fd, cookie, 10);
		if (fd >= 0)
			setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	}
	}
	usleep(5000);
	if (fd >= 0)
		close(fd);
}

/* The child: until the deadline, keep up to FLOOD_HOLD idle connections
 * (the oldest replaced as new ones come), a few slow ones that send a
 * cookie one byte at a time, four cookie-only controls (from an address
 * of their own, so they live to their deadline), and a stream of
 * short-lived bad ones. */
static void flood_main(unsigned port, uint64_t end_ms)
{
	static int idle[FLOOD_HOLD], slow[8], mute[4] = {-1, -1, -1, -1};
	static unsigned slow_got[8];
	char cookie[NET_COOKIE_SIZE];
	unsigned next = 0, k = 0, rounds = 0;

	for (int i = 0; i < FLOOD_HOLD; i++)
		idle[i] = -1;
	for (int i = 0; i < 8; i++)
		slow[i] = -1;
	net_cookie_make(cookie);
	while (nh_now_ms() < end_ms) {
		for (int b = 0; b < 20; b++, next = (next + 1) % FLOOD_HOLD) {
			if (idle[next] >= 0)
				close(idle[next]);
			idle[next] = flood_connect(port, next % 2 ? "127.0.0.1"
								  : "127.0.0.2");
		}
		if (rounds++ % 15 == 0) /* a cookie, then silence, 1.5 s */
			for (int i = 0; i < 4; i++) {
				if (mute[i] >= 0)
					close(mute[i]);
				mute[i] = flood_connect(port, "127.0.0.4");
				flood_send(mute[i], cookie, sizeof(cookie));
			}
		for (int i = 0; i < 8; i++) {
			if (slow[i] < 0 || slow_got[i] >= NET_COOKIE_SIZE - 1) {
				if (slow[i] >= 0)
					close(slow[i]);
				slow[i] = flood_connect(port, "127.0.0.3");
				slow_got[i] = 0;
			}
			flood_send(slow[i], cookie + slow_got[i]++, 1);
		}
		for (int i = 0; i < 5; i++)
			flood_one(port, k++);
		usleep(100000);
	}
	_exit(0);
}

static const char *const legit[][12] = {
	{"iperf3", "-t", "1", NULL},
	{"iochar", "-t", "1", NULL},
	{"iperf3", "-t", "1", "-P", "4", "-R", NULL},
	{"iochar", "-t", "1", "-P", "8", "-R", NULL},
	{"iochar", "-t", "1", "-P", "2", "--bidir", NULL},
};

/* Run legit client i (iperf3 or iochar) against port; its status. */
static int run_legit(unsigned i, const char *ports, const char *out,
		     const char *err)
{
	const char *const *l = legit[i % (sizeof(legit) / sizeof(legit[0]))];
	const char *argv[24];
	int n = 0;

	if (!strcmp(l[0], "iperf3")) {
		argv[n++] = "iperf3";
		argv[n++] = "-c";
	} else {
		argv[n++] = iochar_path();
		argv[n++] = "net";
		argv[n++] = "client";
	}
	argv[n++] = "127.0.0.1";
	argv[n++] = "-p";
	argv[n++] = ports;
	for (const char *const *e = l + 1; *e; e++)
		argv[n++] = *e;
	argv[n] = NULL;
	return nh_wait(nh_spawn(argv, out, err), RUN_MS);
}

/* The server, the flood and the files, for teardown after a failure
 * (processes by PID). */
static pid_t server_pid, flood_pid;
static char soak_dir[64];

static int teardown(void **state)
{
	(void)state;
	if (flood_pid > 0) {
		kill(flood_pid, SIGKILL);
		nh_wait(flood_pid, 5000);
	}
	if (server_pid > 0) {
		kill(server_pid, SIGKILL);
		nh_wait(server_pid, 5000);
	}
	flood_pid = server_pid = 0;
	if (soak_dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", soak_dir);
		soak_dir[0] = '\0';
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

static void test_soak(void **state)
{
	char dir[] = "/tmp/iochar-netsoak-XXXXXX", ports[16];
	char slog[96], cout[96], cerr[96];
	unsigned runs = 0;

	(void)state;
	if (!nh_have("iperf3"))
		skip(); /* scripts/deps.sh installs it; CI has it */
	assert_non_null(mkdtemp(dir));
	snprintf(soak_dir, sizeof(soak_dir), "%s", dir);
	snprintf(slog, sizeof(slog), "%s/server.log", dir);
	snprintf(cout, sizeof(cout), "%s/client.out", dir);
	snprintf(cerr, sizeof(cerr), "%s/client.err", dir);
	unsigned port;
	const char *sv[] = {iochar_path(), "net", "server", "-p", ports,
			    "--handshake-timeout", "1000", "--max-pending", "160",
			    "--max-peer-pending", "64", NULL};
	pid_t sp = server_pid = nh_serve(sv, ports, &port, NULL, slog);

	uint64_t end = nh_now_ms() + SOAK_MS;
	pid_t fp = fork();
	assert_true(fp >= 0);
	if (fp == 0)
		flood_main(port, end);
	flood_pid = fp;
	usleep(500000); /* the flood is in full swing */
	while (nh_now_ms() < end) {
		int rc = run_legit(runs, ports, cout, cerr);
		if (rc != 0) {
			char *e = nh_slurp(cerr), *l = nh_slurp(slog);
			kill(fp, SIGKILL);
			nh_wait(fp, 2000);
			flood_pid = 0;
			fail_msg("legit client %u (%s ...) failed (%d): %s\n"
				 "server log (tail):\n%s", runs,
				 legit[runs % 5][0], rc, e,
				 strlen(l) > 3000 ? l + strlen(l) - 3000 : l);
		}
		runs++;
	}
	assert_int_equal(nh_wait(fp, 5000), 0);
	flood_pid = 0;
	print_message("soak: %u real clients served under the flood\n", runs);
	assert_true(runs >= 5);
	assert_true(nh_listening(port));

	char *log = nh_slurp(slog);
	static const char *const kinds[] = {
		"garbage instead of a cookie", "over the limit",
		"with its parameters truncated", "\"parallel\" is not a number",
		"idle, no cookie within 1000 ms",
		"idle, no parameters within 1000 ms",
		"making way for a newer connection", "test done",
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strstr(log, kinds[i]))
			fail_msg("no '%s' in the server log (tail):\n%s", kinds[i],
				 strlen(log) > 3000 ? log + strlen(log) - 3000 : log);
	free(log);
	kill(sp, SIGTERM);
	assert_int_equal(nh_wait(sp, 5000), 130);
	server_pid = 0;
	assert_int_equal(teardown(NULL), 0); /* removes the files */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_soak, teardown),
	};
	return cmocka_run_group_tests_name("net server: soak", tests, NULL,
					   NULL);
}

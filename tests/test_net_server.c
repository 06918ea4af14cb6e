/* test_net_server.c - `iochar net server` under bad input, several
 * clients, caps and a shared secret.
 *
 * One server runs for the whole group. Each bad client (garbage instead
 * of a cookie, a 4 GB JSON length, a truncated message, an idle
 * connection, a disconnect mid-test) must be dropped within a bound with
 * exactly one log line naming it, and a good client must succeed right
 * after: the server keeps serving.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>

#include "csv_table.h"
#include "harness.h"
#include "net/net_harness.h"
#include "net/proto.h"

#define RUN_MS 20000

/* The limits every server of this group runs with. */
static const char *const srv_opts[] = {
    "--idle-timeout", "500", "--handshake-timeout", "500", "--max-streams",
    "8", "--max-duration", "5", "--max-len", "1M", NULL};

static void srv_start(struct nh_srv *s, const char *const *extra)
{
	nh_srv_spawn(s, srv_opts, extra);
}

static int setup_common(void **state, const char *const *extra)
{
	struct nh_srv *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	if (!nh_srv_files(s, "/tmp/iochar-netsrv-XXXXXX"))
		return -1;
	if (extra && !strcmp(extra[0], "--secret-file")) {
		FILE *f = fopen(extra[1], "w");
		if (!f)
			return -1;
		fputs("open sesame\n", f);
		fclose(f);
	}
	srv_start(s, extra);
	*state = s;
	return 0;
}

static int setup(void **state)
{
	return setup_common(state, NULL);
}

static const char *secret_args[] = {"--secret-file",
				    "/tmp/iochar-net-test-secret", "--max-tests",
				    "1", NULL};

static int setup_secret(void **state)
{
	return setup_common(state, secret_args);
}

/* The server stops on SIGTERM within a bound, with status 130. */
static int teardown(void **state)
{
	struct nh_srv *s = *state;
	char cmd[128];
	int rc = 0;

	kill(s->pid, SIGTERM);
	if (nh_wait(s->pid, 5000) != 130)
		rc = -1;
	unlink("/tmp/iochar-net-test-secret");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
	if (system(cmd) != 0)
		rc = -1;
	free(s);
	return rc;
}

/* Run an iochar client against the server; returns its exit status. */
static int client(struct nh_srv *s, const char *const *extra)
{
	return nh_client(s, "3000", extra, RUN_MS);
}

/* A good client must still be served: data moved, both ends agree. */
static void good_client(struct nh_srv *s)
{
	const char *extra[] = {"-t", "1", NULL};
	int rc = client(s, extra);

	if (rc != 0) {
		char *e = nh_slurp(s->cli_err), *l = nh_slurp(s->log);
		fail_msg("good client failed (%d): %s\nserver log:\n%s", rc, e, l);
	}
	char *out = nh_slurp(s->cli_out);
	json_object *j = json_tokener_parse(out);
	assert_non_null(j);
	json_object *d = json_object_array_get_idx(jget(j, "directions"), 0);
	assert_true(jget_u64(d, "receiver_bytes") > 100000);
	json_object_put(j);
	free(out);
}

static int raw_connect(struct nh_srv *s, char *peer, size_t len)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)s->port)};
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &l), 0);
	snprintf(peer, len, "127.0.0.1:%u: ", ntohs(a.sin_port));
	return fd;
}

/* The server closes fd within ms (reads see EOF or a reset). Bytes it
 * sends first (a state) are skipped. */
static void expect_closed(int fd, unsigned ms)
{
	uint64_t end = nh_now_ms() + ms;
	char buf[256];

	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		int left = (int)(end - nh_now_ms());
		assert_true(left > 0);
		if (poll(&p, 1, left) <= 0)
			fail_msg("server did not close the connection in %u ms", ms);
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
	}
	close(fd);
}

/* Exactly one log line names peer, and it contains want. */
static void expect_one_line(struct nh_srv *s, const char *peer, const char *want)
{
	char *log = NULL;

	for (int i = 0; i < 100; i++) { /* the line follows the close */
		free(log);
		log = nh_slurp(s->log);
		if (nh_count(log, peer) >= 1)
			break;
		usleep(20000);
	}
	if (nh_count(log, peer) != 1)
		fail_msg("want one line for %s, log:\n%s", peer, log);
	const char *line = strstr(log, peer);
	const char *eol = strchr(line, '\n');
	if (!strstr(line, want) || (eol && strstr(line, want) > eol))
		fail_msg("want '%s' in: %.*s", want, (int)(eol ? eol - line : 200), line);
	free(log);
}

static void send_cookie_and_wait_params(int fd)
{
	char cookie[NET_COOKIE_SIZE];
	int8_t st = 0;

	assert_int_equal(net_cookie_make(cookie), 0);
	assert_int_equal(send(fd, cookie, sizeof(cookie), 0), sizeof(cookie));
	assert_int_equal(recv(fd, &st, 1, MSG_WAITALL), 1);
	assert_int_equal(st, NET_PARAM_EXCHANGE);
}

static void test_garbage(void **state)
{
	struct nh_srv *s = *state;
	char peer[64], junk[NET_COOKIE_SIZE];
	int fd = raw_connect(s, peer, sizeof(peer));

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 37 + 1);
	assert_int_equal(send(fd, junk, sizeof(junk), 0), sizeof(junk));
	expect_closed(fd, 3000);
	expect_one_line(s, peer, "garbage");
	good_client(s);
}

static void test_json_length_4gb(void **state)
{
	struct nh_srv *s = *state;
	char peer[64];
	uint8_t len[4] = {0xff, 0xff, 0xff, 0xff};
	int fd = raw_connect(s, peer, sizeof(peer));

	send_cookie_and_wait_params(fd);
	assert_int_equal(send(fd, len, 4, 0), 4);
	expect_closed(fd, 3000);
	expect_one_line(s, peer, "over the limit");
	good_client(s);
}

static void test_truncated(void **state)
{
	struct nh_srv *s = *state;
	char peer[64];
	uint8_t len[4];
	const char part[] = "{\"tcp\":true,\"time\":";
	int fd = raw_connect(s, peer, sizeof(peer));

	send_cookie_and_wait_params(fd);
	net_len_encode(200, len);
	assert_int_equal(send(fd, len, 4, 0), 4);
	assert_int_equal(send(fd, part, strlen(part), 0), (ssize_t)strlen(part));
	shutdown(fd, SHUT_WR);
	expect_closed(fd, 3000);
	expect_one_line(s, peer, "truncated");
	good_client(s);
}

static void test_bad_json(void **state)
{
	struct nh_srv *s = *state;
	char peer[64];
	uint8_t len[4];
	const char body[] = "{\"parallel\": \"lots\"}";
	int fd = raw_connect(s, peer, sizeof(peer));

	send_cookie_and_wait_params(fd);
	net_len_encode((uint32_t)strlen(body), len);
	assert_int_equal(send(fd, len, 4, 0), 4);
	assert_int_equal(send(fd, body, strlen(body), 0), (ssize_t)strlen(body));
	expect_closed(fd, 3000);
	expect_one_line(s, peer, "\"parallel\" is not a number");
	good_client(s);
}

static void test_idle(void **state)
{
	struct nh_srv *s = *state;
	char peer[64], peer2[64];
	int fd = raw_connect(s, peer, sizeof(peer));
	int fd2 = raw_connect(s, peer2, sizeof(peer2));

	/* one says nothing at all, one stops after its cookie */
	send_cookie_and_wait_params(fd2);
	expect_closed(fd, 3000);
	expect_closed(fd2, 3000);
	expect_one_line(s, peer, "idle, no cookie within 500 ms");
	expect_one_line(s, peer2, "idle, no parameters within 500 ms");
	good_client(s);
}

static void test_disconnect_mid_test(void **state)
{
	struct nh_srv *s = *state;
	const char *argv[] = {iochar_path(), "net", "client", "127.0.0.1",
			      "-p", s->ports, "-t", "5", "-P", "2", "-i",
			      "0.2", NULL};
	pid_t c = nh_spawn(argv, s->cli_out, NULL);
	char *log = NULL, *out = NULL;
	bool seen = false;

	/* kill it once data flows: its first interval line */
	for (int i = 0; i < 250 && !seen; i++) {
		free(out);
		out = nh_slurp(s->cli_out);
		seen = strstr(out, "[SUM]") != NULL;
		usleep(20000);
	}
	free(out);
	assert_true(seen);
	seen = false;
	kill(c, SIGKILL);
	assert_int_equal(nh_wait(c, 3000), 128 + SIGKILL);
	for (int i = 0; i < 150 && !seen; i++) {
		free(log);
		log = nh_slurp(s->log);
		seen = strstr(log, "client disconnected mid-test") != NULL;
		usleep(20000);
	}
	if (!seen)
		fail_msg("no drop line after a mid-test disconnect:\n%s", log);
	assert_int_equal(nh_count(log, "mid-test"), 1);
	free(log);
	good_client(s);
}

static void test_caps(void **state)
{
	struct nh_srv *s = *state;
	const char *too_many[] = {"-P", "9", "-t", "1", NULL};
	const char *too_long[] = {"-t", "6", NULL};
	const char *too_big[] = {"-t", "1", "-l", "2M", NULL};

	assert_int_equal(client(s, too_many), 1);
	char *e = nh_slurp(s->cli_err);
	expect_has(e, "denied");
	free(e);
	assert_int_equal(client(s, too_long), 1);
	assert_int_equal(client(s, too_big), 1);
	char *log = nh_slurp(s->log);
	expect_has(log, "denied: 9 streams asked, limit 8");
	expect_has(log, "denied: duration 6 s asked, limit 1 to 5 s");
	expect_has(log, "denied: write size 2097152 asked, limit 1048576");
	free(log);
	good_client(s);
}

/* Two tests at once, each with its own streams and figures. */
static void test_concurrent(void **state)
{
	struct nh_srv *s = *state;
	char out2[128], err2[128];
	const char *a[] = {iochar_path(), "net", "client", "127.0.0.1", "-p",
			   s->ports, "-t", "2", "-P", "2", "--output-format=iochar-json", NULL};
	const char *b[] = {iochar_path(), "net", "client", "127.0.0.1", "-p",
			   s->ports, "-t", "2", "-P", "3", "-R", "--output-format=iochar-json", NULL};

	snprintf(out2, sizeof(out2), "%s/b.out", s->dir);
	snprintf(err2, sizeof(err2), "%s/b.err", s->dir);
	pid_t pa = nh_spawn(a, s->cli_out, s->cli_err);
	pid_t pb = nh_spawn(b, out2, err2);
	assert_int_equal(nh_wait(pa, RUN_MS), 0);
	assert_int_equal(nh_wait(pb, RUN_MS), 0);
	char *ja = nh_slurp(s->cli_out), *jb = nh_slurp(out2);
	json_object *oa = json_tokener_parse(ja), *ob = json_tokener_parse(jb);
	assert_non_null(oa);
	assert_non_null(ob);
	assert_int_equal(json_object_array_length(jget(oa, "streams")), 2);
	assert_int_equal(json_object_array_length(jget(ob, "streams")), 3);
	json_object *da = json_object_array_get_idx(jget(oa, "directions"), 0);
	json_object *db = json_object_array_get_idx(jget(ob, "directions"), 0);
	assert_string_equal(json_object_get_string(jget(da, "direction")),
			    "client_to_server");
	assert_string_equal(json_object_get_string(jget(db, "direction")),
			    "server_to_client");
	assert_true(nh_within((double)jget_u64(da, "sender_bytes"),
			      (double)jget_u64(da, "receiver_bytes"), 5));
	assert_true(nh_within((double)jget_u64(db, "sender_bytes"),
			      (double)jget_u64(db, "receiver_bytes"), 5));
	json_object_put(oa);
	json_object_put(ob);
	free(ja);
	free(jb);
}

static void test_secret(void **state)
{
	struct nh_srv *s = *state;
	const char *none[] = {"-t", "1", NULL};
	const char *wrong[] = {"-t", "1", "--secret", "open sesame!", NULL};
	const char *right[] = {"-t", "1", "--secret", "open sesame", NULL};

	assert_int_equal(client(s, none), 1);
	assert_int_equal(client(s, wrong), 1);
	char *log = nh_slurp(s->log);
	expect_has(log, "denied: no secret presented");
	expect_has(log, "denied: wrong secret");
	free(log);
	if (nh_have("iperf3")) {
		const char *ip[] = {"iperf3", "-c", "127.0.0.1", "-p", s->ports,
				    "-t", "1", NULL};
		assert_true(nh_wait(nh_spawn(ip, NULL, NULL), RUN_MS) != 0);
	}
	assert_int_equal(client(s, right), 0);
}

/* --max-tests 1: a second client while one runs is turned away. */
static void test_max_tests(void **state)
{
	struct nh_srv *s = *state;
	const char *a[] = {iochar_path(), "net", "client", "127.0.0.1", "-p",
			   s->ports, "-t", "2", "-i", "0.2", "--secret",
			   "open sesame", NULL};
	const char *b[] = {"-t", "1", "--secret", "open sesame", NULL};
	char out_a[128], *text = NULL;
	bool running = false;

	snprintf(out_a, sizeof(out_a), "%s/a.out", s->dir);
	pid_t pa = nh_spawn(a, out_a, NULL);
	/* the first test is running once its first interval is out */
	for (int i = 0; i < 250 && !running; i++) {
		free(text);
		text = nh_slurp(out_a);
		running = strstr(text, "[SUM]") != NULL;
		usleep(20000);
	}
	free(text);
	assert_true(running);
	assert_int_equal(client(s, b), 1);
	assert_int_equal(nh_wait(pa, RUN_MS), 0);
	char *log = nh_slurp(s->log);
	expect_has(log, "denied: 1 tests running already");
	free(log);
	assert_int_equal(client(s, b), 0);
}


/* Many streams both ways: the server must give each data connection the
 * role and id of the client's stream it is, whatever order its threads
 * take them over in. Each stream's two counts must agree, within 5 % or
 * the 2 MiB that can still sit in the two sockets' buffers when the test
 * ends (under ASan a stream moved ~84 Mbit/s and its receiver counted
 * 1.8 MB fewer of 12.3 MB: 15 %). */
static void test_bidir_many_streams(void **state)
{
	struct nh_srv *s = *state;
	const char *extra[] = {"-t", "1", "-P", "4", "--bidir", "--threads",
			       "1", NULL};
	int rc = client(s, extra);

	if (rc != 0) {
		char *e = nh_slurp(s->cli_err);
		fail_msg("client failed (%d): %s", rc, e);
	}
	char *out = nh_slurp(s->cli_out);
	json_object *j = json_tokener_parse(out);
	assert_non_null(j);
	json_object *streams = jget(j, "streams");
	assert_int_equal(json_object_array_length(streams), 8);
	for (size_t i = 0; i < 8; i++) {
		json_object *st = json_object_array_get_idx(streams, i);
		uint64_t mine = jget_u64(st, "bytes");
		uint64_t peer = jget_u64(st, "peer_bytes");
		double gap = mine > peer ? (double)(mine - peer) : (double)(peer - mine);
		if (mine < 10000 ||
		    (!nh_within((double)mine, (double)peer, 5) && gap > 2.0 * 1048576))
			fail_msg("stream %zu: %s", i,
				 json_object_to_json_string(st));
	}
	json_object_put(j);
	free(out);
}

/* Sum one column over the stream rows of direction dir, checking each
 * total row of dir against it; returns the total row's index. */
static unsigned check_dir_sums(const struct csv_table *t, const char *dir,
			       unsigned want_streams)
{
	static const char *const cols[] = {"sender_bytes", "receiver_bytes"};
	unsigned total = UINT32_MAX, streams = 0;

	for (unsigned r = 0; r < t->nr_rows; r++) {
		if (strcmp(csv_get(t, r, "direction"), dir))
			continue;
		if (!strcmp(csv_get(t, r, "scope"), "total")) {
			assert_int_equal(total, UINT32_MAX);
			total = r;
		} else {
			assert_string_equal(csv_get(t, r, "scope"), "stream");
			streams++;
		}
	}
	assert_int_not_equal(total, UINT32_MAX);
	assert_int_equal(streams, want_streams);
	assert_int_equal(csv_get_u64(t, total, "streams"), want_streams);
	for (unsigned c = 0; c < 2; c++) {
		uint64_t sum = 0;
		for (unsigned r = 0; r < t->nr_rows; r++)
			if (r != total && !strcmp(csv_get(t, r, "direction"), dir))
				sum += csv_get_u64(t, r, cols[c]);
		assert_true(sum > 10000);
		assert_int_equal(sum, csv_get_u64(t, total, cols[c]));
	}
	return total;
}

/* --output-format=csv on both ends of a --bidir test: a header, one row
 * per stream and direction plus one total row per direction; the stream
 * rows add up to the totals, and both ends report the same totals (the
 * counts are exchanged). A bad format is one line and exit 2. */
static void test_csv(void **state)
{
	char dir[] = "/tmp/iochar-netcsv-XXXXXX", port[16];
	char sout[96], slog[96], cout[96], cerr[96];
	struct csv_table ct, st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sout, sizeof(sout), "%s/server.csv", dir);
	snprintf(slog, sizeof(slog), "%s/server.log", dir);
	snprintf(cout, sizeof(cout), "%s/client.csv", dir);
	snprintf(cerr, sizeof(cerr), "%s/client.err", dir);
	const char *sv[] = {iochar_path(), "net", "server", "-p", port,
			    "--tests", "1", "--output-format=csv", NULL};
	const char *cv[] = {iochar_path(), "net", "client", "127.0.0.1", "-p",
			    port, "-t", "1", "-P", "2", "--bidir",
			    "--output-format=csv", NULL};
	unsigned portn;
	pid_t sp = nh_serve(sv, port, &portn, sout, slog);
	int rc = nh_wait(nh_spawn(cv, cout, cerr), RUN_MS);
	if (rc != 0)
		fail_msg("client failed (%d): %s", rc, nh_slurp(cerr));
	assert_int_equal(nh_wait(sp, RUN_MS), 0);

	char *ctext = nh_slurp(cout), *stext = nh_slurp(sout);
	assert_true(!strncmp(ctext, "role,local,peer,scope,", 22));
	csv_table_parse(&ct, ctext);
	csv_table_parse(&st, stext);
	assert_int_equal(ct.nr_rows, 2 * 2 + 2);
	assert_int_equal(st.nr_rows, 2 * 2 + 2);
	assert_string_equal(csv_get(&ct, 0, "role"), "client");
	assert_string_equal(csv_get(&st, 0, "role"), "server");
	static const char *const dirs[] = {"client_to_server", "server_to_client"};
	for (unsigned d = 0; d < 2; d++) {
		unsigned a = check_dir_sums(&ct, dirs[d], 2);
		unsigned b = check_dir_sums(&st, dirs[d], 2);
		assert_int_equal(csv_get_u64(&ct, a, "sender_bytes"),
				 csv_get_u64(&st, b, "sender_bytes"));
		assert_int_equal(csv_get_u64(&ct, a, "receiver_bytes"),
				 csv_get_u64(&st, b, "receiver_bytes"));
	}
	csv_table_free(&ct);
	csv_table_free(&st);
	free(ctext);
	free(stext);

	const char *bad[] = {iochar_path(), "net", "client", "127.0.0.1", "-p",
			     port, "--output-format=xml", NULL};
	assert_int_equal(nh_wait(nh_spawn(bad, cout, cerr), RUN_MS), 2);
	char *e = nh_slurp(cerr);
	expect_has(e, "--output-format=xml");
	assert_int_equal(count_lines(e), 1);
	free(e);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest robust[] = {
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_json_length_4gb),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_disconnect_mid_test),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_bidir_many_streams),
	};
	const struct CMUnitTest secret[] = {
		cmocka_unit_test(test_secret),
		cmocka_unit_test(test_max_tests),
	};
	int rc = cmocka_run_group_tests_name("net server: bad input", robust,
					     setup, teardown);
	rc |= cmocka_run_group_tests_name("net server: secret", secret,
					  setup_secret, teardown);
	const struct CMUnitTest csv[] = {
		cmocka_unit_test(test_csv),
	};
	rc |= cmocka_run_group_tests_name("net: csv output", csv, NULL, NULL);
	return rc;
}

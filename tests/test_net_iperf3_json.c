/* test_net_iperf3_json.c - `-J` is iperf3's JSON: the same members as
 * Debian's iperf3 3.12 writes, at both ends, in every mode, and one
 * iperf3 script (tests/net/iperf3_summary.jq, run with jq) reads both.
 *
 * For plain, -R and --bidir runs of 2 streams for 1 s on loopback:
 * iperf3 -s -J with iperf3 -c -J is the reference; iochar's server and
 * client with -J must write the same set of member paths (array elements
 * merged) at each end; the jq script must find every figure in iochar's
 * output (no null) and the figures must agree with each other (streams
 * add up to the sums, intervals to the test). Then iochar's client
 * against iperf3's server and iperf3's client against iochar's server,
 * the mixed pairs a user meets. Every process is bounded in time and
 * killed by PID if it overruns; skips without iperf3 or jq.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "harness.h"
#include "net/net_harness.h"

#define RUN_MS 20000 /* bound on any one process */
#define MAX_PATHS 512

struct paths {
	char *p[MAX_PATHS];
	unsigned n;
};

static void add_path(struct paths *ps, const char *p)
{
	for (unsigned i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i], p))
			return;
	assert_true(ps->n < MAX_PATHS);
	ps->p[ps->n++] = strdup(p);
}

/* Every leaf's path, ".a.b[].c", arrays' elements merged. */
static void walk(json_object *j, const char *at, struct paths *ps)
{
	char sub[512];

	if (json_object_is_type(j, json_type_object)) {
		json_object_object_foreach(j, k, v) {
			snprintf(sub, sizeof(sub), "%s.%s", at, k);
			walk(v, sub, ps);
		}
	} else if (json_object_is_type(j, json_type_array)) {
		snprintf(sub, sizeof(sub), "%s[]", at);
		for (size_t i = 0; i < json_object_array_length(j); i++)
			walk(json_object_array_get_idx(j, i), sub, ps);
	} else {
		add_path(ps, at);
	}
}

static void paths_free(struct paths *ps)
{
	for (unsigned i = 0; i < ps->n; i++)
		free(ps->p[i]);
	ps->n = 0;
}

static bool has(const struct paths *ps, const char *p)
{
	for (unsigned i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i], p))
			return true;
	return false;
}

/* The JSON document in path (a server's: its first line). */
static json_object *load(const char *path)
{
	char *s = nh_slurp(path);
	json_object *j = json_tokener_parse(s);

	if (!j)
		fail_msg("%s is not JSON: %.400s", path, s);
	free(s);
	return j;
}

/* The same member paths in both documents, or every difference named. */
static void same_members(const char *what, const char *ref_path, const char *mine_path)
{
	struct paths a = {0}, b = {0};
	json_object *ref = load(ref_path), *mine = load(mine_path);
	unsigned missing = 0, extra = 0;

	walk(ref, "", &a);
	walk(mine, "", &b);
	for (unsigned i = 0; i < a.n; i++)
		if (!has(&b, a.p[i])) {
			printf("%s: iochar lacks %s\n", what, a.p[i]);
			missing++;
		}
	for (unsigned i = 0; i < b.n; i++)
		if (!has(&a, b.p[i])) {
			printf("%s: iochar has %s, iperf3 does not\n", what, b.p[i]);
			extra++;
		}
	printf("%s: %u members in iperf3's, %u in iochar's\n", what, a.n, b.n);
	if (missing || extra)
		fail_msg("%s: %u members missing, %u extra", what, missing, extra);
	paths_free(&a);
	paths_free(&b);
	json_object_put(ref);
	json_object_put(mine);
}

/* The jq script's line for the document in path. */
static char *summary(const char *dir, const char *path)
{
	char out[160], err[160];
	const char *argv[] = {"jq", "-r", "-f", "tests/net/iperf3_summary.jq", path, NULL};

	snprintf(out, sizeof(out), "%s/jq.out", dir);
	snprintf(err, sizeof(err), "%s/jq.err", dir);
	int rc = nh_wait(nh_spawn(argv, out, err), RUN_MS);
	char *s = nh_slurp(out), *e = nh_slurp(err);
	if (rc != 0)
		fail_msg("jq on %s: exit %d: %s", path, rc, e);
	free(e);
	return s;
}

/* iochar's line: every figure there, and consistent with the others. */
static void check_summary(const char *what, const char *line, bool bidir, bool client)
{
	double v[11];
	char sender[8];

	printf("%s: jq read: %s", what, line);
	if (strstr(line, "null"))
		fail_msg("%s: the iperf3 script found a member missing: %s", what, line);
	int n = sscanf(line, "%lf %lf %lf %7s %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2],
		       sender, &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	assert_int_equal(n, 11);
	double sent = v[0], recv = v[1], bps = v[2], ivs = v[4], iv_bytes = v[5];
	assert_true(recv > 1e6);
	assert_true(bps > 8e6);
	assert_true(nh_within(sent, recv, 5));
	assert_true(ivs >= 1);
	assert_int_equal((int)v[9], 2);
	assert_int_equal((int)v[10], bidir ? 4 : 2);
	if (!bidir) { /* the streams add up to the sums */
		assert_true(nh_within(v[6], recv, 0.01));
		assert_true(nh_within(v[7], sent, 0.01));
	}
	/* the intervals cover the test: this end's count, within 15 % (the
	 * server's last interval ends at TEST_END, the client's a moment
	 * after its timer) */
	if (!nh_within(iv_bytes, client == !strcmp(sender, "true") ? sent : recv, 15))
		fail_msg("%s: intervals add up to %.0f B of %.0f sent, %.0f received", what,
			 iv_bytes, sent, recv);
}

struct pair {
	const char *dir;
	char srv_out[96], srv_err[96], cli_out[96], cli_err[96];
};

/* Run server srv (argv with a ports word) and client cli (its "-p" value
 * the same ports buffer) to the end; their outputs in p's files. */
static void run_pair(struct pair *p, const char *tag, const char **srv, const char **cli,
		     char *ports)
{
	unsigned port;

	snprintf(p->srv_out, sizeof(p->srv_out), "%s/%s.srv.json", p->dir, tag);
	snprintf(p->srv_err, sizeof(p->srv_err), "%s/%s.srv.err", p->dir, tag);
	snprintf(p->cli_out, sizeof(p->cli_out), "%s/%s.cli.json", p->dir, tag);
	snprintf(p->cli_err, sizeof(p->cli_err), "%s/%s.cli.err", p->dir, tag);
	pid_t s = nh_serve(srv, ports, &port, p->srv_out, p->srv_err);
	pid_t c = nh_spawn(cli, p->cli_out, p->cli_err);
	int crc = nh_wait(c, RUN_MS), src = nh_wait(s, RUN_MS);
	if (crc || src) {
		char *ce = nh_slurp(p->cli_err), *se = nh_slurp(p->srv_err);
		fail_msg("%s: client exit %d (%s), server exit %d (%s)", tag, crc, ce, src, se);
	}
}

static const char **argv_of(const char **base, unsigned n, const char *mode, const char **out)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		out[k++] = base[i];
	if (mode[0])
		out[k++] = mode;
	out[k] = NULL;
	return out;
}

static bool tools(void)
{
	if (!nh_have("iperf3") || !nh_have("jq")) {
		printf("SKIP: needs iperf3 and jq (scripts/deps.sh installs them)\n");
		return false;
	}
	return true;
}

static void one_mode(const char *mode, const char *tag)
{
	char dir[] = "/tmp/iochar-ip3json-XXXXXX", ports[16];
	struct pair ref = {.dir = dir}, mine = {.dir = dir};
	const char *a[16], *b[16];
	char t_ref[32], t_mine[32], what[64];

	if (!tools())
		return;
	assert_non_null(mkdtemp(dir));
	const char *ip_srv[] = {"iperf3", "-s", "-p", ports, "-1", "-J", NULL};
	const char *ip_cli[] = {"iperf3", "-c", "127.0.0.1", "-p", ports, "-t", "1", "-P", "2", "-J"};
	const char *io_srv[] = {iochar_path(), "net", "server", "-p", ports, "-1", "-J", NULL};
	const char *io_cli[] = {iochar_path(), "net", "client", "127.0.0.1", "-p", ports,
				"-t", "1", "-P", "2", "-J"};
	snprintf(t_ref, sizeof(t_ref), "iperf3%s", tag);
	snprintf(t_mine, sizeof(t_mine), "iochar%s", tag);
	run_pair(&ref, t_ref, ip_srv, argv_of(ip_cli, 10, mode, a), ports);
	run_pair(&mine, t_mine, io_srv, argv_of(io_cli, 11, mode, b), ports);
	snprintf(what, sizeof(what), "client%s", tag);
	same_members(what, ref.cli_out, mine.cli_out);
	char *line = summary(dir, ref.cli_out); /* the script reads iperf3's too */
	free(line);
	line = summary(dir, mine.cli_out);
	check_summary(what, line, !strcmp(mode, "--bidir"), true);
	free(line);
	snprintf(what, sizeof(what), "server%s", tag);
	same_members(what, ref.srv_out, mine.srv_out);
	line = summary(dir, mine.srv_out);
	check_summary(what, line, !strcmp(mode, "--bidir"), false);
	free(line);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_plain(void **state)
{
	(void)state;
	one_mode("", "");
}

static void test_reverse(void **state)
{
	(void)state;
	one_mode("-R", " -R");
}

static void test_bidir(void **state)
{
	(void)state;
	one_mode("--bidir", " --bidir");
}

/* The pairs a user meets: iochar's client on iperf3's server, iperf3's
 * client on iochar's server; each iochar end writes iperf3's members. */
static void test_mixed_pairs(void **state)
{
	char dir[] = "/tmp/iochar-ip3json-XXXXXX", ports[16];
	struct pair ref = {.dir = dir}, x = {.dir = dir}, y = {.dir = dir};

	(void)state;
	if (!tools())
		return;
	assert_non_null(mkdtemp(dir));
	const char *ip_srv[] = {"iperf3", "-s", "-p", ports, "-1", "-J", NULL};
	const char *ip_cli[] = {"iperf3", "-c", "127.0.0.1", "-p", ports, "-t", "1", "-P", "2",
				"-J", NULL};
	const char *io_srv[] = {iochar_path(), "net", "server", "-p", ports, "-1", "-J", NULL};
	const char *io_cli[] = {iochar_path(), "net", "client", "127.0.0.1", "-p", ports,
				"-t", "1", "-P", "2", "-J", NULL};
	run_pair(&ref, "ref", ip_srv, ip_cli, ports);
	run_pair(&x, "iochar-client", ip_srv, io_cli, ports);
	run_pair(&y, "iochar-server", io_srv, ip_cli, ports);
	same_members("iochar client, iperf3 server", ref.cli_out, x.cli_out);
	same_members("iperf3 client, iochar server", ref.srv_out, y.srv_out);
	char *line = summary(dir, x.cli_out);
	check_summary("iochar client, iperf3 server", line, false, true);
	free(line);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_reverse),
		cmocka_unit_test(test_bidir),
		cmocka_unit_test(test_mixed_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

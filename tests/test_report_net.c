/* test_report_net.c - `iochar compare` and `iochar report` on network
 * results ("kind": "net", docs/net.md): synthetic pairs whose
 * per-interval throughput has a known mean and spread (a 20 % change with
 * 1 % noise is significant), a net set against a disk set (only-in, no
 * failure), net mesh results (compare rows per pair, the matrix), a broken net result (exit 2 naming file and member), and two
 * real loopback tests by `iochar net server -1` / `iochar net client
 * --out`, bounded in time; sides of repeated net runs (Welch's t on the
 * per-run throughput). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "net/net_harness.h"
#include "report_fixture.h"

#define RUN_MS 20000 /* bound on any one process */

/* DIR/NAME/results.json: a client test of 2 streams client to server,
 * 10 one-second intervals alternating gbit*(1+cov), gbit*(1-cov) and a
 * short last one far off; total gbit, retr retransmits. */
static void write_net(const char *dir, const char *name, double gbit, double cov,
		      int retr)
{
	char path[512];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	double bps = gbit * 1e9;

	assert_non_null(f);
	fprintf(f, "{\"iochar_version\": \"0.1.0\", \"kind\": \"net\", \"role\": \"client\","
		   "\"timestamp\": 1764467000, \"local\": \"127.0.0.1:40000\","
		   "\"peer\": \"127.0.0.1:5201\", \"peer_version\": \"\","
		   "\"params\": {\"protocol\": \"tcp\", \"parallel\": 2, \"duration_s\": 10,"
		   "\"len\": 131072, \"window\": 0, \"mss\": 0, \"reverse\": false,"
		   "\"bidir\": false, \"nodelay\": false, \"congestion\": \"cubic\","
		   "\"zerocopy\": false, \"threads\": 2},"
		   "\"seconds\": 10.0, \"throughput_bps\": %.1f,"
		   "\"directions\": [{\"direction\": \"client_to_server\", \"streams\": 2,"
		   "\"seconds\": 10.0, \"sender_bytes\": %.0f, \"receiver_bytes\": %.0f,"
		   "\"sender_bits_per_second\": %.1f, \"receiver_bits_per_second\": %.1f,"
		   "\"retransmits\": %d}], \"streams\": [",
		bps, bps * 10 / 8, bps * 10 / 8, bps, bps, retr);
	for (int s = 0; s < 2; s++)
		fprintf(f, "%s{\"id\": %d, \"direction\": \"client_to_server\","
			   "\"role\": \"sender\", \"bytes\": %.0f, \"peer_bytes\": null,"
			   "\"seconds\": 10.0, \"bits_per_second\": %.1f, \"retransmits\": %d,"
			   "\"snd_cwnd\": 65536, \"rtt_us\": 40, \"rttvar_us\": 5, \"pmtu\": 65535,"
			   "\"snd_mss\": 32768, \"rcv_mss\": 536, \"reordering\": 3,"
			   "\"reord_seen\": 0, \"bytes_retrans\": 0, \"error\": \"\"}",
			s ? "," : "", s + 1, bps * 10 / 16, bps / 2, s ? retr - retr / 2 : retr / 2);
	fprintf(f, "], \"cpu\": null, \"net_environment\": {\"interface\": {\"name\": \"lo\","
		   "\"driver\": \"\", \"mtu\": 65536, \"rx_queues\": 1, \"tx_queues\": 1,"
		   "\"speed_mbps\": -1}, \"path_mtu\": 65535, \"congestion\": \"cubic\","
		   "\"congestion_remote\": \"cubic\"}, \"intervals\": [");
	for (int i = 0; i < 11; i++) {
		double v = i == 10 ? bps * 0.3 : bps * (i % 2 ? 1 - cov : 1 + cov);
		fprintf(f, "%s{\"start\": %d, \"end\": %g, \"bytes\": %.0f, \"bits_per_second\": %.1f,"
			   "\"streams\": [{\"id\": 1, \"bytes\": 0, \"bits_per_second\": %.1f,"
			   "\"retransmits\": 0, \"snd_cwnd\": 1, \"rtt_us\": 1},"
			   "{\"id\": 2, \"bytes\": 0, \"bits_per_second\": %.1f,"
			   "\"retransmits\": 0, \"snd_cwnd\": 1, \"rtt_us\": 1}]}",
			i ? "," : "", i, i == 10 ? 10.1 : i + 1.0, v / 8, v, v / 2, v / 2);
	}
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/results.json", dir, name);
	fixture_write(path, text, len);
	free(text);
}

static void test_synthetic_significant(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char a[512], b[512], c[512];

	write_net(dir, "mtu1500", 10, 0.01, 10);
	write_net(dir, "mtu9000", 12, 0.01, 4);
	write_net(dir, "noisy", 10.2, 0.10, 0);
	snprintf(a, sizeof(a), "%s/mtu1500", dir);
	snprintf(b, sizeof(b), "%s/mtu9000", dir);
	snprintf(c, sizeof(c), "%s/noisy/results.json", dir);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b, c, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *r = compare_workload(root, "net P2 send");
	assert_string_equal(json_object_get_string(jget(r, "metric")), "bits_per_second");
	assert_string_equal(compare_verdict(root, "net P2 send", 0), "reference");
	assert_string_equal(compare_verdict(root, "net P2 send", 1), "significant");
	/* +2 % inside a band wider than the 10 % floor: decides nothing */
	assert_string_equal(compare_verdict(root, "net P2 send", 2), "inconclusive");
	json_object *v1 = json_object_array_get_idx(jget(r, "values"), 1);
	assert_true(fabs(jget_double(v1, "diff_pct") - 20) < 0.01);
	assert_true(jget_double(v1, "noise_pct") > 0.5 && jget_double(v1, "noise_pct") < 3);
	assert_int_equal(jget_u64(v1, "retransmits"), 4);
	assert_int_equal(jget_u64(v1, "intervals"), 10); /* the short last one left out */
	assert_true(fabs(jget_double(v1, "value") - 12e9) < 1);
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b));
	expect_exit(&po, 0);
	expect_has(po.out, "net P2 send");
	expect_has(po.out, "12.000 Gbit/s");
	expect_has(po.out, "+20.0 %");
	expect_has(po.out, "significant  retransmits 4");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b, "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, ",retransmits\n");
	expect_has(po.out, "net P2 send,mtu9000,bits_per_second,12000000000.000,");
	expect_has(po.out, ",significant,4\n");
	proc_out_free(&po);
}

static void test_mixed_with_disk(void **state)
{
	const char *dir = *state;
	static const struct synth_workload w[] = {{"steady", 100000, 0.01, 10}};
	struct proc_out po;
	char a[512], b[512];

	write_net(dir, "net", 10, 0.01, 0);
	fixture_synthetic(dir, "disk", w, 1);
	snprintf(a, sizeof(a), "%s/net", dir);
	snprintf(b, sizeof(b), "%s/disk", dir);
	run_iochar(&po, NULL, 0, ARGS("compare", a, b));
	expect_exit(&po, 0);
	expect_has(po.out, "net P2 send only in net");
	expect_has(po.out, "steady only in disk");
	proc_out_free(&po);
}

static void test_bad_net_result(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char path[512];
	static const char text[] = "{\"iochar_version\": \"0.1.0\", \"kind\": \"net\","
				   "\"role\": \"client\", \"seconds\": 1, \"throughput_bps\": 1,"
				   "\"params\": {\"parallel\": 1, \"duration_s\": 1,"
				   "\"reverse\": false, \"bidir\": false},"
				   "\"directions\": [{\"direction\": \"sideways\"}]}";

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	fixture_write(path, text, sizeof(text) - 1);
	run_iochar(&po, NULL, 0, ARGS("compare", path, path));
	expect_exit(&po, 2);
	expect_has(po.err, "bad.json");
	expect_has(po.err, "directions[0].direction");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);

	/* a net-mesh pair naming a rank it does not have */
	static const char mesh[] = "{\"iochar_version\": \"0.1.0\", \"kind\": \"net-mesh\","
				   "\"mode\": \"mesh\", \"params\": {\"parallel\": 1, \"duration_s\": 1},"
				   "\"hosts\": [{\"rank\": 0, \"host\": \"a\"}],"
				   "\"pairs\": [{\"client\": 0, \"server\": 3, \"throughput_bps\": 1,"
				   "\"retransmits\": 0}]}";
	snprintf(path, sizeof(path), "%s/mesh.json", dir);
	fixture_write(path, mesh, sizeof(mesh) - 1);
	run_iochar(&po, NULL, 0, ARGS("report", path, "-o", "/dev/null"));
	expect_exit(&po, 2);
	expect_has(po.err, "mesh.json: pairs[0].server: no such rank");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
}

/* DIR/NAME.json: a net mesh of hosts h0, h1, h2, every ordered pair,
 * pair k at (k + 1) * gbit. */
static void write_mesh(const char *dir, const char *name, double gbit)
{
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	unsigned k = 0;

	assert_non_null(f);
	fputs("{\"iochar_version\": \"0.1.0\", \"kind\": \"net-mesh\", \"mode\": \"mesh\","
	      "\"timestamp\": 1, \"params\": {\"protocol\": \"tcp\", \"parallel\": 1,"
	      "\"duration_s\": 1, \"len\": 131072}, \"hosts\": [{\"rank\": 0, \"host\": \"h0\"},"
	      "{\"rank\": 1, \"host\": \"h1\"}, {\"rank\": 2, \"host\": \"h2\"}],"
	      "\"pairs_expected\": 6, \"pairs_measured\": 6, \"pairs\": [", f);
	for (unsigned c = 0; c < 3; c++)
		for (unsigned s = 0; s < 3; s++)
			if (c != s) {
				fprintf(f, "%s{\"client\": %u, \"server\": %u, \"streams\": 1,"
					   "\"throughput_bps\": %.1f, \"retransmits\": %u,"
					   "\"rtt_us\": 10}",
					k ? "," : "", c, s, (k + 1) * gbit * 1e9, k);
				k++;
			}
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	fixture_write(path, text, len);
	free(text);
}

static void test_mesh(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char a[512], b[512], html[512];

	write_mesh(dir, "m1", 1);
	write_mesh(dir, "m2", 1.2);
	snprintf(a, sizeof(a), "%s/m1.json", dir);
	snprintf(b, sizeof(b), "%s/m2.json", dir);
	snprintf(html, sizeof(html), "%s/m.html", dir);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	assert_int_equal(json_object_array_length(jget(root, "workloads")), 6);
	json_object *r = compare_workload(root, "mesh P1 h2 -> h1");
	json_object *v1 = json_object_array_get_idx(jget(r, "values"), 1);
	assert_true(fabs(jget_double(v1, "value") - 7.2e9) < 1);
	assert_true(fabs(jget_double(v1, "diff_pct") - 20) < 0.01);
	assert_int_equal(jget_u64(v1, "retransmits"), 5);
	assert_string_equal(compare_verdict(root, "mesh P1 h2 -> h1", 1), "unknown"); /* no interval series */
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("report", a, b, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char *text = fixture_slurp(html, NULL);
	expect_has(text, "<section id=\"network\"><h2>Network</h2>");
	assert_int_equal(nh_count(text, "<table class=\"net-mesh\">"), 2);
	assert_int_equal(nh_count(text, "mesh-pair"), 12);
	expect_has(text, "title=\"retransmits 5\">7.200</td>");
	free(text);
}

/* One loopback test into DIR/NAME. The server must listen: loopback is
 * always there, so a server that does not is a failure, not a SKIP. */
static void real_run(const char *dir, const char *name)
{
	char port[16], out[512];
	unsigned p;
	snprintf(out, sizeof(out), "%s/%s", dir, name);
	pid_t srv = nh_serve(ARGS(iochar_path(), "net", "server", "-1", "-p", port), port, &p,
			     NULL, NULL);
	pid_t cli = nh_spawn(ARGS(iochar_path(), "net", "client", "127.0.0.1", "-p", port,
				  "-t", "1", "-i", "0.2", "-P", "2", "--out", out),
			     NULL, NULL);
	assert_int_equal(nh_wait(cli, RUN_MS), 0);
	assert_int_equal(nh_wait(srv, RUN_MS), 0);
}

static void test_real_loopback(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char a[512], b[512], html[512];

	real_run(dir, "first");
	real_run(dir, "second");
	snprintf(a, sizeof(a), "%s/first", dir);
	snprintf(b, sizeof(b), "%s/second", dir);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *r = compare_workload(root, "net P2 send");
	const char *v = compare_verdict(root, "net P2 send", 1);
	assert_true(!strcmp(v, "significant") || !strcmp(v, "within noise") ||
		    !strcmp(v, "inconclusive"));
	json_object *v1 = json_object_array_get_idx(jget(r, "values"), 1);
	assert_true(jget_double(v1, "value") > 0);
	assert_true(isfinite(jget_double(v1, "diff_pct")));
	assert_true(jget_double(v1, "noise_pct") > 0);
	assert_true(jget_u64(v1, "intervals") >= 2);
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b));
	expect_exit(&po, 0);
	expect_has(po.out, "net P2 send");
	expect_has(po.out, "Gbit/s");
	expect_has(po.out, "retransmits ");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("compare", a, b, "--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, "net P2 send,second,bits_per_second,");
	assert_int_equal(count_lines(po.out), 3);
	proc_out_free(&po);

	snprintf(html, sizeof(html), "%s/r.html", dir);
	run_iochar(&po, NULL, 0, ARGS("report", a, b, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char *text = fixture_slurp(html, NULL);
	expect_has(text, "<section id=\"network\"><h2>Network</h2>");
	expect_has(text, "data-chart=\"net-bars\" data-points=\"2\"");
	assert_int_equal(nh_count(text, "<tr class=\"net-stream\">"), 4);
	expect_has(text, "<th>MTU</th>");
	/* a chart per set of each interval's throughput; a test has no steps */
	assert_int_equal(nh_count(text, "data-chart=\"net-series\""), 2);
	expect_has(text, "throughput per interval");
	assert_null(strstr(text, "0 of 0"));
	/* side by side: both adapters, both hosts' CPU, CPU per Gbit as bars */
	expect_has(text, "<table class=\"net-side\">");
	expect_has(text, "<tr><th>MTU (this end)</th><td>65536</td><td>65536</td></tr>");
	expect_has(text, "<tr><th>MTU (peer)</th><td>65536</td><td>65536</td></tr>");
	expect_has(text, "<th>host CPU busy (peer)"); /* differs run to run */
	expect_has(text, "data-chart=\"net-cpu\"");
	free(text);

	/* the second run with another MTU: that row, and only such rows, marked */
	char path[600];
	snprintf(path, sizeof(path), "%s/results.json", b);
	json_object *res = json_object_from_file(path);
	assert_non_null(res);
	json_object_object_add(jget(res, "net_environment.interface"), "mtu",
			       json_object_new_int(9000));
	assert_int_equal(json_object_to_file(path, res), 0);
	json_object_put(res);
	run_iochar(&po, NULL, 0, ARGS("report", a, b, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	text = fixture_slurp(html, NULL);
	expect_has(text, "<tr class=\"differs\"><th>MTU (this end) \xe2\x89\xa0</th>"
			 "<td>65536</td><td>9000</td></tr>");
	expect_has(text, "<tr><th>MTU (peer)</th>");
	expect_has(text, "<tr><th>offloads (this end)</th><td>TSO on");
	free(text);

	/* the same report in the browser: nothing overlaps, no side scroll */
	char cmd[2048], bin[4096];
	snprintf(bin, sizeof(bin), "%s", iochar_path());
	snprintf(cmd, sizeof(cmd), "tests/browser/test_report_browser.sh '%s' '%s/report-browser-net' >&2",
		 html, dirname(bin));
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Repeated network runs: per-run throughput, Welch's t (compare.h). */
static void test_repeats(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char a1[512], a2[512], b1[512], b2[512];

	write_net(dir, "a1", 10.0, 0.01, 0);
	write_net(dir, "a2", 10.2, 0.01, 0);
	write_net(dir, "b1", 12.0, 0.01, 0);
	write_net(dir, "b2", 12.2, 0.01, 0);
	snprintf(a1, sizeof(a1), "%s/a1", dir);
	snprintf(a2, sizeof(a2), "%s/a2", dir);
	snprintf(b1, sizeof(b1), "%s/b1", dir);
	snprintf(b2, sizeof(b2), "%s/b2", dir);
	run_iochar(&po, NULL, 0, ARGS("compare", a1, a2, "--", b1, b2, "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *v = compare_value(root, "net P2 send", 1);
	assert_string_equal(compare_verdict(root, "net P2 send", 1), "significant");
	assert_string_equal(json_object_get_string(jget(v, "rule")), "runs");
	assert_int_equal(jget_u64(v, "runs"), 2);
	assert_true(fabs(jget_double(v, "value") - 12.1e9) < 1);
	/* sd 0.1414 Gbit/s each side, df 2: t = 4.303 */
	double noise = 4.303 * sqrt(2 * 0.02e18 / 2) / 10.1e9 * 100;
	assert_true(fabs(jget_double(v, "noise_pct") - noise) < 0.01);
	assert_true(json_object_is_type(jget(v, "interval_bps_mean"), json_type_null));
	json_object_put(root);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_synthetic_significant, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_mixed_with_disk, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_net_result, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_mesh, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_real_loopback, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_repeats, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

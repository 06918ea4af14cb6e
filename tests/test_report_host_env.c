/* test_report_host_env.c - each host's environment in a run over many
 * hosts, on hand-made results whose hosts are known: three hosts, one
 * with another firmware and its PCIe link trained below its maximum. The
 * report's Environment section compares them in one table whose differing
 * cells are flagged (class and a text marker) under a summary line naming
 * how many hosts differ and where; a lost host's row says so; one-host
 * results have no such table; the reader refuses a damaged
 * hosts[].environment naming the member's path. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "report/results_read.h"
#include "report_fixture.h"

#define NE "\xe2\x89\xa0" /* the "differs" marker */

struct env_spec {
	const char *host;
	const char *firmware;
	unsigned speed_mts, width;  /* the PCIe link as trained; max 16 GT/s x4 */
	bool lost;                  /* no environment (null) */
};

/* A host's environment as iochar writes it (the members that matter): a
 * file on a partition of an NVMe disk, that disk's PCIe function, a NIC. */
static void env_json(FILE *f, const struct env_spec *e)
{
	if (e->lost) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"hostname\": \"%s\", \"kernel\": \"6.1.0-18-amd64\", \"machine\": \"x86_64\", "
		   "\"cpu_model\": \"AMD EPYC 7543\", \"cpus\": 64, \"mem_bytes\": 549755813888, "
		   "\"targets\": [{\"path\": \"/data/f\", \"is_block\": false, \"device\": \"nvme0n1p1\", "
		   "\"model\": \"\", \"scheduler\": \"none\", \"fstype\": \"xfs\", \"size\": 1048576, "
		   "\"logical_block_size\": 512, \"rotational\": false}], "
		   "\"inventory\": {\"cpu\": {\"model\": \"AMD EPYC 7543\", \"cores\": 32, \"threads\": 64}, "
		   "\"block_devices\": [{\"name\": \"nvme0n1\", \"transport\": \"nvme\", "
		   "\"model\": \"Acme NVMe 3.2TB\", \"firmware\": \"%s\", \"pci\": \"0000:41:00.0\", "
		   "\"partitions\": [\"nvme0n1p1\"]}], "
		   "\"pcie\": [{\"addr\": \"0000:41:00.0\", \"speed_mts\": %u, \"width\": %u, "
		   "\"max_speed_mts\": 16000, \"max_width\": 4, \"below_capability\": %s}], "
		   "\"net\": [{\"name\": \"lo\", \"operstate\": \"unknown\", \"speed_mbps\": null, \"mtu\": 65536}, "
		   "{\"name\": \"ens1f0\", \"operstate\": \"up\", \"speed_mbps\": 25000, \"mtu\": 9000, "
		   "\"pci\": \"0000:81:00.0\"}]}}",
		e->host, e->firmware, e->speed_mts, e->width,
		e->speed_mts < 16000 || e->width < 4 ? "true" : "false");
}

/* results.json of a plan over hosts e[0..n): no steps, rank 0's own
 * environment and every host's in hosts[]. */
static char *plan_json(const struct env_spec *e, unsigned n, const char *raw_env1)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fputs("{\"iochar_version\": \"0.1.0\", \"format_version\": 1, \"plan\": \"cluster\", "
	      "\"source\": \"\", \"complete\": true, \"nr_steps\": 0, \"environment\": ", f);
	env_json(f, &e[0]);
	fputs(", \"hosts\": [", f);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"host\": \"%s\", \"rank\": %u, \"environment\": ", i ? ", " : "",
			e[i].host, i);
		if (i == 1 && raw_env1)
			fputs(raw_env1, f);
		else
			env_json(f, &e[i]);
		fputs("}", f);
	}
	fputs("], \"steps\": []}\n", f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *report_of(const char *dir, const char *text)
{
	char p[4400];
	struct proc_out po;
	snprintf(p, sizeof(p), "%s/res", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/res/results.json", dir);
	fixture_write(p, text, strlen(text));
	run_iochar(&po, dir, 0, ARGS("report", "res", "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	return fixture_slurp(p, NULL);
}

/* The row of rank in the comparison table, up to its end. */
static char *row_of(const char *html, unsigned rank)
{
	char want[64];
	const char *t = strstr(html, "<table class=\"list host-env\">");
	assert_non_null(t);
	snprintf(want, sizeof(want), "<tr data-rank=\"%u\">", rank);
	const char *b = strstr(t, want);
	if (!b)
		fail_msg("no row for rank %u", rank);
	return strndup(b, (size_t)(strstr(b, "</tr>") - b));
}

static const struct env_spec three[] = {
	{"node-a", "2.1.0", 16000, 4, false},
	{"node-b", "2.1.0", 16000, 4, false},
	{"node-c", "1.9.3", 8000, 2, false},
};

static void test_report_flags_the_odd_host(void **state)
{
	char *text = plan_json(three, 3, NULL);
	char *html = report_of(*state, text);
	free(text);

	const char *sec = strstr(html, "<section id=\"environment\">");
	assert_non_null(sec);
	expect_has(sec, "<h4>Hosts compared</h4>\n<p class=\"host-env-summary\" data-hosts=\"3\" "
			"data-differ=\"1\"><strong class=\"bad\">1 of 3 hosts differ:</strong> "
			"firmware, PCIe link. PCIe link below its maximum on: node-c.</p>");
	expect_has(sec, "<th>host</th><th>rank</th><th>kernel</th><th>CPU model</th>"
			"<th>cores / threads</th><th>memory</th><th>device model</th><th>firmware</th>"
			"<th>transport</th><th>PCIe link</th><th>filesystem</th><th>NIC speed/MTU</th>");
	/* the odd host: firmware and link flagged, the rest not */
	char *c = row_of(sec, 2);
	expect_has(c, "<td>node-c</td>");
	expect_has(c, "<td data-col=\"firmware\" class=\"differs\"><span class=\"mark\">" NE
		      "</span> 1.9.3</td>");
	expect_has(c, "<td data-col=\"PCIe link\" class=\"differs below\"><span class=\"mark\">" NE
		      "</span> 8 GT/s x2 of 16 GT/s x4 <span class=\"mark\">below max</span></td>");
	expect_has(c, "<td data-col=\"device model\">Acme NVMe 3.2TB</td>");
	expect_has(c, "<td data-col=\"transport\">nvme</td>");
	expect_has(c, "<td data-col=\"filesystem\">xfs</td>");
	expect_has(c, "<td data-col=\"kernel\">6.1.0-18-amd64</td>");
	expect_has(c, "<td data-col=\"cores / threads\">32/64</td>");
	expect_has(c, "<td data-col=\"memory\">512.0 GiB</td>");
	expect_has(c, "<td data-col=\"NIC speed/MTU\">ens1f0 25 Gb/s MTU 9000</td>");
	free(c);
	for (unsigned r = 0; r < 2; r++) {
		char *row = row_of(sec, r);
		assert_null(strstr(row, "differs"));
		assert_null(strstr(row, NE));
		expect_has(row, "<td data-col=\"firmware\">2.1.0</td>");
		expect_has(row, "<td data-col=\"PCIe link\">16 GT/s x4</td>");
		free(row);
	}
	/* rank 0's own environment follows, as on one host */
	expect_has(sec, "<h4>Rank 0</h4>\n<div class=\"env\">");
	expect_has(html, "table.host-env td.differs{");
	free(html);
}

static void test_report_lost_host(void **state)
{
	struct env_spec four[4] = {three[0], three[1], three[0], {"node-d", "", 0, 0, true}};
	four[2].host = "node-c";
	char *text = plan_json(four, 4, NULL);
	char *html = report_of(*state, text);
	free(text);
	expect_has(html, "data-hosts=\"4\" data-differ=\"0\">All 3 hosts agree in every column "
			 "below. No environment from (lost): node-d.</p>");
	char *d = row_of(html, 3);
	expect_has(d, "<td class=\"missing\" colspan=\"99\">no environment recorded (lost)</td>");
	free(d);
	free(html);
}

static void test_one_host_has_no_comparison(void **state)
{
	static const struct synth_workload w[] = {{"steady", 1000, 0.01, 4}};
	fixture_synthetic(*state, "one", w, 1);
	struct proc_out po;
	char p[4400];
	run_iochar(&po, *state, 0, ARGS("report", "one", "-o", "one.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/one.html", (const char *)*state);
	char *html = fixture_slurp(p, NULL);
	assert_null(strstr(html, "Hosts compared"));
	assert_null(strstr(html, "host-env"));
	free(html);
}

static void expect_refused(const char *env1, const char *want)
{
	struct rs_set s = {0};
	struct ioc_err err = {0};
	char *text = plan_json(three, 3, env1);
	int ret = results_read_text(text, strlen(text), "results.json", &s, &err);
	rs_set_free(&s);
	free(text);
	if (!ret)
		fail_msg("accepted hosts[1].environment %s", env1);
	assert_true(err.usage);
	if (!strstr(err.msg, want))
		fail_msg("\"%s\" does not say \"%s\"", err.msg, want);
}

static void test_parse_refuses_bad_host_env(void **state)
{
	(void)state;
	expect_refused("\"linux\"", "results.json: hosts[1].environment: expected an object");
	expect_refused("[1, 2]", "hosts[1].environment: expected an object");
	expect_refused("{\"cpus\": \"many\"}", "hosts[1].environment.cpus: expected");
	expect_refused("{\"kernel\": 6}", "hosts[1].environment.kernel: expected");
	expect_refused("{\"targets\": [{\"fstype\": 4}]}",
		       "hosts[1].environment.targets[0].fstype: expected");
	expect_refused("{\"inventory\": {\"pcie\": [{\"addr\": \"x\", \"width\": \"x16\"}]}}",
		       "hosts[1].environment.inventory.pcie[0].width: expected");
	expect_refused("{\"inventory\": {\"block_devices\": [7]}}",
		       "hosts[1].environment.inventory.block_devices[0]: expected an object");
	expect_refused("{\"inventory\": {\"cpu\": {\"threads\": -1}}}",
		       "hosts[1].environment.inventory.cpu.threads");
}

static void test_parse_host_envs(void **state)
{
	(void)state;
	struct env_spec four[4] = {three[0], three[1], three[2], {"node-d", "", 0, 0, true}};
	struct rs_set s = {0};
	struct ioc_err err = {0};
	char *text = plan_json(four, 4, NULL);
	assert_int_equal(results_read_text(text, strlen(text), "results.json", &s, &err), 0);
	free(text);
	assert_int_equal(s.nr_host_envs, 4);
	assert_string_equal(s.host_envs[2].host, "node-c");
	assert_int_equal(s.host_envs[2].rank, 2);
	assert_non_null(s.host_envs[2].env);
	assert_string_equal(json_object_get_string(jget(s.host_envs[2].env, "hostname")), "node-c");
	assert_null(s.host_envs[3].env);
	rs_set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_report_flags_the_odd_host, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_report_lost_host, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_one_host_has_no_comparison, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_parse_refuses_bad_host_env),
		cmocka_unit_test(test_parse_host_envs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

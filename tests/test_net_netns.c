/* test_net_netns.c - client and server in two network namespaces joined
 * by a veth pair, at MTU 1500 and at MTU 9000 (the papers' default
 * against jumbo frames). Both runs must move data, and each must report
 * the veth interface, its MTU and the path MTU it ran at. What the two
 * MTUs must differ in is compared: the segment size (MSS) grows by the
 * 7500 bytes the MTU grows by, and the client's namespace sends fewer
 * TCP segments per byte moved (its /proc/net/snmp OutSegs, counted at
 * MSS size whatever the offloads). Throughput is only printed: on a
 * shared machine its order is noise. The namespaces (tests/net/netns.sh, names with
 * this process's PID) are deleted in teardown whatever happened. Skips,
 * saying why, when not root or when namespaces cannot be made.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "harness.h"
#include "net/net_harness.h"

struct ns {
	char tag[32];
	char a[64], b[64], addr_a[32], addr_b[32];
	char dir[64];
	bool up;
	char skip_why[128];
};

static int setup(void **state)
{
	struct ns *n = calloc(1, sizeof(*n));
	char cmd[128], line[256] = "";
	FILE *p;

	if (!n)
		return -1;
	*state = n;
	snprintf(n->tag, sizeof(n->tag), "t%d", (int)getpid());
	snprintf(n->dir, sizeof(n->dir), "/tmp/iochar-netns-XXXXXX");
	if (!mkdtemp(n->dir))
		return -1;
	if (!is_root()) {
		snprintf(n->skip_why, sizeof(n->skip_why),
			 "network namespaces need root");
		return 0;
	}
	/* namespaces of an earlier run that was killed before its teardown */
	if (system("tests/net/netns.sh sweep - >/dev/null 2>&1") != 0)
		printf("note: sweeping stale namespaces failed\n");
	snprintf(cmd, sizeof(cmd), "tests/net/netns.sh up %s 2>&1", n->tag);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	int rc = pclose(p);
	if (rc != 0 || sscanf(line, "%63s %63s %31s %31s", n->a, n->b,
			      n->addr_a, n->addr_b) != 4) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(n->skip_why, sizeof(n->skip_why),
			 "cannot make network namespaces here (%.80s)", line);
		return 0;
	}
	n->up = true;
	return 0;
}

static int teardown(void **state)
{
	struct ns *n = *state;
	char cmd[160];
	int rc = 0;

	if (n->up) {
		snprintf(cmd, sizeof(cmd), "tests/net/netns.sh down %s", n->tag);
		rc = system(cmd) == 0 ? 0 : -1;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", n->dir);
	if (system(cmd) != 0)
		rc = -1;
	free(n);
	return rc;
}

struct figures {
	double bps;
	int64_t retransmits;
	unsigned cwnd, mss, pmtu;
	uint64_t bytes;     /* the sender's bytes */
	uint64_t out_segs;  /* TCP segments the client's namespace sent */
};

/* The Tcp OutSegs counter of namespace ns (/proc/net is per namespace). */
static uint64_t tcp_out_segs(const char *ns)
{
	char cmd[128], head[1024], vals[1024];
	uint64_t v = 0;
	bool found = false;

	snprintf(cmd, sizeof(cmd), "ip netns exec %s cat /proc/net/snmp", ns);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	while (!found && fgets(head, sizeof(head), p)) {
		if (strncmp(head, "Tcp:", 4) != 0 || !fgets(vals, sizeof(vals), p))
			continue;
		char *hs, *vs, *h = strtok_r(head, " \n", &hs);
		char *x = strtok_r(vals, " \n", &vs);
		while (h && x && !found) {
			if (strcmp(h, "OutSegs") == 0) {
				v = strtoull(x, NULL, 10);
				found = true;
			}
			h = strtok_r(NULL, " \n", &hs);
			x = strtok_r(NULL, " \n", &vs);
		}
	}
	pclose(p);
	if (!found)
		fail_msg("no Tcp OutSegs in %s's /proc/net/snmp", ns);
	return v;
}

static void run_at(struct ns *n, unsigned mtu, struct figures *fig)
{
	char cmd[160], out[128], log[128], cout[128], cerr[128], res[128];
	char bin[4096];
	const char *rp;

	rp = realpath(iochar_path(), bin);
	assert_non_null(rp);
	snprintf(cmd, sizeof(cmd), "tests/net/netns.sh mtu %s %u", n->tag, mtu);
	assert_int_equal(system(cmd), 0);
	snprintf(out, sizeof(out), "%s/srv%u.out", n->dir, mtu);
	snprintf(log, sizeof(log), "%s/srv%u.log", n->dir, mtu);
	snprintf(cout, sizeof(cout), "%s/cli%u.out", n->dir, mtu);
	snprintf(cerr, sizeof(cerr), "%s/cli%u.err", n->dir, mtu);
	snprintf(res, sizeof(res), "%s/mtu%u", n->dir, mtu);

	const char *srv[] = {"ip", "netns", "exec", n->b, bin, "net", "server",
			     "-B", n->addr_b, "-1", NULL};
	pid_t s = nh_spawn(srv, out, log);
	char *l = NULL;
	for (int i = 0; i < 250; i++) { /* its own netns: wait for its word */
		free(l);
		l = nh_slurp(log);
		if (strstr(l, "listening"))
			break;
		usleep(20000);
	}
	expect_has(l, "listening");
	free(l);
	const char *cli[] = {"ip", "netns", "exec", n->a, bin, "net", "client",
			     n->addr_b, "-t", "2", "-P", "2", "--out", res,
			     "--output-format=iochar-json", NULL};
	uint64_t segs0 = tcp_out_segs(n->a);
	int crc = nh_wait(nh_spawn(cli, cout, cerr), 15000);
	fig->out_segs = tcp_out_segs(n->a) - segs0;
	int src = nh_wait(s, 15000);
	if (crc != 0 || src != 0) {
		char *e = nh_slurp(cerr), *sl = nh_slurp(log);
		fail_msg("MTU %u: client %d (%s), server %d (%s)", mtu, crc, e,
			 src, sl);
	}

	char path[160];
	snprintf(path, sizeof(path), "%s/results.json", res);
	char *text = nh_slurp(path);
	json_object *j = json_tokener_parse(text);
	assert_non_null(j);
	free(text);
	assert_string_equal(json_object_get_string(jget(j, "kind")), "net");
	assert_string_equal(json_object_get_string(
				    jget(j, "net_environment.interface.driver")),
			    "veth");
	assert_int_equal(jget_u64(j, "net_environment.interface.mtu"), mtu);
	assert_int_equal(jget_u64(j, "net_environment.path_mtu"), mtu);
	json_object *d = json_object_array_get_idx(jget(j, "directions"), 0);
	assert_true(jget_u64(d, "receiver_bytes") > 1000000);
	assert_true(nh_within((double)jget_u64(d, "sender_bytes"),
			      (double)jget_u64(d, "receiver_bytes"), 5));
	json_object *s0 = json_object_array_get_idx(jget(j, "streams"), 0);
	fig->bps = jget_double(j, "throughput_bps");
	fig->retransmits = json_object_get_int64(jget(d, "retransmits"));
	fig->cwnd = (unsigned)jget_u64(s0, "snd_cwnd");
	fig->mss = (unsigned)jget_u64(s0, "snd_mss");
	fig->pmtu = (unsigned)jget_u64(s0, "pmtu");
	fig->bytes = jget_u64(d, "sender_bytes");
	/* the segment size follows the MTU: 40 bytes of headers, some options */
	assert_true(fig->mss > mtu - 80 && fig->mss <= mtu - 40);
	/* both ends' adapters and whole hosts: the server's came back */
	assert_true(json_object_get_boolean(jget(j, "net_environment.profile.offloads.tso")));
	assert_true(json_object_is_type(jget(j, "net_environment.profile.channels.combined"),
					json_type_int));
	assert_string_equal(json_object_get_string(jget(j, "net_environment.peer.interface.driver")),
			    "veth");
	assert_int_equal(jget_u64(j, "net_environment.peer.interface.mtu"), mtu);
	for (int e = 0; e < 2; e++) {
		json_object *c = jget(j, e ? "cpu.host_remote" : "cpu.host_local");
		double busy = jget_double(c, "busy_pct");
		double parts = jget_double(c, "user_pct") + jget_double(c, "system_pct") +
			       jget_double(c, "irq_pct") + jget_double(c, "softirq_pct") +
			       jget_double(c, "steal_pct");
		assert_true(busy > 0 && busy <= 100.001);
		assert_true(fabs(parts - busy) < 0.01);
		assert_true(jget_double(c, "softirq_pct") >= 0);
	}
	json_object_put(j);
}

/* Segments the client sent per MiB it moved. */
static double segs_per_mib(const struct figures *f)
{
	return (double)f->out_segs * (1 << 20) / (double)f->bytes;
}

static void test_mtu_9000_bigger_fewer_segments(void **state)
{
	struct ns *n = *state;
	struct figures f1500, f9000;

	if (!n->up) {
		printf("SKIP: %s\n", n->skip_why);
		skip();
	}
	run_at(n, 1500, &f1500);
	run_at(n, 9000, &f9000);
	printf("veth, 2 streams, 2 s:\n"
	       "  MTU 1500: %.3f Gbit/s, retransmits %lld, cwnd %u B, MSS %u\n"
	       "  MTU 9000: %.3f Gbit/s, retransmits %lld, cwnd %u B, MSS %u\n",
	       f1500.bps / 1e9, (long long)f1500.retransmits, f1500.cwnd,
	       f1500.mss, f9000.bps / 1e9, (long long)f9000.retransmits,
	       f9000.cwnd, f9000.mss);
	printf("  segments per MiB sent: %.0f at 1500, %.0f at 9000\n",
	       segs_per_mib(&f1500), segs_per_mib(&f9000));
	/* each stream's path MTU is the link's */
	assert_int_equal(f1500.pmtu, 1500);
	assert_int_equal(f9000.pmtu, 9000);
	/* same headers and options both times: the MSS grows as the MTU */
	assert_int_equal(f9000.mss - f1500.mss, 9000 - 1500);
	/* 1 MiB is ~724 segments of 1448 B and ~117 of 8948 B; ACKs and the
	 * control connection add a little to both */
	double ratio = segs_per_mib(&f1500) / segs_per_mib(&f9000);
	if (ratio < 4)
		fail_msg("MTU 9000 sent %.2fx fewer segments per byte than "
			 "1500, want > 4 (MSS %u vs %u)",
			 ratio, f9000.mss, f1500.mss);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_mtu_9000_bigger_fewer_segments, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

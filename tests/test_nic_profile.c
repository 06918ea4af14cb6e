/* test_nic_profile.c - the adapter profile iochar records (rings,
 * channels, offloads, coalescing, RSS hash) is what the ethtool command
 * reports for the same interface, on every interface of this machine
 * (read only) and on a veth pair in a network namespace the test makes
 * and deletes. Where ethtool says the driver does not support a query,
 * iochar's figure must be null, never a made-up zero.
 *
 * Skips without the ethtool command (scripts/deps.sh installs it); the
 * namespace case skips without root.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* The member at a dotted path, or NULL where any step is missing. */
static json_object *jget_opt(json_object *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!o || !json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

/* The whole output of cmd (NULL if it failed to start); *rc its status. */
static char *run(const char *cmd, int *rc)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (!p)
		return NULL;
	FILE *m = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	*rc = pclose(p);
	return buf;
}

/* The value after "key" (a whole line's start, after blanks) following
 * the line holding marker (NULL: from the top), up to the line's end;
 * "" when not found. */
static void value_after(const char *out, const char *marker, const char *key, char *v,
			size_t len)
{
	const char *p = marker ? strstr(out, marker) : out;

	v[0] = '\0';
	if (!p)
		return;
	size_t kl = strlen(key);
	for (const char *line = p; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncmp(s, key, kl))
			continue;
		s += kl;
		while (*s == ' ' || *s == '\t')
			s++;
		size_t n = strcspn(s, "\n");
		snprintf(v, len, "%.*s", (int)n, s);
		return;
	}
}

/* iochar's figure at path against ethtool's text value: "n/a" or a
 * missing value means unknown (null); otherwise the same number. */
static void same_number(const char *ifname, const char *what, json_object *prof,
			const char *path, const char *eth)
{
	json_object *v = jget_opt(prof, path);
	bool unknown = !eth[0] || !strcmp(eth, "n/a");
	if (unknown) {
		if (v && !json_object_is_type(v, json_type_null) && json_object_get_int64(v) != 0)
			fail_msg("%s %s: ethtool says n/a, iochar %s", ifname, what,
				 json_object_to_json_string(v));
		return;
	}
	if (!v || json_object_is_type(v, json_type_null))
		fail_msg("%s %s: ethtool says %s, iochar null", ifname, what, eth);
	if (json_object_get_int64(v) != strtoll(eth, NULL, 10))
		fail_msg("%s %s: ethtool says %s, iochar %lld", ifname, what, eth,
			 (long long)json_object_get_int64(v));
}

static void same_flag(const char *ifname, const char *what, json_object *prof, const char *path,
		      const char *eth)
{
	json_object *v = jget_opt(prof, path);
	if (!eth[0])
		return; /* ethtool names no such feature here */
	bool on = !strncmp(eth, "on", 2);
	if (!v || json_object_is_type(v, json_type_null))
		fail_msg("%s %s: ethtool says %s, iochar null", ifname, what, eth);
	if (json_object_get_boolean(v) != on)
		fail_msg("%s %s: ethtool says %s, iochar %s", ifname, what, eth,
			 json_object_to_json_string(v));
}

/* One interface: iochar's profile against ethtool -g, -l, -k, -c, -x. */
static void check_iface(const char *pre, const char *ifname, json_object *prof)
{
	char cmd[256], v[128];
	int rc;

	snprintf(cmd, sizeof(cmd), "%sethtool -g %s 2>&1", pre, ifname);
	char *g = run(cmd, &rc);
	bool rings = rc == 0 && strstr(g, "Current hardware settings");
	value_after(g, "Current hardware settings", "RX:", v, sizeof(v));
	same_number(ifname, "rx ring", prof, "rings.rx", rings ? v : "");
	value_after(g, "Current hardware settings", "TX:", v, sizeof(v));
	same_number(ifname, "tx ring", prof, "rings.tx", rings ? v : "");
	free(g);

	snprintf(cmd, sizeof(cmd), "%sethtool -l %s 2>&1", pre, ifname);
	char *l = run(cmd, &rc);
	bool ch = rc == 0 && strstr(l, "Current hardware settings");
	value_after(l, "Current hardware settings", "Combined:", v, sizeof(v));
	same_number(ifname, "combined channels", prof, "channels.combined", ch ? v : "");
	free(l);

	snprintf(cmd, sizeof(cmd), "%sethtool -k %s 2>&1", pre, ifname);
	char *k = run(cmd, &rc);
	assert_int_equal(rc, 0);
	value_after(k, NULL, "tx-tcp-segmentation:", v, sizeof(v));
	same_flag(ifname, "TSO", prof, "offloads.tso", v);
	value_after(k, NULL, "generic-segmentation-offload:", v, sizeof(v));
	same_flag(ifname, "GSO", prof, "offloads.gso", v);
	value_after(k, NULL, "generic-receive-offload:", v, sizeof(v));
	same_flag(ifname, "GRO", prof, "offloads.gro", v);
	value_after(k, NULL, "large-receive-offload:", v, sizeof(v));
	same_flag(ifname, "LRO", prof, "offloads.lro", v);
	free(k);

	snprintf(cmd, sizeof(cmd), "%sethtool -c %s 2>&1", pre, ifname);
	char *c = run(cmd, &rc);
	bool co = rc == 0 && strstr(c, "rx-usecs:");
	static const char *const keys[][2] = {{"rx-usecs:", "coalesce.rx_usecs"},
					      {"rx-frames:", "coalesce.rx_frames"},
					      {"tx-usecs:", "coalesce.tx_usecs"},
					      {"tx-frames:", "coalesce.tx_frames"}};
	for (unsigned i = 0; i < 4; i++) {
		value_after(c, NULL, keys[i][0], v, sizeof(v));
		same_number(ifname, keys[i][0], prof, keys[i][1], co ? v : "");
	}
	free(c);

	snprintf(cmd, sizeof(cmd), "%sethtool -x %s 2>&1", pre, ifname);
	char *x = run(cmd, &rc);
	const char *hf = strstr(x, "RSS hash function:");
	const char *want = "";
	static const char *const funcs[] = {"toeplitz", "xor", "crc32"};
	for (unsigned i = 0; hf && i < 3; i++) {
		value_after(hf, NULL, funcs[i], v, sizeof(v));
		if (!strcmp(v, ": on"))
			want = funcs[i];
	}
	const char *mine = json_object_get_string(jget(prof, "rss.hash_function"));
	if (strcmp(want, mine))
		fail_msg("%s RSS hash: ethtool says '%s', iochar '%s'", ifname, want, mine);
	printf("%s: rings, channels, offloads, coalescing and RSS hash as ethtool (%s)\n",
	       ifname, mine[0] ? mine : "no RSS");
	free(x);
}

/* Every interface iochar's inventory lists, run under pre ("" or "ip
 * netns exec NS "). */
static unsigned check_all(const char *pre)
{
	char cmd[512];
	int rc;

	snprintf(cmd, sizeof(cmd), "%s'%s' inventory --output-format=json 2>/dev/null", pre,
		 iochar_path());
	char *out = run(cmd, &rc);
	assert_int_equal(rc, 0);
	json_object *inv = json_tokener_parse(out);
	assert_non_null(inv);
	json_object *nets = jget(inv, "net");
	unsigned n = (unsigned)json_object_array_length(nets);
	for (unsigned i = 0; i < n; i++) {
		json_object *ni = json_object_array_get_idx(nets, i);
		json_object *prof = jget(ni, "profile");
		assert_true(json_object_is_type(prof, json_type_object));
		check_iface(pre, json_object_get_string(jget(ni, "name")), prof);
	}
	json_object_put(inv);
	free(out);
	return n;
}

static bool have_ethtool(void)
{
	if (system("command -v ethtool >/dev/null 2>&1") == 0)
		return true;
	printf("SKIP: the ethtool command is not installed (scripts/deps.sh installs it)\n");
	return false;
}

static void test_this_machine(void **state)
{
	(void)state;
	if (!have_ethtool())
		return;
	assert_true(check_all("") >= 1);
}

/* A veth pair in a namespace of the test's own: another driver, with
 * channels and features but no rings or coalescing. */
static void test_veth_in_namespace(void **state)
{
	char ns[48], cmd[320], pre[80];

	(void)state;
	if (!have_ethtool())
		return;
	if (geteuid() != 0) {
		printf("SKIP: making a network namespace needs root\n");
		return;
	}
	snprintf(ns, sizeof(ns), "iochar-nicp-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd),
		 "ip netns add %s && ip -n %s link add va type veth peer name vb && "
		 "ip -n %s link set va up && ip -n %s link set vb up", ns, ns, ns, ns);
	int rc = system(cmd);
	snprintf(pre, sizeof(pre), "ip netns exec %s ", ns);
	unsigned n = rc == 0 ? check_all(pre) : 0;
	snprintf(cmd, sizeof(cmd), "ip netns del %s", ns);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(n, 3); /* lo, va, vb */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_veth_in_namespace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

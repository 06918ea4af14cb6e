/* test_mpi_mesh.c - `iochar net mesh` under mpirun --oversubscribe -np 3
 * on this machine, every server on 127.0.0.1: every ordered pair measured
 * once with bytes both ends, the ring's N pairs, the JSON and --out
 * results, a server that cannot bind or a killed rank ending the sweep
 * with its rank and host named, and the one-line refusal without mpirun. SKIP without
 * mpirun or the MPI build. Tests run 1 s each pair. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "csv_table.h"
#include "harness.h"
#include "mpi_harness.h"

/* The pairs of a net-mesh document: n of them, each (client, server) in
 * want[] (in this order), with data counted at both ends. */
static void check_pairs(json_object *o, const char *mode, int n, const int (*want)[2])
{
	assert_string_equal(json_object_get_string(jget(o, "kind")), "net-mesh");
	assert_string_equal(json_object_get_string(jget(o, "mode")), mode);
	assert_int_equal(json_object_array_length(jget(o, "hosts")), 3);
	assert_int_equal(jget_u64(o, "pairs_expected"), (uint64_t)n);
	assert_int_equal(jget_u64(o, "pairs_measured"), (uint64_t)n);
	json_object *pairs = jget(o, "pairs");
	assert_int_equal(json_object_array_length(pairs), (size_t)n);
	for (int i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pairs, (size_t)i);
		assert_int_equal(jget_u64(p, "client"), (uint64_t)want[i][0]);
		assert_int_equal(jget_u64(p, "server"), (uint64_t)want[i][1]);
		assert_string_equal(json_object_get_string(jget(p, "server_addr")), "127.0.0.1");
		assert_true(jget_u64(p, "sender_bytes") > 0);
		assert_true(jget_u64(p, "receiver_bytes") > 0);
		assert_true(jget_double(p, "throughput_bps") > 0);
		assert_true(jget_u64(p, "port") > 0);
	}
}

static const int all_pairs[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
static const int ring_pairs[3][2] = {{0, 1}, {1, 2}, {2, 0}};

/* Every ordered pair, one at a time: N*(N-1) = 6 entries, as JSON on
 * stdout and in --out DIR/results.json. */
static void test_mesh_every_pair(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' net mesh "
		    "-t 1 -B 127.0.0.1 --json --out res >out.json 2>err", dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "net mesh failed");
	snprintf(path, sizeof(path), "%s/out.json", dir);
	json_object *o = load_json(path);
	check_pairs(o, "mesh", 6, all_pairs);
	json_object_put(o);
	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	o = load_json(path);
	check_pairs(o, "mesh", 6, all_pairs);
	json_object_put(o);
}

/* --ring: r -> r + 1 mod 3 at once, 3 entries; servers on fixed ports,
 * base + rank; the text matrix on stdout. */
static void test_ring(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	unsigned base = 20000 + (unsigned)getpid() % 30000;
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' net mesh "
		    "-t 1 -B 127.0.0.1 -p %u --ring --out res >out 2>err", dir, mpi_bin, base);
	if (rc != 0)
		fail_with(dir, "net mesh --ring failed");
	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	json_object *o = load_json(path);
	check_pairs(o, "ring", 3, ring_pairs);
	for (int i = 0; i < 3; i++) /* rank r serves on base + r */
		assert_int_equal(jget_u64(json_object_array_get_idx(jget(o, "pairs"), (size_t)i),
					  "port"), base + (unsigned)ring_pairs[i][1]);
	json_object_put(o);
	snprintf(path, sizeof(path), "%s/out", dir);
	char *out = slurp(path);
	expect_has(out, "net ring: 3 hosts, 3 pair(s) at once");
	expect_has(out, "\nGbit/s ");
	expect_has(out, "\nretransmits ");
	free(out);
}

/* --ring --output-format=csv: a header and one row per pair, the same
 * pairs and counts as the --out JSON of the same run. */
static void test_ring_csv(void **state)
{
	static const char *const cols[] = {"client", "server", "port", "streams",
					   "sender_bytes", "receiver_bytes",
					   "rtt_us"};
	const char *dir = *state;
	char path[4200];
	struct csv_table t;
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' net mesh "
		    "-t 1 -B 127.0.0.1 --ring --output-format=csv --out res >out.csv 2>err",
		    dir, mpi_bin);
	if (rc != 0)
		fail_with(dir, "net mesh --ring --output-format=csv failed");
	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	json_object *o = load_json(path);
	check_pairs(o, "ring", 3, ring_pairs);
	snprintf(path, sizeof(path), "%s/out.csv", dir);
	char *out = slurp(path);
	assert_true(!strncmp(out, "client,server,client_host,", 26));
	csv_table_parse(&t, out);
	assert_int_equal(t.nr_rows, 3);
	for (unsigned i = 0; i < 3; i++) {
		json_object *p = json_object_array_get_idx(jget(o, "pairs"), i);
		for (unsigned k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
			assert_int_equal(csv_get_u64(&t, i, cols[k]), jget_u64(p, cols[k]));
		assert_string_equal(csv_get(&t, i, "server_addr"), "127.0.0.1");
		assert_string_equal(csv_get(&t, i, "client_host"),
				    json_object_get_string(jget(p, "client_host")));
	}
	csv_table_free(&t);
	free(out);
	json_object_put(o);
}

/* Servers that cannot bind (an address not on this host): the first
 * pair's server, rank 1, is named on rank 0 and every rank exits 1,
 * with no matrix printed. */
static void test_server_cannot_bind(void **state)
{
	const char *dir = *state;
	char path[4200];
	need_mpi();
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' net mesh "
		    "-t 1 -B 192.0.2.1 >out 2>err", dir, mpi_bin);
	assert_int_equal(rc, 1);
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "iochar: net mesh: rank 1 (");
	expect_has(err, "cannot serve on 192.0.2.1");
	free(err);
	snprintf(path, sizeof(path), "%s/out", dir);
	char *out = slurp(path);
	assert_null(strstr(out, "Gbit/s"));
	free(out);
}

/* Rank 1 killed while it serves the first pair (0 -> 1), under mpirun
 * --enable-recovery (without it mpirun ends every rank itself): rank 0
 * ends the sweep, names rank 1 and its host, exits 1, no matrix; all
 * bounded by the pair's length plus the timeouts. */
static void test_killed_rank_ends_mesh(void **state)
{
	const char *dir = *state;
	char path[4200], args[256];
	need_mpi();
	if (system("command -v ss >/dev/null 2>&1") != 0) {
		printf("SKIP: ss not found (iproute2)\n");
		skip();
	}
	snprintf(args, sizeof(args), "net mesh -t 3 --timeout 1000 -B 127.0.0.1");
	long victim;
	pid_t pid = mpi_spawn_victim(dir, args, "out", &victim);
	/* rank 1 listens on 127.0.0.1 once it serves the first pair (Open
	 * MPI's own listeners are on the wildcard address) */
	int listening = 1;
	for (int i = 0; i < 600 && listening; i++) {
		listening = sh("ss -Hltnp src 127.0.0.1 | grep -q 'pid=%ld,'", victim);
		if (listening)
			usleep(50000);
	}
	assert_int_equal(listening, 0);
	assert_int_equal(kill((pid_t)victim, SIGKILL), 0);
	time_t t0 = time(NULL);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(time(NULL) - t0 < 60); /* loose: sanitizer builds exit slowly */
	if (mpi_rank0_status(dir) != 1)
		fail_with(dir, "rank 0 did not exit 1");
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "iochar: net mesh: ");
	expect_has(err, "rank 1 (");
	free(err);
	snprintf(path, sizeof(path), "%s/out", dir);
	char *out = slurp(path);
	assert_null(strstr(out, "Gbit/s"));
	free(out);
}

/* Without mpirun: one line, exit 2. With one rank: exit 2 too. The build
 * without MPI under mpirun: that it needs the MPI build, once, exit 2. */
static void test_needs_mpirun(void **state)
{
	const char *dir = *state;
	char path[4200];
	int rc = sh("cd '%s' && '%s' net mesh -t 1 >out 2>err", dir, mpi_bin);
	assert_int_equal(rc, 2);
	snprintf(path, sizeof(path), "%s/err", dir);
	char *err = slurp(path);
	expect_has(err, "net mesh needs mpirun");
	assert_non_null(strchr(err, '\n'));
	assert_int_equal(strchr(err, '\n')[1], '\0'); /* one line */
	free(err);
	need_mpi();
	rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 1 '%s' net mesh -t 1 "
		"-B 127.0.0.1 >out 2>err", dir, mpi_bin);
	assert_int_not_equal(rc, 0);
	err = slurp(path);
	expect_has(err, "2 or more ranks");
	free(err);
	/* the build without MPI (make MPI=0) under mpirun: once, from rank 0 */
	char nb[4096];
	const char *nompi = getenv("IOCHAR_NOMPI") ? getenv("IOCHAR_NOMPI") : "build-nompi/iochar";
	if (!realpath(nompi, nb))
		return;
	rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 2 '%s' net mesh -t 1 "
		">out 2>err", dir, nb);
	assert_int_equal(rc, 2);
	err = slurp(path);
	const char *p = strstr(err, "need the MPI build");
	if (!p || strstr(p + 1, "need the MPI build"))
		fail_msg("want it said once:\n%s", err);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mesh_every_pair, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_ring, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_ring_csv, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_server_cannot_bind, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_killed_rank_ends_mesh, mpi_setup, mpi_teardown),
		cmocka_unit_test_setup_teardown(test_needs_mpirun, mpi_setup, mpi_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

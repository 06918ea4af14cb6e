/* test_mpi_pairs.c - the rank-pair sweep net mesh is built on
 * (dist_pairs, dist_send/recv, dist_gather, dist_sync): this binary, started
 * by mpirun, is itself the ranks; every pair once in order (and the ring),
 * tokens really exchanged between the two ranks of each pair, and one
 * rank's failure named on all. SKIP without mpirun or the MPI build. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist/dist.h"
#include "harness.h"
#include "mpi_harness.h"

/* Rank mode: this binary started by mpirun runs the sweeps. */

struct pair_log {
	int n;
	int a[64], b[64]; /* (client, server) in the order this rank saw them */
};

/* Client sends its rank, server checks it came from the peer and
 * answers; MPI_PAIRS_FAIL=R makes rank R fail as a client. */
static int pair_cb(void *arg, int peer, bool client, struct ioc_err *err)
{
	struct dist *d = ((void **)arg)[0];
	struct pair_log *log = ((void **)arg)[1];
	int me = dist_rank(d), got = -1, ret;
	const char *fail = getenv("MPI_PAIRS_FAIL");

	if (client && fail && atoi(fail) == me)
		return err_set(err, EIO, "client %d -> %d: made to fail", me, peer);
	if (client) {
		ret = dist_send(d, peer, &me, sizeof(me), err);
		if (!ret)
			ret = dist_recv(d, peer, &got, sizeof(got), err);
		if (!ret && got != peer)
			ret = err_set(err, EPROTO, "answer from %d, want %d", got, peer);
	} else {
		ret = dist_recv(d, peer, &got, sizeof(got), err);
		if (!ret && got != peer)
			ret = err_set(err, EPROTO, "token from %d, want %d", got, peer);
		if (!ret)
			ret = dist_send(d, peer, &me, sizeof(me), err);
	}
	if (!ret && log->n < 64) {
		log->a[log->n] = client ? me : peer;
		log->b[log->n] = client ? peer : me;
		log->n++;
	}
	return ret;
}

static int rank_main(void)
{
	struct dist *d = NULL;
	struct ioc_err err = {0};
	int status = 0;

	if (dist_start(&d, &err) || !d) {
		fprintf(stderr, "rank: %s\n", err.msg);
		return 2;
	}
	for (int ring = 0; ring < 2 && !status; ring++) {
		struct pair_log log = {0};
		void *arg[2] = {d, &log};
		int ret = dist_pairs(d, ring, 1000000000ull, pair_cb, arg, &err);
		struct pair_log *all = calloc((size_t)dist_size(d), sizeof(*all));
		if (!ret)
			ret = dist_gather(d, &log, sizeof(log), all, &err);
		if (ret) {
			if (dist_is_root(d))
				printf("error: %s\n", err.msg);
			status = 1;
		} else if (dist_is_root(d)) {
			printf("%s:", ring ? "ring" : "mesh");
			for (int r = 0; r < dist_size(d); r++)
				for (int i = 0; i < all[r].n; i++)
					if (all[r].a[i] == r) /* each pair once, by its client */
						printf(" %d-%d", all[r].a[i], all[r].b[i]);
			printf("\n");
		}
		free(all);
	}
	return dist_finish(d, status);
}

static void test_pairs_in_order(void **state)
{
	const char *dir = *state;
	char self[4096], path[4200];
	need_mpi();
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	int rc = sh("cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' >out 2>err",
		    dir, self);
	if (rc != 0)
		fail_with(dir, "pair sweep failed");
	snprintf(path, sizeof(path), "%s/out", dir);
	char *out = slurp(path);
	/* clients in rank order; each rank's own pairs in the sweep's order */
	expect_has(out, "mesh: 0-1 0-2 1-0 1-2 2-0 2-1\n");
	expect_has(out, "ring: 0-1 1-2 2-0\n");
	free(out);
	rc = sh("cd '%s' && MPI_PAIRS_FAIL=1 " RUN_TIMEOUT "mpirun --oversubscribe -np 3 '%s' "
		">out 2>err", dir, self);
	assert_int_not_equal(rc, 0);
	out = slurp(path);
	expect_has(out, "error: rank 1 (");
	expect_has(out, "made to fail");
	free(out);
}

int main(void)
{
	unsigned ranks;
	if (dist_launched(&ranks))
		return rank_main();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pairs_in_order, mpi_setup, mpi_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

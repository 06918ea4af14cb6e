/* mesh_run.h - running `iochar net mesh` (docs/net.md, "net mesh"): every
 * host pair's TCP throughput over MPI. Each rank serves tests on the
 * address MPI knows for its host; the ranks of one ordered pair at a time
 * run one test (client -> server) while every other rank waits
 * (dist_pairs), or with ring every rank sends to the next at once. Rank 0
 * gathers the rows into the matrix (net/mesh.h), which the caller prints.
 */
#ifndef IOCHAR_NET_MESH_RUN_H
#define IOCHAR_NET_MESH_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "net/mesh.h"
#include "net/params.h"
#include "util/err.h"

struct dist; /* dist/dist.h: only mesh_run.c, its one user in net/, needs it */

struct net_mesh_opts {
	struct net_params params; /* what each test asks for */
	bool ring;		  /* rank r -> r + 1 mod N, all at once */
	const char *bind;	  /* address every rank serves on; NULL = the
				   * address of the host name MPI reports */
	unsigned port_base;	  /* 0: any free port; else rank r uses
				   * base + r */
	unsigned timeout_ms;	  /* each control step of a test */
	const atomic_bool *stop;  /* may be NULL */
};

/* This rank's address, numeric, into out: o->bind as given, else the host
 * name MPI reported, resolved (the first address), so every server is
 * reachable where MPI says the host is. 0 or a usage error naming it. */
int net_mesh_addr(struct dist *d, const struct net_mesh_opts *o, char *out,
		  size_t len, struct ioc_err *err);

/* Run every test the mode asks for from this rank, serving on addr (from
 * net_mesh_addr); every rank calls it together. On rank 0, *m gets the
 * whole matrix (free it with net_mesh_run_free); on the others m is left
 * zeroed. 0, -EINTR when o->stop was set, or -errno with a message in err
 * (the same on every rank). */
int net_mesh_run(struct dist *d, const struct net_mesh_opts *o,
		 const char *addr, struct net_mesh *m, struct ioc_err *err);

/* Free what net_mesh_run put in m (a zeroed m is fine). */
void net_mesh_run_free(struct net_mesh *m);

#endif

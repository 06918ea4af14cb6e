/* mesh.h - the cluster's network matrix (`iochar net mesh`): one cell per
 * ordered pair of ranks (client -> server), what the client measured, and
 * its output as text, JSON ("kind": "net-mesh", schema in docs/net.md) and
 * a results directory.
 *
 * Cells travel between ranks as bytes (every rank runs the same binary,
 * which dist_agree checks), so they hold no pointers.
 */
#ifndef IOCHAR_NET_MESH_H
#define IOCHAR_NET_MESH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "inventory/environment.h"
#include "net/params.h"
#include "net/result.h"
#include "base/json_writer.h"
#include "util/err.h"

#define NET_MESH_HOST_MAX 256

struct net_mesh_cell {
	uint8_t measured;        /* this pair ran and its figures are below */
	char server[64];         /* the server's address as the client used it */
	uint16_t port;
	uint32_t streams;
	uint64_t sender_bytes;   /* what the client wrote */
	uint64_t receiver_bytes; /* what the server read */
	double seconds;
	double receiver_bps;     /* the pair's throughput */
	int64_t retransmits;     /* by the client's (sending) sockets; -1 = unknown */
	uint32_t rtt_us;         /* first stream's smoothed RTT at the end */
};

struct net_mesh {
	int size;                /* ranks */
	bool ring;               /* only (r, r + 1 mod size), all at once */
	struct net_params params;
	char (*hosts)[NET_MESH_HOST_MAX]; /* per rank */
	struct net_mesh_cell *cells;     /* size * size, [client * size + server] */
};

/* Fill c from a finished client test r. */
void net_mesh_cell_from(struct net_mesh_cell *c, const struct net_result *r);

/* Cells of m that the mode asks for (N*(N-1), or N with ring) and how
 * many of those were measured. */
unsigned net_mesh_expected(const struct net_mesh *m);
unsigned net_mesh_measured(const struct net_mesh *m);

/* The matrix as text: Gbit/s (rows send to columns), then retransmits. */
void net_mesh_text(FILE *f, const struct net_mesh *m);

/* The JSON document; env may be NULL. */
void net_mesh_json(struct jw *w, const struct net_mesh *m,
		   const struct environment *env);

/* Write dir/results.json (dir created if missing) by the results-file
 * rules (net_write_json_dir). 0 or -errno + message. */
int net_mesh_write_dir(const char *dir, bool force, const struct net_mesh *m,
		       const struct environment *env, struct ioc_err *err);

#endif

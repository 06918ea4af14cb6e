/* result.h - the figures of one network test, as either end saw them,
 * and their output: text, the JSON document, a results directory.
 *
 * Directions: dir[0] is client to server, dir[1] server to client (used
 * with -R or --bidir). For each, "sender" figures are what the sending end
 * counted as written, "receiver" figures what the receiving end read; one
 * of the two comes from the peer's exchanged results.
 */
#ifndef IOCHAR_NET_RESULT_H
#define IOCHAR_NET_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "inventory/environment.h"
#include "net/exchange.h"
#include "net/iface.h"
#include "inventory/nic_profile.h"
#include "net/params.h"
#include "stats/cpuload.h"
#include "net/proto.h"
#include "net/streams.h"
#include "net/tcpinfo.h"
#include "base/json_writer.h"
#include "util/err.h"

enum { NET_C2S = 0, NET_S2C = 1 };

struct net_stream_result {
	unsigned id;
	bool sender;          /* this end wrote on it */
	int dir;              /* NET_C2S or NET_S2C */
	uint64_t bytes;       /* this end's count */
	uint64_t peer_bytes;  /* the other end's count, if peer_known */
	bool peer_known;
	double seconds;       /* this end's time moving data */
	int64_t retransmits;  /* by the sending end; -1 = unknown */
	struct net_tcpinfo tcp; /* this end's last TCP_INFO sample */
	struct net_sock_ends ends; /* its descriptor and addresses, this end's */
	int err;              /* this end's I/O error on it (-errno), 0 */
};

struct net_dir_total {
	bool used;
	unsigned streams;
	uint64_t sender_bytes, receiver_bytes;
	double seconds;
	double sender_bps, receiver_bps;
	int64_t retransmits;  /* -1 = unknown */
};

struct net_cpu {
	bool known;
	double user_s, system_s;          /* CPU seconds over the test */
	double total_pct, user_pct, system_pct; /* of one CPU, as iperf3 */
};

struct net_interval {
	double start, end;    /* seconds from the test start */
	uint64_t bytes;       /* all streams, this end's count */
	uint64_t *stream_bytes;        /* per stream (nr_streams), owned */
	struct net_tcpinfo *stream_tcp; /* per stream, owned */
};

struct net_result {
	struct net_params params;  /* as run (the secret blanked) */
	char role[8];              /* "client" or "server" */
	char local_addr[64], peer_addr[64];
	char asked_host[256];      /* client: the server as the user named it */
	char peer_version[32];     /* server: the client's client_version */
	double seconds;            /* test length on this end */
	unsigned threads;          /* stream threads on this end */
	bool zerocopy;
	unsigned nr_streams;
	struct net_stream_result *streams;  /* owned */
	struct net_dir_total dir[2];
	struct net_cpu cpu_local, cpu_remote;
	char congestion[NET_CONG_MAX], congestion_remote[NET_CONG_MAX];
	unsigned path_mtu;
	struct net_iface iface;    /* of the first data connection */
	struct net_sock_ends ctrl; /* the control connection's ends */
	char cookie[NET_COOKIE_SIZE];
	unsigned mss_default;      /* TCP_MAXSEG of the first data connection */
	unsigned sndbuf, rcvbuf;   /* its SO_SNDBUF / SO_RCVBUF, as set */
	unsigned nr_intervals;
	struct net_interval *intervals; /* owned */
	/* client: the server's report (--get-server-output), as the peer
	 * sent it; owned, NULL = none */
	char *server_output;
	bool server_output_is_json;
	/* the adapter of the first data connection, this end's, and the
	 * peer's as it sent it (iochar peers only: JSON text, owned, NULL) */
	struct nic_profile nic;
	char *peer_nic_json;
	/* the whole host's CPU over the test, this end's and the peer's */
	struct cpuload host_start;
	struct cpu_shares host_cpu, host_cpu_remote;
};

/* Fill r's streams, totals and CPU from the finished streams s (n of
 * them), this end's CPU seconds, and the peer's results (NULL if none).
 * client: this end is the client. 0 or -ENOMEM. */
int net_result_build(struct net_result *r, const struct net_stream *s,
		     unsigned n, bool client, double user_s, double sys_s,
		     const struct net_exchange *peer);

/* The facts of the test's sockets that do not change while it runs:
 * the control connection's ends (ctrl) and, from the first data
 * connection (fd0, -1 if none), the interface, path MTU, congestion
 * control, MSS and buffer sizes. */
void net_result_socket_facts(struct net_result *r, int ctrl, int fd0);

/* Append one interval to r: each of the n running streams' bytes since
 * last_bytes (updated) and its TCP_INFO, from *last_ns to now (both
 * monotonic, seconds counted from t0; *last_ns updated). 0 or -ENOMEM. */
int net_result_add_interval(struct net_result *r, const struct net_stream *s,
			    unsigned n, uint64_t t0, uint64_t *last_ns,
			    uint64_t *last_bytes);

/* The whole host's CPU from now (call as the test starts) to
 * net_result_host_cpu_end (as it ends, before the results exchange). */
void net_result_host_cpu_begin(struct net_result *r);
void net_result_host_cpu_end(struct net_result *r);

/* This end's results message for the peer, from r. */
int net_result_exchange(const struct net_result *r, struct net_exchange *ex);

/* Sum of receiver bits per second over the directions used. */
double net_result_bps(const struct net_result *r);

/* Free what r owns; r may be NULL. */
void net_result_free(struct net_result *r);

/* The JSON document ({"iochar_version", "kind": "net", ...}, schema in
 * docs/net.md) for r; env may be NULL. */
void net_result_json(struct jw *w, const struct net_result *r,
		     const struct environment *env);

/* iperf3 3.12's JSON document (-J) for r, as iperf3 would write it at
 * this end (client or server), from what iochar measured: start,
 * intervals, end (streams, sum_sent, sum_received, their _bidir_reverse
 * twins, cpu_utilization_percent, congestion). Schema: docs/net.md. */
void net_result_iperf3_json(struct jw *w, const struct net_result *r);

/* What a server sends back for --get-server-output: its iperf3 JSON
 * (json) or its text summary, as a new string (free), NULL when out of
 * memory. */
char *net_result_server_output(const struct net_result *r, bool json);

/* Human-readable summary: per stream and per direction. */
void net_result_text(FILE *f, const struct net_result *r);

/* One interval line per stream and a sum line (text mode, -i). */
void net_interval_text(FILE *f, const struct net_result *r, unsigned i);

/* May DIR/results.json be written (--out DIR)? Only looks: DIR missing,
 * or a directory whose results.json is absent or a results file iochar
 * wrote (output/results_file.h). 0, or -errno with a usage line. */
int net_out_check(const char *dir, bool force, struct ioc_err *err);

/* Write DIR/results.json (DIR made if missing) by the results-file rules
 * (never over a file iochar did not write, renamed into place whole), its
 * content from emit(w, arg, env): the one writer of net and net mesh
 * result directories. 0 or -errno with a message naming the path. */
struct jw;
typedef void (*net_json_emit_fn)(struct jw *w, const void *arg,
				 const struct environment *env);
int net_write_json_dir(const char *dir, bool force, net_json_emit_fn emit,
		       const void *arg, const struct environment *env,
		       struct ioc_err *err);

/* Write dir/results.json (dir created if missing) by the results-file
 * rules (net_write_json_dir). 0 or -errno + message. */
int net_result_write_dir(const char *dir, bool force, const struct net_result *r,
			 const struct environment *env, struct ioc_err *err);

#endif

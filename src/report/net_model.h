/* net_model.h - what `iochar report` and `compare` know of a network
 * result: the results.json of `iochar net client|server --out DIR`
 * ("kind": "net", docs/net.md), read by net_parse.c.
 *
 * A net result set (rs_set.net != NULL) has no steps; compare makes one
 * row per direction of it, the report a "Network" section. Strings are
 * malloc'd and owned; rs_net_free releases them.
 */
#ifndef IOCHAR_REPORT_NET_MODEL_H
#define IOCHAR_REPORT_NET_MODEL_H

#include <stdbool.h>
#include <stdint.h>

enum { RS_NET_C2S, RS_NET_S2C, RS_NET_NR_DIR };

struct rs_net_dir {
	bool present;
	unsigned streams;
	double seconds;
	uint64_t sender_bytes, receiver_bytes;
	double receiver_bps;
	int64_t retransmits;       /* -1: unknown */
	double *iv_bps;            /* per interval, this direction's streams */
	double *iv_retr;           /* per interval, their retransmits; NAN unknown */
	double *iv_end;            /* per interval, its end in seconds */
	unsigned nr_iv;
};

struct rs_net_stream {
	unsigned id, dir;          /* dir: RS_NET_C2S or RS_NET_S2C */
	bool sender;               /* this end's role on it */
	uint64_t bytes;
	double bps;
	int64_t retransmits;       /* -1: unknown */
	unsigned snd_cwnd, rtt_us, pmtu, snd_mss;
};

struct rs_net {
	char *role;                /* "client" or "server" */
	char *peer;
	unsigned parallel, duration_s, len, window;
	bool reverse, bidir, zerocopy;
	char *congestion;
	double seconds, throughput_bps;
	struct rs_net_dir dir[RS_NET_NR_DIR];
	struct rs_net_stream *streams;
	unsigned nr_streams;
	char *if_name, *if_driver;
	unsigned mtu, rx_queues, tx_queues, path_mtu;
	/* what was used and what each side cost; NAN, -1 or NULL unknown
	 * (results from before iochar recorded them) */
	char *congestion_used, *congestion_remote;
	double cpu_s_per_gbit[2];  /* [0] this end, [1] the peer */
	double host_busy[2], host_softirq[2]; /* % of all CPUs of each host */
	struct rs_net_nic {
		char *driver;
		double mtu;
		int tso, gso, gro, lro;     /* 1, 0, -1 unknown */
		double rx_ring, tx_ring, combined, rss_queues, rx_usecs, rx_frames;
		char *rss_hfunc;
	} nic[2];                  /* [0] this end's adapter, [1] the peer's */
};

/* A net mesh result ("kind": "net-mesh"): every ordered pair of hosts
 * measured, the client sending. */
struct rs_mesh_pair {
	unsigned client, server;   /* ranks, < nr_hosts */
	double bps;                /* the receiver's */
	int64_t retransmits;       /* -1: unknown */
};

struct rs_mesh {
	char *mode;                /* "mesh" or "ring" */
	unsigned parallel, duration_s, pairs_expected;
	char **hosts;              /* by rank */
	unsigned nr_hosts;
	struct rs_mesh_pair *pairs;
	unsigned nr_pairs;
};

/* "client_to_server" / "server_to_client". */
extern const char *const rs_net_dir_name[RS_NET_NR_DIR];

/* The direction as the client sees it: "send" or "reverse". */
const char *rs_net_dir_short(unsigned dir);

void rs_net_free(struct rs_net *n);
void rs_mesh_free(struct rs_mesh *m);

#endif

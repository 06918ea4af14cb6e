/* exchange.h - the EXCHANGE_RESULTS messages: what each end tells the
 * other after a test. iperf3 3.x requires "cpu_util_total",
 * "cpu_util_user", "cpu_util_system" (percent of one CPU over the test),
 * "sender_has_retransmits" and "streams": [{"id", "bytes", "retransmits",
 * "jitter", "errors", "packets", "start_time", "end_time"}]; stream ids are
 * matched against its own, so both ends must number streams alike
 * (net_stream_id).
 */
#ifndef IOCHAR_NET_EXCHANGE_H
#define IOCHAR_NET_EXCHANGE_H

#include <stdint.h>

#include <json-c/json.h>

#include "net/params.h"
#include "stats/cpuload.h"
#include "util/err.h"

struct net_peer_stream {
	unsigned id;
	uint64_t bytes;      /* sent by a sender stream, received by a receiver */
	int64_t retransmits; /* -1: not a sender, or not known */
	double start_time, end_time; /* seconds from the stream's start */
};

struct net_exchange {
	double cpu_total, cpu_user, cpu_system; /* percent of one CPU */
	int sender_has_retransmits;             /* 1, 0, or -1 (receiver) */
	char congestion_used[NET_CONG_MAX];
	unsigned nr_streams;
	struct net_peer_stream *streams;        /* owned */
	/* iperf3's --get-server-output: the server's report of the test,
	 * "server_output_json" (JSON text) or "server_output_text"; owned,
	 * NULL = none */
	char *server_output;
	bool server_output_is_json;
	/* iochar extensions (a stock iperf3 ignores them and sends none):
	 * the sender's adapter, "iochar_nic" (JSON text of {"interface",
	 * "profile"}; owned, NULL = none) and its whole host's CPU over the
	 * test, "iochar_host_cpu" */
	char *nic_json;
	struct cpu_shares host_cpu;
};

/* iperf3's stream ids: the first stream is 1, the k-th (k >= 2) is k + 1
 * (iperf3 counts from 2 and steps once per stream already present), so
 * 1, 3, 4, 5, ... index is 0-based. */
unsigned net_stream_id(unsigned index);

/* Read a results message; at most max_streams streams are accepted. On
 * success ex owns its streams (net_exchange_free). -EINVAL + message for
 * a missing or mistyped member. */
int net_exchange_from_json(json_object *j, unsigned max_streams,
			   struct net_exchange *ex, struct ioc_err *err);

/* The message for ex; a new object, NULL when out of memory. */
json_object *net_exchange_to_json(const struct net_exchange *ex);

/* Free ex's streams; ex may be NULL. */
void net_exchange_free(struct net_exchange *ex);

#endif

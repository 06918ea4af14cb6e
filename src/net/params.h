/* params.h - the parameters of one test, and their iperf3 JSON form (the
 * PARAM_EXCHANGE message).
 *
 * iperf3 3.x sends {"tcp": true, "omit": 0, "time": 10, "parallel": 1,
 * "len": 131072, "reverse": true, "bidirectional": true, "window": N,
 * "congestion": "cubic", "client_version": "3.12", ...}; a flag such as
 * "reverse" counts when present. iochar adds one member, "iochar_secret",
 * which stock iperf3 ignores (see docs/net.md).
 */
#ifndef IOCHAR_NET_PARAMS_H
#define IOCHAR_NET_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

#define NET_CONG_MAX 16     /* TCP_CA_NAME_MAX */
#define NET_SECRET_MAX 128
#define NET_DEFAULT_LEN (128u * 1024)

struct net_params {
	unsigned parallel;   /* streams per direction, >= 1 */
	unsigned duration;   /* seconds ("time"; whole seconds on the wire) */
	unsigned omit;       /* seconds iperf3 would leave out; accepted, 0 sent */
	uint32_t len;        /* bytes per write ("len", iperf3's -l) */
	uint32_t window;     /* SO_SNDBUF/SO_RCVBUF, 0 = kernel autotuning */
	uint32_t mss;        /* TCP_MAXSEG, 0 = default */
	bool reverse;        /* the server sends */
	bool bidir;          /* both send, parallel streams each way */
	bool nodelay;
	bool udp, sctp;      /* asked for; iochar serves TCP only */
	uint64_t bytes;      /* iperf3 -n / -k: asked for; iochar runs on time only */
	uint64_t blocks;
	uint64_t bandwidth;  /* bits/s per stream (iperf3 -b), 0 = unlimited */
	uint64_t fqrate;     /* bits/s per stream for fq pacing (--fq-rate) */
	unsigned tos;        /* IP type of service / traffic class (-S) */
	bool get_server_output; /* iperf3 --get-server-output */
	/* asked for and not implemented by iochar: the server refuses them
	 * with iperf3's "not implemented" (IEUNIMP) rather than ignore them */
	uint64_t burst, flowlabel;
	bool authtoken, server_affinity, repeating_payload;
	char congestion[NET_CONG_MAX]; /* "" = the system's default */
	char client_version[32];
	char secret[NET_SECRET_MAX];   /* iochar extension, "" = none */
};

/* iperf3's defaults: 1 stream, 10 s, 128 KiB writes. */
void net_params_default(struct net_params *p);

/* Read the members of a parameter message. Unknown members are ignored,
 * as iperf3 does; a known one with the wrong type or out of its type's
 * range is an error (-EINVAL, message names the member). */
int net_params_from_json(json_object *j, struct net_params *p,
			 struct ioc_err *err);

/* The parameter message for p, as iperf3 3.12 would send it, with
 * client_version set to version. Returns a new object (json_object_put)
 * or NULL when out of memory. */
json_object *net_params_to_json(const struct net_params *p,
				const char *version);

#endif

/* netio_opts.c - the net engine's options, as fio 3.33's engines/net.c
 * declares them, and its init's refusals. See netio_opts.h. */
#define _GNU_SOURCE
#include "engine/net_opts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#define NET_OPT(f)                                                             \
	.scope = OPT_SCOPE_ENGINE, .group = OPT_GROUP_ENGINE,                  \
	.off = offsetof(struct netio_opts, f),                                   \
	.size = sizeof(((struct netio_opts *)0)->f)

_Static_assert(sizeof(struct netio_opts) <= JOB_ENGINE_OPTS_MAX,
	       "net's options must fit the job's engine_opts");

static const struct opt_enum proto_values[] = {
	{ "tcp", NET_TCP },   { "tcpv6", NET_TCP_V6 }, { "udp", NET_UDP },
	{ "udpv6", NET_UDP_V6 }, { "unix", NET_UNIX },	{ NULL, 0 },
};

/* clang-format off */
const struct option_def netio_options[] = {
	{
		.name = "hostname",
		.type = OPT_STRING, NET_OPT(hostname),
		.help = "the host to connect to (tcp, or a udp writer); "
			"the same as filename=",
	},
	{
		.name = "port",
		.type = OPT_UINT, NET_OPT(port),
		.min = 1, .max = 65535,
		.help = "the tcp or udp port to connect to or listen on; "
			"numjobs clones use the ports after it",
	},
	{
		.name = "protocol", .alias = { "proto" },
		.type = OPT_ENUM, NET_OPT(proto),
		.values = proto_values,
		.def = "tcp",
		.help = "tcp, tcpv6, udp, udpv6, or unix (filename= is the "
			"socket's path)",
	},
	{
		.name = "nodelay",
		.type = OPT_BOOL, NET_OPT(nodelay),
		.def = "0",
		.help = "TCP_NODELAY on tcp connections",
	},
	{
		.name = "listen",
		.type = OPT_BOOL, NET_OPT(listen),
		.def = "0",
		.help = "tcp: wait for the other end to connect (no hostname=)",
	},
	{
		.name = "pingpong",
		.type = OPT_BOOL, NET_OPT(pingpong),
		.def = "0",
		.help = "each block is sent back by the other end: the "
			"latency is the round trip",
	},
	{
		.name = "interface",
		.type = OPT_STRING, NET_OPT(interface),
		.help = "the address of the interface for udp multicast",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "accepted; udp multicast is refused",
	},
	{
		.name = "ttl",
		.type = OPT_UINT, NET_OPT(ttl),
		.help = "the time-to-live of udp multicast packets (fio's "
			"default: 1)",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "accepted; udp multicast is refused",
	},
	{
		.name = "window_size",
		.type = OPT_UINT, NET_OPT(window_size),
		.help = "the socket buffer size (SO_RCVBUF on the receiving "
			"end, SO_SNDBUF on the sending end, both with "
			"pingpong); 0: the kernel's",
	},
	{
		.name = "mss",
		.type = OPT_UINT, NET_OPT(mss),
		.help = "the tcp maximum segment size (TCP_MAXSEG); 0: the "
			"kernel's",
	},
	{ .name = NULL },
};
/* clang-format on */

const char *netio_peer(const struct netio_opts *o, const char *filename)
{
	if (o->hostname[0])
		return o->hostname;
	return filename && filename[0] ? filename : NULL;
}

bool netio_listens(const struct netio_opts *o, bool job_reads)
{
	return netio_is_tcp(o->proto) ? o->listen : job_reads;
}

/* fio's fio_netio_is_multicast: 224.0.0.0 to 239.255.255.255. */
static bool is_multicast(const char *host)
{
	struct in_addr a;

	return inet_pton(AF_INET, host, &a) == 1 &&
	       IN_MULTICAST(ntohl(a.s_addr));
}

/* fio's fio_fill_addr: a literal address, or a name the resolver knows. */
static int check_resolves(const struct job_spec *job, const char *host,
			  int proto, struct ioc_err *err)
{
	int af = netio_is_v6(proto) ? AF_INET6 : AF_INET;
	unsigned char buf[sizeof(struct in6_addr)];
	struct addrinfo hints = { .ai_family = af }, *res = NULL;

	if (inet_pton(af, host, buf) == 1)
		return 0;
	hints.ai_socktype = netio_is_tcp(proto) ? SOCK_STREAM : SOCK_DGRAM;
	int ret = getaddrinfo(host, NULL, &hints, &res);
	if (ret)
		return err_usage(err, EINVAL, "job %s: hostname=%s: %s",
				 job->name, host, gai_strerror(ret));
	freeaddrinfo(res);
	return 0;
}

/* The end that waits: no peer, unless a udp multicast group (refused). */
static int check_listener(const struct job_spec *job,
			  const struct netio_opts *o, const char *peer,
			  struct ioc_err *err)
{
	if (o->proto == NET_UNIX)
		return strlen(peer) < sizeof(((struct sockaddr_un *)0)->sun_path)
			       ? 0
			       : err_usage(err, ENAMETOOLONG,
					   "job %s: filename=%s: too long for "
					   "a unix socket's path",
					   job->name, peer);
	if (peer && netio_is_udp(o->proto) && is_multicast(peer))
		return err_usage(err, ENOTSUP,
				 "job %s: hostname=%s: udp multicast is not "
				 "supported by iochar's net engine",
				 job->name, peer);
	if (peer)
		return err_usage(err, EINVAL,
				 "job %s: hostname=%s: not valid on the "
				 "receiving end (%s; fio: hostname not valid "
				 "for non-multicast inbound network IO)",
				 job->name, peer,
				 o->listen ? "listen" : "a udp reader");
	return 0;
}

/* The end that connects: a peer to connect to. */
static int check_connector(const struct job_spec *job,
			   const struct netio_opts *o, const char *peer,
			   struct ioc_err *err)
{
	if (o->proto == NET_UNIX)
		return check_listener(job, o, peer, err); /* the path's length */
	if (!peer)
		return err_usage(err, EINVAL,
				 "job %s: ioengine=net: no hostname= to "
				 "connect to%s",
				 job->name,
				 rw_reads(job->rw) ? " (did you forget to set "
						     "'listen'?)"
						   : "");
	if (netio_is_udp(o->proto) && is_multicast(peer))
		return err_usage(err, ENOTSUP,
				 "job %s: hostname=%s: udp multicast is not "
				 "supported by iochar's net engine",
				 job->name, peer);
	return check_resolves(job, peer, o->proto, err);
}

/* fio's fio_netio_init refusals, in its order. */
static int check_proto(const struct job_spec *job, const struct netio_opts *o,
		       const char *peer, struct ioc_err *err)
{
	if (o->proto == NET_UNIX && o->port)
		return err_usage(err, EINVAL,
				 "job %s: port=%u: not valid with "
				 "protocol=unix", job->name, o->port);
	if (o->proto != NET_UNIX && !o->port)
		return err_usage(err, EINVAL,
				 "job %s: ioengine=net needs port= for "
				 "protocol=%s", job->name,
				 proto_values[o->proto].name);
	if (netio_is_tcp(o->proto))
		return 0;
	if (o->listen)
		return err_usage(err, EINVAL,
				 "job %s: listen: only valid with protocol=tcp "
				 "or tcpv6", job->name);
	if (rw_is_mixed(job->rw))
		return err_usage(err, EINVAL,
				 "job %s: rw=%s: a protocol=%s job must read or "
				 "write, not both", job->name, rw_name(job->rw),
				 proto_values[o->proto].name);
	if (o->proto == NET_UNIX && !peer)
		return err_usage(err, EINVAL,
				 "job %s: protocol=unix needs filename= (the "
				 "socket's path)", job->name);
	return 0;
}

int netio_check(const struct job_spec *job, struct ioc_err *err)
{
	const struct netio_opts *o = (const void *)job->engine_opts;
	const char *peer = netio_peer(o, job->nr_files ? job->files[0] : NULL);
	int ret;

	if (rw_is_random(job->rw) || rw_trims(job->rw))
		return err_usage(err, EINVAL,
				 "job %s: rw=%s: ioengine=net reads or writes "
				 "a stream (fio: network IO can't be random)",
				 job->name, rw_name(job->rw));
	if (job->verify)
		return err_usage(err, ENOTSUP,
				 "job %s: verify with ioengine=net: not "
				 "supported by iochar (its checks find a block "
				 "by its place in a file; a stream has none)",
				 job->name);
	if ((ret = check_proto(job, o, peer, err)))
		return ret;
	if (netio_listens(o, rw_reads(job->rw)))
		return check_listener(job, o, peer, err);
	return check_connector(job, o, peer, err);
}

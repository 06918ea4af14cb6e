/* result.c - turning finished streams and the peer's results into one
 * test's figures. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <string.h>

#include "net/result.h"
#include "base/json_writer.h"
#include "util/clock.h"

static const struct net_peer_stream *peer_stream(const struct net_exchange *pe,
						 unsigned id)
{
	for (unsigned i = 0; pe && i < pe->nr_streams; i++)
		if (pe->streams[i].id == id)
			return &pe->streams[i];
	return NULL;
}

/* One stream's figures: ours, its TCP_INFO while the socket is open, and
 * what the peer reported for it (peer NULL: nothing). */
static void stream_result(struct net_stream_result *sr,
			  const struct net_stream *s, bool client,
			  const struct net_exchange *peer)
{
	const struct net_peer_stream *ps = peer_stream(peer, s->id);
	uint64_t end = s->end_ns ? s->end_ns : s->start_ns;

	sr->id = s->id;
	sr->sender = s->sender;
	sr->dir = (s->sender == client) ? NET_C2S : NET_S2C;
	sr->bytes = net_stream_bytes(s);
	sr->seconds = (double)(end - s->start_ns) / 1e9;
	sr->err = s->err;
	sr->retransmits = -1;
	if (s->fd >= 0) {
		net_tcpinfo_sample(s->fd, &sr->tcp);
		net_sock_ends(s->fd, &sr->ends);
	}
	if (sr->sender && sr->tcp.valid)
		sr->retransmits = sr->tcp.total_retrans;
	if (ps) {
		sr->peer_known = true;
		sr->peer_bytes = ps->bytes;
		if (!sr->sender)
			sr->retransmits = ps->retransmits;
	}
}

/* Add one stream to its direction's totals; retransmits stay -1 (not
 * known) until a stream knows them. */
static void dir_add(struct net_dir_total *t, const struct net_stream_result *sr)
{
	t->used = true;
	t->streams++;
	if (sr->sender) {
		t->sender_bytes += sr->bytes;
		t->receiver_bytes += sr->peer_bytes;
	} else {
		t->receiver_bytes += sr->bytes;
		t->sender_bytes += sr->peer_bytes;
	}
	if (sr->retransmits >= 0)
		t->retransmits = (t->retransmits < 0 ? 0 : t->retransmits) +
				 sr->retransmits;
}

/* Rates over the test's length secs (its longest stream), both ends' CPU
 * use and the peer's congestion control. */
static void result_rates(struct net_result *r, double secs, double user_s,
			 double sys_s, const struct net_exchange *peer)
{
	r->seconds = secs;
	for (int d = 0; d < 2; d++) {
		struct net_dir_total *t = &r->dir[d];
		t->seconds = secs;
		if (secs > 0) {
			t->sender_bps = (double)t->sender_bytes * 8 / secs;
			t->receiver_bps = (double)t->receiver_bytes * 8 / secs;
		}
	}
	r->cpu_local.known = true;
	r->cpu_local.user_s = user_s;
	r->cpu_local.system_s = sys_s;
	if (secs > 0) {
		r->cpu_local.user_pct = 100 * user_s / secs;
		r->cpu_local.system_pct = 100 * sys_s / secs;
		r->cpu_local.total_pct = 100 * (user_s + sys_s) / secs;
	}
	if (peer) {
		r->cpu_remote.known = true;
		r->cpu_remote.total_pct = peer->cpu_total;
		r->cpu_remote.user_pct = peer->cpu_user;
		r->cpu_remote.system_pct = peer->cpu_system;
		r->cpu_remote.user_s = peer->cpu_user * secs / 100;
		r->cpu_remote.system_s = peer->cpu_system * secs / 100;
		memcpy(r->congestion_remote, peer->congestion_used,
		       sizeof(r->congestion_remote));
		r->host_cpu_remote = peer->host_cpu;
		if (peer->nic_json && !r->peer_nic_json)
			r->peer_nic_json = strdup(peer->nic_json);
		if (peer->server_output && !r->server_output) {
			r->server_output = strdup(peer->server_output);
			r->server_output_is_json = peer->server_output_is_json;
		}
	}
}

int net_result_build(struct net_result *r, const struct net_stream *s,
		     unsigned n, bool client, double user_s, double sys_s,
		     const struct net_exchange *peer)
{
	double secs = 0;

	free(r->streams);
	r->streams = calloc(n ? n : 1, sizeof(*r->streams));
	if (!r->streams)
		return -ENOMEM;
	r->nr_streams = n;
	memset(r->dir, 0, sizeof(r->dir));
	for (int d = 0; d < 2; d++)
		r->dir[d].retransmits = -1;
	for (unsigned i = 0; i < n; i++) {
		struct net_stream_result *sr = &r->streams[i];

		stream_result(sr, &s[i], client, peer);
		if (sr->seconds > secs)
			secs = sr->seconds;
		dir_add(&r->dir[sr->dir], sr);
	}
	result_rates(r, secs, user_s, sys_s, peer);
	return 0;
}

static unsigned sockopt_uint(int fd, int level, int name)
{
	int v = 0;
	socklen_t len = sizeof(v);

	return getsockopt(fd, level, name, &v, &len) == 0 && v > 0 ? (unsigned)v : 0;
}

void net_result_socket_facts(struct net_result *r, int ctrl, int fd0)
{
	if (ctrl >= 0)
		net_sock_ends(ctrl, &r->ctrl);
	if (fd0 < 0)
		return;
	net_iface_of_socket(fd0, &r->iface);
	nic_profile_read(r->iface.name, &r->nic);
	r->path_mtu = net_path_mtu(fd0);
	net_tcp_congestion(fd0, r->congestion, sizeof(r->congestion));
	r->mss_default = sockopt_uint(fd0, IPPROTO_TCP, TCP_MAXSEG);
	r->sndbuf = sockopt_uint(fd0, SOL_SOCKET, SO_SNDBUF);
	r->rcvbuf = sockopt_uint(fd0, SOL_SOCKET, SO_RCVBUF);
}

int net_result_add_interval(struct net_result *r, const struct net_stream *s,
			    unsigned n, uint64_t t0, uint64_t *last_ns,
			    uint64_t *last_bytes)
{
	struct net_interval *iv, *grown;
	uint64_t now = clock_ns();

	grown = realloc(r->intervals, (r->nr_intervals + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->intervals = grown;
	iv = &r->intervals[r->nr_intervals];
	memset(iv, 0, sizeof(*iv));
	iv->stream_bytes = calloc(n ? n : 1, sizeof(uint64_t));
	iv->stream_tcp = calloc(n ? n : 1, sizeof(struct net_tcpinfo));
	if (!iv->stream_bytes || !iv->stream_tcp) {
		free(iv->stream_bytes);
		free(iv->stream_tcp);
		return -ENOMEM;
	}
	r->nr_intervals++;
	iv->start = (double)(*last_ns - t0) / 1e9;
	iv->end = (double)(now - t0) / 1e9;
	for (unsigned i = 0; i < n; i++) {
		uint64_t b = net_stream_bytes(&s[i]);
		iv->stream_bytes[i] = b - last_bytes[i];
		iv->bytes += iv->stream_bytes[i];
		last_bytes[i] = b;
		net_tcpinfo_sample(s[i].fd, &iv->stream_tcp[i]);
	}
	*last_ns = now;
	return 0;
}

/* {"interface": {...}, "profile": {...}} of this end, as JSON text (a new
 * string), what an iochar peer records of it; NULL when out of memory. */
static char *nic_json_text(const struct net_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	if (!f)
		return NULL;
	jw_init(&w, f, 0);
	jw_object_begin(&w);
	net_iface_json(&w, "interface", &r->iface);
	jw_key(&w, "profile");
	nic_profile_json(&w, &r->nic);
	jw_object_end(&w);
	jw_finish(&w);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int net_result_exchange(const struct net_result *r, struct net_exchange *ex)
{
	bool sends = false;

	memset(ex, 0, sizeof(*ex));
	ex->streams = calloc(r->nr_streams ? r->nr_streams : 1,
			     sizeof(*ex->streams));
	if (!ex->streams)
		return -ENOMEM;
	ex->nr_streams = r->nr_streams;
	ex->cpu_total = r->cpu_local.total_pct;
	ex->cpu_user = r->cpu_local.user_pct;
	ex->cpu_system = r->cpu_local.system_pct;
	memcpy(ex->congestion_used, r->congestion, sizeof(ex->congestion_used));
	for (unsigned i = 0; i < r->nr_streams; i++) {
		const struct net_stream_result *sr = &r->streams[i];
		struct net_peer_stream *ps = &ex->streams[i];

		sends |= sr->sender;
		ps->id = sr->id;
		ps->bytes = sr->bytes;
		ps->retransmits = sr->sender && sr->tcp.valid
					  ? (int64_t)sr->tcp.total_retrans : -1;
		ps->start_time = 0;
		ps->end_time = sr->seconds;
	}
	/* iperf3: -1 from a pure receiver, else whether TCP_INFO has them. */
	ex->sender_has_retransmits = sends ? 1 : -1;
	ex->host_cpu = r->host_cpu;
	ex->nic_json = nic_json_text(r);
	return 0;
}

double net_result_bps(const struct net_result *r)
{
	double bps = 0;

	for (int d = 0; d < 2; d++)
		if (r->dir[d].used)
			bps += r->dir[d].receiver_bps;
	return bps;
}

void net_result_free(struct net_result *r)
{
	if (!r)
		return;
	free(r->streams);
	r->streams = NULL;
	for (unsigned i = 0; i < r->nr_intervals; i++) {
		free(r->intervals[i].stream_bytes);
		free(r->intervals[i].stream_tcp);
	}
	free(r->intervals);
	r->intervals = NULL;
	r->nr_intervals = 0;
	free(r->server_output);
	r->server_output = NULL;
	free(r->peer_nic_json);
	r->peer_nic_json = NULL;
}

void net_result_host_cpu_begin(struct net_result *r)
{
	cpuload_sample(&r->host_start);
}

void net_result_host_cpu_end(struct net_result *r)
{
	struct cpuload now;

	cpuload_sample(&now);
	cpuload_shares(&r->host_start, &now, &r->host_cpu);
}


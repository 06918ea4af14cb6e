/* result_iperf3.c - a network test's figures in iperf3 3.12's JSON layout
 * (-J), so scripts written for iperf3 read iochar unchanged.
 *
 * The layout is iperf3's, member for member, at either end: which members
 * appear follows iperf3's rules (TCP figures only where this end sends; a
 * client carries the sender's figures it was sent; a server names only
 * its own side's congestion control). The figures are iochar's: where
 * iperf3's server writes 0 for what only the client counted, iochar has
 * the peer's exchanged count and writes it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "net/result.h"

/* What this end is in the test: the client or the server, and the two
 * directions iperf3 names (the test's own and, with --bidir, its
 * reverse). */
struct view {
	const struct net_result *r;
	bool client;
	int fwd;       /* NET_C2S, or NET_S2C for a -R test */
	bool bidir;
};

static bool sends(const struct view *v, int dir)
{
	return v->client == (dir == NET_C2S);
}

static double rate(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8 / secs : 0;
}

static void emit_start(struct jw *w, const struct view *v)
{
	const struct net_result *r = v->r;
	const struct net_params *p = &r->params;
	struct utsname u;
	char sys[5 * sizeof(u.release) + 8] = "", when[64] = "";
	time_t started = time(NULL) - (time_t)r->seconds;
	struct tm tm;

	if (uname(&u) == 0)
		snprintf(sys, sizeof(sys), "%s %s %s %s %s", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
	if (gmtime_r(&started, &tm))
		strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	jw_key(w, "start");
	jw_object_begin(w);
	jw_key(w, "connected");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_streams; i++) {
		const struct net_sock_ends *e = &r->streams[i].ends;
		jw_object_begin(w);
		jw_kv_int(w, "socket", e->socket);
		jw_kv_string(w, "local_host", e->local_host);
		jw_kv_uint(w, "local_port", e->local_port);
		jw_kv_string(w, "remote_host", e->remote_host);
		jw_kv_uint(w, "remote_port", e->remote_port);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_kv_string(w, "version", "iperf 3.12 (iochar " IOCHAR_VERSION ")");
	jw_kv_string(w, "system_info", sys);
	jw_key(w, "timestamp");
	jw_object_begin(w);
	jw_kv_string(w, "time", when);
	jw_kv_int(w, "timesecs", (int64_t)started);
	jw_object_end(w);
	jw_key(w, v->client ? "connecting_to" : "accepted_connection");
	jw_object_begin(w);
	jw_kv_string(w, "host", v->client && r->asked_host[0] ? r->asked_host
							    : r->ctrl.remote_host);
	jw_kv_uint(w, "port", r->ctrl.remote_port);
	jw_object_end(w);
	jw_kv_string(w, "cookie", r->cookie);
	jw_kv_uint(w, "tcp_mss_default", r->mss_default);
	jw_kv_uint(w, "target_bitrate", p->bandwidth);
	jw_kv_uint(w, "sock_bufsize", p->window);
	jw_kv_uint(w, "sndbuf_actual", r->sndbuf);
	jw_kv_uint(w, "rcvbuf_actual", r->rcvbuf);
	jw_key(w, "test_start");
	jw_object_begin(w);
	jw_kv_string(w, "protocol", "TCP");
	jw_kv_uint(w, "num_streams", p->parallel);
	jw_kv_uint(w, "blksize", p->len);
	jw_kv_uint(w, "omit", p->omit);
	jw_kv_uint(w, "duration", p->duration);
	jw_kv_uint(w, "bytes", p->bytes);
	jw_kv_uint(w, "blocks", p->blocks);
	jw_kv_uint(w, "reverse", p->reverse);
	jw_kv_uint(w, "tos", 0);
	jw_kv_uint(w, "target_bitrate", p->bandwidth);
	jw_object_end(w);
	jw_object_end(w);
}

/* The time members every iperf3 figure starts with. */
static void emit_span(struct jw *w, double start, double end, uint64_t bytes)
{
	jw_kv_double(w, "start", start);
	jw_kv_double(w, "end", end);
	jw_kv_double(w, "seconds", end - start);
	jw_kv_uint(w, "bytes", bytes);
	jw_kv_double(w, "bits_per_second", rate(bytes, end - start));
}

static void emit_interval_stream(struct jw *w, const struct net_result *r,
				 unsigned i, unsigned s)
{
	const struct net_interval *iv = &r->intervals[i];
	const struct net_stream_result *sr = &r->streams[s];
	const struct net_tcpinfo *t = &iv->stream_tcp[s];

	jw_object_begin(w);
	jw_kv_int(w, "socket", sr->ends.socket);
	emit_span(w, iv->start, iv->end, iv->stream_bytes[s]);
	if (sr->sender) {
		uint32_t prev = i ? r->intervals[i - 1].stream_tcp[s].total_retrans : 0;
		jw_kv_uint(w, "retransmits", t->valid ? t->total_retrans - prev : 0);
		jw_kv_uint(w, "snd_cwnd", t->snd_cwnd);
		jw_kv_uint(w, "snd_wnd", t->snd_wnd);
		jw_kv_uint(w, "rtt", t->rtt_us);
		jw_kv_uint(w, "rttvar", t->rttvar_us);
		jw_kv_uint(w, "pmtu", t->pmtu);
	}
	jw_kv_bool(w, "omitted", false);
	jw_kv_bool(w, "sender", sr->sender);
	jw_object_end(w);
}

/* One interval's sum over the streams of direction dir. */
static void emit_interval_sum(struct jw *w, const struct view *v, unsigned i,
			      const char *key, int dir)
{
	const struct net_result *r = v->r;
	const struct net_interval *iv = &r->intervals[i];
	uint64_t bytes = 0, retrans = 0;

	for (unsigned s = 0; s < r->nr_streams; s++) {
		const struct net_tcpinfo *t = &iv->stream_tcp[s];
		if (r->streams[s].dir != dir)
			continue;
		bytes += iv->stream_bytes[s];
		if (r->streams[s].sender && t->valid)
			retrans += t->total_retrans -
				   (i ? r->intervals[i - 1].stream_tcp[s].total_retrans : 0);
	}
	jw_key(w, key);
	jw_object_begin(w);
	emit_span(w, iv->start, iv->end, bytes);
	if (sends(v, dir))
		jw_kv_uint(w, "retransmits", retrans);
	jw_kv_bool(w, "omitted", false);
	jw_kv_bool(w, "sender", sends(v, dir));
	jw_object_end(w);
}

static void emit_intervals(struct jw *w, const struct view *v)
{
	const struct net_result *r = v->r;

	jw_key(w, "intervals");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_intervals; i++) {
		jw_object_begin(w);
		jw_key(w, "streams");
		jw_array_begin(w);
		for (unsigned s = 0; s < r->nr_streams; s++)
			emit_interval_stream(w, r, i, s);
		jw_array_end(w);
		emit_interval_sum(w, v, i, "sum", v->fwd);
		if (v->bidir)
			emit_interval_sum(w, v, i, "sum_bidir_reverse", NET_S2C);
		jw_object_end(w);
	}
	jw_array_end(w);
}

/* The sender's TCP figures over the test, from the per-interval samples
 * and the last one: iperf3's max_snd_cwnd, max_snd_wnd and rtt range. */
static void emit_sender_tcp(struct jw *w, const struct net_result *r, unsigned s)
{
	const struct net_stream_result *sr = &r->streams[s];
	uint32_t cwnd = 0, wnd = 0, rmax = 0, rmin = 0;
	uint64_t rsum = 0, n = 0;

	for (unsigned i = 0; sr->sender && i <= r->nr_intervals; i++) {
		const struct net_tcpinfo *t = i < r->nr_intervals ? &r->intervals[i].stream_tcp[s]
								  : &sr->tcp;
		if (!t->valid)
			continue;
		cwnd = t->snd_cwnd > cwnd ? t->snd_cwnd : cwnd;
		wnd = t->snd_wnd > wnd ? t->snd_wnd : wnd;
		rmax = t->rtt_us > rmax ? t->rtt_us : rmax;
		rmin = !n || t->rtt_us < rmin ? t->rtt_us : rmin;
		rsum += t->rtt_us;
		n++;
	}
	jw_kv_uint(w, "retransmits", sr->retransmits > 0 ? (uint64_t)sr->retransmits : 0);
	jw_kv_uint(w, "max_snd_cwnd", cwnd);
	jw_kv_uint(w, "max_snd_wnd", wnd);
	jw_kv_uint(w, "max_rtt", rmax);
	jw_kv_uint(w, "min_rtt", rmin);
	jw_kv_uint(w, "mean_rtt", n ? rsum / n : 0);
}

static void emit_end_streams(struct jw *w, const struct view *v)
{
	const struct net_result *r = v->r;

	jw_key(w, "streams");
	jw_array_begin(w);
	for (unsigned s = 0; s < r->nr_streams; s++) {
		const struct net_stream_result *sr = &r->streams[s];
		uint64_t sent = sr->sender ? sr->bytes : sr->peer_bytes;
		uint64_t got = sr->sender ? sr->peer_bytes : sr->bytes;
		jw_object_begin(w);
		jw_key(w, "sender");
		jw_object_begin(w);
		jw_kv_int(w, "socket", sr->ends.socket);
		emit_span(w, 0, sr->seconds, sent);
		if (v->client || sr->sender)
			emit_sender_tcp(w, r, s);
		jw_kv_bool(w, "sender", sr->sender);
		jw_object_end(w);
		jw_key(w, "receiver");
		jw_object_begin(w);
		jw_kv_int(w, "socket", sr->ends.socket);
		emit_span(w, 0, sr->seconds, got);
		jw_kv_bool(w, "sender", sr->sender);
		jw_object_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
}

/* sum_sent and sum_received of one direction (suffix "" or
 * "_bidir_reverse"). */
static void emit_end_sums(struct jw *w, const struct view *v, int dir,
			  const char *suffix)
{
	const struct net_dir_total *t = &v->r->dir[dir];
	char key[40];

	snprintf(key, sizeof(key), "sum_sent%s", suffix);
	jw_key(w, key);
	jw_object_begin(w);
	emit_span(w, 0, t->seconds, t->sender_bytes);
	if (v->client || sends(v, dir))
		jw_kv_uint(w, "retransmits", t->retransmits > 0 ? (uint64_t)t->retransmits : 0);
	jw_kv_bool(w, "sender", sends(v, dir));
	jw_object_end(w);
	snprintf(key, sizeof(key), "sum_received%s", suffix);
	jw_key(w, key);
	jw_object_begin(w);
	emit_span(w, 0, t->seconds, t->receiver_bytes);
	jw_kv_bool(w, "sender", sends(v, dir));
	jw_object_end(w);
}

static void emit_cpu(struct jw *w, const struct net_result *r)
{
	jw_key(w, "cpu_utilization_percent");
	jw_object_begin(w);
	jw_kv_double(w, "host_total", r->cpu_local.total_pct);
	jw_kv_double(w, "host_user", r->cpu_local.user_pct);
	jw_kv_double(w, "host_system", r->cpu_local.system_pct);
	jw_kv_double(w, "remote_total", r->cpu_remote.known ? r->cpu_remote.total_pct : 0);
	jw_kv_double(w, "remote_user", r->cpu_remote.known ? r->cpu_remote.user_pct : 0);
	jw_kv_double(w, "remote_system", r->cpu_remote.known ? r->cpu_remote.system_pct : 0);
	jw_object_end(w);
}

/* iperf3's congestion members: a client names the sender's and the
 * receiver's (one of them the peer's, as reported); a server only its
 * own, under the role it had. */
static void emit_congestion(struct jw *w, const struct view *v)
{
	const struct net_result *r = v->r;

	if (v->client) {
		bool local_sends = sends(v, v->fwd);
		jw_kv_string(w, "sender_tcp_congestion",
			     local_sends ? r->congestion : r->congestion_remote);
		jw_kv_string(w, "receiver_tcp_congestion",
			     local_sends ? r->congestion_remote : r->congestion);
		return;
	}
	jw_kv_string(w, v->bidir || sends(v, v->fwd) ? "sender_tcp_congestion"
						     : "receiver_tcp_congestion",
		     r->congestion);
}

void net_result_iperf3_json(struct jw *w, const struct net_result *r)
{
	struct view v = {
		.r = r,
		.client = !strcmp(r->role, "client"),
		.fwd = r->params.reverse && !r->params.bidir ? NET_S2C : NET_C2S,
		.bidir = r->params.bidir,
	};

	jw_object_begin(w);
	emit_start(w, &v);
	emit_intervals(w, &v);
	jw_key(w, "end");
	jw_object_begin(w);
	emit_end_streams(w, &v);
	emit_end_sums(w, &v, v.fwd, "");
	if (v.bidir)
		emit_end_sums(w, &v, NET_S2C, "_bidir_reverse");
	emit_cpu(w, r);
	emit_congestion(w, &v);
	jw_object_end(w);
	if (r->server_output && r->server_output_is_json) {
		jw_key(w, "server_output_json");
		jw_raw(w, r->server_output, strlen(r->server_output));
	} else if (r->server_output) {
		jw_kv_string(w, "server_output_text", r->server_output);
	}
	jw_object_end(w);
}

char *net_result_server_output(const struct net_result *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (json) {
		struct jw w;
		jw_init(&w, f, 0);
		net_result_iperf3_json(&w, r);
		jw_finish(&w);
	} else {
		net_result_text(f, r);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

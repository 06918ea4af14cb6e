/* result_out.c - a network test's figures as JSON, text and a results
 * directory. The JSON schema is documented in docs/net.md. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "net/result.h"
#include "output/json_parts.h"
#include "output/results_file.h"

static const char *dir_name(int d)
{
	return d == NET_C2S ? "client_to_server" : "server_to_client";
}

static void emit_params(struct jw *w, const struct net_result *r)
{
	const struct net_params *p = &r->params;

	jw_key(w, "params");
	jw_object_begin(w);
	jw_kv_string(w, "protocol", "tcp");
	jw_kv_uint(w, "parallel", p->parallel);
	jw_kv_uint(w, "duration_s", p->duration);
	jw_kv_uint(w, "len", p->len);
	jw_kv_uint(w, "window", p->window);
	jw_kv_uint(w, "mss", p->mss);
	jw_kv_bool(w, "reverse", p->reverse);
	jw_kv_bool(w, "bidir", p->bidir);
	jw_kv_bool(w, "nodelay", p->nodelay);
	jw_kv_string(w, "congestion", p->congestion);
	jw_kv_uint(w, "bitrate", p->bandwidth);
	jw_kv_uint(w, "fq_rate", p->fqrate);
	jw_kv_uint(w, "tos", p->tos);
	jw_kv_bool(w, "zerocopy", r->zerocopy);
	jw_kv_uint(w, "threads", r->threads);
	jw_object_end(w);
}

static void emit_netenv(struct jw *w, const struct net_result *r)
{
	jw_key(w, "net_environment");
	jw_object_begin(w);
	net_iface_json(w, "interface", &r->iface);
	jw_key(w, "profile");
	nic_profile_json(w, &r->nic);
	/* the peer's {"interface", "profile"}, as an iochar peer sent it */
	jw_key(w, "peer");
	if (r->peer_nic_json)
		jw_raw(w, r->peer_nic_json, strlen(r->peer_nic_json));
	else
		jw_null(w);
	jw_kv_uint(w, "path_mtu", r->path_mtu);
	jw_kv_string(w, "congestion", r->congestion);
	jw_kv_string(w, "congestion_remote", r->congestion_remote);
	jw_object_end(w);
}

static void emit_tcp(struct jw *w, const struct net_tcpinfo *t)
{
	jw_kv_uint(w, "snd_cwnd", t->snd_cwnd);
	jw_kv_uint(w, "rtt_us", t->rtt_us);
	jw_kv_uint(w, "rttvar_us", t->rttvar_us);
	jw_kv_uint(w, "pmtu", t->pmtu);
	jw_kv_uint(w, "snd_mss", t->snd_mss);
	jw_kv_uint(w, "rcv_mss", t->rcv_mss);
	jw_kv_uint(w, "reordering", t->reordering);
	jw_kv_uint(w, "reord_seen", t->reord_seen);
	jw_kv_uint(w, "bytes_retrans", t->bytes_retrans);
}

static void emit_streams(struct jw *w, const struct net_result *r)
{
	jw_key(w, "streams");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_streams; i++) {
		const struct net_stream_result *s = &r->streams[i];
		jw_object_begin(w);
		jw_kv_uint(w, "id", s->id);
		jw_kv_string(w, "direction", dir_name(s->dir));
		jw_kv_string(w, "role", s->sender ? "sender" : "receiver");
		jw_kv_uint(w, "bytes", s->bytes);
		jw_key(w, "peer_bytes");
		if (s->peer_known)
			jw_uint(w, s->peer_bytes);
		else
			jw_null(w);
		jw_kv_double(w, "seconds", s->seconds);
		jw_kv_double(w, "bits_per_second",
			     s->seconds > 0 ? (double)s->bytes * 8 / s->seconds : 0);
		jw_kv_int(w, "retransmits", s->retransmits);
		emit_tcp(w, &s->tcp);
		jw_kv_string(w, "error", s->err ? strerror(-s->err) : "");
		jw_object_end(w);
	}
	jw_array_end(w);
}

static void emit_dirs(struct jw *w, const struct net_result *r)
{
	jw_key(w, "directions");
	jw_array_begin(w);
	for (int d = 0; d < 2; d++) {
		const struct net_dir_total *t = &r->dir[d];
		if (!t->used)
			continue;
		jw_object_begin(w);
		jw_kv_string(w, "direction", dir_name(d));
		jw_kv_uint(w, "streams", t->streams);
		jw_kv_double(w, "seconds", t->seconds);
		jw_kv_uint(w, "sender_bytes", t->sender_bytes);
		jw_kv_uint(w, "receiver_bytes", t->receiver_bytes);
		jw_kv_double(w, "sender_bits_per_second", t->sender_bps);
		jw_kv_double(w, "receiver_bits_per_second", t->receiver_bps);
		jw_kv_int(w, "retransmits", t->retransmits);
		jw_object_end(w);
	}
	jw_array_end(w);
}

static void emit_cpu1(struct jw *w, const char *key, const struct net_cpu *c)
{
	jw_key(w, key);
	if (!c->known) {
		jw_null(w);
		return;
	}
	jw_object_begin(w);
	jw_kv_double(w, "user_s", c->user_s);
	jw_kv_double(w, "system_s", c->system_s);
	jw_kv_double(w, "total_pct", c->total_pct);
	jw_kv_double(w, "user_pct", c->user_pct);
	jw_kv_double(w, "system_pct", c->system_pct);
	jw_object_end(w);
}

/* The whole host's CPU over the test, % of all its CPUs. */
static void emit_host_cpu(struct jw *w, const char *key, const struct cpu_shares *c)
{
	jw_key(w, key);
	if (!c->known) {
		jw_null(w);
		return;
	}
	jw_object_begin(w);
	jw_kv_double(w, "busy_pct", c->busy);
	jw_kv_double(w, "user_pct", c->user);
	jw_kv_double(w, "system_pct", c->system);
	jw_kv_double(w, "irq_pct", c->irq);
	jw_kv_double(w, "softirq_pct", c->softirq);
	jw_kv_double(w, "steal_pct", c->steal);
	jw_object_end(w);
}

static void emit_cpu(struct jw *w, const struct net_result *r)
{
	double gbit = net_result_bps(r) * r->seconds / 1e9;

	jw_key(w, "cpu");
	jw_object_begin(w);
	emit_cpu1(w, "local", &r->cpu_local);
	emit_cpu1(w, "remote", &r->cpu_remote);
	emit_host_cpu(w, "host_local", &r->host_cpu);
	emit_host_cpu(w, "host_remote", &r->host_cpu_remote);
	jw_key(w, "local_s_per_gbit");
	if (gbit > 0)
		jw_double(w, (r->cpu_local.user_s + r->cpu_local.system_s) / gbit);
	else
		jw_null(w);
	jw_key(w, "remote_s_per_gbit");
	if (gbit > 0 && r->cpu_remote.known)
		jw_double(w, (r->cpu_remote.user_s + r->cpu_remote.system_s) / gbit);
	else
		jw_null(w);
	jw_object_end(w);
}

static void emit_intervals(struct jw *w, const struct net_result *r)
{
	jw_key(w, "intervals");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_intervals; i++) {
		const struct net_interval *iv = &r->intervals[i];
		double len = iv->end - iv->start;
		jw_object_begin(w);
		jw_kv_double(w, "start", iv->start);
		jw_kv_double(w, "end", iv->end);
		jw_kv_uint(w, "bytes", iv->bytes);
		jw_kv_double(w, "bits_per_second",
			     len > 0 ? (double)iv->bytes * 8 / len : 0);
		jw_key(w, "streams");
		jw_array_begin(w);
		for (unsigned s = 0; s < r->nr_streams; s++) {
			const struct net_tcpinfo *t = &iv->stream_tcp[s];
			uint32_t prev = i ? r->intervals[i - 1].stream_tcp[s].total_retrans : 0;
			jw_object_begin(w);
			jw_kv_uint(w, "id", r->streams[s].id);
			jw_kv_uint(w, "bytes", iv->stream_bytes[s]);
			jw_kv_double(w, "bits_per_second",
				     len > 0 ? (double)iv->stream_bytes[s] * 8 / len : 0);
			jw_kv_int(w, "retransmits",
				  r->streams[s].sender && t->valid
					  ? (int64_t)(t->total_retrans - prev) : -1);
			jw_kv_uint(w, "snd_cwnd", t->snd_cwnd);
			jw_kv_uint(w, "rtt_us", t->rtt_us);
			jw_object_end(w);
		}
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
}

void net_result_json(struct jw *w, const struct net_result *r,
		     const struct environment *env)
{
	jw_object_begin(w);
	jw_kv_string(w, "iochar_version", IOCHAR_VERSION);
	jw_kv_string(w, "kind", "net");
	jw_kv_string(w, "role", r->role);
	jw_kv_uint(w, "timestamp", (uint64_t)time(NULL));
	jw_kv_string(w, "local", r->local_addr);
	jw_kv_string(w, "peer", r->peer_addr);
	jw_kv_string(w, "peer_version", r->peer_version);
	emit_params(w, r);
	jw_kv_double(w, "seconds", r->seconds);
	jw_kv_double(w, "throughput_bps", net_result_bps(r));
	emit_dirs(w, r);
	emit_streams(w, r);
	emit_cpu(w, r);
	emit_netenv(w, r);
	if (env)
		json_emit_environment(w, env);
	emit_intervals(w, r);
	jw_object_end(w);
}

static void human_bytes(char *buf, size_t len, double b)
{
	static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int i = 0;

	while (b >= 1024 && i < 4) {
		b /= 1024;
		i++;
	}
	snprintf(buf, len, "%.2f %s", b, u[i]);
}

void net_interval_text(FILE *f, const struct net_result *r, unsigned i)
{
	const struct net_interval *iv = &r->intervals[i];
	double len = iv->end - iv->start;
	char b[32];

	for (unsigned s = 0; s < r->nr_streams && r->nr_streams > 1; s++) {
		human_bytes(b, sizeof(b), (double)iv->stream_bytes[s]);
		fprintf(f, "[%3u] %6.2f-%-6.2f s  %12s  %8.3f Gbit/s  cwnd %u  rtt %u us\n",
			r->streams[s].id, iv->start, iv->end, b,
			len > 0 ? (double)iv->stream_bytes[s] * 8 / len / 1e9 : 0,
			iv->stream_tcp[s].snd_cwnd, iv->stream_tcp[s].rtt_us);
	}
	human_bytes(b, sizeof(b), (double)iv->bytes);
	fprintf(f, "[SUM] %6.2f-%-6.2f s  %12s  %8.3f Gbit/s\n", iv->start,
		iv->end, b, len > 0 ? (double)iv->bytes * 8 / len / 1e9 : 0);
}

static void host_cpu_text(FILE *f, const char *what, const struct cpu_shares *c)
{
	if (c->known)
		fprintf(f, "%s: busy %.1f%% of all CPUs (user %.1f%%, system %.1f%%, "
			   "softirq %.1f%%, irq %.1f%%)\n",
			what, c->busy, c->user, c->system, c->softirq, c->irq);
}

void net_result_text(FILE *f, const struct net_result *r)
{
	char b[32];

	fprintf(f, "%s %s -> %s, %u stream(s), %u thread(s), %.2f s\n",
		r->role, r->local_addr, r->peer_addr, r->nr_streams,
		r->threads, r->seconds);
	for (unsigned i = 0; i < r->nr_streams; i++) {
		const struct net_stream_result *s = &r->streams[i];
		human_bytes(b, sizeof(b), (double)s->bytes);
		fprintf(f, "[%3u] %-8s %12s  %8.3f Gbit/s  retr %lld  cwnd %u  rtt %u us  pmtu %u%s%s\n",
			s->id, s->sender ? "sent" : "received", b,
			s->seconds > 0 ? (double)s->bytes * 8 / s->seconds / 1e9 : 0,
			(long long)s->retransmits, s->tcp.snd_cwnd,
			s->tcp.rtt_us, s->tcp.pmtu, s->err ? "  error: " : "",
			s->err ? strerror(-s->err) : "");
	}
	for (int d = 0; d < 2; d++) {
		const struct net_dir_total *t = &r->dir[d];
		if (!t->used)
			continue;
		fprintf(f, "%-16s sender %8.3f Gbit/s  receiver %8.3f Gbit/s  retr %lld\n",
			d == NET_C2S ? "client->server" : "server->client",
			t->sender_bps / 1e9, t->receiver_bps / 1e9,
			(long long)t->retransmits);
	}
	fprintf(f, "cpu local %.1f%% (user %.1f%%, sys %.1f%%)",
		r->cpu_local.total_pct, r->cpu_local.user_pct,
		r->cpu_local.system_pct);
	if (r->cpu_remote.known)
		fprintf(f, ", remote %.1f%% (user %.1f%%, sys %.1f%%)",
			r->cpu_remote.total_pct, r->cpu_remote.user_pct,
			r->cpu_remote.system_pct);
	fprintf(f, "\ninterface %s (%s) mtu %u, rx/tx queues %u/%u, path mtu %u, congestion %s\n",
		r->iface.name[0] ? r->iface.name : "?",
		r->iface.driver[0] ? r->iface.driver : "no driver",
		r->iface.mtu, r->iface.rx_queues, r->iface.tx_queues,
		r->path_mtu, r->congestion[0] ? r->congestion : "?");
	nic_profile_text(f, "  adapter: ", &r->nic);
	host_cpu_text(f, "host cpu local", &r->host_cpu);
	host_cpu_text(f, "host cpu remote", &r->host_cpu_remote);
}

int net_out_check(const char *dir, bool force, struct ioc_err *err)
{
	char path[4096];
	struct stat st;

	if (stat(dir, &st) < 0)
		return errno == ENOENT ? 0 : err_usage(err, errno, "--out %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return err_usage(err, ENOTDIR, "--out %s: not a directory", dir);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	return results_file_check("--out", path, force, err);
}

int net_write_json_dir(const char *dir, bool force, net_json_emit_fn emit,
		       const void *arg, const struct environment *env,
		       struct ioc_err *err)
{
	struct results_file rf;
	char path[4096];
	struct jw w;
	int rc;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return err_set(err, errno, "--out %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/results.json", dir);
	/* never over data iochar did not write, never half written */
	if ((rc = results_file_open(&rf, "--out", path, force, err)))
		return rc;
	jw_init(&w, rf.f, 2);
	emit(&w, arg, env);
	rc = jw_finish(&w);
	if (rc) {
		results_file_abort(&rf);
		return err_set(err, -rc, "%s: %s", path, strerror(-rc));
	}
	rc = results_file_commit(&rf);
	if (rc)
		return err_set(err, -rc, "%s: %s", path, strerror(-rc));
	return 0;
}

static void emit_result(struct jw *w, const void *arg,
			const struct environment *env)
{
	net_result_json(w, arg, env);
}

int net_result_write_dir(const char *dir, bool force, const struct net_result *r,
			 const struct environment *env, struct ioc_err *err)
{
	return net_write_json_dir(dir, force, emit_result, r, env, err);
}

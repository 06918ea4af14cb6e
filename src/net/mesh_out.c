/* mesh_out.c - the network matrix's cells and its output (mesh.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "net/mesh.h"
#include "net/result.h"
#include "output/json_parts.h"
#include "util/atomic_file.h"

void net_mesh_cell_from(struct net_mesh_cell *c, const struct net_result *r)
{
	const struct net_dir_total *t = &r->dir[NET_C2S];

	memset(c, 0, sizeof(*c));
	c->measured = 1;
	c->streams = t->streams;
	c->sender_bytes = t->sender_bytes;
	c->receiver_bytes = t->receiver_bytes;
	c->seconds = t->seconds;
	c->receiver_bps = t->receiver_bps;
	c->retransmits = t->retransmits;
	if (r->nr_streams)
		c->rtt_us = r->streams[0].tcp.rtt_us;
}

/* Is (a, b) one of the pairs the mode measures? */
static bool wanted(const struct net_mesh *m, int a, int b)
{
	return a != b && (!m->ring || b == (a + 1) % m->size);
}

unsigned net_mesh_expected(const struct net_mesh *m)
{
	unsigned n = 0;
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++)
			n += wanted(m, a, b);
	return n;
}

unsigned net_mesh_measured(const struct net_mesh *m)
{
	unsigned n = 0;
	for (int a = 0; a < m->size; a++)
		for (int b = 0; b < m->size; b++)
			n += wanted(m, a, b) && m->cells[a * m->size + b].measured;
	return n;
}

static void matrix(FILE *f, const struct net_mesh *m, bool retr)
{
	fprintf(f, "%-14s", retr ? "retransmits" : "Gbit/s");
	for (int b = 0; b < m->size; b++)
		fprintf(f, " %10d", b);
	fputc('\n', f);
	for (int a = 0; a < m->size; a++) {
		fprintf(f, "%-4d%-10.10s", a, m->hosts[a]);
		for (int b = 0; b < m->size; b++) {
			const struct net_mesh_cell *c = &m->cells[a * m->size + b];
			if (!wanted(m, a, b))
				fprintf(f, " %10s", "-");
			else if (!c->measured)
				fprintf(f, " %10s", "?");
			else if (retr && c->retransmits < 0)
				fprintf(f, " %10s", "n/a");
			else if (retr)
				fprintf(f, " %10lld", (long long)c->retransmits);
			else
				fprintf(f, " %10.3f", c->receiver_bps / 1e9);
		}
		fputc('\n', f);
	}
}

void net_mesh_text(FILE *f, const struct net_mesh *m)
{
	fprintf(f, "net %s: %d hosts, %u pair(s)%s, %u s, %u stream(s) each; "
		   "rows send to columns\n",
		m->ring ? "ring" : "mesh", m->size, net_mesh_expected(m),
		m->ring ? " at once" : " one at a time", m->params.duration,
		m->params.parallel);
	matrix(f, m, false);
	matrix(f, m, true);
}

void net_mesh_json(struct jw *w, const struct net_mesh *m,
		   const struct environment *env)
{
	const struct net_params *p = &m->params;

	jw_object_begin(w);
	jw_kv_string(w, "iochar_version", IOCHAR_VERSION);
	jw_kv_string(w, "kind", "net-mesh");
	jw_kv_string(w, "mode", m->ring ? "ring" : "mesh");
	jw_kv_uint(w, "timestamp", (uint64_t)time(NULL));
	jw_key(w, "params");
	jw_object_begin(w);
	jw_kv_string(w, "protocol", "tcp");
	jw_kv_uint(w, "parallel", p->parallel);
	jw_kv_uint(w, "duration_s", p->duration);
	jw_kv_uint(w, "len", p->len);
	jw_object_end(w);
	jw_key(w, "hosts");
	jw_array_begin(w);
	for (int r = 0; r < m->size; r++) {
		jw_object_begin(w);
		jw_kv_uint(w, "rank", (uint64_t)r);
		jw_kv_string(w, "host", m->hosts[r]);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_kv_uint(w, "pairs_expected", net_mesh_expected(m));
	jw_kv_uint(w, "pairs_measured", net_mesh_measured(m));
	jw_key(w, "pairs");
	jw_array_begin(w);
	for (int a = 0; a < m->size; a++) {
		for (int b = 0; b < m->size; b++) {
			const struct net_mesh_cell *c = &m->cells[a * m->size + b];
			if (!wanted(m, a, b) || !c->measured)
				continue;
			jw_object_begin(w);
			jw_kv_uint(w, "client", (uint64_t)a);
			jw_kv_uint(w, "server", (uint64_t)b);
			jw_kv_string(w, "client_host", m->hosts[a]);
			jw_kv_string(w, "server_host", m->hosts[b]);
			jw_kv_string(w, "server_addr", c->server);
			jw_kv_uint(w, "port", c->port);
			jw_kv_uint(w, "streams", c->streams);
			jw_kv_uint(w, "sender_bytes", c->sender_bytes);
			jw_kv_uint(w, "receiver_bytes", c->receiver_bytes);
			jw_kv_double(w, "seconds", c->seconds);
			jw_kv_double(w, "throughput_bps", c->receiver_bps);
			jw_kv_int(w, "retransmits", c->retransmits);
			jw_kv_uint(w, "rtt_us", c->rtt_us);
			jw_object_end(w);
		}
	}
	jw_array_end(w);
	if (env)
		json_emit_environment(w, env);
	jw_object_end(w);
}

static void emit_mesh(struct jw *w, const void *arg,
		      const struct environment *env)
{
	net_mesh_json(w, arg, env);
}

int net_mesh_write_dir(const char *dir, bool force, const struct net_mesh *m,
		       const struct environment *env, struct ioc_err *err)
{
	return net_write_json_dir(dir, force, emit_mesh, m, env, err);
}

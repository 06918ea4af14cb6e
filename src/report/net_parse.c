/* net_parse.c - the results.json of `iochar net client|server` ("kind":
 * "net", docs/net.md) into struct rs_net. Same rules as the other
 * readers: a member missing or of the wrong type is a usage error naming
 * the file and the member. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/net_model.h"
#include "report/net_parse.h"

#define WHERE_MAX 256

const char *const rs_net_dir_name[RS_NET_NR_DIR] = {"client_to_server",
						    "server_to_client"};

const char *rs_net_dir_short(unsigned dir)
{
	return dir == RS_NET_S2C ? "reverse" : "send";
}

void rs_net_free(struct rs_net *n)
{
	if (!n)
		return;
	free(n->role);
	free(n->peer);
	free(n->congestion);
	free(n->if_name);
	free(n->if_driver);
	free(n->congestion_used);
	free(n->congestion_remote);
	for (int e = 0; e < 2; e++) {
		free(n->nic[e].driver);
		free(n->nic[e].rss_hfunc);
	}
	free(n->streams);
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
		free(n->dir[d].iv_bps);
		free(n->dir[d].iv_retr);
		free(n->dir[d].iv_end);
	}
	memset(n, 0, sizeof(*n));
}

/* A signed integer (retransmits: -1 means unknown). */
static int get_i64(const struct rj_ctx *c, json_object *o, const char *key,
		   int64_t *out)
{
	int ret;
	json_object *m = rj_member(c, o, key, json_type_int, true, &ret);
	if (!m)
		return ret;
	*out = json_object_get_int64(m);
	if (*out < -1)
		return rj_fail(c, key, "expected -1 or more");
	return 0;
}

static int parse_dir_name(const struct rj_ctx *c, json_object *o, unsigned *dir)
{
	char *name = NULL;
	int ret = rj_str(c, o, "direction", true, &name);
	if (ret)
		return ret;
	if (!strcmp(name, rs_net_dir_name[RS_NET_C2S]))
		*dir = RS_NET_C2S;
	else if (!strcmp(name, rs_net_dir_name[RS_NET_S2C]))
		*dir = RS_NET_S2C;
	else
		ret = rj_fail(c, "direction",
			      "expected \"client_to_server\" or \"server_to_client\"");
	free(name);
	return ret;
}

static int parse_params(const struct rj_ctx *c, json_object *root, struct rs_net *n)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *p = rj_member(c, root, "params", json_type_object, true, &ret);
	if (!p)
		return ret;
	struct rj_ctx pc = rj_child(c, "params", -1, buf, sizeof(buf));
	if ((ret = rj_uint(&pc, p, "parallel", true, &n->parallel)) ||
	    (ret = rj_uint(&pc, p, "duration_s", true, &n->duration_s)) ||
	    (ret = rj_uint(&pc, p, "len", false, &n->len)) ||
	    (ret = rj_uint(&pc, p, "window", false, &n->window)) ||
	    (ret = rj_bool(&pc, p, "reverse", true, &n->reverse)) ||
	    (ret = rj_bool(&pc, p, "bidir", true, &n->bidir)) ||
	    (ret = rj_bool(&pc, p, "zerocopy", false, &n->zerocopy)) ||
	    (ret = rj_str(&pc, p, "congestion", false, &n->congestion)))
		return ret;
	return 0;
}

static int parse_directions(const struct rj_ctx *c, json_object *root, struct rs_net *n)
{
	char buf[WHERE_MAX];
	size_t nr;
	int ret = 0;
	json_object *a = rj_objects(c, root, "directions", true, &nr, &ret);
	if (!a)
		return ret;
	if (nr == 0)
		return rj_fail(c, "directions", "empty: no direction measured");
	for (size_t i = 0; i < nr; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx dc = rj_child(c, "directions", (int)i, buf, sizeof(buf));
		unsigned d;
		if ((ret = parse_dir_name(&dc, e, &d)))
			return ret;
		struct rs_net_dir *nd = &n->dir[d];
		if (nd->present)
			return rj_fail(&dc, "direction", "repeated");
		nd->present = true;
		if ((ret = rj_uint(&dc, e, "streams", true, &nd->streams)) ||
		    (ret = rj_double(&dc, e, "seconds", true, &nd->seconds)) ||
		    (ret = rj_u64(&dc, e, "sender_bytes", true, &nd->sender_bytes)) ||
		    (ret = rj_u64(&dc, e, "receiver_bytes", true, &nd->receiver_bytes)) ||
		    (ret = rj_double(&dc, e, "receiver_bits_per_second", true,
				     &nd->receiver_bps)) ||
		    (ret = get_i64(&dc, e, "retransmits", &nd->retransmits)))
			return ret;
	}
	return 0;
}

static int parse_streams(const struct rj_ctx *c, json_object *root, struct rs_net *n)
{
	char buf[WHERE_MAX];
	size_t nr;
	int ret = 0;
	json_object *a = rj_objects(c, root, "streams", true, &nr, &ret);
	if (!a)
		return ret;
	n->streams = rj_calloc(c, nr, sizeof(*n->streams), &ret);
	if (!n->streams)
		return ret;
	for (size_t i = 0; i < nr; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx sc = rj_child(c, "streams", (int)i, buf, sizeof(buf));
		struct rs_net_stream *s = &n->streams[i];
		char *role = NULL;
		if ((ret = rj_uint(&sc, e, "id", true, &s->id)) ||
		    (ret = parse_dir_name(&sc, e, &s->dir)) ||
		    (ret = rj_str(&sc, e, "role", true, &role)))
			return ret;
		s->sender = !strcmp(role, "sender");
		bool ok = s->sender || !strcmp(role, "receiver");
		free(role);
		if (!ok)
			return rj_fail(&sc, "role", "expected \"sender\" or \"receiver\"");
		if ((ret = rj_u64(&sc, e, "bytes", true, &s->bytes)) ||
		    (ret = rj_double(&sc, e, "bits_per_second", true, &s->bps)) ||
		    (ret = get_i64(&sc, e, "retransmits", &s->retransmits)) ||
		    (ret = rj_uint(&sc, e, "snd_cwnd", false, &s->snd_cwnd)) ||
		    (ret = rj_uint(&sc, e, "rtt_us", false, &s->rtt_us)) ||
		    (ret = rj_uint(&sc, e, "pmtu", false, &s->pmtu)) ||
		    (ret = rj_uint(&sc, e, "snd_mss", false, &s->snd_mss)))
			return ret;
		n->nr_streams = (unsigned)i + 1;
	}
	return 0;
}

/* The direction of stream id; -1 if no stream has it. */
static int stream_dir(const struct rs_net *n, unsigned id)
{
	for (unsigned i = 0; i < n->nr_streams; i++)
		if (n->streams[i].id == id)
			return (int)n->streams[i].dir;
	return -1;
}

/* "intervals": per interval, each direction's throughput as the sum of
 * its streams' (the interval's own total mixes both with --bidir). */
static int parse_intervals(const struct rj_ctx *c, json_object *root, struct rs_net *n)
{
	char buf[WHERE_MAX], buf2[WHERE_MAX];
	size_t nr;
	int ret = 0;
	json_object *a = rj_objects(c, root, "intervals", false, &nr, &ret);
	if (!a)
		return ret;
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
		n->dir[d].iv_bps = rj_calloc(c, nr, sizeof(double), &ret);
		n->dir[d].iv_retr = n->dir[d].iv_bps ? rj_calloc(c, nr, sizeof(double), &ret) : NULL;
		n->dir[d].iv_end = n->dir[d].iv_retr ? rj_calloc(c, nr, sizeof(double), &ret) : NULL;
		if (!n->dir[d].iv_end)
			return ret;
		n->dir[d].nr_iv = n->dir[d].present ? (unsigned)nr : 0;
	}
	for (size_t i = 0; i < nr; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx ic = rj_child(c, "intervals", (int)i, buf, sizeof(buf));
		double end = (double)(i + 1);
		if ((ret = rj_double(&ic, e, "end", false, &end)))
			return ret;
		for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
			n->dir[d].iv_end[i] = end;
			n->dir[d].iv_retr[i] = 0;
		}
		size_t ns;
		json_object *sa = rj_objects(&ic, e, "streams", true, &ns, &ret);
		if (!sa)
			return ret;
		for (size_t k = 0; k < ns; k++) {
			json_object *se = json_object_array_get_idx(sa, k);
			struct rj_ctx sc = rj_child(&ic, "streams", (int)k, buf2, sizeof(buf2));
			unsigned id;
			double bps, retr = NAN; /* absent or -1: not known */
			if ((ret = rj_uint(&sc, se, "id", true, &id)) ||
			    (ret = rj_double(&sc, se, "bits_per_second", true, &bps)) ||
			    (ret = rj_double(&sc, se, "retransmits", false, &retr)))
				return ret;
			int d = stream_dir(n, id);
			if (d < 0)
				return rj_fail(&sc, "id", "no such stream in \"streams\"");
			n->dir[d].iv_bps[i] += bps;
			/* one stream's unknown makes the direction's unknown (NAN) */
			n->dir[d].iv_retr[i] += retr < 0 ? NAN : retr;
		}
	}
	return 0;
}

static int parse_iface(const struct rj_ctx *c, json_object *root, struct rs_net *n)
{
	char buf[WHERE_MAX], buf2[WHERE_MAX];
	int ret;
	json_object *e = rj_member(c, root, "net_environment", json_type_object, false, &ret);
	if (!e)
		return ret;
	struct rj_ctx ec = rj_child(c, "net_environment", -1, buf, sizeof(buf));
	if ((ret = rj_uint(&ec, e, "path_mtu", false, &n->path_mtu)))
		return ret;
	json_object *i = rj_member(&ec, e, "interface", json_type_object, false, &ret);
	if (!i)
		return ret;
	struct rj_ctx icx = rj_child(&ec, "interface", -1, buf2, sizeof(buf2));
	if ((ret = rj_str(&icx, i, "name", false, &n->if_name)) ||
	    (ret = rj_str(&icx, i, "driver", false, &n->if_driver)) ||
	    (ret = rj_uint(&icx, i, "mtu", false, &n->mtu)) ||
	    (ret = rj_uint(&icx, i, "rx_queues", false, &n->rx_queues)) ||
	    (ret = rj_uint(&icx, i, "tx_queues", false, &n->tx_queues)))
		return ret;
	return 0;
}

/* The member at a dotted path, NULL where a step is missing: the figures
 * results from older iochars do not carry are optional. */
static json_object *opt_at(json_object *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!o || !json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

/* A number (a boolean as 0/1) at path, NAN when absent, null or not one. */
static double opt_num(json_object *o, const char *path)
{
	o = opt_at(o, path);
	if (json_object_is_type(o, json_type_boolean))
		return json_object_get_boolean(o);
	if (!json_object_is_type(o, json_type_int) && !json_object_is_type(o, json_type_double))
		return NAN;
	return json_object_get_double(o);
}

/* A string at path, copied (free), NULL when absent or not one. */
static char *opt_str(json_object *o, const char *path)
{
	o = opt_at(o, path);
	return json_object_is_type(o, json_type_string) ? strdup(json_object_get_string(o)) : NULL;
}

static int tristate(double v)
{
	return isnan(v) ? -1 : v != 0;
}

/* One end's adapter: {"interface", "profile"} as net_environment holds
 * this end's and "peer" the other's. */
static void parse_nic(json_object *iface, json_object *prof, struct rs_net_nic *x)
{
	x->driver = opt_str(iface, "driver");
	x->mtu = opt_num(iface, "mtu");
	x->tso = tristate(opt_num(prof, "offloads.tso"));
	x->gso = tristate(opt_num(prof, "offloads.gso"));
	x->gro = tristate(opt_num(prof, "offloads.gro"));
	x->lro = tristate(opt_num(prof, "offloads.lro"));
	x->rx_ring = opt_num(prof, "rings.rx");
	x->tx_ring = opt_num(prof, "rings.tx");
	x->combined = opt_num(prof, "channels.combined");
	x->rss_queues = opt_num(prof, "rss.queues_used");
	x->rx_usecs = opt_num(prof, "coalesce.rx_usecs");
	x->rx_frames = opt_num(prof, "coalesce.rx_frames");
	x->rss_hfunc = opt_str(prof, "rss.hash_function");
}

/* What was used and what it cost: congestion control, CPU per Gbit/s,
 * both hosts' CPU, both adapters. All optional. */
static void parse_costs(json_object *root, struct rs_net *n)
{
	json_object *env = NULL, *v;
	json_object_object_get_ex(root, "net_environment", &env);
	n->congestion_used = opt_str(root, "net_environment.congestion");
	n->congestion_remote = opt_str(root, "net_environment.congestion_remote");
	n->cpu_s_per_gbit[0] = opt_num(root, "cpu.local_s_per_gbit");
	n->cpu_s_per_gbit[1] = opt_num(root, "cpu.remote_s_per_gbit");
	n->host_busy[0] = opt_num(root, "cpu.host_local.busy_pct");
	n->host_busy[1] = opt_num(root, "cpu.host_remote.busy_pct");
	n->host_softirq[0] = opt_num(root, "cpu.host_local.softirq_pct");
	n->host_softirq[1] = opt_num(root, "cpu.host_remote.softirq_pct");
	json_object *iface = NULL, *prof = NULL, *peer = NULL, *pi = NULL, *pp = NULL;
	if (env) {
		json_object_object_get_ex(env, "interface", &iface);
		json_object_object_get_ex(env, "profile", &prof);
		if (json_object_object_get_ex(env, "peer", &v) &&
		    json_object_is_type(v, json_type_object)) {
			peer = v;
			json_object_object_get_ex(peer, "interface", &pi);
			json_object_object_get_ex(peer, "profile", &pp);
		}
	}
	parse_nic(iface, prof, &n->nic[0]);
	parse_nic(pi, pp, &n->nic[1]);
}

static bool kind_is(json_object *root, const char *kind)
{
	json_object *k;
	return json_object_is_type(root, json_type_object) &&
	       json_object_object_get_ex(root, "kind", &k) &&
	       json_object_is_type(k, json_type_string) &&
	       !strcmp(json_object_get_string(k), kind);
}

int results_parse_net(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err)
{
	struct rj_ctx c = {.file = file, .where = "", .err = err};
	int ret;

	if ((ret = results_parse_header(&c, root, s)))
		return ret;
	if (kind_is(root, "net-mesh"))
		return results_parse_mesh(root, &c, s);
	s->net = calloc(1, sizeof(*s->net));
	s->plan = strdup("net");
	s->source = strdup("");
	if (!s->net || !s->plan || !s->source)
		return rj_oom(&c);
	s->complete = true;
	s->is_run = true;
	struct rs_net *n = s->net;
	if ((ret = rj_str(&c, root, "role", true, &n->role)) ||
	    (ret = rj_str(&c, root, "peer", false, &n->peer)) ||
	    (ret = rj_double(&c, root, "seconds", true, &n->seconds)) ||
	    (ret = rj_double(&c, root, "throughput_bps", true, &n->throughput_bps)) ||
	    (ret = parse_params(&c, root, n)) ||
	    (ret = parse_directions(&c, root, n)) ||
	    (ret = parse_streams(&c, root, n)) ||
	    (ret = parse_intervals(&c, root, n)) ||
	    (ret = parse_iface(&c, root, n)))
		return ret;
	parse_costs(root, n);
	return 0;
}

bool results_is_net(json_object *root)
{
	return kind_is(root, "net") || kind_is(root, "net-mesh");
}

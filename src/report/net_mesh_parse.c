/* net_mesh_parse.c - the results.json of `iochar net mesh` ("kind":
 * "net-mesh", docs/net.md) into struct rs_mesh: the hosts by rank and
 * each measured pair. A rank out of range is refused like a wrong type. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/net_model.h"
#include "report/net_parse.h"

#define WHERE_MAX 256

void rs_mesh_free(struct rs_mesh *m)
{
	if (!m)
		return;
	free(m->mode);
	for (unsigned i = 0; m->hosts && i < m->nr_hosts; i++)
		free(m->hosts[i]);
	free(m->hosts);
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}

static int parse_hosts(const struct rj_ctx *c, json_object *root, struct rs_mesh *m)
{
	char buf[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(c, root, "hosts", true, &n, &ret);
	if (!a)
		return ret;
	m->hosts = rj_calloc(c, n, sizeof(char *), &ret);
	if (!m->hosts)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx hc = rj_child(c, "hosts", (int)i, buf, sizeof(buf));
		unsigned rank;
		if ((ret = rj_uint(&hc, e, "rank", true, &rank)))
			return ret;
		if (rank != i)
			return rj_fail(&hc, "rank", "not in rank order");
		if ((ret = rj_str(&hc, e, "host", true, &m->hosts[i])))
			return ret;
		m->nr_hosts = (unsigned)i + 1;
	}
	return 0;
}

static int parse_pairs(const struct rj_ctx *c, json_object *root, struct rs_mesh *m)
{
	char buf[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(c, root, "pairs", true, &n, &ret);
	if (!a)
		return ret;
	m->pairs = rj_calloc(c, n, sizeof(*m->pairs), &ret);
	if (!m->pairs)
		return ret;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		struct rj_ctx pc = rj_child(c, "pairs", (int)i, buf, sizeof(buf));
		struct rs_mesh_pair *p = &m->pairs[i];
		if ((ret = rj_uint(&pc, e, "client", true, &p->client)) ||
		    (ret = rj_uint(&pc, e, "server", true, &p->server)) ||
		    (ret = rj_double(&pc, e, "throughput_bps", true, &p->bps)))
			return ret;
		if (p->client >= m->nr_hosts)
			return rj_fail(&pc, "client", "no such rank in \"hosts\"");
		if (p->server >= m->nr_hosts)
			return rj_fail(&pc, "server", "no such rank in \"hosts\"");
		json_object *r = rj_member(&pc, e, "retransmits", json_type_int, true, &ret);
		if (!r)
			return ret;
		p->retransmits = json_object_get_int64(r);
		if (p->retransmits < -1)
			return rj_fail(&pc, "retransmits", "expected -1 or more");
		m->nr_pairs = (unsigned)i + 1;
	}
	return 0;
}

int results_parse_mesh(json_object *root, const struct rj_ctx *c, struct rs_set *s)
{
	char buf[WHERE_MAX];
	int ret;

	s->mesh = calloc(1, sizeof(*s->mesh));
	s->plan = strdup("net mesh");
	s->source = strdup("");
	if (!s->mesh || !s->plan || !s->source)
		return rj_oom(c);
	s->complete = true;
	s->is_run = true;
	struct rs_mesh *m = s->mesh;
	json_object *p = rj_member(c, root, "params", json_type_object, true, &ret);
	if (!p)
		return ret;
	struct rj_ctx pc = rj_child(c, "params", -1, buf, sizeof(buf));
	if ((ret = rj_str(c, root, "mode", true, &m->mode)) ||
	    (ret = rj_uint(&pc, p, "parallel", true, &m->parallel)) ||
	    (ret = rj_uint(&pc, p, "duration_s", true, &m->duration_s)) ||
	    (ret = rj_uint(c, root, "pairs_expected", false, &m->pairs_expected)) ||
	    (ret = parse_hosts(c, root, m)) ||
	    (ret = parse_pairs(c, root, m)))
		return ret;
	return 0;
}

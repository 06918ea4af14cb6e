/* results_parse_hosts.c - the per-host members of a run over many hosts
 * (MPI; docs/mpi.md "Output"): a run JSON's "hosts[]" and a plan point's
 * "per_host[]", with "start_skew_ns". Absent on one host, so every member
 * here is optional at the top; inside an entry they are checked like the
 * rest of the file, and a rank given twice is refused (hosts are told
 * apart by rank when their names repeat). */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/results_parse.h"

#define WHERE_MAX 256

static int parse_host(const struct rj_ctx *c, json_object *e, bool run,
		      struct rs_host *h)
{
	int ret;

	if (!json_object_is_type(e, json_type_object))
		return rj_fail(c, NULL, "expected an object");
	if ((ret = rj_str(c, e, "host", true, &h->host)) ||
	    (ret = rj_uint(c, e, "rank", true, &h->rank)))
		return ret;
	if (!run)
		return results_parse_dir(c, e, "total", &h->total);
	h->detail = true;
	if ((ret = rj_bool(c, e, "lost", false, &h->lost)) ||
	    (ret = rj_str(c, e, "error", false, &h->error)) ||
	    (ret = rj_u64(c, e, "elapsed_ns", true, &h->elapsed_ns)) ||
	    (ret = rj_i64(c, e, "start_offset_ns", false, &h->start_offset_ns)) ||
	    (ret = results_parse_dir(c, e, "read", &h->read)) ||
	    (ret = results_parse_dir(c, e, "write", &h->write)) ||
	    (ret = results_parse_dir(c, e, "total", &h->total)))
		return ret;
	return 0;
}

/* By rank, then by place in the array: of two equal ranks the later comes
 * second, and is the one named. */
static int by_rank(const void *a, const void *b)
{
	const struct rs_host *x = *(const struct rs_host *const *)a;
	const struct rs_host *y = *(const struct rs_host *const *)b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x > y) - (x < y);
}

static int by_host(const void *a, const void *b)
{
	const struct rs_host *x = *(const struct rs_host *const *)a;
	const struct rs_host *y = *(const struct rs_host *const *)b;
	int c = strcmp(x->host, y->host);
	return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Refuse a rank given twice, then label each host "host", or "host rank
 * R" when another host of the point has that name (several ranks on one
 * machine). Sorted by name and rank, so thousands of hosts stay cheap. */
static int label_hosts(const struct rj_ctx *c, const char *key, struct rs_point *p)
{
	char buf[WHERE_MAX];
	unsigned n = p->nr_hosts;
	struct rs_host **v = calloc(n, sizeof(*v));
	int ret = 0;

	if (!v)
		return rj_oom(c);
	for (unsigned i = 0; i < n; i++)
		v[i] = &p->hosts[i];
	for (unsigned pass = 0; pass < 2 && !ret; pass++) {
		/* pass 0: by rank alone, for the duplicates; pass 1: by name */
		qsort(v, n, sizeof(*v), pass ? by_host : by_rank);
		for (unsigned i = 0; i < n && !ret; i++) {
			if (!pass) {
				if (i && v[i]->rank == v[i - 1]->rank) {
					int at = (int)(v[i] - p->hosts);
					struct rj_ctx hc = rj_child(c, key, at, buf, sizeof(buf));
					ret = rj_fail(&hc, "rank", "given twice");
				}
				continue;
			}
			bool dup = (i && !strcmp(v[i - 1]->host, v[i]->host)) ||
				   (i + 1 < n && !strcmp(v[i + 1]->host, v[i]->host));
			int len = dup ? asprintf(&v[i]->label, "%s rank %u", v[i]->host, v[i]->rank)
				      : asprintf(&v[i]->label, "%s", v[i]->host);
			if (len < 0) {
				v[i]->label = NULL;
				ret = rj_oom(c);
			}
		}
	}
	free(v);
	return ret;
}

int results_parse_hosts(const struct rj_ctx *c, json_object *o, bool run,
			struct rs_point *p)
{
	const char *key = run ? "hosts" : "per_host";
	char buf[WHERE_MAX];
	int ret;

	if ((ret = rj_u64(c, o, "start_skew_ns", false, &p->start_skew_ns)))
		return ret;
	json_object *a = rj_member(c, o, key, json_type_array, false, &ret);
	if (!a)
		return ret;
	size_t n = json_object_array_length(a);
	if (!n)
		return 0;
	p->hosts = calloc(n, sizeof(*p->hosts));
	if (!p->hosts)
		return rj_oom(c);
	p->nr_hosts = (unsigned)n; /* zeroed: rs_point_free copes with a failure */
	for (size_t i = 0; i < n; i++) {
		struct rj_ctx hc = rj_child(c, key, (int)i, buf, sizeof(buf));
		if ((ret = parse_host(&hc, json_object_array_get_idx(a, i), run,
				      &p->hosts[i])))
			return ret;
	}
	return label_hosts(c, key, p);
}

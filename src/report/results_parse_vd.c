/* results_parse_vd.c - a plan point's per-target rows and RAID VD figures
 * (see results_parse.h): "per_target" [{target, total,
 * member_ios_per_host_io}], "member_ios_per_host_io" and "vd" [{level,
 * strip, nr_members, host_ios, amplification, members [{path, failed,
 * read, write}]}], as charz/step_json.c and output/vd_out.c write them. */
#include <stdlib.h>

#include "report/results_parse.h"

#define WHERE_MAX 256

void rs_point_free_targets(struct rs_point *p)
{
	for (unsigned i = 0; i < p->nr_per_target; i++)
		free(p->per_target[i].target);
	free(p->per_target);
	p->per_target = NULL;
	p->nr_per_target = 0;
	for (unsigned v = 0; v < p->nr_vds; v++) {
		for (unsigned m = 0; m < p->vds[v].nr_member_rows; m++)
			free(p->vds[v].members[m].path);
		free(p->vds[v].members);
		free(p->vds[v].level);
	}
	free(p->vds);
	p->vds = NULL;
	p->nr_vds = 0;
	for (unsigned i = 0; i < p->nr_per_wl; i++) {
		free(p->per_wl[i].name);
		free(p->per_wl[i].rw);
		free(p->per_wl[i].judge);
	}
	free(p->per_wl);
	p->per_wl = NULL;
	p->nr_per_wl = 0;
}

/* Each object of array key of o (optional) into a new array of n
 * elements of size bytes at *out, by one; *nr counts those begun (so the
 * caller frees what was made when one fails). */
static int parse_each(const struct rj_ctx *pc, json_object *o, const char *key,
		      size_t size, void **out, unsigned *nr,
		      int (*one)(const struct rj_ctx *c, json_object *e, void *elem))
{
	char buf[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(pc, o, key, false, &n, &ret);
	if (!a)
		return ret;
	if (!(*out = rj_calloc(pc, n, size, &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		struct rj_ctx c = rj_child(pc, key, (int)i, buf, sizeof(buf));
		*nr = (unsigned)i + 1;
		if ((ret = one(&c, json_object_array_get_idx(a, i), (char *)*out + i * size)))
			return ret;
	}
	return 0;
}

static int parse_target(const struct rj_ctx *c, json_object *e, void *elem)
{
	struct rs_target *t = elem;
	int ret;
	if ((ret = rj_str(c, e, "target", true, &t->target)) ||
	    (ret = rj_double(c, e, "member_ios_per_host_io", false, &t->amp)))
		return ret;
	return results_parse_dir(c, e, "total", &t->total);
}

static int parse_workload(const struct rj_ctx *c, json_object *e, void *elem)
{
	struct rs_workload *w = elem;
	char buf[WHERE_MAX];
	int ret;
	if ((ret = rj_str(c, e, "workload", true, &w->name)) ||
	    (ret = rj_str(c, e, "rw", false, &w->rw)) ||
	    (ret = rj_str(c, e, "latency_judge", false, &w->judge)) ||
	    (ret = rj_bool(c, e, "judged", false, &w->judged)) ||
	    (ret = results_parse_dir(c, e, "read", &w->read)) ||
	    (ret = results_parse_dir(c, e, "write", &w->write)) ||
	    (ret = results_parse_dir(c, e, "total", &w->total)))
		return ret;
	json_object *j = rj_member(c, e, "judged_lat_ns", json_type_object, false, &ret);
	if (!j)
		return ret;
	struct rj_ctx jc = rj_child(c, "judged_lat_ns", -1, buf, sizeof(buf));
	if ((ret = rj_double(&jc, j, "mean", false, &w->judged_mean_ns)))
		return ret;
	return rj_double(&jc, j, "p99", false, &w->judged_p99_ns);
}

static int parse_member(const struct rj_ctx *c, json_object *e, void *elem)
{
	struct rs_vd_member *m = elem;
	int ret;
	if ((ret = rj_str(c, e, "path", true, &m->path)) ||
	    (ret = rj_bool(c, e, "failed", false, &m->failed)) ||
	    (ret = results_parse_dir(c, e, "read", &m->read)))
		return ret;
	return results_parse_dir(c, e, "write", &m->write);
}

static int parse_vd(const struct rj_ctx *c, json_object *e, void *elem)
{
	struct rs_vd *v = elem;
	char buf[WHERE_MAX];
	int ret;
	if ((ret = rj_str(c, e, "level", true, &v->level)) ||
	    (ret = rj_u64(c, e, "strip", false, &v->strip)) ||
	    (ret = rj_uint(c, e, "nr_members", true, &v->nr_members)) ||
	    (ret = rj_u64(c, e, "host_ios", false, &v->host_ios)))
		return ret;
	json_object *amp = rj_member(c, e, "amplification", json_type_object, false, &ret);
	if (amp) {
		struct rj_ctx ac = rj_child(c, "amplification", -1, buf, sizeof(buf));
		if ((ret = rj_double(&ac, amp, "reads_per_host_io", false, &v->reads_per_host_io)) ||
		    (ret = rj_double(&ac, amp, "writes_per_host_io", false, &v->writes_per_host_io)) ||
		    (ret = rj_double(&ac, amp, "member_ios_per_host_io", false,
				     &v->member_ios_per_host_io)))
			return ret;
	}
	if (ret)
		return ret;
	return parse_each(c, e, "members", sizeof(*v->members), (void **)&v->members,
			  &v->nr_member_rows, parse_member);
}

int results_parse_point_targets(const struct rj_ctx *pc, json_object *o,
				struct rs_point *p)
{
	int ret;
	if ((ret = parse_each(pc, o, "per_target", sizeof(*p->per_target),
			      (void **)&p->per_target, &p->nr_per_target, parse_target)) ||
	    (ret = rj_double(pc, o, "member_ios_per_host_io", false, &p->member_ios_per_host_io)))
		return ret;
	if ((ret = parse_each(pc, o, "per_workload", sizeof(*p->per_wl), (void **)&p->per_wl,
			      &p->nr_per_wl, parse_workload)))
		return ret;
	return parse_each(pc, o, "vd", sizeof(*p->vds), (void **)&p->vds, &p->nr_vds, parse_vd);
}

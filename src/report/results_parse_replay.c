/* results_parse_replay.c - a run's "replay" member (docs/output.md) read
 * into its point (results_model.h struct rs_replay). */
#include "report/results_parse.h"

#include <string.h>

static int parse_one(const struct rj_ctx *c, json_object *o, struct rs_replay *r)
{
	bool have;
	int ret;
	if ((ret = rj_str(c, o, "name", true, &r->name)) ||
	    (ret = rj_str(c, o, "read_iolog", true, &r->read_iolog)) ||
	    (ret = rj_bool(c, o, "timed", true, &r->timed)) ||
	    (ret = rj_u64(c, o, "ios_timed", true, &r->ios_timed)) ||
	    (ret = rj_u64(c, o, "ios_behind", true, &r->ios_behind)) ||
	    (ret = rj_u64(c, o, "behind_limit_ns", true, &r->behind_limit_ns)) ||
	    (ret = results_parse_lat(c, o, "lag", true, &r->lag, &have)) ||
	    (ret = results_parse_lat(c, o, "tool_lag", true, &r->tool_lag, &have)) ||
	    (ret = results_parse_lat(c, o, "lat_ns", true, &r->lat, &have)))
		return ret;
	return 0;
}

int results_parse_replay(const struct rj_ctx *c, json_object *root, struct rs_point *p)
{
	size_t n;
	int ret;
	json_object *a = rj_objects(c, root, "replay", false, &n, &ret);
	if (!a)
		return ret;
	if (!(p->replay = rj_calloc(c, n, sizeof(*p->replay), &ret)))
		return ret;
	for (size_t i = 0; i < n; i++) {
		char buf[256];
		struct rj_ctx cc = rj_child(c, "replay", (int)i, buf, sizeof(buf));
		p->nr_replay = (unsigned)i + 1;
		if ((ret = parse_one(&cc, json_object_array_get_idx(a, i), &p->replay[i])))
			return ret;
	}
	return 0;
}

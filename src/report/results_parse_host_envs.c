/* results_parse_host_envs.c - every host's environment in a run over many
 * hosts (docs/mpi.md "Output"): a run JSON's hosts[].environment and a
 * plan's results.json top-level hosts[] ({host, rank, environment}). The
 * environment is kept as its JSON tree, like rank 0's; the members the
 * per-host comparison reads (report_host_env.c) are checked here, so a
 * damaged file is refused naming the member ("hosts[1].environment.cpus:
 * expected an integer") instead of being shown wrong. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "report/results_parse.h"

#define WHERE_MAX 320

static int check_types(const struct rj_ctx *c, json_object *o,
		       const char *const *strs, const char *const *nums)
{
	int ret = 0;
	for (; strs && *strs && !ret; strs++)
		rj_member(c, o, *strs, json_type_string, false, &ret);
	for (uint64_t v; nums && *nums && !ret; nums++)
		ret = rj_u64(c, o, *nums, false, &v);
	return ret;
}

/* Optional array key of o whose elements are objects with those members. */
static int check_list(const struct rj_ctx *c, json_object *o, const char *key,
		      const char *const *strs, const char *const *nums)
{
	char buf[WHERE_MAX];
	int ret;
	size_t n;
	json_object *a = rj_objects(c, o, key, false, &n, &ret);
	for (size_t i = 0; a && i < n && !ret; i++) {
		struct rj_ctx ec = rj_child(c, key, (int)i, buf, sizeof(buf));
		ret = check_types(&ec, json_object_array_get_idx(a, i), strs, nums);
	}
	return ret;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

static int check_env(const struct rj_ctx *c, json_object *env)
{
	char buf[WHERE_MAX];
	int ret;

	if ((ret = check_types(c, env, NAMES("hostname", "kernel", "cpu_model"),
			       NAMES("cpus", "mem_bytes"))) ||
	    (ret = check_list(c, env, "targets", NAMES("path", "device", "model", "fstype"),
			      NULL)))
		return ret;
	json_object *inv = rj_member(c, env, "inventory", json_type_object, false, &ret);
	if (!inv)
		return ret;
	struct rj_ctx ic = rj_child(c, "inventory", -1, buf, sizeof(buf));
	char cbuf[WHERE_MAX];
	json_object *cpu = rj_member(&ic, inv, "cpu", json_type_object, false, &ret);
	if (ret)
		return ret;
	if (cpu) {
		struct rj_ctx cc = rj_child(&ic, "cpu", -1, cbuf, sizeof(cbuf));
		if ((ret = check_types(&cc, cpu, NAMES("model"), NAMES("cores", "threads"))))
			return ret;
	}
	if ((ret = check_list(&ic, inv, "block_devices",
			      NAMES("name", "model", "firmware", "transport", "pci"), NULL)) ||
	    (ret = check_list(&ic, inv, "pcie", NAMES("addr"),
			      NAMES("speed_mts", "width", "max_speed_mts", "max_width"))))
		return ret;
	return check_list(&ic, inv, "net", NAMES("name", "operstate"),
			  NAMES("speed_mbps", "mtu"));
}

static int parse_entry(const struct rj_ctx *c, json_object *e, struct rs_host_env *h)
{
	char buf[WHERE_MAX];
	int ret;

	if (!json_object_is_type(e, json_type_object))
		return rj_fail(c, NULL, "expected an object");
	if ((ret = rj_str(c, e, "host", true, &h->host)) ||
	    (ret = rj_uint(c, e, "rank", true, &h->rank)))
		return ret;
	json_object *env = rj_member(c, e, "environment", json_type_object, false, &ret);
	if (!env)
		return ret;
	struct rj_ctx ec = rj_child(c, "environment", -1, buf, sizeof(buf));
	if ((ret = check_env(&ec, env)))
		return ret;
	h->env = json_object_get(env);
	return 0;
}

int results_parse_host_envs(const struct rj_ctx *c, json_object *root,
			    struct rs_set *s)
{
	char buf[WHERE_MAX];
	int ret;
	json_object *a = rj_member(c, root, "hosts", json_type_array, false, &ret);
	size_t n = a ? json_object_array_length(a) : 0;

	if (!n)
		return ret;
	if (!(s->host_envs = calloc(n, sizeof(*s->host_envs))))
		return rj_oom(c);
	s->nr_host_envs = (unsigned)n; /* zeroed: rs_set_free copes with a failure */
	for (size_t i = 0; i < n && !ret; i++) {
		struct rj_ctx hc = rj_child(c, "hosts", (int)i, buf, sizeof(buf));
		ret = parse_entry(&hc, json_object_array_get_idx(a, i), &s->host_envs[i]);
	}
	return ret;
}

/* place_opts.c - numa_cpu_nodes and numa_mem_policy values checked as fio
 * checks them (options.c: str_numa_cpunodes_cb, str_numa_mpol_cb), with
 * libnuma's own node-list parser so both tools accept the same lists. */
#include "base/place_opts.h"

#include <ctype.h>
#include <errno.h>
#include <numa.h>
#include <stdio.h>
#include <string.h>

/* libnuma prints "libnuma: Warning: ..." through this weak hook; iochar
 * says it in its own one-line error instead (numa(3): may be overridden). */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

static int check_nodes(const char *name, const char *nodes, struct ioc_err *err)
{
	struct bitmask *m;

	if (numa_available() < 0)
		return err_usage(err, ENOTSUP, "%s: this kernel has no NUMA support", name);
	m = numa_parse_nodestring(nodes);
	if (!m)
		return err_usage(err, EINVAL,
				 "%s: '%s': no such NUMA node here (this machine's "
				 "nodes: 0-%d)",
				 name, nodes, numa_max_node());
	numa_free_nodemask(m);
	return 0;
}

static int store(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err)
{
	size_t len = strlen(v);

	if (len >= o->size)
		return err_usage(err, E2BIG, "%s: longer than %zu characters",
				 o->name, o->size - 1);
	memcpy((char *)obj + o->off, v, len + 1);
	return 0;
}

int place_opts_parse_cpu_nodes(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err)
{
	int ret = check_nodes(o->name, v, err);

	return ret ? ret : store(obj, o, v, err);
}

/* The nodes part's rule for a mode (fio's): 0 ok, else the error. */
static int mode_nodes(const char *name, const char *mode, const char *nodes,
		      struct ioc_err *err)
{
	if (!strcmp(mode, "default") || !strcmp(mode, "local"))
		return nodes ? err_usage(err, EINVAL, "%s: '%s' takes no node list",
					 name, mode)
			     : 0;
	if (!strcmp(mode, "prefer")) {
		const char *p = nodes;

		while (p && isdigit((unsigned char)*p))
			p++;
		if (!nodes || !*nodes || *p)
			return err_usage(err, EINVAL, "%s: 'prefer' needs one node, "
				 "e.g. prefer:0", name);
		return check_nodes(name, nodes, err);
	}
	if (!strcmp(mode, "bind") || !strcmp(mode, "interleave")) {
		if (!nodes && !strcmp(mode, "bind"))
			return err_usage(err, EINVAL, "%s: 'bind' needs a node list, "
				 "e.g. bind:0", name);
		return check_nodes(name, nodes ? nodes : "all", err);
	}
	return err_usage(err, EINVAL, "%s: '%s' is not a memory policy (default, "
			 "prefer, bind, interleave, local)", name, mode);
}

int place_opts_parse_mem_policy(void *obj, const struct option_def *o,
				const char *v, struct ioc_err *err)
{
	char mode[32];
	const char *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	int ret;

	if (n >= sizeof(mode))
		return err_usage(err, EINVAL, "%s: '%s' is not a memory policy", o->name, v);
	memcpy(mode, v, n);
	mode[n] = '\0';
	ret = mode_nodes(o->name, mode, colon ? colon + 1 : NULL, err);
	return ret ? ret : store(obj, o, v, err);
}

/* placement.c - a worker's CPU set and NUMA policy (placement.h). */
#define _GNU_SOURCE
#include "core/placement.h"

#include <errno.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* fio's fio_cpus_split: keep only the set's (index mod count)th CPU. */
static void cpus_split(cpu_set_t *set, unsigned index)
{
	unsigned count = (unsigned)CPU_COUNT(set), n = 0;

	if (count == 0)
		return;
	index %= count;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		if (n++ != index)
			CPU_CLR(cpu, set);
	}
}

static int apply_cpus(const struct job_spec *job, unsigned index, struct ioc_err *err)
{
	cpu_set_t set = job->cpus_allowed;
	int ret;

	if (job->cpus_policy == CPUS_SPLIT)
		cpus_split(&set, index);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret)
		return err_set(err, ret, "job %s: cpus_allowed: %s", job->name,
			       strerror(ret));
	return 0;
}

static int apply_cpu_nodes(const struct job_spec *job, struct ioc_err *err)
{
	struct bitmask *m = numa_parse_nodestring(job->numa_cpu_nodes);
	int ret = m ? numa_run_on_node_mask(m) : -1;
	int e = m ? errno : EINVAL;

	if (m)
		numa_free_nodemask(m);
	if (ret < 0)
		return err_set(err, e, "job %s: numa_cpu_nodes=%s: %s", job->name,
			       job->numa_cpu_nodes, strerror(e));
	return 0;
}

/* The modes as fio sets them (libnuma; the policy is the thread's). */
static int apply_mem_policy(const struct job_spec *job, struct ioc_err *err)
{
	const char *v = job->numa_mem_policy, *colon = strchr(v, ':');
	size_t n = colon ? (size_t)(colon - v) : strlen(v);
	struct bitmask *m = NULL;

	if (!strncmp(v, "local", n)) {
		numa_set_localalloc();
		return 0;
	}
	if (!strncmp(v, "default", n))
		return 0;
	if (!strncmp(v, "prefer", n)) {
		numa_set_preferred((int)strtol(colon + 1, NULL, 10));
		return 0;
	}
	m = numa_parse_nodestring(colon ? colon + 1 : "all");
	if (!m)
		return err_set(err, EINVAL, "job %s: numa_mem_policy=%s: no such nodes",
			       job->name, v);
	if (!strncmp(v, "bind", n))
		numa_set_membind(m);
	else
		numa_set_interleave_mask(m);
	numa_free_nodemask(m);
	return 0;
}

int placement_apply(const struct job_spec *job, unsigned index, struct ioc_err *err)
{
	int ret = 0;

	if (job->cpus_set && (ret = apply_cpus(job, index, err)))
		return ret;
	if ((job->numa_cpu_nodes[0] || job->numa_mem_policy[0]) && numa_available() < 0)
		return err_set(err, ENOTSUP, "job %s: numa options: no NUMA support here",
			       job->name);
	if (job->numa_cpu_nodes[0] && (ret = apply_cpu_nodes(job, err)))
		return ret;
	if (job->numa_mem_policy[0])
		ret = apply_mem_policy(job, err);
	return ret;
}

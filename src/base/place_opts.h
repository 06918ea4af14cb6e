/* place_opts.h - fio's placement rows of base/job_rows.c: numa_cpu_nodes
 * and numa_mem_policy (cpus_allowed_policy is a plain enum row). The
 * values are kept as given (a job_spec char field) once libnuma has
 * parsed them against this machine's nodes; core/placement.h applies
 * them in each worker thread. */
#ifndef IOCHAR_BASE_PLACE_OPTS_H
#define IOCHAR_BASE_PLACE_OPTS_H

#include "base/option.h"
#include "util/err.h"

/* numa_cpu_nodes=NODES ("0", "0-1,3", "all"): refused, naming the value
 * and the online nodes, when libnuma finds a node that does not exist or
 * NUMA is not available. Copies v into the row's char field. */
int place_opts_parse_cpu_nodes(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err);

/* numa_mem_policy=MODE[:NODES], fio's modes and rules: default and local
 * take no nodes, prefer exactly one, bind needs some, interleave defaults
 * to all. Same refusals as above. Copies v into the row's char field. */
int place_opts_parse_mem_policy(void *obj, const struct option_def *o,
				const char *v, struct ioc_err *err);

#endif

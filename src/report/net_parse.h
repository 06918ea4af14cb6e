/* net_parse.h - read a network result ("kind": "net", docs/net.md) into
 * rs_set.net. Failures are usage errors whose one line names the file and
 * the member that is wrong.
 */
#ifndef IOCHAR_REPORT_NET_PARSE_H
#define IOCHAR_REPORT_NET_PARSE_H

#include <json-c/json.h>
#include <stdbool.h>

#include "report/results_parse.h"

/* Is root a network result (an object whose "kind" is "net" or
 * "net-mesh")? */
bool results_is_net(json_object *root);

/* The header (version, environment) and the network figures of root
 * into s; a net-mesh result into s->mesh (zeroed by the caller; rs_set_free it in every case). */
int results_parse_net(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err);

/* net_mesh_parse.c: the members of a net-mesh result after its header
 * (read by results_parse_net) into s->mesh. */
int results_parse_mesh(json_object *root, const struct rj_ctx *c, struct rs_set *s);

#endif

/* results_parse.h - iochar's JSON documents (json-c trees) into the
 * structs of results_model.h. Failures are usage errors whose one-line
 * message names the file and the member that is wrong.
 */
#ifndef IOCHAR_REPORT_RESULTS_PARSE_H
#define IOCHAR_REPORT_RESULTS_PARSE_H

#include <json-c/json.h>
#include <stdbool.h>

#include "report/results_json.h"
#include "report/results_model.h"
#include "util/err.h"

/* results.json of a plan: the header members (version, plan, source,
 * complete, environment) into s, and with with_steps its "steps" array
 * too. s must be zeroed; on failure it holds what was read (free it). */
int results_parse_plan(json_object *root, const char *file, bool with_steps,
		       struct rs_set *s, struct ioc_err *err);

/* One step object (steps/NNN.json, or an element of "steps"); where is
 * its path for messages ("" or "steps[3]"). st is zeroed first. */
int results_parse_step(json_object *o, const char *file, const char *where,
		       struct rs_step *st, struct ioc_err *err);

/* The JSON of `iochar run --output-format=json`: one fixed step whose
 * label names the jobs; its point has the run's totals and per-second
 * series (reads and writes together). s must be zeroed. */
int results_parse_run(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err);

/* Shared pieces. */
int results_parse_header(const struct rj_ctx *c, json_object *root,
			 struct rs_set *s);
int results_parse_dir(const struct rj_ctx *pc, json_object *o, const char *key,
		      struct rs_dir *d);
/* A latency-shaped block key of o (lat_ns, lag): *have says whether an
 * optional one was there. */
int results_parse_lat(const struct rj_ctx *pc, json_object *o, const char *key,
		      bool required, struct rs_lat *l, bool *have);
/* A run's "replay" (optional) into p (results_parse_replay.c). */
int results_parse_replay(const struct rj_ctx *c, json_object *root, struct rs_point *p);
/* "tool_limited" and, when true, "tool_limited_reason" of o (a run JSON's
 * root or a plan point), both optional, into p. */
int results_parse_tool_limited(const struct rj_ctx *c, json_object *o,
			       struct rs_point *p);
/* A plan point's "per_target", "member_ios_per_host_io" and "vd" (the
 * run's VD array, docs/output.md), all optional, into p
 * (results_parse_vd.c). */
int results_parse_point_targets(const struct rj_ctx *c, json_object *o,
				struct rs_point *p);
int results_parse_job(const struct rj_ctx *c, json_object *o, struct rs_job *j);
/* A one-run step's targets (an iochar run's or a fio group's): every file
 * of st's job into ts->targets (results_parse_run.c). */
int results_step_targets(const struct rj_ctx *c, const struct rs_step *st, struct rs_tset *ts);

/* results_parse_hosts.c: a run over many hosts. "start_skew_ns" and, with
 * run, a run JSON's "hosts[]" (every member), else a plan point's
 * "per_host[]" (host, rank, total) into p; absent members leave p on one
 * host (nr_hosts 0). On failure p holds what was read (rs_point_free). */
int results_parse_hosts(const struct rj_ctx *c, json_object *o, bool run,
			struct rs_point *p);

/* results_parse_host_envs.c: the top-level "hosts[]" of a run JSON or a
 * results.json, for each entry its host, rank and (optional; null for a
 * lost rank) "environment" object into s->host_envs. The members the
 * report compares are type-checked, naming the member path on failure.
 * Absent: s stays on one host. */
int results_parse_host_envs(const struct rj_ctx *c, json_object *root,
			    struct rs_set *s);

#endif

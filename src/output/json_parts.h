/* json_parts.h - pieces of the run JSON that other JSON documents reuse
 * (the characterization results), so a job, a direction's figures or the
 * environment read the same everywhere. See docs/output.md. */
#ifndef IOCHAR_OUTPUT_JSON_PARTS_H
#define IOCHAR_OUTPUT_JSON_PARTS_H

#include "base/job.h"
#include "inventory/environment.h"
#include "stats/result.h"
#include "base/format.h"
#include "base/json_writer.h"
#include "output/summary.h"


/* The effective parameters of one job, as an object (the "options" items). */
void json_emit_job(struct jw *w, const struct job_spec *j);

/* "lat_ns": {mean, stdev, min, max, p50 ... p99_99}, a member of the
 * current object. */
void json_emit_lat(struct jw *w, const struct lat_summary *l);

/* The same object under another key ("lag", "service_latency"). */
void json_emit_lat_as(struct jw *w, const char *key, const struct lat_summary *l);

/* "key": {ios, bytes, iops, bw_bytes, lat_ns, lag, tool_lag[,
 * service_latency]}:
 * service_latency only when s->paced (a rate-limited run). */
void json_emit_dir(struct jw *w, const char *key, const struct dir_summary *s);

/* "environment": {...}, a member of the current object. */
void json_emit_environment(struct jw *w, const struct environment *e);

/* The same object as a value (an array element, or after jw_key). */
void json_emit_environment_value(struct jw *w, const struct environment *e);

/* The environment object as JSON text indented by 2 like the documents
 * (json_emit_environment_value into a memory stream), so another rank can
 * send it and jw_raw can place it: *out is malloc'd,
 * *len its length without the NUL. 0, -ENOMEM or -EIO. */
int json_environment_text(const struct environment *e, char **out, size_t *len);

/* A run over many hosts: "start_skew_ns" and "hosts" (one object per
 * rank, with its "environment" as that rank sent it, null if it sent
 * none) into the current object; nothing on one host. 0 or -ENOMEM. */
int json_emit_hosts(struct jw *w, const struct run_result *r);

#endif

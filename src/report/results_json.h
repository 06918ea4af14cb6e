/* results_json.h - reading iochar's JSON back with json-c: text to tree
 * with a message that says where it broke, and typed member lookups whose
 * failures name the file and the member ("steps[2].sets[0].best.iops:
 * expected a number"). Every failure is a usage error (exit 2) but the
 * want of memory.
 */
#ifndef IOCHAR_REPORT_RESULTS_JSON_H
#define IOCHAR_REPORT_RESULTS_JSON_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Where a lookup is: the file, and the path of the object inside it. */
struct rj_ctx {
	const char *file;
	const char *where;         /* "" at the top level */
	struct ioc_err *err;
};

/* Parse len bytes of text as one JSON value followed by nothing but white
 * space. *out is owned by the caller (json_object_put). 0 or -EINVAL with
 * "FILE: truncated ..." / "FILE: not JSON ..." in err; -E2BIG or -ENOMEM
 * when its tree would cost too much (report/json_cost.h) or memory ran
 * out while parsing ("FILE: out of memory reading it"). */
int rj_parse(const char *text, size_t len, const char *file,
	     json_object **out, struct ioc_err *err);

/* "FILE: WHERE.key: what" as a usage error; returns -EINVAL. */
int rj_fail(const struct rj_ctx *c, const char *key, const char *what);

/* Member key of o of the given type. Missing or of another type: an error
 * (required) or NULL with no error (optional; a JSON null is absent). */
json_object *rj_member(const struct rj_ctx *c, json_object *o, const char *key,
		       json_type type, bool required, int *ret);

/* Typed members. A missing optional member leaves *out untouched. Numbers:
 * an integer member must be a non-negative integer below 2^64 - 1 (json-c
 * reads anything larger as that); a double member a finite number from 0
 * to 1e18 (every figure iochar writes: rates, times, sizes), or null
 * (NaN: how iochar writes a value it has not). Strings are strdup'd into *out (NULL stays
 * NULL when absent and optional). Each returns 0 or -errno with a message. */
int rj_u64(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, uint64_t *out);
int rj_uint(const struct rj_ctx *c, json_object *o, const char *key,
	    bool required, unsigned *out);
/* A signed integer member (offsets, which may be negative). */
int rj_i64(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, int64_t *out);
int rj_double(const struct rj_ctx *c, json_object *o, const char *key,
	      bool required, double *out);
int rj_bool(const struct rj_ctx *c, json_object *o, const char *key,
	    bool required, bool *out);
int rj_str(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, char **out);

/* A child context for member key (or key[idx] when idx >= 0); the path is
 * written into buf. */
struct rj_ctx rj_child(const struct rj_ctx *c, const char *key, int idx,
		       char *buf, size_t len);

/* Array member key of o whose elements must all be objects, and its length
 * in *n. NULL with *ret 0 (and *n 0) when an optional one is missing; NULL
 * with *ret set when it is missing and required, not an array, or an
 * element is not an object (named by its index). */
json_object *rj_objects(const struct rj_ctx *c, json_object *o, const char *key,
			bool required, size_t *n, int *ret);

/* The out-of-memory error naming c's file; returns -ENOMEM. */
int rj_oom(const struct rj_ctx *c);

/* calloc of n elements (at least one, so an empty array is not NULL); NULL
 * with *ret the out-of-memory error naming c's file. */
void *rj_calloc(const struct rj_ctx *c, size_t n, size_t size, int *ret);

#endif

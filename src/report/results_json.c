/* results_json.c - see results_json.h. */
#include "report/results_json.h"
#include "report/json_cost.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No figure iochar writes comes near: 1e18 ns is 31 years, 1e18 B/s an
 * exabyte a second. */
#define RJ_DOUBLE_MAX 1e18

int rj_parse(const char *text, size_t len, const char *file,
	     json_object **out, struct ioc_err *err)
{
	*out = NULL;
	if (len > INT_MAX)
		return err_usage(err, EINVAL, "%s: too large to be iochar's results", file);
	if (memchr(text, '\0', len))
		return err_usage(err, EINVAL, "%s: not JSON (holds a NUL byte)", file);
	int cost = json_cost_check(text, len, file, err);
	if (cost)
		return cost;
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return err_set(err, ENOMEM, "%s: out of memory", file);
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t used = json_tokener_get_parse_end(tok);
	int ret = 0;

	if (e == json_tokener_continue) {
		ret = err_usage(err, EINVAL, "%s: truncated: the JSON ends early (%zu bytes)",
				file, len);
	} else if (!o && e == json_tokener_success) {
		/* json-c (0.16) stops with no object and no error when it cannot
		 * allocate; a document that begins with null (a whole value)
		 * ends the same way */
		size_t a = strspn(text, " \t\r\n");
		if (len - a >= 4 && !memcmp(text + a, "null", 4))
			ret = err_usage(err, EINVAL, "%s: not iochar's results (the JSON is null)",
					file);
		else
			ret = err_set(err, ENOMEM, "%s: out of memory reading it (%zu bytes: "
				      "the JSON reader needs 10 to 20 times a results file's size)",
				      file, len);
	} else if (!o || e != json_tokener_success) {
		ret = err_usage(err, EINVAL, "%s: not JSON: %s at byte %zu", file,
				json_tokener_error_desc(e), used);
	} else {
		while (used < len && strchr(" \t\r\n", text[used]))
			used++;
		if (used < len)
			ret = err_usage(err, EINVAL, "%s: not JSON: text after the end at byte %zu",
					file, used);
	}
	json_tokener_free(tok);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*out = o;
	return 0;
}

int rj_fail(const struct rj_ctx *c, const char *key, const char *what)
{
	if (key)
		return err_usage(c->err, EINVAL, "%s: %s%s%s: %s", c->file, c->where,
				 c->where[0] ? "." : "", key, what);
	return err_usage(c->err, EINVAL, "%s: %s: %s", c->file,
			 c->where[0] ? c->where : "top level", what);
}

static const char *type_word(json_type t)
{
	switch (t) {
	case json_type_object:
		return "expected an object";
	case json_type_array:
		return "expected an array";
	case json_type_string:
		return "expected a string";
	case json_type_boolean:
		return "expected true or false";
	case json_type_int:
		return "expected an integer";
	case json_type_double:
		return "expected a number";
	default:
		return "unexpected type";
	}
}

json_object *rj_member(const struct rj_ctx *c, json_object *o, const char *key,
		       json_type type, bool required, int *ret)
{
	json_object *v = NULL;

	*ret = 0;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (required)
			*ret = rj_fail(c, key, "missing");
		return NULL;
	}
	json_type t = json_object_get_type(v);
	/* an integer is a number too */
	if (t == type || (type == json_type_double && t == json_type_int))
		return v;
	*ret = rj_fail(c, key, type_word(type));
	return NULL;
}

int rj_u64(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, uint64_t *out)
{
	int ret;
	json_object *v = rj_member(c, o, key, json_type_int, required, &ret);
	if (!v)
		return ret;
	/* json-c keeps integers above INT64_MAX as unsigned, and reads any
	 * integer of 2^64 or more as UINT64_MAX: that value is refused */
	if (json_object_get_int64(v) < 0 && json_object_get_uint64(v) == 0)
		return rj_fail(c, key, "negative");
	if (json_object_get_uint64(v) == UINT64_MAX)
		return rj_fail(c, key, "out of range (2^64 - 1 or more)");
	*out = json_object_get_uint64(v);
	return 0;
}

int rj_i64(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, int64_t *out)
{
	int ret;
	json_object *v = rj_member(c, o, key, json_type_int, required, &ret);
	if (!v)
		return ret;
	/* json-c keeps integers above INT64_MAX as unsigned */
	if ((json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > INT64_MAX) ||
	    json_object_get_int64(v) == INT64_MIN) /* where json-c saturates */
		return rj_fail(c, key, "out of range");
	*out = json_object_get_int64(v);
	return 0;
}

int rj_uint(const struct rj_ctx *c, json_object *o, const char *key,
	    bool required, unsigned *out)
{
	uint64_t v = 0;
	int ret = rj_u64(c, o, key, required, &v);
	if (ret)
		return ret;
	if (v > UINT_MAX)
		return rj_fail(c, key, "out of range");
	if (json_object_object_get_ex(o, key, NULL))
		*out = (unsigned)v;
	return 0;
}

int rj_double(const struct rj_ctx *c, json_object *o, const char *key,
	      bool required, double *out)
{
	json_object *v = NULL;
	int ret;

	/* null is how iochar writes a value that is not finite */
	if (json_object_object_get_ex(o, key, &v) && !v) {
		*out = NAN;
		return 0;
	}
	v = rj_member(c, o, key, json_type_double, required, &ret);
	if (!v)
		return ret;
	double d = json_object_get_double(v);
	/* 1e400 reads as inf; NaN is a literal json-c accepts */
	if (!isfinite(d))
		return rj_fail(c, key, "not a finite number");
	if (d < 0)
		return rj_fail(c, key, "negative");
	if (d > RJ_DOUBLE_MAX)
		return rj_fail(c, key, "out of range (above 1e18)");
	*out = d;
	return 0;
}

int rj_bool(const struct rj_ctx *c, json_object *o, const char *key,
	    bool required, bool *out)
{
	int ret;
	json_object *v = rj_member(c, o, key, json_type_boolean, required, &ret);
	if (v)
		*out = json_object_get_boolean(v);
	return ret;
}

int rj_str(const struct rj_ctx *c, json_object *o, const char *key,
	   bool required, char **out)
{
	int ret;
	json_object *v = rj_member(c, o, key, json_type_string, required, &ret);
	if (!v)
		return ret;
	char *s = strdup(json_object_get_string(v));
	if (!s)
		return rj_oom(c);
	free(*out);
	*out = s;
	return 0;
}

struct rj_ctx rj_child(const struct rj_ctx *c, const char *key, int idx,
		       char *buf, size_t len)
{
	const char *dot = c->where[0] ? "." : "";
	if (idx >= 0)
		snprintf(buf, len, "%s%s%s[%d]", c->where, dot, key, idx);
	else
		snprintf(buf, len, "%s%s%s", c->where, dot, key);
	return (struct rj_ctx){.file = c->file, .where = buf, .err = c->err};
}

json_object *rj_objects(const struct rj_ctx *c, json_object *o, const char *key,
			bool required, size_t *n, int *ret)
{
	char buf[256];
	json_object *a = rj_member(c, o, key, json_type_array, required, ret);

	*n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < *n; i++)
		if (!json_object_is_type(json_object_array_get_idx(a, i), json_type_object)) {
			struct rj_ctx ec = rj_child(c, key, (int)i, buf, sizeof(buf));
			*ret = rj_fail(&ec, NULL, "expected an object");
			return NULL;
		}
	return a;
}

int rj_oom(const struct rj_ctx *c)
{
	return err_set(c->err, ENOMEM, "%s: out of memory", c->file);
}

void *rj_calloc(const struct rj_ctx *c, size_t n, size_t size, int *ret)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		*ret = rj_oom(c);
	return p;
}

/* report_env.c - the environment each set was measured on, rendered from
 * its JSON as it is: objects as key/value tables, arrays of objects as
 * tables with a column per key, other arrays as lists. Whatever members
 * the environment gains appear without a change here. */
#include <json-c/json.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define ENV_DEPTH_MAX 8

static void value(FILE *f, json_object *v, int depth);

static void scalar(FILE *f, json_object *v)
{
	char buf[NUMFMT_MAX];
	switch (json_object_get_type(v)) {
	case json_type_null:
		fputs("<span class=\"none\">none</span>", f);
		break;
	case json_type_int:
		/* sizes and counts read better with separators */
		if (json_object_get_int64(v) >= 10000)
			html_escape(f, numfmt_thousands(buf, (double)json_object_get_uint64(v)));
		else
			html_escape(f, json_object_get_string(v));
		break;
	case json_type_string:
		if (!*json_object_get_string(v))
			fputs("<span class=\"none\">\xe2\x80\x93</span>", f);
		else
			html_escape(f, json_object_get_string(v));
		break;
	default:
		html_escape(f, json_object_get_string(v));
	}
}

static void object_table(FILE *f, json_object *o, int depth)
{
	fputs("<table class=\"kv\">", f);
	json_object_object_foreach(o, key, v)
	{
		fputs("<tr><th>", f);
		html_escape(f, key);
		fputs("</th><td>", f);
		value(f, v, depth + 1);
		fputs("</td></tr>", f);
	}
	fputs("</table>", f);
}

/* Columns: the keys of every element, in order of first appearance. */
static void array_table(FILE *f, json_object *a, int depth)
{
	size_t n = json_object_array_length(a);
	json_object *cols = json_object_new_array();
	if (!cols)
		return;
	for (size_t i = 0; i < n; i++) {
		json_object_object_foreach(json_object_array_get_idx(a, i), key, v)
		{
			(void)v;
			size_t c, nc = json_object_array_length(cols);
			for (c = 0; c < nc; c++)
				if (!strcmp(json_object_get_string(json_object_array_get_idx(cols, c)), key))
					break;
			if (c == nc)
				json_object_array_add(cols, json_object_new_string(key));
		}
	}
	size_t nc = json_object_array_length(cols);
	fputs("<table class=\"list\"><thead><tr>", f);
	for (size_t c = 0; c < nc; c++) {
		fputs("<th>", f);
		html_escape(f, json_object_get_string(json_object_array_get_idx(cols, c)));
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>", f);
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		fputs("<tr>", f);
		for (size_t c = 0; c < nc; c++) {
			json_object *v = NULL;
			fputs("<td>", f);
			if (json_object_object_get_ex(
				    e, json_object_get_string(json_object_array_get_idx(cols, c)), &v))
				value(f, v, depth + 1);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table>", f);
	json_object_put(cols);
}

static bool all_objects(json_object *a)
{
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(a, i), json_type_object))
			return false;
	return n > 0;
}

static void value(FILE *f, json_object *v, int depth)
{
	if (depth > ENV_DEPTH_MAX) {
		html_escape(f, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		return;
	}
	if (json_object_is_type(v, json_type_object)) {
		object_table(f, v, depth);
	} else if (json_object_is_type(v, json_type_array)) {
		if (all_objects(v)) {
			array_table(f, v, depth);
			return;
		}
		size_t n = json_object_array_length(v);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputs(", ", f);
			value(f, json_object_array_get_idx(v, i), depth + 1);
		}
	} else {
		scalar(f, v);
	}
}

void report_environment(struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++) {
		const struct rs_set *set = &r->sets[s];
		fputs("<h3>", r->f);
		html_escape(r->f, set->name);
		fputs("</h3>\n", r->f);
		report_host_envs(r, set);
		fputs("<div class=\"env\">", r->f);
		if (set->environment) {
			report_env_groups(r->f, set->environment);
			fputs("<details><summary>Everything recorded</summary><div class=\"raw\">", r->f);
			value(r->f, set->environment, 0);
			fputs("</div></details>", r->f);
		} else {
			fputs("<p>No environment recorded.</p>", r->f);
		}
		fputs("</div>\n", r->f);
	}
}

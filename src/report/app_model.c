/* app_model.c - see app_model.h: releasing an application run, and the
 * lookups and formats its readers share. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_model.h"

static void free_point(struct rs_app_point *p)
{
	free(p->error);
	free(p->sec);
	free(p->dev.name);
	free(p->dev.sec);
	free(p->trace);
	free(p->trace_skipped);
	free(p->summary.sizes);
}

void rs_app_free(struct rs_app *a)
{
	if (!a)
		return;
	for (unsigned i = 0; a->points && i < a->nr_points; i++)
		free_point(&a->points[i]);
	free(a->points);
	char *strs[] = {a->started, a->bench, a->workload, a->db_name, a->db_version,
			a->bench_name, a->bench_version, a->target_kind, a->target_path,
			a->target_device, a->target_fs, a->target_metric, a->failure};
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
	if (a->db_config)
		json_object_put(a->db_config);
	memset(a, 0, sizeof(*a));
}

char *app_mib(char *buf, double bytes)
{
	if (isfinite(bytes))
		snprintf(buf, 48, "%.1f MiB", bytes / 1048576);
	else
		snprintf(buf, 48, "\xe2\x80\x93");
	return buf;
}

bool app_on(const struct rs_app *a)
{
	return a->target_device && (!a->target_path || strcmp(a->target_device, a->target_path));
}

const struct rs_app_point *rs_app_largest(const struct rs_app *a)
{
	const struct rs_app_point *best = NULL;
	for (unsigned i = 0; i < a->nr_points; i++)
		if (!a->points[i].error && (!best || a->points[i].threads > best->threads))
			best = &a->points[i];
	return best;
}

const struct rs_app_point *rs_app_point_of_trace(const struct rs_app *a, const char *trace)
{
	const char *base = strrchr(trace, '/');
	base = base ? base + 1 : trace;
	for (unsigned i = 0; i < a->nr_points; i++) {
		const char *t = a->points[i].trace;
		if (!t)
			continue;
		const char *tb = strrchr(t, '/');
		if (!strcmp(tb ? tb + 1 : t, base))
			return &a->points[i];
	}
	return NULL;
}

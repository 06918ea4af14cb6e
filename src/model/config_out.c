/* config_out.c - mdl_config_predict: the answers for a configuration INI
 * (config_ini.h), as text, CSV or JSON. */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "model/config_ini.h"
#include "model/explain.h"
#include "model/inventory_links.h"
#include "util/csv.h"

static const char *rw_name(const struct mdl_workload *w)
{
	if (w->read_pct >= 100)
		return w->random ? "randread" : "read";
	if (w->read_pct <= 0)
		return w->random ? "randwrite" : "write";
	return w->random ? "randrw" : "rw";
}

static void write_csv_row(const struct mdl_cfg_file *cf, unsigned i,
			  const struct mdl_answer *a, const char *why, FILE *out)
{
	const struct mdl_workload *w = &cf->w[i];

	csv_field(out, cf->name[i]);
	fprintf(out, ",%s,%g,%g,%.0f,%.1f,%.3f,%s,%.2f,%u,", rw_name(w), w->bs_kib,
		w->read_pct, a->iops, a->mbps, a->latency_ms, mdl_bound_name(a->bound),
		a->utilization, a->saturation_drives);
	csv_field(out, why);
	fputc('\n', out);
}

static json_object *json_row(const struct mdl_cfg_file *cf, unsigned i,
			     const struct mdl_answer *a, const char *why)
{
	const struct mdl_workload *w = &cf->w[i];
	json_object *o = json_object_new_object(), *u = json_object_new_object();

	json_object_object_add(o, "workload", json_object_new_string(cf->name[i]));
	json_object_object_add(o, "rw", json_object_new_string(rw_name(w)));
	json_object_object_add(o, "bs_kib", json_object_new_double(w->bs_kib));
	json_object_object_add(o, "read_pct", json_object_new_double(w->read_pct));
	json_object_object_add(o, "iops", json_object_new_double(a->iops));
	json_object_object_add(o, "mbps", json_object_new_double(a->mbps));
	json_object_object_add(o, "latency_ms", json_object_new_double(a->latency_ms));
	json_object_object_add(o, "bound_by", json_object_new_string(mdl_bound_name(a->bound)));
	json_object_object_add(o, "utilization", json_object_new_double(a->utilization));
	json_object_object_add(o, "saturation_drives", json_object_new_int((int)a->saturation_drives));
	for (int b = 0; b < MDL_B_NR; b++)
		if (a->util[b] > 0)
			json_object_object_add(u, mdl_bound_name((enum mdl_bound)b),
					       json_object_new_double(a->util[b]));
	json_object_object_add(o, "utilizations", u);
	json_object_object_add(o, "why", json_object_new_string(why));
	return o;
}

static void write_all(const struct mdl_cfg_file *cf, const struct mdl_config *c,
		      const struct mdl_workload *w, const char *format, FILE *out)
{
	json_object *arr = format && !strcmp(format, "json") ? json_object_new_array() : NULL;
	bool csv = format && !strcmp(format, "csv");

	if (csv)
		fprintf(out, "workload,rw,bs_kib,read_pct,iops,mbps,latency_ms,bound_by,utilization,saturation_drives,why\n");
	for (unsigned i = 0; i < cf->nr; i++) {
		struct mdl_answer a;
		char why[256];
		mdl_eval(c, &w[i], &a);
		mdl_explain(c, &w[i], &a, why, sizeof(why));
		if (arr)
			json_object_array_add(arr, json_row(cf, i, &a, why));
		else if (csv)
			write_csv_row(cf, i, &a, why, out);
		else
			fprintf(out, "%s: %s, %.0f IOPS, %.1f MB/s at %.3f ms\n  %s\n", cf->name[i],
				rw_name(&w[i]), a.iops, a.mbps, a.latency_ms, why);
	}
	if (arr)
		fprintf(out, "%s\n", json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY));
	json_object_put(arr);
}

int mdl_config_predict(const char *path, const struct mdl_fit *f, const char *format,
		       FILE *out, struct ioc_err *err)
{
	struct mdl_cfg_file *cf = malloc(sizeof(*cf));
	char *text = NULL;
	int ret;

	if (!cf)
		return -ENOMEM;
	if ((ret = ini_read_text(path, path, &text, err)))
		goto out;
	if ((ret = mdl_config_parse(text, path, cf, err)) ||
	    (cf->inventory[0] && (ret = mdl_config_inventory(cf->inventory, &cf->c, err))))
		goto out;
	mdl_config_default_path(&cf->c);
	mdl_fit_apply(f, &cf->c);
	for (unsigned i = 0; i < cf->nr; i++)
		mdl_fit_apply_workload(f, &cf->c, &cf->w[i]);
	write_all(cf, &cf->c, cf->w, format, out);
	ret = ferror(out) ? -EIO : 0;
out:
	free(text);
	free(cf);
	return ret;
}

/* json_hosts.c - the per-host part of a run over many hosts (MPI):
 * "start_skew_ns" and "hosts", present only when the run had hosts. The
 * schema is in docs/mpi.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_parts.h"
#include "output/summary.h"

static int emit_host(struct jw *w, const struct host_result *h)
{
	struct stats_summary s;
	int ret = summary_stats(&h->stats, h->elapsed_ns, &s);

	if (ret)
		return ret;
	jw_object_begin(w);
	jw_key(w, "host");
	jw_string_n(w, h->host, sizeof(h->host));
	jw_kv_int(w, "rank", h->rank);
	jw_kv_bool(w, "lost", h->lost);
	jw_key(w, "error");
	if (h->error || h->lost)
		jw_string_n(w, h->error_msg, sizeof(h->error_msg));
	else
		jw_null(w);
	jw_kv_uint(w, "elapsed_ns", h->elapsed_ns);
	jw_kv_int(w, "start_offset_ns", h->start_offset_ns);
	jw_kv_int(w, "clock_offset_ns", h->clock_offset_ns);
	jw_kv_uint(w, "clock_error_ns", h->clock_error_ns);
	jw_kv_uint(w, "cpu_usr_ns", h->cpu_usr_ns);
	jw_kv_uint(w, "cpu_sys_ns", h->cpu_sys_ns);
	for (int d = 0; d < DIR_ALL; d++) /* trim: when there were trims */
		if (d < DIR_COUNT || s.dir[d].ios)
			json_emit_dir(w, summary_dir_name(d), &s.dir[d]);
	json_emit_dir(w, "total", &s.total);
	/* as the rank itself collected it; a lost rank sent none */
	jw_key(w, "environment");
	if (h->env_json)
		jw_raw(w, h->env_json, strlen(h->env_json));
	else
		jw_null(w);
	jw_object_end(w);
	return 0;
}

int json_environment_text(const struct environment *e, char **out, size_t *len)
{
	struct jw w;
	FILE *f = open_memstream(out, len);
	if (!f)
		return -ENOMEM;
	jw_init(&w, f, 2); /* the indent of the documents it goes into (jw_raw) */
	json_emit_environment_value(&w, e);
	int ret = jw_finish(&w);
	if (fclose(f) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*out);
		*out = NULL;
		*len = 0;
	}
	return ret;
}

int json_emit_hosts(struct jw *w, const struct run_result *r)
{
	int ret = 0;

	if (!r->nr_hosts)
		return 0;
	jw_kv_uint(w, "start_skew_ns", r->start_skew_ns);
	jw_key(w, "hosts");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_hosts && !ret; i++)
		ret = emit_host(w, &r->hosts[i]);
	jw_array_end(w);
	return ret;
}

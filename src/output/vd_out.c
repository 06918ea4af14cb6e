/* vd_out.c - VD figures in the JSON and text output (see vd_out.h). */
#define _GNU_SOURCE /* open_memstream */
#include "output/vd_out.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "output/json_parts.h"
#include "output/summary.h"
#include "vd/def.h"
#include "vd/stats.h"

static const char *dir_key(int d)
{
	return d == DIR_READ ? "read" : "write";
}

static void emit_members(struct jw *w, const struct vd_def *def,
			 const struct vd_stats *s, uint64_t elapsed)
{
	jw_key(w, "members");
	jw_array_begin(w);
	for (unsigned i = 0; i < s->nr_members; i++) {
		jw_object_begin(w);
		jw_kv_uint(w, "index", i);
		jw_kv_string(w, "path", def->members[i]);
		jw_kv_bool(w, "failed", vd_member_failed(def, i));
		for (int d = 0; d < DIR_COUNT; d++) {
			struct dir_summary ds;
			summary_dir(&s->member[i].dir[d], elapsed, &ds);
			json_emit_dir(w, dir_key(d), &ds);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
}

static void emit_vd(struct jw *w, const struct run_result *r, unsigned j,
		    const struct vd_def *def)
{
	const struct vd_stats *s = r->target_stats[j];
	uint64_t host = s->host_ios[DIR_READ] + s->host_ios[DIR_WRITE];

	jw_object_begin(w);
	jw_kv_uint(w, "job", j);
	jw_kv_string(w, "level", vd_level_name(def->level));
	jw_kv_uint(w, "strip", def->strip);
	jw_kv_uint(w, "spans", def->spans);
	jw_kv_uint(w, "nr_members", def->nr_members);
	jw_kv_uint(w, "capacity", s->capacity);
	jw_kv_uint(w, "member_bytes", s->member_bytes);
	jw_kv_bool(w, "readahead", def->readahead);
	jw_kv_string(w, "readahead_policy", !def->readahead ? "off"
				      : def->readahead_adaptive ? "adaptive" : "always");
	jw_kv_string(w, "write_policy", vd_write_name(def->write));
	jw_kv_string(w, "access", vd_access_name(def));
	jw_kv_bool(w, "disk_cache", !def->disk_cache_off);
	jw_kv_uint(w, "host_ios", host);
	jw_kv_uint(w, "host_reads", s->host_ios[DIR_READ]);
	jw_kv_uint(w, "host_writes", s->host_ios[DIR_WRITE]);
	jw_key(w, "amplification");
	jw_object_begin(w);
	jw_kv_double(w, "reads_per_host_io", vd_stats_amplification(s, DIR_READ));
	jw_kv_double(w, "writes_per_host_io", vd_stats_amplification(s, DIR_WRITE));
	jw_kv_double(w, "member_ios_per_host_io",
		     vd_stats_amplification(s, DIR_READ) + vd_stats_amplification(s, DIR_WRITE));
	jw_object_end(w);
	jw_key(w, "rows");
	jw_object_begin(w);
	jw_kv_uint(w, "read_modify_write", s->rmw_rows);
	jw_kv_uint(w, "reconstruct_write", s->rcw_rows);
	jw_kv_uint(w, "full_stripe", s->full_rows);
	jw_kv_uint(w, "degraded", s->degraded_rows);
	jw_kv_uint(w, "uninitialized", s->uninit_rows);
	jw_object_end(w);
	jw_key(w, "cache");
	jw_object_begin(w);
	jw_kv_uint(w, "readahead_hits", s->ra_hits);
	jw_kv_uint(w, "readahead_strips", s->ra_strips);
	jw_kv_uint(w, "readahead_wasted", s->ra_strips - s->ra_used);
	jw_kv_uint(w, "readahead_copied_bytes", s->ra_copied);
	jw_kv_uint(w, "writeback_absorbed", s->wb_absorbed);
	jw_kv_uint(w, "writeback_end_bytes", s->wb_end_bytes);
	jw_object_end(w);
	emit_members(w, def, s, r->elapsed_ns);
	jw_object_end(w);
}

static bool any_vd(const struct run_result *r)
{
	bool any = false;
	for (unsigned j = 0; r->target_stats && j < r->nr_jobs; j++)
		any |= r->target_stats[j] != NULL;
	return any;
}

/* The "vd" array's value. */
static int emit_vd_array(struct jw *w, const struct run_result *r)
{
	struct vd_def *def = malloc(sizeof(*def));
	if (!def)
		return -ENOMEM;
	jw_array_begin(w);
	for (unsigned j = 0; j < r->nr_jobs; j++) {
		if (!r->target_stats[j] || vd_def_parse(r->jobs[j].vd, def, NULL))
			continue;
		emit_vd(w, r, j, def);
	}
	jw_array_end(w);
	free(def);
	return 0;
}

int json_emit_vds(struct jw *w, const struct run_result *r)
{
	if (!any_vd(r))
		return 0;
	jw_key(w, "vd");
	return emit_vd_array(w, r);
}

int vd_out_strings(const struct run_result *r, char **json, char **text, double *amp,
		   double *job_amp)
{
	size_t jlen = 0, tlen = 0;
	uint64_t host = 0, member = 0;
	int ret = 0;

	*json = *text = NULL;
	*amp = 0;
	if (!any_vd(r))
		return 0;
	FILE *jf = open_memstream(json, &jlen), *tf = open_memstream(text, &tlen);
	if (jf) {
		struct jw w;
		jw_init(&w, jf, 0);
		ret = emit_vd_array(&w, r);
		if (!ret)
			ret = jw_finish(&w);
	}
	for (unsigned j = 0; tf && !ret && j < r->nr_jobs; j++)
		ret = text_emit_vd(tf, r, j);
	bool bad = ret || !jf || !tf;
	if (jf && fclose(jf))
		bad = true;
	if (tf && fclose(tf))
		bad = true;
	if (bad) {
		free(*json);
		free(*text);
		*json = *text = NULL;
		return ret ? ret : -ENOMEM;
	}
	for (unsigned j = 0; j < r->nr_jobs; j++) {
		const struct vd_stats *s = r->target_stats[j];
		uint64_t h = s ? s->host_ios[DIR_READ] + s->host_ios[DIR_WRITE] : 0, m = 0;
		for (unsigned i = 0; s && i < s->nr_members; i++)
			m += s->member[i].dir[DIR_READ].ios + s->member[i].dir[DIR_WRITE].ios;
		if (job_amp)
			job_amp[j] = h ? (double)m / (double)h : 0;
		host += h;
		member += m;
	}
	*amp = host ? (double)member / (double)host : 0;
	return 0;
}

/* "  vd raid5 strip=64KiB 4 members: 2.00 reads + 2.00 writes per host I/O"
 * then one line per member. */
int text_emit_vd(FILE *f, const struct run_result *r, unsigned j)
{
	if (!r->target_stats || !r->target_stats[j])
		return 0;
	const struct vd_stats *s = r->target_stats[j];
	struct vd_def *def = malloc(sizeof(*def));
	if (!def)
		return -ENOMEM;
	if (vd_def_parse(r->jobs[j].vd, def, NULL)) {
		free(def);
		return 0;
	}
	double sec = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 0;
	fprintf(f, "  vd %s strip=%" PRIu64 "k, %u members%s: %.2f member reads + %.2f member writes per host I/O",
		vd_level_name(def->level), def->strip / 1024, def->nr_members,
		def->failed_mask ? " (degraded)" : "",
		vd_stats_amplification(s, DIR_READ), vd_stats_amplification(s, DIR_WRITE));
	if (s->rmw_rows + s->rcw_rows + s->full_rows + s->degraded_rows)
		fprintf(f, "; rows: %" PRIu64 " rmw, %" PRIu64 " rcw, %" PRIu64
			" full, %" PRIu64 " degraded", s->rmw_rows, s->rcw_rows,
			s->full_rows, s->degraded_rows);
	if (s->uninit_rows)
		fprintf(f, " (%" PRIu64 " uninitialized: fast init)", s->uninit_rows);
	if (def->readahead)
		fprintf(f, "; read-ahead: %" PRIu64 " hits, %" PRIu64 " strips read ahead, %" PRIu64 " wasted",
			s->ra_hits, s->ra_strips, s->ra_strips - s->ra_used);
	if (vd_write_back(def))
		fprintf(f, "; cache: %" PRIu64 " writes absorbed, %" PRIu64
			" bytes destaged at the end (counted)", s->wb_absorbed, s->wb_end_bytes);
	fputc('\n', f);
	for (unsigned i = 0; i < s->nr_members; i++) {
		const struct dir_stats *rd = &s->member[i].dir[DIR_READ];
		const struct dir_stats *wr = &s->member[i].dir[DIR_WRITE];
		if (vd_member_failed(def, i)) {
			fprintf(f, "    member %u %s: failed\n", i, def->members[i]);
			continue;
		}
		fprintf(f, "    member %u %s: read %.0f IOPS %.1f MB/s lat %.1f us, write %.0f IOPS %.1f MB/s lat %.1f us\n",
			i, def->members[i],
			sec ? (double)rd->ios / sec : 0, sec ? (double)rd->bytes / sec / 1e6 : 0,
			hist_mean(&rd->lat) / 1e3,
			sec ? (double)wr->ios / sec : 0, sec ? (double)wr->bytes / sec / 1e6 : 0,
			hist_mean(&wr->lat) / 1e3);
	}
	free(def);
	return ferror(f) ? -EIO : 0;
}

/* compare.c - matching workloads across sides of repeated runs; the rules
 * are in compare_judge.c; see compare.h. */
#define _GNU_SOURCE /* asprintf */
#include "report/compare.h"
#include "report/net_model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *workload_key(const struct rs_step *st, unsigned ts)
{
	char buf[512]; /* a label and the target set it is on */
	return strdup(report_workload_name(buf, sizeof(buf), st, ts));
}

/* What step i of s is matched by (compare.h, "Matching"). A plan step:
 * its name in the table, the label (the section and the values its
 * sweep varies, which are that step's identity within the plan). A run
 * or a fio group: its job name, the N-th of a name given twice "NAME#N":
 * its label also names rw and bs, and matching by it would show two runs
 * of one job at other block sizes as two one-sided workloads instead of
 * as not comparable. */
static char *match_key(const struct rs_set *s, unsigned i, unsigned ts)
{
	const struct rs_step *st = &s->steps[i];
	unsigned nth = 1;
	char *key = NULL;

	if (!s->is_run || !st->section)
		return workload_key(st, ts);
	for (unsigned j = 0; j < i; j++)
		nth += s->steps[j].section && !strcmp(s->steps[j].section, st->section);
	char num[16] = "", tset[16] = "";
	if (nth > 1)
		snprintf(num, sizeof(num), "#%u", nth);
	if (st->nr_sets > 1)
		snprintf(tset, sizeof(tset), " #%u", ts + 1);
	return asprintf(&key, "%s%s%s", st->section, num, tset) < 0 ? NULL : key;
}

static int find_row(const struct cmp_table *t, const char *match)
{
	for (unsigned i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].match, match))
			return (int)i;
	return -1;
}

/* The row matched by match, added (every side missing, named key) if it
 * is new; -1: no memory. match and key are taken over in either case. */
static int row_for(struct cmp_table *t, char *match, char *key, const char *label,
		   const char *lat_stat, bool iops)
{
	int r = match && key ? find_row(t, match) : -1;
	if (r >= 0 || !match || !key) {
		free(match);
		free(key);
		return r;
	}
	struct cmp_row *rows = realloc(t->rows, (t->nr_rows + 1) * sizeof(*rows));
	if (rows)
		t->rows = rows;
	struct cmp_value *v = rows ? calloc(t->nr_sets, sizeof(*v)) : NULL;
	if (!v) {
		free(match);
		free(key);
		return -1;
	}
	r = (int)t->nr_rows++;
	t->rows[r] = (struct cmp_row){.key = key, .match = match, .label = label,
				      .lat_stat = lat_stat, .iops = iops, .parent = -1, .v = v};
	for (unsigned j = 0; j < t->nr_sets; j++)
		v[j] = (struct cmp_value){
			.verdict = CMP_MISSING, .value = NAN, .lat_ns = NAN,
			.p99_ns = NAN, .run_sd = NAN, .iv_mean = NAN, .iv_sd = NAN,
			.diff_pct = NAN, .noise_pct = NAN, .floor_pct = NAN,
			.retransmits = -1};
	return r;
}

/* Run `run` of the side has v's workload: count its value (a lost host's
 * NaN adds no run); latencies keep the worst run's. 0 or -ENOMEM. */
int compare_add_run(struct cmp_value *v, unsigned run, double value, double lat,
		    double p99, const struct rs_point *p)
{
	v->last_run = run + 1;
	if (v->verdict == CMP_MISSING) {
		v->verdict = CMP_UNKNOWN;
		v->point = p;
		v->iodepth = p ? p->iodepth : 0;
		v->numjobs = p ? p->numjobs : 0;
	}
	if (!isfinite(value))
		return 0;
	struct cmp_run *r = realloc(v->runs, (v->nr_runs + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	v->runs = r;
	r[v->nr_runs++] = (struct cmp_run){.value = value, .point = p};
	v->lat_ns = fmax(v->lat_ns, lat); /* fmax ignores the NaN start */
	v->p99_ns = fmax(v->p99_ns, p99);
	return 0;
}

/* A side's value gets params; a run whose parameters differ from the
 * side's first makes the side not comparable. */
static void side_params(struct cmp_value *v, const struct cmp_params *pp)
{
	char why[CMP_REASON_MAX - 16];
	if (!v->params.present) {
		v->params = *pp;
		return;
	}
	compare_params_differ(&v->params, pp, why, sizeof(why));
	if (why[0] && v->verdict != CMP_NOT_COMPARABLE) {
		v->verdict = CMP_NOT_COMPARABLE;
		snprintf(v->reason, sizeof(v->reason), "runs differ: %s", why);
	}
}

static struct cmp_params params_of(const struct rs_step *st, const struct rs_point *p)
{
	return (struct cmp_params){
		.present = true, .mode = rs_mode_name(st->mode), .rw = st->job.rw,
		.ioengine = st->job.ioengine, .dist = st->job.random_distribution,
		.lat_stat = st->latency_stat, .bs = st->job.bs,
		.lat_limit_ns = st->latency_limit_ns, .rwmixread = st->job.rwmixread,
		.iodepth = p->iodepth, .numjobs = p->numjobs, .direct = st->job.direct,
		/* a search's depth is what it found, not what was asked */
		.fixed_qd = st->mode != RS_SEARCH};
}

int compare_row_for(struct cmp_table *t, char *key, const char *lat_stat)
{
	int r = row_for(t, key ? strdup(key) : NULL, key, NULL, lat_stat, false);
	if (r >= 0)
		t->rows[r].label = t->rows[r].key;
	return r;
}

/* The row keyed key (a network row labelled by its key; key is taken),
 * and side si's value in it; NULL when out of memory. */
static struct cmp_value *net_value(struct cmp_table *t, char *key, unsigned si)
{
	int r = row_for(t, key ? strdup(key) : NULL, key, NULL, "-", false);
	if (r < 0)
		return NULL;
	struct cmp_row *row = &t->rows[r];
	row->label = row->key;
	row->net = true;
	return &row->v[si];
}

/* A network run: a row per direction it measured. */
static int add_net_set(struct cmp_table *t, unsigned si, unsigned run)
{
	const struct rs_net *n = t->sides[si].sets[run].net;
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
		const struct rs_net_dir *nd = &n->dir[d];
		char *key = NULL;
		if (!nd->present)
			continue;
		if (asprintf(&key, "net P%u %s", n->parallel, rs_net_dir_short(d)) < 0)
			return -ENOMEM;
		struct cmp_value *v = net_value(t, key, si);
		if (!v)
			return -ENOMEM;
		if (v->last_run == run + 1)
			continue;
		if (v->verdict == CMP_MISSING) {
			v->retransmits = nd->retransmits;
			v->streams = nd->streams;
			compare_series_stats(nd->iv_bps, nd->nr_iv, &v->iv_mean, &v->iv_sd,
					     &v->iv_n);
		}
		if (compare_add_run(v, run, nd->receiver_bps, NAN, NAN, NULL))
			return -ENOMEM;
	}
	return 0;
}

/* A net mesh run: a row per pair measured (no interval series). */
static int add_mesh_set(struct cmp_table *t, unsigned si, unsigned run)
{
	const struct rs_mesh *m = t->sides[si].sets[run].mesh;
	for (unsigned i = 0; i < m->nr_pairs; i++) {
		const struct rs_mesh_pair *p = &m->pairs[i];
		char *key = NULL;
		if (asprintf(&key, "mesh P%u %s -> %s", m->parallel, m->hosts[p->client],
			     m->hosts[p->server]) < 0)
			return -ENOMEM;
		struct cmp_value *v = net_value(t, key, si);
		if (!v)
			return -ENOMEM;
		if (v->last_run == run + 1)
			continue; /* a pair measured twice: the first */
		if (v->verdict == CMP_MISSING) {
			v->retransmits = p->retransmits;
			v->streams = m->parallel;
		}
		if (compare_add_run(v, run, p->bps, NAN, NAN, NULL))
			return -ENOMEM;
	}
	return 0;
}

/* Add run `run` of side si to t: a row per new key. */
static int add_set(struct cmp_table *t, unsigned si, unsigned run)
{
	const struct rs_set *s = &t->sides[si].sets[run];
	if (s->net)
		return add_net_set(t, si, run);
	if (s->mesh)
		return add_mesh_set(t, si, run);
	if (s->app)
		return compare_add_app_set(t, si, run);
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		for (unsigned k = 0; k < st->nr_sets; k++) {
			const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
			if (!p)
				continue;
			int r = row_for(t, match_key(s, i, k), workload_key(st, k), st->label,
					st->latency_stat ? st->latency_stat : "mean",
					rs_step_is_random(st));
			if (r < 0)
				return -ENOMEM;
			struct cmp_value *v = &t->rows[r].v[si];
			if (v->last_run == run + 1)
				continue; /* the first of a repeated name */
			if (v->verdict == CMP_MISSING)
				compare_interval_stats(p, &v->iv_mean, &v->iv_sd, &v->iv_n);
			struct cmp_params pp = params_of(st, p);
			if (compare_add_run(v, run, t->rows[r].iops ? p->total.iops : p->total.bw_bytes,
				    rs_point_latency(st, p), (double)p->total.lat.pct[RS_P99], p))
				return -ENOMEM;
			side_params(v, &pp);
		}
	}
	return 0;
}

static double dir_latency(const char *stat, const struct rs_dir *d)
{
	if (!strcmp(stat, "p99"))
		return (double)d->lat.pct[RS_P99];
	if (!strcmp(stat, "p99.9"))
		return (double)d->lat.pct[RS_P99_9];
	return d->lat.mean;
}

/* Host h of run `run` of side si, beneath workload row w. */
static int add_host(struct cmp_table *t, unsigned w, unsigned si, unsigned run,
		    const struct rs_host *h, const struct rs_point *p)
{
	char *key = NULL, *match = NULL;
	if (asprintf(&key, "%s @ %s", t->rows[w].key, h->label) < 0)
		key = NULL;
	if (asprintf(&match, "%s @ %s", t->rows[w].match, h->label) < 0)
		match = NULL;
	unsigned before = t->nr_rows;
	int r = row_for(t, match, key, t->rows[w].label, t->rows[w].lat_stat, t->rows[w].iops);
	if (r < 0)
		return -ENOMEM;
	struct cmp_row *row = &t->rows[r];
	struct cmp_value *v = &row->v[si];
	/* another row with that key (a workload so labelled), or a label
	 * twice in one run: the first */
	if ((unsigned)r < before && (row->parent != (int)w || v->last_run == run + 1))
		return 0;
	row->host = h->label;
	row->parent = (int)w;
	v->params = t->rows[w].v[si].params;
	v->lost |= h->lost;
	bool none = h->lost || !h->total.ios;
	int ret = compare_add_run(v, run, h->lost ? NAN : row->iops ? h->total.iops : h->total.bw_bytes,
			  none ? NAN : dir_latency(row->lat_stat, &h->total),
			  none ? NAN : (double)h->total.lat.pct[RS_P99], p);
	const struct cmp_value *wv = &t->rows[w].v[si];
	if (wv->verdict == CMP_NOT_COMPARABLE) { /* the workload's runs differ */
		v->verdict = CMP_NOT_COMPARABLE;
		memcpy(v->reason, wv->reason, sizeof(v->reason));
	}
	return ret;
}

/* The host rows of workload row w (when two or more sides ran it over
 * many hosts), appended; order_rows puts them beneath it. */
static int add_host_rows(struct cmp_table *t, unsigned w)
{
	unsigned with_hosts = 0;
	for (unsigned si = 0; si < t->nr_sets; si++) {
		bool any = false;
		for (unsigned k = 0; k < t->rows[w].v[si].nr_runs; k++)
			any |= t->rows[w].v[si].runs[k].point->nr_hosts > 0;
		with_hosts += any;
	}
	if (with_hosts < 2)
		return 0;
	for (unsigned si = 0; si < t->nr_sets; si++) {
		const struct cmp_value *wv = &t->rows[w].v[si];
		for (unsigned k = 0; k < wv->nr_runs; k++) {
			const struct rs_point *p = wv->runs[k].point;
			for (unsigned i = 0; i < p->nr_hosts; i++) {
				int ret = add_host(t, w, si, k, &p->hosts[i], p);
				if (ret)
					return ret;
				wv = &t->rows[w].v[si]; /* rows may have moved */
			}
		}
	}
	return 0;
}

/* Each workload row followed by its host rows, in the order they came. */
static int order_rows(struct cmp_table *t)
{
	struct cmp_row *rows = calloc(t->nr_rows ? t->nr_rows : 1, sizeof(*rows));
	unsigned n = 0;
	if (!rows)
		return -ENOMEM;
	for (unsigned w = 0; w < t->nr_rows; w++) {
		if (t->rows[w].host)
			continue;
		rows[n++] = t->rows[w];
		for (unsigned h = w + 1; h < t->nr_rows; h++)
			if (t->rows[h].host && t->rows[h].parent == (int)w)
				rows[n++] = t->rows[h];
	}
	free(t->rows);
	t->rows = rows;
	for (unsigned i = 0; i < n; i++)
		t->rows[i].parent = -1;
	return 0;
}

/* A side's value: the mean of its runs, their spread. */
static void finish_value(struct cmp_value *v)
{
	double sum = 0, sq = 0;
	if (v->verdict == CMP_MISSING)
		return;
	v->lost = v->lost && !v->nr_runs;
	for (unsigned i = 0; i < v->nr_runs; i++)
		sum += v->runs[i].value;
	v->value = v->nr_runs ? sum / v->nr_runs : NAN;
	for (unsigned i = 0; i < v->nr_runs; i++)
		sq += (v->runs[i].value - v->value) * (v->runs[i].value - v->value);
	v->run_sd = v->nr_runs >= 2 ? sqrt(sq / (v->nr_runs - 1)) : NAN;
}

static int build_rows(struct cmp_table *t)
{
	int ret = 0;
	for (unsigned si = 0; si < t->nr_sets && !ret; si++)
		for (unsigned k = 0; k < t->sides[si].nr_runs && !ret; k++)
			ret = add_set(t, si, k);
	unsigned workloads = t->nr_rows;
	for (unsigned w = 0; w < workloads && !ret; w++)
		if (!t->rows[w].net && !t->rows[w].app)
			ret = add_host_rows(t, w);
	if (!ret && t->nr_rows > workloads)
		ret = order_rows(t);
	return ret;
}

int compare_build_sides(const struct rs_set *sets, const unsigned *run_counts,
			unsigned nr_sides, struct cmp_table *t)
{
	memset(t, 0, sizeof(*t));
	t->sides = calloc(nr_sides ? nr_sides : 1, sizeof(*t->sides));
	if (!t->sides)
		return -ENOMEM;
	t->nr_sets = nr_sides;
	for (unsigned i = 0, first = 0; i < nr_sides; first += run_counts[i++]) {
		struct cmp_side *s = &t->sides[i];
		s->sets = sets + first;
		s->nr_runs = run_counts[i];
		if (s->nr_runs > 1)
			snprintf(s->name, sizeof(s->name), "%s+%u", s->sets[0].name, s->nr_runs - 1);
		else
			snprintf(s->name, sizeof(s->name), "%s", s->sets[0].name);
	}
	int ret = build_rows(t);
	if (ret) {
		compare_free(t);
		return ret;
	}
	for (unsigned r = 0; r < t->nr_rows; r++) {
		for (unsigned si = 0; si < nr_sides; si++)
			finish_value(&t->rows[r].v[si]);
		compare_judge_row(&t->rows[r], nr_sides);
	}
	return 0;
}

int compare_build(const struct rs_set *sets, unsigned n, struct cmp_table *t)
{
	unsigned ones[n ? n : 1];
	for (unsigned i = 0; i < n; i++)
		ones[i] = 1;
	return compare_build_sides(sets, ones, n, t);
}

void compare_free(struct cmp_table *t)
{
	if (!t)
		return;
	for (unsigned r = 0; r < t->nr_rows; r++) {
		for (unsigned si = 0; si < t->nr_sets; si++)
			free(t->rows[r].v[si].runs);
		free(t->rows[r].key);
		free(t->rows[r].match);
		free(t->rows[r].v);
	}
	free(t->rows);
	free(t->sides);
	free(t->preds);
	memset(t, 0, sizeof(*t));
}

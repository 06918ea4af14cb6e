/* compare.c - matching and the noise rule; see compare.h. */
#define _GNU_SOURCE /* asprintf */
#include "report/compare.h"
#include "report/net_model.h"
#include "report/report_parts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void compare_interval_stats(const struct rs_point *p, double *mean, double *sd,
			    unsigned *n)
{
	unsigned k = p->nr_iv >= 3 ? p->nr_iv - 1 : p->nr_iv;
	double sum = 0, sq = 0;
	unsigned used = 0;

	for (unsigned i = 0; i < k; i++) {
		if (!isfinite(p->iv[i].iops))
			continue;
		sum += p->iv[i].iops;
		used++;
	}
	*n = used;
	*mean = used ? sum / used : NAN;
	for (unsigned i = 0; i < k; i++)
		if (isfinite(p->iv[i].iops))
			sq += (p->iv[i].iops - *mean) * (p->iv[i].iops - *mean);
	*sd = used >= 2 ? sqrt(sq / (used - 1)) : NAN;
}

void compare_series_stats(const double *x, unsigned nr, double *mean, double *sd,
			  unsigned *n)
{
	unsigned k = nr >= 3 ? nr - 1 : nr;
	double sum = 0, sq = 0;
	unsigned used = 0;

	for (unsigned i = 0; i < k; i++)
		if (isfinite(x[i])) {
			sum += x[i];
			used++;
		}
	*n = used;
	*mean = used ? sum / used : NAN;
	for (unsigned i = 0; i < k; i++)
		if (isfinite(x[i]))
			sq += (x[i] - *mean) * (x[i] - *mean);
	*sd = used >= 2 ? sqrt(sq / (used - 1)) : NAN;
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_REFERENCE:
		return "reference";
	case CMP_SIGNIFICANT:
		return "significant";
	case CMP_WITHIN_NOISE:
		return "within noise";
	case CMP_UNKNOWN:
		return "unknown";
	case CMP_MISSING:
		break;
	}
	return "missing";
}

static char *workload_key(const struct rs_step *st, unsigned ts)
{
	char buf[512]; /* a label and the target set it is on */
	return strdup(report_workload_name(st, ts, buf, sizeof(buf)));
}

static int find_row(const struct cmp_table *t, const char *key)
{
	for (unsigned i = 0; i < t->nr_rows; i++)
		if (!strcmp(t->rows[i].key, key))
			return (int)i;
	return -1;
}

static void fill_value(struct cmp_value *v, const struct rs_step *st,
		       const struct rs_point *p, bool iops)
{
	v->value = iops ? p->total.iops : p->total.bw_bytes;
	v->lat_ns = rs_point_latency(st, p);
	v->p99_ns = (double)p->total.lat.pct[RS_P99];
	v->iodepth = p->iodepth;
	v->numjobs = p->numjobs;
	v->point = p;
	compare_interval_stats(p, &v->iv_mean, &v->iv_sd, &v->iv_n);
	v->diff_pct = v->noise_pct = NAN;
}

/* The row of key, added (every set missing) if it is new; -1: no memory.
 * key is taken over in either case. */
static int row_for(struct cmp_table *t, char *key, const char *label,
		   const char *lat_stat, bool iops)
{
	int r = find_row(t, key);
	if (r >= 0) {
		free(key);
		return r;
	}
	struct cmp_row *rows = realloc(t->rows, (t->nr_rows + 1) * sizeof(*rows));
	if (rows)
		t->rows = rows;
	struct cmp_value *v = rows ? calloc(t->nr_sets, sizeof(*v)) : NULL;
	if (!v) {
		free(key);
		return -1;
	}
	r = (int)t->nr_rows++;
	t->rows[r] = (struct cmp_row){.key = key, .label = label, .lat_stat = lat_stat,
				      .iops = iops, .parent = -1, .v = v};
	for (unsigned j = 0; j < t->nr_sets; j++)
		v[j] = (struct cmp_value){
			.verdict = CMP_MISSING, .value = NAN, .lat_ns = NAN,
			.p99_ns = NAN, .iv_mean = NAN, .iv_sd = NAN,
			.diff_pct = NAN, .noise_pct = NAN, .retransmits = -1};
	return r;
}

/* The row keyed key (a network row labelled by its key; key is taken),
 * and set si's value in it; NULL when out of memory. */
static struct cmp_value *net_value(struct cmp_table *t, char *key, unsigned si)
{
	int r = row_for(t, key, NULL, "-", false);
	if (r < 0)
		return NULL;
	struct cmp_row *row = &t->rows[r];
	row->label = row->key;
	row->net = true;
	return &row->v[si];
}

/* A network set: a row per direction it measured. */
static int add_net_set(struct cmp_table *t, unsigned si)
{
	const struct rs_net *n = t->sets[si].net;
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
		v->verdict = CMP_UNKNOWN;
		v->value = nd->receiver_bps;
		v->retransmits = nd->retransmits;
		v->streams = nd->streams;
		compare_series_stats(nd->iv_bps, nd->nr_iv, &v->iv_mean, &v->iv_sd,
				     &v->iv_n);
	}
	return 0;
}

/* A net mesh set: a row per pair measured (no interval series: the
 * verdict is unknown unless a later format carries one). */
static int add_mesh_set(struct cmp_table *t, unsigned si)
{
	const struct rs_mesh *m = t->sets[si].mesh;
	for (unsigned i = 0; i < m->nr_pairs; i++) {
		const struct rs_mesh_pair *p = &m->pairs[i];
		char *key = NULL;
		if (asprintf(&key, "mesh P%u %s -> %s", m->parallel, m->hosts[p->client],
			     m->hosts[p->server]) < 0)
			return -ENOMEM;
		struct cmp_value *v = net_value(t, key, si);
		if (!v)
			return -ENOMEM;
		if (v->verdict != CMP_MISSING)
			continue; /* a pair measured twice: the first */
		v->verdict = CMP_UNKNOWN;
		v->value = p->bps;
		v->retransmits = p->retransmits;
		v->streams = m->parallel;
		v->iv_n = 0;
	}
	return 0;
}

/* Add set si's workloads to t: a row per new key. */
static int add_set(struct cmp_table *t, unsigned si)
{
	const struct rs_set *s = &t->sets[si];
	if (s->net)
		return add_net_set(t, si);
	if (s->mesh)
		return add_mesh_set(t, si);
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		for (unsigned k = 0; k < st->nr_sets; k++) {
			const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
			if (!p)
				continue;
			char *key = workload_key(st, k);
			if (!key)
				return -ENOMEM;
			bool fresh = find_row(t, key) < 0;
			int r = row_for(t, key, st->label,
					st->latency_stat ? st->latency_stat : "mean",
					rs_step_is_random(st));
			if (r < 0)
				return -ENOMEM;
			if (!fresh && t->rows[r].v[si].verdict != CMP_MISSING)
				continue; /* the first of a repeated label */
			t->rows[r].v[si].verdict = CMP_UNKNOWN;
			fill_value(&t->rows[r].v[si], st, p, t->rows[r].iops);
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

/* The host rows of workload row w (when two or more sets ran it over
 * many hosts), appended; compare_order puts them beneath it. */
static int add_host_rows(struct cmp_table *t, unsigned w)
{
	unsigned with_hosts = 0;
	for (unsigned si = 0; si < t->nr_sets; si++) {
		const struct rs_point *p = t->rows[w].v[si].point;
		with_hosts += p && p->nr_hosts;
	}
	if (with_hosts < 2)
		return 0;
	for (unsigned si = 0; si < t->nr_sets; si++) {
		const struct rs_point *p = t->rows[w].v[si].point;
		for (unsigned i = 0; p && i < p->nr_hosts; i++) {
			const struct rs_host *h = &p->hosts[i];
			char *key = NULL;
			if (asprintf(&key, "%s @ %s", t->rows[w].key, h->label) < 0)
				return -ENOMEM;
			unsigned before = t->nr_rows;
			int r = row_for(t, key, t->rows[w].label, t->rows[w].lat_stat,
					t->rows[w].iops);
			if (r < 0)
				return -ENOMEM;
			struct cmp_row *row = &t->rows[r];
			/* another row with that key (a workload so labelled), or
			 * a label twice: the first */
			if ((unsigned)r < before &&
			    (row->parent != (int)w || row->v[si].verdict != CMP_MISSING))
				continue;
			row->host = h->label;
			row->parent = (int)w;
			struct cmp_value *v = &row->v[si];
			v->verdict = CMP_UNKNOWN;
			v->lost = h->lost;
			v->value = h->lost ? NAN : row->iops ? h->total.iops : h->total.bw_bytes;
			v->lat_ns = h->lost || !h->total.ios ? NAN : dir_latency(row->lat_stat, &h->total);
			v->p99_ns = h->lost || !h->total.ios ? NAN : (double)h->total.lat.pct[RS_P99];
			v->iodepth = p->iodepth;
			v->numjobs = p->numjobs;
			v->iv_n = 0;
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

static void judge(struct cmp_row *row, unsigned nr_sets)
{
	int ref = -1;
	for (unsigned i = 0; i < nr_sets; i++) {
		struct cmp_value *v = &row->v[i];
		if (v->verdict == CMP_MISSING)
			continue;
		if (ref < 0) {
			ref = (int)i;
			v->verdict = CMP_REFERENCE;
			continue;
		}
		const struct cmp_value *a = &row->v[ref];
		v->diff_pct = a->value != 0 ? (v->value - a->value) / a->value * 100 : NAN;
		if (a->iv_n >= 2 && v->iv_n >= 2 && a->iv_mean > 0) {
			double se = sqrt(a->iv_sd * a->iv_sd / a->iv_n +
					 v->iv_sd * v->iv_sd / v->iv_n);
			v->noise_pct = COMPARE_K * se / a->iv_mean * 100;
		}
		if (!isfinite(v->diff_pct) || !isfinite(v->noise_pct))
			v->verdict = CMP_UNKNOWN;
		else
			v->verdict = fabs(v->diff_pct) > v->noise_pct ? CMP_SIGNIFICANT
								      : CMP_WITHIN_NOISE;
	}
}

int compare_build(const struct rs_set *sets, unsigned n, struct cmp_table *t)
{
	memset(t, 0, sizeof(*t));
	t->sets = sets;
	t->nr_sets = n;
	int ret = 0;
	for (unsigned i = 0; i < n && !ret; i++)
		ret = add_set(t, i);
	unsigned workloads = t->nr_rows;
	for (unsigned w = 0; w < workloads && !ret; w++)
		if (!t->rows[w].net)
			ret = add_host_rows(t, w);
	if (!ret && t->nr_rows > workloads)
		ret = order_rows(t);
	if (ret) {
		compare_free(t);
		return ret;
	}
	for (unsigned r = 0; r < t->nr_rows; r++)
		judge(&t->rows[r], n);
	return 0;
}

void compare_free(struct cmp_table *t)
{
	for (unsigned r = 0; t && r < t->nr_rows; r++) {
		free(t->rows[r].key);
		free(t->rows[r].v);
	}
	if (t)
		free(t->rows);
}

/* report_net_side.c - network results side by side, as the papers set
 * them: one column per result set, one row per setting or figure (MTU,
 * adapter profile, congestion control used, throughput, CPU per Gbit/s,
 * each host's CPU and softirq share), the rows whose values differ
 * between sets marked, so two runs that differ only in MTU or profile
 * read as what changed and what it cost. Then CPU per Gbit/s as bars. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/net_model.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define CELL 128

typedef void (*cell_fn)(char *buf, const struct rs_net *n);

#define NUMW 24

static void num_or_dash(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "\xe2\x80\x93");
}

static const char *onoff(int v)
{
	return v < 0 ? "\xe2\x80\x93" : v ? "on" : "off";
}

static void c_mtu(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.0f", n->mtu ? n->mtu : NAN); }
static void c_pmtu(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.0f", n->path_mtu ? n->path_mtu : NAN); }
static void c_driver(char *b, const struct rs_net *n) { snprintf(b, CELL, "%s", n->if_driver && n->if_driver[0] ? n->if_driver : "virtual"); }
static void c_peer_driver(char *b, const struct rs_net *n) { snprintf(b, CELL, "%s", n->nic[1].driver ? (n->nic[1].driver[0] ? n->nic[1].driver : "virtual") : "\xe2\x80\x93"); }
static void c_peer_mtu(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.0f", n->nic[1].mtu); }
static void c_mode(char *b, const struct rs_net *n) { snprintf(b, CELL, "%u stream%s, %s", n->parallel, n->parallel == 1 ? "" : "s", n->bidir ? "both ways" : n->reverse ? "reverse" : "send"); }
static void c_cong(char *b, const struct rs_net *n) { snprintf(b, CELL, "%s / %s", n->congestion_used && n->congestion_used[0] ? n->congestion_used : "\xe2\x80\x93", n->congestion_remote && n->congestion_remote[0] ? n->congestion_remote : "\xe2\x80\x93"); }

static void offloads(char *b, const struct rs_net_nic *x)
{
	snprintf(b, CELL, "TSO %s GSO %s GRO %s LRO %s", onoff(x->tso), onoff(x->gso),
		 onoff(x->gro), onoff(x->lro));
}

static void c_off0(char *b, const struct rs_net *n) { offloads(b, &n->nic[0]); }
static void c_off1(char *b, const struct rs_net *n) { offloads(b, &n->nic[1]); }

static void rings(char *b, const struct rs_net_nic *x)
{
	char r[NUMW], t[NUMW], c[NUMW];
	num_or_dash(r, NUMW, "%.0f", x->rx_ring);
	num_or_dash(t, NUMW, "%.0f", x->tx_ring);
	num_or_dash(c, NUMW, "%.0f", x->combined);
	snprintf(b, CELL, "rings %s/%s, channels %s", r, t, c);
}

static void c_ring0(char *b, const struct rs_net *n) { rings(b, &n->nic[0]); }
static void c_ring1(char *b, const struct rs_net *n) { rings(b, &n->nic[1]); }

static void coalesce(char *b, const struct rs_net_nic *x)
{
	char u[NUMW], fr[NUMW];
	num_or_dash(u, NUMW, "%.0f", x->rx_usecs);
	num_or_dash(fr, NUMW, "%.0f", x->rx_frames);
	snprintf(b, CELL, "rx %s us / %s frames, RSS %s", u, fr,
		 x->rss_hfunc && x->rss_hfunc[0] ? x->rss_hfunc : "\xe2\x80\x93");
}

static void c_coal0(char *b, const struct rs_net *n) { coalesce(b, &n->nic[0]); }
static void c_coal1(char *b, const struct rs_net *n) { coalesce(b, &n->nic[1]); }
static void c_gbit(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.3f", n->throughput_bps / 1e9); }

static void c_retr(char *b, const struct rs_net *n)
{
	int64_t r = 0;
	bool known = false;
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++)
		if (n->dir[d].present && n->dir[d].retransmits >= 0) {
			r += n->dir[d].retransmits;
			known = true;
		}
	num_or_dash(b, CELL, "%.0f", known ? (double)r : NAN);
}

static void c_cpu0(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.3f", n->cpu_s_per_gbit[0]); }
static void c_cpu1(char *b, const struct rs_net *n) { num_or_dash(b, CELL, "%.3f", n->cpu_s_per_gbit[1]); }

static void host(char *b, double busy, double softirq)
{
	char x[NUMW], y[NUMW];
	num_or_dash(x, NUMW, "%.1f %%", busy);
	num_or_dash(y, NUMW, "%.1f %%", softirq);
	snprintf(b, CELL, "%s (softirq %s)", x, y);
}

static void c_host0(char *b, const struct rs_net *n) { host(b, n->host_busy[0], n->host_softirq[0]); }
static void c_host1(char *b, const struct rs_net *n) { host(b, n->host_busy[1], n->host_softirq[1]); }

static const struct {
	const char *label;
	cell_fn fn;
} rows[] = {
	{"streams and mode", c_mode},
	{"MTU (this end)", c_mtu},
	{"MTU (peer)", c_peer_mtu},
	{"path MTU", c_pmtu},
	{"driver (this end)", c_driver},
	{"driver (peer)", c_peer_driver},
	{"offloads (this end)", c_off0},
	{"offloads (peer)", c_off1},
	{"rings and channels (this end)", c_ring0},
	{"rings and channels (peer)", c_ring1},
	{"coalescing and RSS (this end)", c_coal0},
	{"coalescing and RSS (peer)", c_coal1},
	{"congestion control used (this end / peer)", c_cong},
	{"throughput (Gbit/s)", c_gbit},
	{"retransmits", c_retr},
	{"CPU s per Gbit (this end's process)", c_cpu0},
	{"CPU s per Gbit (peer's process)", c_cpu1},
	{"host CPU busy (this end)", c_host0},
	{"host CPU busy (peer)", c_host1},
};

/* The table: a row's cells all equal read as context, a row that differs
 * between sets is marked (class "differs"). */
static void side_table(struct report_ctx *r, const unsigned *idx, unsigned nc)
{
	FILE *f = r->f;
	char cell[CELL], first[CELL];

	fputs("<table class=\"net-side\"><thead><tr><th></th>", f);
	for (unsigned k = 0; k < nc; k++) {
		fputs("<th>", f);
		html_escape(f, r->sets[idx[k]].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		bool differs = false;
		rows[i].fn(first, r->sets[idx[0]].net);
		for (unsigned k = 1; k < nc; k++) {
			rows[i].fn(cell, r->sets[idx[k]].net);
			differs |= strcmp(cell, first) != 0;
		}
		fprintf(f, "<tr%s><th>", differs ? " class=\"differs\"" : "");
		html_escape(f, rows[i].label);
		fputs(differs ? " \xe2\x89\xa0" : "", f);
		fputs("</th>", f);
		for (unsigned k = 0; k < nc; k++) {
			rows[i].fn(cell, r->sets[idx[k]].net);
			fputs("<td>", f);
			html_escape(f, cell);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* CPU seconds per Gbit transferred, each end's process, a bar pair per
 * set: what a larger MTU or an offload saves. */
static void cpu_chart(struct report_ctx *r, const unsigned *idx, unsigned nc)
{
	const char **cats = calloc(nc, sizeof(*cats));
	double vmax = 0;
	char tip[160];

	if (!cats)
		return;
	for (unsigned k = 0; k < nc; k++) {
		const struct rs_net *n = r->sets[idx[k]].net;
		cats[k] = r->sets[idx[k]].name;
		for (int e = 0; e < 2; e++)
			if (isfinite(n->cpu_s_per_gbit[e]))
				vmax = fmax(vmax, n->cpu_s_per_gbit[e]);
	}
	if (vmax <= 0) {
		free(cats);
		return;
	}
	struct axis x = {.kind = AXIS_CATEGORY, .label = "result set", .cats = cats, .nr_cats = nc};
	struct axis y = {.kind = AXIS_LINEAR, .label = "CPU seconds per Gbit",
			 .unit = AXIS_UNIT_NONE};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, vmax, true);
	struct chart c;
	if (chart_begin(&c, r->f, "net-cpu", "CPU per Gbit/s per result set", &x, &y, NULL)) {
		free(cats);
		return;
	}
	chart_axes(&c);
	for (unsigned k = 0; k < nc; k++)
		for (int e = 0; e < 2; e++) {
			double v = r->sets[idx[k]].net->cpu_s_per_gbit[e];
			if (!isfinite(v))
				continue;
			snprintf(tip, sizeof(tip), "%s: %.3f CPU s per Gbit, %s", cats[k], v,
				 e ? "peer" : "this end");
			chart_bar(&c, k, e, 2, v, tip);
		}
	chart_legend_add(&c, 0, false, "this end's process");
	chart_legend_add(&c, 1, false, "the peer's process");
	fputs("<figure>", r->f);
	int ret = chart_end(&c);
	if (ret && !r->ret)
		r->ret = ret;
	fputs("<figcaption>CPU time of each end's process (its stream and control threads) "
	      "per gigabit moved.</figcaption></figure>\n",
	      r->f);
	free(cats);
}

void report_net_side_by_side(struct report_ctx *r)
{
	unsigned *idx = calloc(r->nr_sets ? r->nr_sets : 1, sizeof(*idx));
	unsigned nc = 0;

	if (!idx)
		return;
	for (unsigned s = 0; s < r->nr_sets; s++)
		if (r->sets[s].net)
			idx[nc++] = s;
	if (nc) {
		fputs("<h3>Side by side</h3>\n", r->f);
		side_table(r, idx, nc);
		cpu_chart(r, idx, nc);
	}
	free(idx);
}

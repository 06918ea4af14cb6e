/* report_net.c - the report's "Network" section: the total throughput of
 * each network result set as a bar (so MTU 1500 against 9000 reads at a
 * glance), then per set the directions, the streams with their TCP_INFO
 * figures, the interface and the test's parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/net_model.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define TIP_MAX 160

static void td_text(FILE *f, const char *text)
{
	fputs("<td>", f);
	html_escape(f, text ? text : "");
	fputs("</td>", f);
}

static void td_num(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"num\">");
	else
		fputs("<td class=\"num\">\xe2\x80\x93", f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	fputs("</td>", f);
}

static void td_retr(FILE *f, int64_t retr)
{
	if (retr < 0)
		fputs("<td class=\"num\">\xe2\x80\x93</td>", f);
	else
		fprintf(f, "<td class=\"num\">%lld</td>", (long long)retr);
}

/* One bar per network set: its total throughput. */
static void throughput_chart(struct report_ctx *r)
{
	unsigned nc = 0;
	const char **cats = calloc(r->nr_sets, sizeof(*cats));
	unsigned *idx = calloc(r->nr_sets, sizeof(*idx));
	double vmax = 0;
	char tip[TIP_MAX];

	if (!cats || !idx)
		goto out;
	for (unsigned s = 0; s < r->nr_sets; s++)
		if (r->sets[s].net) {
			idx[nc] = s;
			cats[nc++] = r->sets[s].name;
			vmax = fmax(vmax, r->sets[s].net->throughput_bps / 1e9);
		}
	struct axis x = {.kind = AXIS_CATEGORY, .label = "result set", .cats = cats,
			 .nr_cats = nc};
	struct axis y = {.kind = AXIS_LINEAR, .label = "throughput (Gbit/s)"};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, vmax, true);
	struct chart c;
	if (chart_begin(&c, r->f, "net-bars", "Network throughput per result set", &x, &y,
			NULL))
		goto out;
	chart_axes(&c);
	for (unsigned k = 0; k < nc; k++) {
		const struct rs_net *n = r->sets[idx[k]].net;
		snprintf(tip, sizeof(tip), "%s: %.3f Gbit/s, %u streams, MTU %u",
			 cats[k], n->throughput_bps / 1e9, n->parallel, n->mtu);
		chart_bar(&c, k, 0, 1, n->throughput_bps / 1e9, tip);
	}
	chart_legend_add(&c, 0, false, "throughput, all directions");
	fputs("<figure>", r->f);
	int ret = chart_end(&c);
	if (ret && !r->ret)
		r->ret = ret;
	fputs("<figcaption>The receivers' throughput of each network result, summed over "
	      "its directions.</figcaption></figure>\n", r->f);
out:
	free(cats);
	free(idx);
}

/* Throughput per interval of each direction of one set, with its
 * retransmits per interval on the right axis (where the sender's side
 * recorded them): a stall or a loss burst shows where it happened. */
static void interval_chart(struct report_ctx *r, const struct rs_set *set)
{
	const struct rs_net *n = set->net;
	double tmax = 0, bmax = 0, rmax = 0;
	bool any_retr = false;
	char title[300];

	for (unsigned d = 0; d < RS_NET_NR_DIR; d++)
		for (unsigned i = 0; i < n->dir[d].nr_iv; i++) {
			tmax = fmax(tmax, n->dir[d].iv_end[i]);
			bmax = fmax(bmax, n->dir[d].iv_bps[i] / 1e9);
			if (!isnan(n->dir[d].iv_retr[i])) {
				any_retr = true;
				rmax = fmax(rmax, n->dir[d].iv_retr[i]);
			}
		}
	if (!tmax)
		return;
	struct axis x = {.kind = AXIS_LINEAR, .label = "time (s)"};
	struct axis y = {.kind = AXIS_LINEAR, .label = "throughput (Gbit/s)"};
	struct axis y2 = {.kind = AXIS_LINEAR, .label = "retransmits per interval"};
	axis_fit(&x, 0, tmax, true);
	axis_fit(&y, 0, bmax, true);
	axis_fit(&y2, 0, fmax(rmax, 1), true);
	snprintf(title, sizeof(title), "%s: throughput per interval", set->name);
	struct chart c;
	if (chart_begin(&c, r->f, "net-series", title, &x, &y, any_retr ? &y2 : NULL))
		return;
	chart_axes(&c);
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
		const struct rs_net_dir *nd = &n->dir[d];
		if (!nd->nr_iv)
			continue;
		double *gb = calloc(nd->nr_iv, sizeof(double));
		for (unsigned i = 0; gb && i < nd->nr_iv; i++)
			gb[i] = nd->iv_bps[i] / 1e9;
		if (gb) {
			chart_line(&c, d, false, nd->iv_end, gb, nd->nr_iv, NULL);
			chart_legend_add(&c, d, CHART_LEGEND_LINE, rs_net_dir_name[d]);
		}
		free(gb);
		if (any_retr) {
			chart_points(&c, 3 + d, true, nd->iv_end, nd->iv_retr, nd->nr_iv, NULL);
			chart_legend_add(&c, 3 + d, CHART_LEGEND_POINT,
					 d == RS_NET_C2S ? "retransmits, client to server (right axis)"
							 : "retransmits, server to client (right axis)");
		}
	}
	fputs("<figure>", r->f);
	int ret = chart_end(&c);
	if (ret && !r->ret)
		r->ret = ret;
	fputs("<figcaption>Each direction's throughput as its receiver counted it, one point "
	      "per interval (-i); retransmits per interval where they were recorded.</figcaption>"
	      "</figure>\n",
	      r->f);
}

static void directions_table(FILE *f, const struct rs_net *n)
{
	fputs("<table class=\"net-directions\"><thead><tr><th>direction</th><th>streams</th>"
	      "<th>sender bytes</th><th>receiver bytes</th><th>Gbit/s</th>"
	      "<th>retransmits</th></tr></thead><tbody>\n", f);
	for (unsigned d = 0; d < RS_NET_NR_DIR; d++) {
		const struct rs_net_dir *nd = &n->dir[d];
		if (!nd->present)
			continue;
		fputs("<tr>", f);
		td_text(f, rs_net_dir_short(d));
		fprintf(f, "<td class=\"num\">%u</td><td class=\"num\">%llu</td>"
			   "<td class=\"num\">%llu</td>", nd->streams,
			(unsigned long long)nd->sender_bytes,
			(unsigned long long)nd->receiver_bytes);
		td_num(f, "%.3f", nd->receiver_bps / 1e9);
		td_retr(f, nd->retransmits);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void streams_table(FILE *f, const struct rs_net *n)
{
	fputs("<table class=\"net-streams\"><thead><tr><th>stream</th><th>direction</th>"
	      "<th>this end</th><th>bytes</th><th>Gbit/s</th><th>retransmits</th>"
	      "<th>cwnd</th><th>rtt (µs)</th><th>pmtu</th><th>MSS</th></tr></thead><tbody>\n",
	      f);
	for (unsigned i = 0; i < n->nr_streams; i++) {
		const struct rs_net_stream *s = &n->streams[i];
		fprintf(f, "<tr class=\"net-stream\"><td class=\"num\">%u</td>", s->id);
		td_text(f, rs_net_dir_short(s->dir));
		td_text(f, s->sender ? "sender" : "receiver");
		fprintf(f, "<td class=\"num\">%llu</td>", (unsigned long long)s->bytes);
		td_num(f, "%.3f", s->bps / 1e9);
		td_retr(f, s->retransmits);
		fprintf(f, "<td class=\"num\">%u</td><td class=\"num\">%u</td>"
			   "<td class=\"num\">%u</td><td class=\"num\">%u</td></tr>\n",
			s->snd_cwnd, s->rtt_us, s->pmtu, s->snd_mss);
	}
	fputs("</tbody></table>\n", f);
}

static void kv(FILE *f, const char *k, const char *v)
{
	fputs("<tr><th>", f);
	html_escape(f, k);
	fputs("</th>", f);
	td_text(f, v);
	fputs("</tr>", f);
}

static void kv_uint(FILE *f, const char *k, unsigned v)
{
	char b[32];
	snprintf(b, sizeof(b), "%u", v);
	kv(f, k, b);
}

static void setup_table(FILE *f, const struct rs_net *n)
{
	fputs("<table class=\"kv net-setup\"><tbody>", f);
	kv(f, "role of this end", n->role);
	kv(f, "peer", n->peer);
	kv_uint(f, "parallel streams", n->parallel);
	kv_uint(f, "duration (s)", n->duration_s);
	kv_uint(f, "write size (bytes, 0: default)", n->len);
	kv_uint(f, "socket buffer (bytes, 0: default)", n->window);
	kv(f, "mode", n->bidir ? "bidirectional" : n->reverse ? "reverse" : "send");
	kv(f, "congestion control asked", n->congestion && n->congestion[0] ? n->congestion : "(default)");
	kv(f, "congestion control used", n->congestion_used);
	kv(f, "zero-copy", n->zerocopy ? "yes" : "no");
	kv(f, "interface", n->if_name);
	kv(f, "driver", n->if_driver);
	kv_uint(f, "MTU", n->mtu);
	kv_uint(f, "rx queues", n->rx_queues);
	kv_uint(f, "tx queues", n->tx_queues);
	kv_uint(f, "path MTU", n->path_mtu);
	fputs("</tbody></table>\n", f);
}

/* Rows the clients (senders), columns the servers: Gbit/s of each pair,
 * retransmits in its tooltip. */
static void mesh_table(FILE *f, const struct rs_mesh *m)
{
	fprintf(f, "<p>%s of %u hosts, %u stream%s per pair, %u s each; %u of %u pairs "
		   "measured. Rows send, columns receive; Gbit/s.</p>\n",
		!strcmp(m->mode, "ring") ? "Ring" : "Mesh", m->nr_hosts, m->parallel,
		m->parallel == 1 ? "" : "s", m->duration_s, m->nr_pairs, m->pairs_expected);
	fputs("<table class=\"net-mesh\"><thead><tr><th>from \\ to</th>", f);
	for (unsigned j = 0; j < m->nr_hosts; j++) {
		fputs("<th>", f);
		html_escape(f, m->hosts[j]);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (unsigned i = 0; i < m->nr_hosts; i++) {
		fputs("<tr><th>", f);
		html_escape(f, m->hosts[i]);
		fputs("</th>", f);
		for (unsigned j = 0; j < m->nr_hosts; j++) {
			const struct rs_mesh_pair *p = NULL;
			for (unsigned k = 0; k < m->nr_pairs && !p; k++)
				if (m->pairs[k].client == i && m->pairs[k].server == j)
					p = &m->pairs[k];
			if (!p) {
				fputs("<td class=\"missing\"></td>", f);
				continue;
			}
			fprintf(f, "<td class=\"num mesh-pair\" title=\"retransmits %lld\">",
				(long long)p->retransmits);
			if (isfinite(p->bps))
				fprintf(f, "%.3f", p->bps / 1e9);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void report_network(struct report_ctx *r)
{
	bool any_net = false;
	for (unsigned s = 0; s < r->nr_sets; s++)
		any_net |= r->sets[s].net != NULL;
	if (any_net) {
		throughput_chart(r);
		report_net_side_by_side(r);
	}
	for (unsigned s = 0; s < r->nr_sets; s++)
		if (r->sets[s].mesh) {
			fputs("<h3>", r->f);
			html_escape(r->f, r->sets[s].name);
			fputs(": net mesh</h3>\n", r->f);
			mesh_table(r->f, r->sets[s].mesh);
		}
	for (unsigned s = 0; s < r->nr_sets; s++) {
		const struct rs_net *n = r->sets[s].net;
		if (!n)
			continue;
		fputs("<h3>", r->f);
		html_escape(r->f, r->sets[s].name);
		fprintf(r->f, ": %.3f Gbit/s</h3>\n", n->throughput_bps / 1e9);
		directions_table(r->f, n);
		interval_chart(r, &r->sets[s]);
		streams_table(r->f, n);
		setup_table(r->f, n);
	}
}

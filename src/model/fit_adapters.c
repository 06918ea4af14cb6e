/* fit_adapters.c - the figures fit of what sits above the drives: a
 * figure well below what the drives and links allow is a ceiling of the
 * RAID controller (in member traffic), of its parity path (RAID 5/6
 * small writes, once the controller's own caps are known) or of the
 * HBAs; limit rows are the controller's ceilings as stated. Then the I/Os
 * in flight per drive, by Little's law on the stated latencies. */
#include <math.h>
#include <string.h>

#include "model/fit_rows.h"
#include "model/median.h"
#include "model/traffic.h"

enum { E_IOPS, E_SATA_IOPS, E_RD_MBPS, E_WR_MBPS, E_PARITY, E_HBA_IOPS, E_HBA_MBPS, E_NR };

/* Is r's value well below what c allows under w? */
static bool below(const struct mdl_figrow *r, const struct mdl_config *c,
		  const struct mdl_workload *w)
{
	struct mdl_answer a;

	mdl_eval(c, w, &a);
	return mdl_figrow_iops(r, w) < MDL_FIT_SLACK * a.iops || !(a.iops > 0);
}

/* The command ceiling's estimate of c's interface: SATA drives behind a
 * SAS controller have their own (mdl_ctrl_iops). */
static struct mdl_est *iops_est(const struct mdl_config *c, struct mdl_est *e)
{
	return &e[c->drive.iface == MDL_IF_SATA ? E_SATA_IOPS : E_IOPS];
}

static void limit_row(const struct fitter *ft, const struct mdl_figrow *r,
		      struct mdl_est *e)
{
	struct mdl_config c;
	struct mdl_workload w;

	mdl_fitter_setup(ft, r, 100, &c, &w);
	if (r->random) {
		mdl_est_add(iops_est(&c, e), r->mbps ? 0 : r->value);
		return;
	}
	if (isnan(r->read_pct) || r->read_pct == 100)
		mdl_est_add(&e[E_RD_MBPS], r->value);
	if (isnan(r->read_pct) || r->read_pct == 0)
		mdl_est_add(&e[E_WR_MBPS], r->value);
}

/* One workload of a RAID row; parity: the parity pass (caps known). */
static void raid_row(struct fitter *ft, const struct mdl_figrow *r, double pct,
		     bool parity, struct mdl_est *e)
{
	struct mdl_config c;
	struct mdl_workload w;
	struct mdl_traffic t;

	mdl_fitter_setup(ft, r, pct, &c, &w);
	if (!parity)
		c.ctrl = (struct mdl_ctrl){0};
	mdl_traffic_of(&c, &w, &t);
	if ((t.parity > 0) != parity || !below(r, &c, &w))
		return;
	double x = mdl_figrow_iops(r, &w);
	if (parity)
		mdl_est_add(&e[E_PARITY], x * t.parity);
	else if (w.random)
		mdl_est_add(iops_est(&c, e), x * (t.reads + t.writes));
	else if (pct == 100)
		mdl_est_add(&e[E_RD_MBPS], x * t.rbytes / 1e6);
	else if (pct == 0)
		mdl_est_add(&e[E_WR_MBPS], x * t.wbytes / 1e6);
}

static void hba_row(struct fitter *ft, const struct mdl_figrow *r, double pct,
		    struct mdl_est *e)
{
	struct mdl_config c;
	struct mdl_workload w;
	struct mdl_traffic t;

	mdl_fitter_setup(ft, r, pct, &c, &w);
	if (c.path != MDL_PATH_HBA || !r->drive_count || !below(r, &c, &w))
		return;
	mdl_traffic_of(&c, &w, &t);
	double x = mdl_figrow_iops(r, &w) / (c.hba.count ? c.hba.count : 1);
	mdl_est_add(&e[w.random ? E_HBA_IOPS : E_HBA_MBPS],
		    w.random ? x * (t.reads + t.writes) : x * fmax(t.rbytes, t.wbytes) / 1e6);
}

/* Each workload a row stands for: a blank read_pct is reads and writes. */
static void each_pct(struct fitter *ft, const struct mdl_figrow *r, int pass,
		     struct mdl_est *e)
{
	double pcts[2];
	unsigned n = mdl_figrow_pcts(r, pcts);
	struct mdl_config c;
	struct mdl_workload w;

	mdl_fitter_setup(ft, r, 100, &c, &w);
	for (unsigned i = 0; i < n; i++) {
		if (pass == 2)
			hba_row(ft, r, pcts[i], e);
		else if (c.path == MDL_PATH_RAID && r->drive_count)
			raid_row(ft, r, pcts[i], pass == 1, e);
	}
}

static void in_flight(struct fitter *ft, const struct mdl_figrow *r,
		      struct mdl_est q[][MDL_Q_NR])
{
	struct mdl_config c;
	struct mdl_workload w;

	if (r->is_limit || isnan(r->latency_ms) || !r->drive_count)
		return;
	mdl_fitter_setup(ft, r, isnan(r->read_pct) ? 100 : r->read_pct, &c, &w);
	double n = r->latency_ms / 1e3 * mdl_figrow_iops(r, &w) / r->drive_count;
	mdl_est_add(&q[c.drive.iface][w.random], n);
	mdl_est_add(&q[MDL_IF_UNKNOWN][w.random], n);
}

void mdl_fit_adapters(struct fitter *ft)
{
	struct mdl_est e[E_NR] = {0};
	struct mdl_est q[MDL_IF_NVME + 1][MDL_Q_NR];
	const struct mdl_figs *g = ft->figs;
	struct mdl_fit *f = ft->f;

	memset(q, 0, sizeof(q));
	for (int pass = 0; pass < 3; pass++) {
		for (unsigned i = 0; i < g->nr; i++) {
			const struct mdl_figrow *r = &g->rows[i];
			if (!mdl_fitter_usable(ft, r))
				continue;
			if (pass == 0 && r->is_limit)
				limit_row(ft, r, e);
			else if (!r->is_limit)
				each_pct(ft, r, pass, e);
		}
		if (pass == 0)
			f->ctrl = (struct mdl_ctrl){
				.iops = mdl_est_median(&e[E_IOPS]),
				.sata_iops = mdl_est_median(&e[E_SATA_IOPS]),
				.read_mbps = mdl_est_median(&e[E_RD_MBPS]),
				.write_mbps = mdl_est_median(&e[E_WR_MBPS])};
	}
	f->ctrl.parity_writes = mdl_est_median(&e[E_PARITY]);
	f->hba.iops = mdl_est_median(&e[E_HBA_IOPS]);
	f->hba.mbps = mdl_est_median(&e[E_HBA_MBPS]);
	for (unsigned i = 0; i < g->nr; i++)
		if (mdl_fitter_usable(ft, &g->rows[i]))
			in_flight(ft, &g->rows[i], q);
	for (unsigned i = 0; i <= MDL_IF_NVME; i++)
		for (unsigned k = 0; k < MDL_Q_NR; k++)
			f->outstanding[i][k] = mdl_est_median(&q[i][k]);
}

/* fit_figures.c - mdl_fit_figures: the fit on a figures table, in the
 * order the components depend on each other (fit.h): the drives, their
 * links, the media read rate from mixes, then the controller, its parity
 * path, the HBAs, and the I/Os in flight. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"
#include "model/fit_rows.h"
#include "model/link.h"
#include "model/median.h"
#include "model/traffic.h"

bool mdl_fitter_usable(const struct fitter *ft, const struct mdl_figrow *r)
{
	return !isnan(r->value) && r->value > 0 && !(ft->skip && ft->skip(ft->arg, r));
}

void mdl_fitter_setup(const struct fitter *ft, const struct mdl_figrow *r,
		      double read_pct, struct mdl_config *c, struct mdl_workload *w)
{
	mdl_figrow_config(r, c);
	mdl_fit_apply(ft->f, c);
	mdl_figrow_workload(r, read_pct, w);
	if (!c->drive_count && !c->layout.vd_count)
		c->drive_count = 1;
}

double mdl_figrow_iops(const struct mdl_figrow *r, const struct mdl_workload *w)
{
	return r->mbps ? r->value * 1e6 / (w->bs_kib * 1024) : r->value;
}

static struct mdl_drive *drive_slot(struct mdl_fit *f, const struct mdl_figrow *r,
				    const struct mdl_config *c)
{
	for (unsigned i = 0; i < f->nr_drives; i++)
		if (!strcmp(f->drives[i].type, r->drive_type))
			return &f->drives[i];
	if (f->nr_drives == MDL_FIT_MAX_DRIVES)
		return NULL;
	struct mdl_drive *d = &f->drives[f->nr_drives++];
	*d = (struct mdl_drive){.iface = c->drive.iface};
	snprintf(d->type, sizeof(d->type), "%s", r->drive_type);
	return d;
}

/* Is r's value near a stated ceiling (a limit row) of its kind? Then it
 * is that ceiling's figure, not its drives'. */
static bool near_limit(const struct fitter *ft, const struct mdl_figrow *r)
{
	for (unsigned i = 0; i < ft->figs->nr; i++) {
		const struct mdl_figrow *l = &ft->figs->rows[i];
		if (l->is_limit && mdl_fitter_usable(ft, l) && l->random == r->random &&
		    l->mbps == r->mbps && r->value >= MDL_FIT_SLACK * l->value)
			return true;
	}
	return false;
}

/* Per-drive figures from a row with no controller (or, raid_ok, a RAID 0
 * one, for a type measured nowhere else), each type at its best. */
static void drive_row(struct fitter *ft, const struct mdl_figrow *r, bool raid_ok)
{
	struct mdl_config c;
	struct mdl_workload w;

	mdl_fitter_setup(ft, r, 100, &c, &w);
	if (r->is_limit || !r->drive_type[0] || !r->drive_count ||
	    (c.path == MDL_PATH_RAID) != raid_ok ||
	    (raid_ok && c.layout.level != MDL_R0 && c.layout.level != MDL_JBOD))
		return;
	if (raid_ok && near_limit(ft, r))
		return;
	struct mdl_drive *d = drive_slot(ft->f, r, &c);
	if (!d)
		return;
	double per = r->value / r->drive_count;
	bool rd = isnan(r->read_pct) || r->read_pct == 100;
	bool wr = isnan(r->read_pct) || r->read_pct == 0;
	if (raid_ok && ((rd && (r->random ? d->rr_iops : d->sr_mbps) > 0) ||
			(wr && (r->random ? d->rw_iops : d->sw_mbps) > 0)))
		return;
	if (r->random && r->mbps)
		per = per * 1e6 / (w.bs_kib * 1024);
	if (!r->random && !r->mbps)
		per = per * w.bs_kib * 1024 / 1e6;
	if (rd)
		mdl_keep_max(r->random ? &d->rr_iops : &d->sr_mbps, per);
	if (wr)
		mdl_keep_max(r->random ? &d->rw_iops : &d->sw_mbps, per);
}

/* A per-drive figure well below its type's best on a CPU-attached or HBA
 * drive is its link's: efficiency = payload / raw rate. */
static void link_row(struct fitter *ft, const struct mdl_figrow *r,
		     struct mdl_est *pcie, struct mdl_est *serial)
{
	struct mdl_config c;
	struct mdl_workload w;

	if (r->is_limit || !r->drive_count || isnan(r->read_pct) ||
	    (r->read_pct != 0 && r->read_pct != 100))
		return;
	mdl_fitter_setup(ft, r, r->read_pct, &c, &w);
	if (c.path == MDL_PATH_RAID)
		return;
	const struct mdl_drive *d = &c.drive;
	bool rd = r->read_pct == 100;
	double best = r->random ? (rd ? d->rr_iops : d->rw_iops) : (rd ? d->sr_mbps : d->sw_mbps);
	double per_iops = mdl_figrow_iops(r, &w) / r->drive_count;
	double per = r->random ? per_iops : per_iops * w.bs_kib * 1024 / 1e6;
	double raw = mdl_drive_link_mbps(&c);
	double best_mbps = r->random ? best * w.bs_kib * 1024 / 1e6 : best;
	/* only a link the type's best figure would overfill can be the cause */
	if (!(per < MDL_FIT_SLACK * best) || !(best_mbps > raw))
		return;
	double eff = per_iops * w.bs_kib * 1024 / 1e6 / raw;
	mdl_est_add(c.drive.iface == MDL_IF_NVME ? pcie : serial, eff);
}

/* A mix slower than the front end allows is the media's: solve
 * 1/x = r/media + (1-r)/rw for the media read rate. */
static void media_row(struct fitter *ft, const struct mdl_figrow *r,
		      struct mdl_est *est, unsigned di)
{
	struct mdl_config c;
	struct mdl_workload w;

	if (r->is_limit || !r->random || !r->drive_count || isnan(r->read_pct) ||
	    r->read_pct <= 0 || r->read_pct >= 100 ||
	    strcmp(r->drive_type, ft->f->drives[di].type))
		return;
	mdl_fitter_setup(ft, r, r->read_pct, &c, &w);
	if (c.path == MDL_PATH_RAID)
		return;
	const struct mdl_drive *d = &ft->f->drives[di];
	double x = mdl_figrow_iops(r, &w) / r->drive_count, rf = r->read_pct / 100;
	if (!(d->rr_iops > 0 && d->rw_iops > 0) || 1 / x <= 1 / d->rr_iops)
		return;
	double t_read = (1 / x - (1 - rf) / d->rw_iops) / rf;
	if (t_read > 0 && 1 / t_read > d->rr_iops)
		mdl_est_add(est, 1 / t_read);
}

static void fit_drives(struct fitter *ft)
{
	struct mdl_est pcie = {0}, serial = {0};
	const struct mdl_figs *g = ft->figs;

	for (int raid_ok = 0; raid_ok < 2; raid_ok++)
		for (unsigned i = 0; i < g->nr; i++)
			if (mdl_fitter_usable(ft, &g->rows[i]))
				drive_row(ft, &g->rows[i], raid_ok);
	for (unsigned i = 0; i < g->nr; i++)
		if (mdl_fitter_usable(ft, &g->rows[i]))
			link_row(ft, &g->rows[i], &pcie, &serial);
	ft->f->links.eff_pcie = mdl_est_median(&pcie);
	ft->f->links.eff_serial = mdl_est_median(&serial);
	for (unsigned d = 0; d < ft->f->nr_drives; d++) {
		struct mdl_est media = {0};
		for (unsigned i = 0; i < g->nr; i++)
			if (mdl_fitter_usable(ft, &g->rows[i]))
				media_row(ft, &g->rows[i], &media, d);
		ft->f->drives[d].rr_media_iops = mdl_est_median(&media);
	}
}

void mdl_fit_figures(struct mdl_fit *f, const struct mdl_figs *figs,
		     bool (*skip)(void *arg, const struct mdl_figrow *r), void *arg)
{
	struct fitter ft = {f, figs, skip, arg};

	memset(f, 0, sizeof(*f));
	fit_drives(&ft);
	mdl_fit_adapters(&ft);
	for (unsigned i = 0; i < figs->nr; i++)
		f->nr_rows += mdl_fitter_usable(&ft, &figs->rows[i]);
}

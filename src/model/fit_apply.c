/* fit_apply.c - applying a fitted model to a configuration or a figures
 * row (fit.h). */
#define _GNU_SOURCE /* strcasestr */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/drive_class.h"
#include "model/fit.h"

/* Capacity in GB from "960GB", "1.6TB", "6.4 TB"; 0 when absent. */
static double capacity_gb(const char *type)
{
	for (const char *p = type; *p; p++) {
		if (!(*p >= '0' && *p <= '9'))
			continue;
		char *end;
		double v = strtod(p, &end);
		while (*end == ' ')
			end++;
		if (!strncasecmp(end, "TB", 2))
			return v * 1000;
		if (!strncasecmp(end, "GB", 2))
			return v;
		p = end - 1;
	}
	return 0;
}

/* The name without its capacity: "1.6TB NVMe P5600" -> "NVMe P5600". */
static void family_of(const char *type, char *out, size_t size)
{
	const char *p = type;

	while (*p && ((*p >= '0' && *p <= '9') || *p == '.'))
		p++;
	if (p > type && (!strncasecmp(p, "TB", 2) || !strncasecmp(p, "GB", 2)))
		p += 2;
	else
		p = type;
	while (*p == ' ')
		p++;
	snprintf(out, size, "%s", p);
}

/* The nearest drive of the same interface by capacity (any interface when
 * none has it), or the exact type. */
static const struct mdl_drive *nearest(const struct mdl_fit *f, const char *type,
				       enum mdl_iface iface)
{
	const struct mdl_drive *best = NULL;
	double best_score = INFINITY, cap = capacity_gb(type);

	for (unsigned i = 0; i < f->nr_drives; i++) {
		const struct mdl_drive *d = &f->drives[i];
		if (!strcmp(d->type, type))
			return d;
		double dc = capacity_gb(d->type);
		double score = (d->iface == iface ? 0 : 100) +
			       (cap > 0 && dc > 0 ? fabs(log(cap / dc)) : 10);
		if (score < best_score) {
			best_score = score;
			best = d;
		}
	}
	return best;
}

/* Geometric interpolation of every rate between lo and hi at x in 0..1. */
static double geo(double lo, double hi, double x)
{
	return lo > 0 && hi > 0 ? exp(log(lo) + x * (log(hi) - log(lo))) : 0;
}

static void interpolate(const struct mdl_drive *lo, const struct mdl_drive *hi,
			double x, struct mdl_drive *out)
{
	out->rr_iops = geo(lo->rr_iops, hi->rr_iops, x);
	out->rw_iops = geo(lo->rw_iops, hi->rw_iops, x);
	out->rr_media_iops = geo(lo->rr_media_iops, hi->rr_media_iops, x);
	out->sr_mbps = geo(lo->sr_mbps, hi->sr_mbps, x);
	out->sw_mbps = geo(lo->sw_mbps, hi->sw_mbps, x);
	out->lat_r_ms = geo(lo->lat_r_ms, hi->lat_r_ms, x);
	out->lat_w_ms = geo(lo->lat_w_ms, hi->lat_w_ms, x);
}

/* Two drives of type's family (name but the capacity) whose capacities
 * bracket type's: the figures between them, in log capacity. */
static bool bracket(const struct mdl_fit *f, const char *type, struct mdl_drive *out)
{
	char fam[MDL_NAME_MAX], df[MDL_NAME_MAX];
	const struct mdl_drive *lo = NULL, *hi = NULL;
	double cap = capacity_gb(type);

	family_of(type, fam, sizeof(fam));
	if (!(cap > 0) || !strcmp(fam, type))
		return false;
	for (unsigned i = 0; i < f->nr_drives; i++) {
		const struct mdl_drive *d = &f->drives[i];
		double dc = capacity_gb(d->type);
		family_of(d->type, df, sizeof(df));
		if (strcasecmp(fam, df) || !(dc > 0))
			continue;
		if (dc < cap && (!lo || dc > capacity_gb(lo->type)))
			lo = d;
		if (dc > cap && (!hi || dc < capacity_gb(hi->type)))
			hi = d;
	}
	if (!lo || !hi)
		return false;
	*out = *lo;
	snprintf(out->type, sizeof(out->type), "%s", type);
	interpolate(lo, hi, log(cap / capacity_gb(lo->type)) /
				    log(capacity_gb(hi->type) / capacity_gb(lo->type)), out);
	return true;
}

bool mdl_fit_drive(const struct mdl_fit *f, const char *type, enum mdl_iface iface,
		   struct mdl_drive *out)
{
	const struct mdl_drive *d = nearest(f, type, iface);

	if (d && strcmp(d->type, type) && bracket(f, type, out))
		return true;
	if ((!d || strcmp(d->type, type)) && mdl_type_is_hdd(type) &&
	    (!d || !mdl_type_is_hdd(d->type))) {
		*out = (struct mdl_drive){.iface = iface};
		snprintf(out->type, sizeof(out->type), "%s", type);
		mdl_hdd_class(type, out);
		return true;
	}
	if (d)
		*out = *d;
	return d != NULL;
}

static void fill(double *dst, double src)
{
	if (!(*dst > 0))
		*dst = src;
}

static void apply_drive(const struct mdl_drive *d, struct mdl_drive *c)
{
	fill(&c->rr_iops, d->rr_iops);
	fill(&c->rw_iops, d->rw_iops);
	fill(&c->rr_media_iops, d->rr_media_iops);
	fill(&c->sr_mbps, d->sr_mbps);
	fill(&c->sw_mbps, d->sw_mbps);
	fill(&c->lat_r_ms, d->lat_r_ms);
	fill(&c->lat_w_ms, d->lat_w_ms);
	if (c->iface == MDL_IF_UNKNOWN)
		c->iface = d->iface;
}

void mdl_fit_apply(const struct mdl_fit *f, struct mdl_config *c)
{
	struct mdl_drive d;

	if (mdl_fit_drive(f, c->drive.type, c->drive.iface, &d))
		apply_drive(&d, &c->drive);
	fill(&c->ctrl.iops, f->ctrl.iops);
	fill(&c->ctrl.sata_iops, f->ctrl.sata_iops);
	fill(&c->ctrl.read_mbps, f->ctrl.read_mbps);
	fill(&c->ctrl.write_mbps, f->ctrl.write_mbps);
	fill(&c->ctrl.parity_writes, f->ctrl.parity_writes);
	fill(&c->hba.iops, f->hba.iops);
	fill(&c->hba.mbps, f->hba.mbps);
	fill(&c->links.eff_pcie, f->links.eff_pcie);
	fill(&c->links.eff_serial, f->links.eff_serial);
	fill(&c->host.cpu_us_per_io, f->host.cpu_us_per_io);
	if (!c->host.cores)
		c->host.cores = f->host.cores;
	/* a host whose cores are known costs what iochar measured per I/O */
	if (c->host.cores)
		fill(&c->host.cpu_us_per_io, f->measured_cpu_us_per_io > 0 ? f->measured_cpu_us_per_io
									 : MDL_IOCHAR_CPU_US_PER_IO);
}

void mdl_fit_apply_workload(const struct mdl_fit *f, const struct mdl_config *c,
			    struct mdl_workload *w)
{
	unsigned i = c->drive.iface <= MDL_IF_NVME ? c->drive.iface : MDL_IF_UNKNOWN;
	unsigned q = w->random ? MDL_Q_RAND : MDL_Q_SEQ;

	/* the interface's, else what every interface measured */
	fill(&w->outstanding_per_drive, f->outstanding[i][q]);
	fill(&w->outstanding_per_drive, f->outstanding[MDL_IF_UNKNOWN][q]);
	fill(&w->latency_limit_ms, f->latency_limit_ms);
}

/* A limit row states the ceiling of what sits above the drives: the
 * drives are taken out, unless nothing else has a cap. */
static void eval_limit(const struct mdl_config *c, const struct mdl_workload *w,
		       struct mdl_answer *a)
{
	struct mdl_config top = *c;

	top.drive = (struct mdl_drive){.iface = c->drive.iface};
	top.links.lanes_per_drive = 0;
	top.ctrl.iops = mdl_ctrl_iops(c); /* the drives' interface's ceiling */
	top.ctrl.sata_iops = 0;
	if (top.drive.iface != MDL_IF_NVME)
		top.drive.iface = MDL_IF_UNKNOWN; /* no drive link either */
	mdl_eval(&top, w, a);
	if (a->iops > 0) {
		struct mdl_answer full;
		mdl_eval(c, w, &full);
		a->saturation_drives = full.saturation_drives;
		return;
	}
	mdl_eval(c, w, a);
}

static double row_value(const struct mdl_figrow *r, const struct mdl_answer *a)
{
	return r->mbps ? a->mbps : a->iops;
}

void mdl_fit_predict_row(const struct mdl_fit *f, const struct mdl_figrow *r,
			 struct mdl_answer *a, double *value)
{
	struct mdl_config c;
	struct mdl_workload w;
	double pcts[2];
	unsigned n = mdl_figrow_pcts(r, pcts);

	mdl_figrow_config(r, &c);
	mdl_fit_apply(f, &c);
	if (!c.drive_count && !c.layout.vd_count)
		c.drive_count = r->is_limit ? 256 : 1;
	*value = INFINITY;
	for (unsigned i = 0; i < n; i++) {
		struct mdl_answer x;
		mdl_figrow_workload(r, pcts[i], &w);
		mdl_fit_apply_workload(f, &c, &w);
		if (r->is_limit)
			eval_limit(&c, &w, &x);
		else
			mdl_eval(&c, &w, &x);
		if (row_value(r, &x) < *value) {
			*a = x;
			*value = row_value(r, &x);
		}
	}
}

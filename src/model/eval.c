/* eval.c - mdl_eval: service demands per host I/O, the busiest centre,
 * Little's law. See model.h. */
#include <math.h>
#include <string.h>

#include "model/link.h"
#include "model/model.h"
#include "model/raid.h"
#include "model/traffic.h"

static double inv(double rate)
{
	return rate > 0 ? 1 / rate : 0;
}

static unsigned span_disks(const struct mdl_config *c, unsigned n)
{
	const struct mdl_layout *l = &c->layout;
	unsigned per_vd = l->disks_per_vd;

	if (!per_vd)
		per_vd = l->vd_count ? n / l->vd_count : n;
	if (l->level == MDL_R10 || l->level == MDL_R50 || l->level == MDL_R60)
		per_vd /= l->spans ? l->spans : 2;
	return per_vd ? per_vd : 1;
}

void mdl_traffic_of(const struct mdl_config *c, const struct mdl_workload *w,
		    struct mdl_traffic *t)
{
	unsigned n = mdl_drives_of(c);
	struct mdl_io_cost rd, wr;
	double r = w->read_pct / 100, bytes = w->bs_kib * 1024;

	mdl_raid_cost(c->layout.level, span_disks(c, n), w->bs_kib,
		      c->layout.strip_kib, !w->random, &rd, &wr);
	t->reads = r * rd.reads + (1 - r) * wr.reads;
	t->writes = (1 - r) * wr.writes;
	t->rbytes = bytes * (r * rd.rbytes + (1 - r) * wr.rbytes);
	t->wbytes = bytes * (1 - r) * wr.wbytes;
	t->hbytes_r = bytes * r;
	t->hbytes_w = bytes * (1 - r);
	t->msize = bytes / rd.reads;
	t->parity = w->random ? (1 - r) * wr.parity : 0;
}

/* Drive time per host I/O over all n drives. Random: the larger of the
 * front end (each command at the pure-read rate, or its bytes at the
 * sequential rate when larger: what a SAS/SATA link and its protocol
 * carry) and the media (reads at the media read rate, writes at the
 * write rate). Sequential: bandwidth only. */
static double drive_demand(const struct mdl_drive *d, const struct mdl_workload *w,
			   const struct mdl_traffic *t, unsigned n)
{
	double ms = t->msize / 1e6;

	if (!w->random)
		return (t->rbytes / 1e6 * inv(d->sr_mbps) +
			t->wbytes / 1e6 * inv(d->sw_mbps)) / n;
	double front = t->reads * fmax(inv(d->rr_iops), ms * inv(d->sr_mbps)) +
		       t->writes * fmax(inv(d->rr_iops), ms * inv(d->sw_mbps));
	double media_r = inv(d->rr_media_iops > d->rr_iops ? d->rr_media_iops : d->rr_iops);
	double media = t->reads * media_r + t->writes * inv(d->rw_iops);
	return fmax(media, front) / n;
}

static double link_eff(double e)
{
	return e > 0 ? e : MDL_LINK_EFFICIENCY;
}

/* Full-duplex links: the busier direction counts. */
static double duplex(const struct mdl_traffic *t, double mbps)
{
	return fmax(t->rbytes, t->wbytes) / 1e6 * inv(mbps);
}

double mdl_ctrl_iops(const struct mdl_config *c)
{
	/* an STP connection carries a SATA command at its lane's rate */
	double stp = 600.0 / 1200.0;

	if (c->drive.iface == MDL_IF_SATA)
		return c->ctrl.sata_iops > 0 ? c->ctrl.sata_iops : c->ctrl.iops * stp;
	return c->ctrl.iops > 0 ? c->ctrl.iops : c->ctrl.sata_iops / stp;
}

static void adapter_demand(const struct mdl_config *c, const struct mdl_traffic *t,
			   double *D)
{
	double cmds = t->reads + t->writes;

	if (c->path == MDL_PATH_RAID) {
		D[MDL_B_CONTROLLER] = fmax(cmds * inv(mdl_ctrl_iops(c)),
					   t->rbytes / 1e6 * inv(c->ctrl.read_mbps) +
						   t->wbytes / 1e6 * inv(c->ctrl.write_mbps));
		D[MDL_B_PARITY] = t->parity * inv(c->ctrl.parity_writes);
	} else if (c->path == MDL_PATH_HBA) {
		double k = c->hba.count ? c->hba.count : 1;
		D[MDL_B_HBA] = fmax(cmds * inv(c->hba.iops),
				    duplex(t, c->hba.mbps)) / k;
	}
	if (c->path != MDL_PATH_DIRECT && c->hba.pcie_lanes) {
		double k = c->path == MDL_PATH_HBA && c->hba.count ? c->hba.count : 1;
		double slot = mdl_pcie_lane_mbps(c->hba.pcie_gen ? c->hba.pcie_gen : 4) *
			      c->hba.pcie_lanes * link_eff(c->links.eff_pcie);
		double host = fmax(t->hbytes_r, t->hbytes_w) / 1e6;
		D[MDL_B_PCIE] = host * inv(slot) / k;
	}
}

static void demands(const struct mdl_config *c, const struct mdl_workload *w,
		    unsigned n, double *D)
{
	struct mdl_traffic t;

	memset(D, 0, MDL_B_NR * sizeof(*D));
	mdl_traffic_of(c, w, &t);
	D[MDL_B_DRIVES] = drive_demand(&c->drive, w, &t, n);
	double eff = c->drive.iface == MDL_IF_NVME ? link_eff(c->links.eff_pcie)
						   : link_eff(c->links.eff_serial);
	D[MDL_B_DRIVE_LINK] = duplex(&t, mdl_drive_link_mbps(c) * eff) / n;
	adapter_demand(c, &t, D);
	if (c->path == MDL_PATH_DIRECT && c->links.upstream_lanes) {
		double up = mdl_pcie_lane_mbps(c->links.pcie_gen ? c->links.pcie_gen : 4) *
			    c->links.upstream_lanes * link_eff(c->links.eff_pcie);
		D[MDL_B_PCIE] = duplex(&t, up);
	}
	if (c->host.cpu_us_per_io > 0)
		D[MDL_B_CPU] = c->host.cpu_us_per_io / 1e6 /
			       (c->host.cores ? c->host.cores : 1);
}

static enum mdl_bound busiest(const double *D)
{
	enum mdl_bound b = MDL_B_DRIVES;

	for (int i = 0; i < MDL_B_NR; i++)
		if (D[i] > D[b])
			b = (enum mdl_bound)i;
	return b;
}

unsigned mdl_drives_of(const struct mdl_config *c)
{
	if (c->drive_count)
		return c->drive_count;
	unsigned n = c->layout.vd_count * c->layout.disks_per_vd;
	return n ? n : 1;
}

/* The first drive count at which something other than the drives and
 * their own links binds, the layout's VDs growing with it. */
static unsigned saturation(const struct mdl_config *c, const struct mdl_workload *w)
{
	double D[MDL_B_NR];
	struct mdl_config s = *c;

	s.layout.vd_count = 0;
	for (unsigned n = 1; n <= 256; n++) {
		s.drive_count = n;
		if (c->layout.disks_per_vd && n >= c->layout.disks_per_vd)
			s.layout.vd_count = n / c->layout.disks_per_vd;
		demands(&s, w, n, D);
		enum mdl_bound b = busiest(D);
		if (D[b] > 0 && b != MDL_B_DRIVES && b != MDL_B_DRIVE_LINK)
			return n;
	}
	return 0;
}

/* Latency at the operating point: Little's law R = N / X with the I/Os in
 * flight, no less than the low-load latency of the mix, and no more than
 * the latency limit (the tester lowers the queue depth to stay inside it;
 * past the knee that costs no throughput). */
static double latency_ms(const struct mdl_config *c, const struct mdl_workload *w,
			 unsigned n, double iops)
{
	double per_drive = w->outstanding_per_drive > 0 ? w->outstanding_per_drive : 32;
	double r = w->read_pct / 100;
	double floor = r * c->drive.lat_r_ms + (1 - r) * c->drive.lat_w_ms;
	double R = iops > 0 ? per_drive * n / iops * 1e3 : 0;

	if (w->latency_limit_ms > 0 && R > w->latency_limit_ms)
		R = w->latency_limit_ms;
	return fmax(R, floor);
}

void mdl_eval(const struct mdl_config *c, const struct mdl_workload *w,
	      struct mdl_answer *a)
{
	double D[MDL_B_NR];
	unsigned n = mdl_drives_of(c);

	memset(a, 0, sizeof(*a));
	demands(c, w, n, D);
	a->bound = busiest(D);
	a->iops = D[a->bound] > 0 ? 1 / D[a->bound] : 0;
	a->mbps = a->iops * w->bs_kib * 1024 / 1e6;
	for (int i = 0; i < MDL_B_NR; i++)
		a->util[i] = a->iops * D[i];
	a->utilization = a->util[a->bound];
	a->latency_ms = latency_ms(c, w, n, a->iops);
	a->saturation_drives = saturation(c, w);
}

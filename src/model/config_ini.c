/* config_ini.c - mdl_config_parse: the configuration INI (config_ini.h),
 * one table of keys, each with where its value goes and how it is read. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/ini.h"
#include "base/units.h"
#include "model/config_ini.h"


enum key_kind { K_RATE, K_COUNT, K_LEVEL, K_PATH, K_IFACE, K_TYPE, K_SIZE_KIB,
		K_RW, K_PCT, K_TIME_MS, K_IODEPTH, K_NUMJOBS, K_INVENTORY };

struct cfg_key {
	const char *name;
	enum key_kind kind;
	bool workload;              /* in a [workload] section, else [config] */
	size_t off;                 /* into struct mdl_config or mdl_workload */
};

#define C(n, k, m) {n, k, false, offsetof(struct mdl_config, m)}
#define W(n, k, m) {n, k, true, offsetof(struct mdl_workload, m)}
static const struct cfg_key keys[] = {
	{"inventory", K_INVENTORY, false, 0},
	C("drive_type", K_TYPE, drive.type), C("interface", K_IFACE, drive.iface),
	C("drives", K_COUNT, drive_count), C("path", K_PATH, path),
	C("hbas", K_COUNT, hba.count), C("raid", K_LEVEL, layout.level),
	C("vd_count", K_COUNT, layout.vd_count), C("disks_per_vd", K_COUNT, layout.disks_per_vd),
	C("spans", K_COUNT, layout.spans), C("strip", K_SIZE_KIB, layout.strip_kib),
	C("pcie_gen", K_COUNT, links.pcie_gen), C("pcie_lanes", K_COUNT, links.lanes_per_drive),
	C("upstream_lanes", K_COUNT, links.upstream_lanes),
	C("adapter_pcie_gen", K_COUNT, hba.pcie_gen), C("adapter_lanes", K_COUNT, hba.pcie_lanes),
	C("cpu_us_per_io", K_RATE, host.cpu_us_per_io), C("cores", K_COUNT, host.cores),
	C("rand_read_iops", K_RATE, drive.rr_iops), C("rand_write_iops", K_RATE, drive.rw_iops),
	C("media_read_iops", K_RATE, drive.rr_media_iops),
	C("seq_read_mbps", K_RATE, drive.sr_mbps), C("seq_write_mbps", K_RATE, drive.sw_mbps),
	C("read_latency_ms", K_RATE, drive.lat_r_ms), C("write_latency_ms", K_RATE, drive.lat_w_ms),
	C("controller_iops", K_RATE, ctrl.iops), C("controller_sata_iops", K_RATE, ctrl.sata_iops),
	C("controller_read_mbps", K_RATE, ctrl.read_mbps),
	C("controller_write_mbps", K_RATE, ctrl.write_mbps),
	C("parity_writes", K_RATE, ctrl.parity_writes),
	C("hba_iops", K_RATE, hba.iops), C("hba_mbps", K_RATE, hba.mbps),
	C("link_efficiency", K_RATE, links.eff_pcie),
	W("rw", K_RW, random), W("bs", K_SIZE_KIB, bs_kib), W("rwmixread", K_PCT, read_pct),
	W("latency_limit", K_TIME_MS, latency_limit_ms),
	W("iodepth", K_IODEPTH, outstanding_per_drive), W("numjobs", K_NUMJOBS, outstanding_per_drive),
};

struct cfg_parse {
	struct mdl_cfg_file *cf;
	const char *origin;
	int section;                /* -1 none, 0 [config], 1 a [workload] */
};

static int named(const char *v, const char *const *names, unsigned n, unsigned *out)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcasecmp(v, names[i])) {
			*out = i;
			return 0;
		}
	return -EINVAL;
}

static int bad(const struct cfg_key *k, const char *v, const char *why,
	       struct ioc_err *err)
{
	return err_usage(err, EINVAL, "%s=%s: %s", k->name, v, why);
}

static int number(const struct cfg_key *k, const char *v, double max, double *out,
		  struct ioc_err *err)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !isfinite(x) || x < 0 || x > max)
		return bad(k, v, "expected a number >= 0", err);
	*out = x;
	return 0;
}

static int enum_value(const struct cfg_key *k, const char *v, void *dst,
		      struct ioc_err *err)
{
	static const char *const paths[] = {"raid", "hba", "direct"};
	static const char *const ifaces[] = {"unknown", "sas", "sata", "nvme"};
	unsigned u;

	if (k->kind == K_LEVEL) {
		if (mdl_level_parse(v, dst))
			return bad(k, v, "expected JBOD, R0, R1, R5, R6, R10, R50 or R60", err);
		return 0;
	}
	if (k->kind == K_PATH && !named(v, paths, 3, &u))
		*(enum mdl_path *)dst = (enum mdl_path)u;
	else if (k->kind == K_IFACE && !named(v, ifaces, 4, &u) && u)
		*(enum mdl_iface *)dst = (enum mdl_iface)u;
	else
		return bad(k, v, k->kind == K_PATH ? "expected raid, hba or direct"
						   : "expected sas, sata or nvme", err);
	return 0;
}

static int set_value(struct cfg_parse *p, const struct cfg_key *k, const char *v,
		     struct ioc_err *err)
{
	struct mdl_cfg_file *cf = p->cf;
	unsigned wi = cf->nr - 1;
	void *dst = (char *)(k->workload ? (void *)&cf->w[wi] : (void *)&cf->c) + k->off;
	uint64_t u;
	unsigned pct;
	double x;
	int ret;

	switch (k->kind) {
	case K_RATE:
		return number(k, v, 1e15, dst, err);
	case K_COUNT:
	case K_IODEPTH:
	case K_NUMJOBS:
		if ((ret = units_parse_uint(k->name, v, k->kind == K_COUNT ? 0 : 1, 65536, &u, err)))
			return ret;
		if (k->kind == K_IODEPTH)
			cf->iodepth[wi] = (unsigned)u;
		else if (k->kind == K_NUMJOBS)
			cf->numjobs[wi] = (unsigned)u;
		else
			*(unsigned *)dst = (unsigned)u;
		return 0;
	case K_TYPE:
		snprintf(dst, MDL_NAME_MAX, "%s", v);
		return 0;
	case K_INVENTORY:
		snprintf(cf->inventory, sizeof(cf->inventory), "%s", v);
		return 0;
	case K_SIZE_KIB:
		if ((ret = units_parse_size(k->name, v, &u, err)))
			return ret;
		if (u < 512 || u > (1ull << 30))
			return bad(k, v, "expected 512 bytes to 1g", err);
		if (k->workload)
			*(double *)dst = u / 1024.0;
		else
			*(unsigned *)dst = (unsigned)(u / 1024 ? u / 1024 : 1);
		return 0;
	case K_RW:
		return mdl_rw_parse(v, 50, &cf->w[wi].random, &cf->w[wi].read_pct) ? bad(k, v, "expected randread, randwrite, randrw, read, write or rw", err) : 0;
	case K_PCT:
		if ((ret = units_parse_percent(k->name, v, &pct, err)))
			return ret;
		*(double *)dst = pct;
		return 0;
	case K_TIME_MS:
		if ((ret = units_parse_time(k->name, v, &u, err)))
			return ret;
		x = u / 1e6;
		*(double *)dst = x;
		return 0;
	default:
		return enum_value(k, v, dst, err);
	}
}

static int on_section(void *arg, const char *name, unsigned line, struct ioc_err *err)
{
	struct cfg_parse *p = arg;
	struct mdl_cfg_file *cf = p->cf;

	if (!strcmp(name, "config")) {
		p->section = 0;
		return 0;
	}
	if (strncmp(name, "workload", 8) || (name[8] && name[8] != ' '))
		return err_usage(err, EINVAL, "[%s]: expected [config] or [workload NAME]", name);
	if (cf->nr == MDL_CFG_MAX_WORKLOADS)
		return err_usage(err, E2BIG, "[%s]: at most %d workloads", name, MDL_CFG_MAX_WORKLOADS);
	unsigned i = cf->nr++;
	cf->w[i] = (struct mdl_workload){.random = true, .bs_kib = 4, .read_pct = 100};
	snprintf(cf->name[i], sizeof(cf->name[i]), "%s", name[8] ? name + 9 : "workload");
	p->section = 1;
	return 0;
}

static int on_key(void *arg, const char *key, const char *value, unsigned line,
		  struct ioc_err *err)
{
	struct cfg_parse *p = arg;

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const struct cfg_key *k = &keys[i];
		if (strcmp(key, k->name))
			continue;
		if (p->section != (int)k->workload)
			return err_usage(err, EINVAL, "%s: belongs in %s", key,
					 k->workload ? "a [workload NAME] section" : "[config]");
		if (!value || !*value)
			return err_usage(err, EINVAL, "%s: needs a value", key);
		return set_value(p, k, value, err);
	}
	return err_usage(err, EINVAL, "%s: unknown key (docs/model.md lists them)", key);
}

void mdl_config_default_path(struct mdl_config *c)
{
	if (c->path == MDL_PATH_UNSET)
		c->path = c->drive.iface == MDL_IF_NVME ? MDL_PATH_DIRECT
			  : c->layout.level == MDL_JBOD ? MDL_PATH_HBA
							: MDL_PATH_RAID;
	if (c->path == MDL_PATH_HBA && !c->hba.count)
		c->hba.count = 1;
}

int mdl_config_parse(const char *text, const char *origin, struct mdl_cfg_file *cf,
		     struct ioc_err *err)
{
	static const struct ini_ops ops = {on_section, on_key};
	struct cfg_parse p = {cf, origin, -1};
	int ret;

	memset(cf, 0, sizeof(*cf));
	cf->c.path = MDL_PATH_UNSET;
	if ((ret = ini_parse(text, origin, &ops, &p, err)))
		return ret;
	if (!cf->inventory[0])
		mdl_config_default_path(&cf->c);
	if (!cf->nr)
		return err_usage(err, EINVAL, "%s: no [workload NAME] section: nothing to predict", origin);
	for (unsigned i = 0; i < cf->nr; i++)
		if (cf->iodepth[i] || cf->numjobs[i])
			cf->w[i].outstanding_per_drive = (double)(cf->iodepth[i] ? cf->iodepth[i] : 1) *
							 (cf->numjobs[i] ? cf->numjobs[i] : 1);
	return 0;
}

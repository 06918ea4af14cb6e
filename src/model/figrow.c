/* figrow.c - the configuration and workload a figures row describes
 * (figures.h): the interface, the path read from the controller's name
 * ("RAID (...)", "dual HBA", "CPU direct (PCIe x2)"), the layout. */
#define _GNU_SOURCE /* strcasestr */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/figures.h"

static enum mdl_iface iface_of(const char *iface, const char *type)
{
	const char *s[2] = {iface, type};

	for (int i = 0; i < 2; i++) {
		if (strcasestr(s[i], "nvme") || strcasestr(s[i], "pcie"))
			return MDL_IF_NVME;
		if (strcasestr(s[i], "sata"))
			return MDL_IF_SATA;
		if (strcasestr(s[i], "sas"))
			return MDL_IF_SAS;
	}
	return MDL_IF_UNKNOWN;
}

/* "x4", "x16" after "PCIe" or alone; 0 when absent. */
static unsigned lanes_of(const char *s)
{
	for (const char *p = s; (p = strpbrk(p, "xX")); p++)
		if (p[1] >= '1' && p[1] <= '9' && (p == s || p[-1] == ' ' || p[-1] == '('))
			return (unsigned)strtoul(p + 1, NULL, 10);
	return 0;
}

/* "PCIe 3.0", "Gen3", "PCIe4": the generation, 0 when absent. */
static unsigned gen_of(const char *s)
{
	const char *p = strcasestr(s, "gen");
	if (!p && (p = strcasestr(s, "pcie")))
		p += 4;
	else if (p)
		p += 3;
	while (p && (*p == ' ' || *p == '-'))
		p++;
	return p && *p >= '1' && *p <= '6' ? (unsigned)(*p - '0') : 0;
}

static unsigned hba_count(const char *s)
{
	if (strcasestr(s, "dual") || strcasestr(s, "two"))
		return 2;
	if (strcasestr(s, "quad") || strcasestr(s, "four"))
		return 4;
	unsigned n = (unsigned)strtoul(s, NULL, 10);
	return n ? n : 1;
}

static void path_of(const struct mdl_figrow *r, struct mdl_config *c)
{
	const char *s = r->controller;

	if (strcasestr(s, "raid") || strcasestr(s, "roc")) {
		c->path = MDL_PATH_RAID;
	} else if (strcasestr(s, "hba")) {
		c->path = MDL_PATH_HBA;
		c->hba.count = hba_count(s);
	} else if (strcasestr(s, "direct") || strcasestr(s, "cpu") ||
		   c->drive.iface == MDL_IF_NVME) {
		c->path = MDL_PATH_DIRECT;
	} else {
		c->path = c->layout.level == MDL_JBOD ? MDL_PATH_HBA : MDL_PATH_RAID;
		c->hba.count = 1;
	}
	if (c->drive.iface == MDL_IF_NVME) {
		c->links.lanes_per_drive = lanes_of(s);
		c->links.pcie_gen = gen_of(s);
	}
}

void mdl_figrow_config(const struct mdl_figrow *r, struct mdl_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->drive.type, sizeof(c->drive.type), "%s", r->drive_type);
	c->drive.iface = iface_of(r->interface, r->drive_type);
	c->drive_count = r->drive_count;
	if (mdl_level_parse(r->raid_level, &c->layout.level))
		c->layout.level = MDL_JBOD;
	c->layout.vd_count = r->vd_count;
	c->layout.disks_per_vd = r->disks_per_vd;
	path_of(r, c);
}

void mdl_figrow_workload(const struct mdl_figrow *r, double read_pct,
			 struct mdl_workload *w)
{
	memset(w, 0, sizeof(*w));
	w->random = r->random;
	w->bs_kib = r->bs_kib > 0 ? r->bs_kib : r->random ? 4 : 256;
	w->read_pct = read_pct;
}

unsigned mdl_figrow_pcts(const struct mdl_figrow *r, double pcts[2])
{
	pcts[0] = isnan(r->read_pct) ? 100 : r->read_pct;
	pcts[1] = 0;
	return isnan(r->read_pct) && !r->random ? 2 : 1;
}

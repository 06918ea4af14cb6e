/* inventory_links.c - see inventory_links.h. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "model/inventory_links.h"

static const char *str_of(json_object *o, const char *key)
{
	json_object *m;
	return json_object_object_get_ex(o, key, &m) && json_object_is_type(m, json_type_string)
		       ? json_object_get_string(m)
		       : "";
}

static int int_of(json_object *o, const char *key)
{
	json_object *m;
	return json_object_object_get_ex(o, key, &m) ? json_object_get_int(m) : 0;
}

/* PCIe generation from the link's transfer rate (MT/s). */
static unsigned gen_of(int mts)
{
	static const int rate[] = {0, 2500, 5000, 8000, 16000, 32000, 64000};
	for (unsigned g = 6; g > 0; g--)
		if (mts >= rate[g])
			return g;
	return 0;
}

/* The pcie[] entry at address addr, or NULL. */
static json_object *pcie_at(json_object *pcie, const char *addr)
{
	for (size_t i = 0; addr[0] && i < json_object_array_length(pcie); i++) {
		json_object *p = json_object_array_get_idx(pcie, i);
		if (!strcmp(str_of(p, "addr"), addr))
			return p;
	}
	return NULL;
}

static void apply(json_object *inv, struct mdl_config *c)
{
	json_object *devs, *pcie, *cpu;
	unsigned nvme = 0, lanes = 0, gen = 0;

	if (json_object_object_get_ex(inv, "block_devices", &devs) &&
	    json_object_object_get_ex(inv, "pcie", &pcie) &&
	    json_object_is_type(devs, json_type_array) && json_object_is_type(pcie, json_type_array))
		for (size_t i = 0; i < json_object_array_length(devs); i++) {
			json_object *d = json_object_array_get_idx(devs, i);
			if (strcmp(str_of(d, "transport"), "nvme"))
				continue;
			nvme++;
			json_object *p = pcie_at(pcie, str_of(d, "pci"));
			int w = p ? int_of(p, "width") : 0;
			if (w > 0 && (!lanes || (unsigned)w < lanes)) {
				lanes = (unsigned)w;
				gen = gen_of(int_of(p, "speed_mts"));
			}
		}
	if (nvme && c->drive.iface == MDL_IF_UNKNOWN)
		c->drive.iface = MDL_IF_NVME;
	if (nvme && !c->drive_count && c->drive.iface == MDL_IF_NVME)
		c->drive_count = nvme;
	if (!c->links.lanes_per_drive)
		c->links.lanes_per_drive = lanes;
	if (!c->links.pcie_gen)
		c->links.pcie_gen = gen;
	if (!c->host.cores && json_object_object_get_ex(inv, "cpu", &cpu) && int_of(cpu, "cores") > 0)
		c->host.cores = (unsigned)int_of(cpu, "cores");
}

int mdl_config_inventory(const char *path, struct mdl_config *c, struct ioc_err *err)
{
	char *text = NULL, what[4200];

	snprintf(what, sizeof(what), "inventory=%s", path);
	int ret = ini_read_text(path, what, &text, err);
	if (ret)
		return ret;
	json_object *inv = json_tokener_parse(text);
	free(text);
	if (!inv || !json_object_is_type(inv, json_type_object) ||
	    !json_object_object_get_ex(inv, "block_devices", NULL))
		ret = err_usage(err, EINVAL,
				"inventory=%s: not an iochar inventory (iochar inventory --output-format=json)",
				path);
	else
		apply(inv, c);
	json_object_put(inv);
	return ret;
}

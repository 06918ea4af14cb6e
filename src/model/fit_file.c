/* fit_file.c - see fit_file.h. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "model/fit_file.h"

static const char *const iface_names[] = {"any", "sas", "sata", "nvme"};

const char *mdl_iface_name(enum mdl_iface i)
{
	return i <= MDL_IF_NVME ? iface_names[i] : "any";
}

/* Members of one object and where they live in the fit. */
struct mdl_member {
	const char *key;
	size_t off;
};

#define DRV(m) {#m, offsetof(struct mdl_drive, m)}
static const struct mdl_member drive_members[] = {
	DRV(rr_iops), DRV(rw_iops), DRV(rr_media_iops), DRV(sr_mbps),
	DRV(sw_mbps), DRV(lat_r_ms), DRV(lat_w_ms), {NULL, 0},
};
#define FIT(k, m) {k, offsetof(struct mdl_fit, m)}
static const struct mdl_member fit_members[] = {
	FIT("controller.iops", ctrl.iops), FIT("controller.sata_iops", ctrl.sata_iops),
	FIT("controller.read_mbps", ctrl.read_mbps),
	FIT("controller.write_mbps", ctrl.write_mbps),
	FIT("controller.parity_writes", ctrl.parity_writes),
	FIT("hba.iops", hba.iops), FIT("hba.mbps", hba.mbps),
	FIT("links.eff_pcie", links.eff_pcie), FIT("links.eff_serial", links.eff_serial),
	FIT("host.cpu_us_per_io", host.cpu_us_per_io),
	FIT("host.measured_cpu_us_per_io", measured_cpu_us_per_io),
	FIT("latency_limit_ms", latency_limit_ms), {NULL, 0},
};

static json_object *sub(json_object *o, const char *key, size_t len)
{
	char name[32];
	json_object *s;

	snprintf(name, sizeof(name), "%.*s", (int)len, key);
	if (!json_object_object_get_ex(o, name, &s)) {
		s = json_object_new_object();
		json_object_object_add(o, name, s);
	}
	return s;
}

static void put_members(json_object *o, const struct mdl_member *m, const void *base)
{
	for (; m->key; m++) {
		const char *dot = strchr(m->key, '.');
		json_object *dst = dot ? sub(o, m->key, (size_t)(dot - m->key)) : o;
		double v = *(const double *)((const char *)base + m->off);
		json_object_object_add(dst, dot ? dot + 1 : m->key, json_object_new_double(v));
	}
}

json_object *mdl_fit_to_json(const struct mdl_fit *f)
{
	json_object *o = json_object_new_object(), *drives = json_object_new_array();
	json_object *q = json_object_new_object();

	json_object_object_add(o, "format", json_object_new_string("iochar-model"));
	json_object_object_add(o, "version", json_object_new_int(1));
	for (unsigned i = 0; i < f->nr_drives; i++) {
		json_object *d = json_object_new_object();
		json_object_object_add(d, "type", json_object_new_string(f->drives[i].type));
		json_object_object_add(d, "interface",
				       json_object_new_string(mdl_iface_name(f->drives[i].iface)));
		put_members(d, drive_members, &f->drives[i]);
		json_object_array_add(drives, d);
	}
	json_object_object_add(o, "drives", drives);
	put_members(o, fit_members, f);
	json_object_object_add(sub(o, "host", 4), "cores", json_object_new_int((int)f->host.cores));
	for (unsigned i = 0; i <= MDL_IF_NVME; i++) {
		json_object *a = json_object_new_array();
		for (unsigned k = 0; k < MDL_Q_NR; k++)
			json_object_array_add(a, json_object_new_double(f->outstanding[i][k]));
		json_object_object_add(q, mdl_iface_name(i), a);
	}
	json_object_object_add(o, "outstanding", q);
	json_object_object_add(o, "rows", json_object_new_int((int)f->nr_rows));
	return o;
}

/* A number member (path "a.b"), absent: 0. */
static int get_num(json_object *o, const char *key, double *v, const char *path,
		   struct ioc_err *err)
{
	const char *dot = strchr(key, '.');
	json_object *m;
	char head[32];

	*v = 0;
	snprintf(head, sizeof(head), "%.*s", (int)(dot ? dot - key : (long)strlen(key)), key);
	if (!json_object_object_get_ex(o, head, &m))
		return 0;
	if (dot)
		return json_object_is_type(m, json_type_object)
			       ? get_num(m, dot + 1, v, path, err)
			       : err_usage(err, EINVAL, "%s: %s: not an object", path, head);
	if (!json_object_is_type(m, json_type_double) && !json_object_is_type(m, json_type_int))
		return err_usage(err, EINVAL, "%s: %s: not a number", path, key);
	*v = json_object_get_double(m);
	if (!(*v >= 0) || *v > 1e15)
		return err_usage(err, EINVAL, "%s: %s: %g: not a rate", path, key, *v);
	return 0;
}

static int get_members(json_object *o, const struct mdl_member *m, void *base,
		       const char *path, struct ioc_err *err)
{
	for (int ret; m->key; m++)
		if ((ret = get_num(o, m->key, (double *)((char *)base + m->off), path, err)))
			return ret;
	return 0;
}

static int load_drive(json_object *d, struct mdl_drive *out, const char *path,
		      struct ioc_err *err)
{
	json_object *t;

	if (!json_object_is_type(d, json_type_object) ||
	    !json_object_object_get_ex(d, "type", &t) || !json_object_is_type(t, json_type_string))
		return err_usage(err, EINVAL, "%s: drives[]: an object with a \"type\" string expected", path);
	snprintf(out->type, sizeof(out->type), "%s", json_object_get_string(t));
	if (json_object_object_get_ex(d, "interface", &t) && json_object_is_type(t, json_type_string))
		for (unsigned i = 0; i <= MDL_IF_NVME; i++)
			if (!strcmp(json_object_get_string(t), iface_names[i]))
				out->iface = (enum mdl_iface)i;
	return get_members(d, drive_members, out, path, err);
}

static int load_obj(json_object *o, struct mdl_fit *f, const char *path,
		    struct ioc_err *err)
{
	json_object *m;
	int ret;

	if (!json_object_object_get_ex(o, "format", &m) ||
	    strcmp(json_object_get_string(m), "iochar-model"))
		return err_usage(err, EINVAL, "%s: not an iochar model (no \"format\": \"iochar-model\")", path);
	if (json_object_object_get_ex(o, "version", &m) && json_object_get_int(m) > 1)
		return err_usage(err, EINVAL, "%s: model version %d: newer than this iochar's 1",
				 path, json_object_get_int(m));
	if ((ret = get_members(o, fit_members, f, path, err)))
		return ret;
	double cores;
	if ((ret = get_num(o, "host.cores", &cores, path, err)))
		return ret;
	f->host.cores = cores < 4096 ? (unsigned)cores : 4096;
	if (json_object_object_get_ex(o, "drives", &m) && json_object_is_type(m, json_type_array))
		for (size_t i = 0; i < json_object_array_length(m) && i < MDL_FIT_MAX_DRIVES; i++) {
			if ((ret = load_drive(json_object_array_get_idx(m, i),
					      &f->drives[f->nr_drives], path, err)))
				return ret;
			f->nr_drives++;
		}
	json_object *q;
	if (json_object_object_get_ex(o, "outstanding", &q) && json_object_is_type(q, json_type_object))
		for (unsigned i = 0; i <= MDL_IF_NVME; i++)
			if (json_object_object_get_ex(q, iface_names[i], &m) &&
			    json_object_is_type(m, json_type_array))
				for (unsigned k = 0; k < MDL_Q_NR && k < json_object_array_length(m); k++)
					f->outstanding[i][k] = json_object_get_double(json_object_array_get_idx(m, k));
	return 0;
}

int mdl_fit_load(const char *path, struct mdl_fit *f, struct ioc_err *err)
{
	char *text = NULL;
	int ret = ini_read_text(path, path, &text, err);

	memset(f, 0, sizeof(*f));
	if (ret)
		return ret;
	json_object *o = json_tokener_parse(text);
	free(text);
	if (!o || !json_object_is_type(o, json_type_object))
		ret = err_usage(err, EINVAL, "%s: not a JSON object", path);
	else
		ret = load_obj(o, f, path, err);
	json_object_put(o);
	return ret;
}

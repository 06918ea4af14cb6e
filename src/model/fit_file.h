/* fit_file.h - a fitted model on disk: one JSON object,
 *
 *   {"format": "iochar-model", "version": 1,
 *    "drives": [{"type", "interface", "rr_iops", "rw_iops", "rr_media_iops",
 *                "sr_mbps", "sw_mbps", "lat_r_ms", "lat_w_ms"}, ...],
 *    "controller": {"iops", "read_mbps", "write_mbps", "parity_writes"},
 *    "hba": {"iops", "mbps"}, "links": {"eff_pcie", "eff_serial"},
 *    "host": {"cpu_us_per_io", "cores"}, "latency_limit_ms",
 *    "outstanding": {"sas": [seq, rand], "sata": [...], "nvme": [...],
 *                    "any": [...]}, "rows"}
 *
 * 0 means unknown (never binds); docs/model.md says what each means. */
#ifndef IOCHAR_MODEL_FIT_FILE_H
#define IOCHAR_MODEL_FIT_FILE_H

#include <stdio.h>

#include "model/fit.h"
#include "util/err.h"

struct json_object;

/* f as a new JSON object (the caller json_object_put()s it); NULL: no
 * memory. */
struct json_object *mdl_fit_to_json(const struct mdl_fit *f);

/* Read the model file at path into f (zeroed first). Not JSON, another
 * format, a newer version, a member of the wrong type or negative: a
 * usage error naming path and the member. */
int mdl_fit_load(const char *path, struct mdl_fit *f, struct ioc_err *err);

/* "sas", "sata", "nvme", "any" (MDL_IF_UNKNOWN). */
const char *mdl_iface_name(enum mdl_iface i);

#endif

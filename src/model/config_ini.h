/* config_ini.h - a configuration to predict, written as INI like plans
 * (util/ini.h syntax; keys in docs/model.md):
 *
 *     [config]
 *     drive_type = 960GB SAS SSD 12G   ; its figures come from the fit
 *     drives = 24
 *     path = raid                      ; raid, hba, direct
 *     raid = R5
 *     vd_count = 3
 *     disks_per_vd = 8
 *     rand_read_iops = 200000          ; a datasheet figure wins over the fit
 *     inventory = inv.json             ; NVMe lanes, generation, cores from it
 *
 *     [workload oltp]                  ; fio's names and units
 *     rw = randrw
 *     rwmixread = 70
 *     bs = 4k
 *     iodepth = 16                     ; per drive
 *     latency_limit = 2ms
 *
 * One answer per [workload] section.
 */
#ifndef IOCHAR_MODEL_CONFIG_INI_H
#define IOCHAR_MODEL_CONFIG_INI_H

#include <stdio.h>

#include "model/fit.h"
#include "util/err.h"

#define MDL_CFG_MAX_WORKLOADS 64

struct mdl_cfg_file {
	struct mdl_config c;
	struct mdl_workload w[MDL_CFG_MAX_WORKLOADS];
	char name[MDL_CFG_MAX_WORKLOADS][64];
	unsigned nr;
	unsigned iodepth[MDL_CFG_MAX_WORKLOADS], numjobs[MDL_CFG_MAX_WORKLOADS];
	char inventory[4096];       /* inventory=: its links and cores; "" none */
};

/* No path= given: until mdl_config_default_path chooses one. */
#define MDL_PATH_UNSET ((enum mdl_path)99)

/* Parse text (origin names it in messages) into cf (zeroed first). An
 * unknown section or key, a bad value, a workload key outside a
 * [workload] section, no [workload] at all: a usage error
 * "ORIGIN:LINE: key=value: why". With inventory= the path is left
 * MDL_PATH_UNSET when not given, for the caller to choose once the
 * inventory has said what the drives are. */
int mdl_config_parse(const char *text, const char *origin, struct mdl_cfg_file *cf,
		     struct ioc_err *err);

/* An unset path from the interface and the level: NVMe on CPU lanes, JBOD
 * on one HBA, else a RAID controller. */
void mdl_config_default_path(struct mdl_config *c);

/* Read the configuration at path, predict each of its workloads with f,
 * write the answers to out as format (NULL or "normal": text; "csv";
 * "json"). 0 or -errno with a message. */
int mdl_config_predict(const char *path, const struct mdl_fit *f, const char *format,
		       FILE *out, struct ioc_err *err);

#endif

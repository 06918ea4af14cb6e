/* drive_class.c - see drive_class.h. */
#define _GNU_SOURCE /* strcasestr */
#include <string.h>

#include "model/drive_class.h"

/* 4 KiB random at a deep queue (the disk reorders), sequential MB/s, QD1
 * latency: about what enterprise datasheets state for each speed. */
static const struct {
	const char *tag;
	double rr, rw, sr, sw, lat_ms;
} classes[] = {
	{"15K", 500, 450, 300, 300, 5.0},
	{"10K", 400, 350, 250, 250, 6.0},
	{"7.2K", 200, 180, 250, 250, 8.5},
	{"7200", 200, 180, 250, 250, 8.5},
};

bool mdl_type_is_hdd(const char *type)
{
	if (strcasestr(type, "HDD") || strcasestr(type, "rpm"))
		return true;
	for (unsigned i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcasestr(type, classes[i].tag))
			return true;
	return false;
}

void mdl_hdd_class(const char *type, struct mdl_drive *out)
{
	unsigned k = 2; /* an unnamed speed: the slowest, nearline */

	for (unsigned i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcasestr(type, classes[i].tag)) {
			k = i;
			break;
		}
	out->rr_iops = classes[k].rr;
	out->rw_iops = classes[k].rw;
	out->rr_media_iops = 0;
	out->sr_mbps = classes[k].sr;
	out->sw_mbps = classes[k].sw;
	out->lat_r_ms = out->lat_w_ms = classes[k].lat_ms;
}

/* traffic.h - the member traffic of one host I/O of a workload on a
 * configuration (the RAID closed forms of raid.h with the read/write mix
 * applied): what mdl_eval charges the components, and what the fit
 * divides a ceiling by. */
#ifndef IOCHAR_MODEL_TRAFFIC_H
#define IOCHAR_MODEL_TRAFFIC_H

#include "model/model.h"

struct mdl_traffic {
	double reads, writes;       /* member I/Os */
	double rbytes, wbytes;      /* member bytes */
	double hbytes_r, hbytes_w;  /* host bytes */
	double msize;               /* bytes of one member I/O */
	double parity;              /* RAID 5 small-write units */
};

/* The drives c's layout spreads over: drive_count, else VDs x disks. */
unsigned mdl_drives_of(const struct mdl_config *c);

void mdl_traffic_of(const struct mdl_config *c, const struct mdl_workload *w,
		    struct mdl_traffic *t);

#endif

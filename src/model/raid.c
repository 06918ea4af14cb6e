/* raid.c - see raid.h. */
#include "model/raid.h"

#include <math.h>

unsigned mdl_raid_min_disks(enum mdl_level l)
{
	switch (l) {
	case MDL_R1:
	case MDL_R10:
		return 2;
	case MDL_R5:
	case MDL_R50:
		return 3;
	case MDL_R6:
	case MDL_R60:
		return 4;
	default:
		return 1;
	}
}

static unsigned parity_strips(enum mdl_level l)
{
	if (l == MDL_R5 || l == MDL_R50)
		return 1;
	if (l == MDL_R6 || l == MDL_R60)
		return 2;
	return 0;
}

static void parity_write(unsigned n, unsigned p, double k, bool sequential,
			 struct mdl_io_cost *wr)
{
	double d = n - p;

	if (sequential || k >= d) {
		wr->writes = k * n / d;
		wr->wbytes = (double)n / d;
		return;
	}
	double rmw = k + p, reconstruct = d - k;
	wr->reads = rmw < reconstruct ? rmw : reconstruct;
	wr->writes = k + p;
	wr->rbytes = wr->reads / k;
	wr->wbytes = wr->writes / k;
	wr->parity = (wr->reads + wr->writes) / 4.0;
}

void mdl_raid_cost(enum mdl_level l, unsigned n, double bs_kib,
		   unsigned strip_kib, bool sequential, struct mdl_io_cost *rd,
		   struct mdl_io_cost *wr)
{
	double strip = strip_kib ? strip_kib : 64;
	double k = bs_kib > strip ? ceil(bs_kib / strip) : 1;
	unsigned p = parity_strips(l);

	if (n < mdl_raid_min_disks(l))
		n = mdl_raid_min_disks(l);
	*rd = (struct mdl_io_cost){.reads = k, .rbytes = 1};
	*wr = (struct mdl_io_cost){0};
	if (p) {
		parity_write(n, p, k, sequential, wr);
		return;
	}
	double copies = l == MDL_R1 || l == MDL_R10 ? 2 : 1;
	wr->writes = k * copies;
	wr->wbytes = copies;
}

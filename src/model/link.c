/* link.c - see link.h. */
#include "model/link.h"

double mdl_pcie_lane_mbps(unsigned gen)
{
	static const double rate[] = {0, 250, 500, 984.6, 1969.2, 3938.5, 7876.9};

	return gen < sizeof(rate) / sizeof(rate[0]) ? rate[gen] : 0;
}

double mdl_drive_link_mbps(const struct mdl_config *c)
{
	switch (c->drive.iface) {
	case MDL_IF_SAS:
		return 1200;
	case MDL_IF_SATA:
		return 600;
	case MDL_IF_NVME: {
		unsigned gen = c->links.pcie_gen ? c->links.pcie_gen : 4;
		unsigned lanes = c->links.lanes_per_drive ? c->links.lanes_per_drive : 4;
		return mdl_pcie_lane_mbps(gen) * lanes;
	}
	default:
		return 0;
	}
}

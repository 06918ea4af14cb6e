/* link.h - raw link rates, 1e6 B/s per direction before the protocol's
 * payload efficiency (mdl_links.efficiency): SAS 12G and SATA 6G lanes
 * after 8b/10b (1200 and 600), PCIe lanes after 128b/130b (gen 3 985,
 * gen 4 1969, gen 5 3938; gen 1-2 after 8b/10b: 250, 500). */
#ifndef IOCHAR_MODEL_LINK_H
#define IOCHAR_MODEL_LINK_H

#include "model/model.h"

/* One PCIe lane of generation gen (1..6; others: 0). */
double mdl_pcie_lane_mbps(unsigned gen);

/* The raw rate of one drive's own link: its SAS/SATA lane, or its PCIe
 * lanes for NVMe (gen 4 x4 when c says nothing); 0 when unknown. */
double mdl_drive_link_mbps(const struct mdl_config *c);

#endif

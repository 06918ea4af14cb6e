/* model.h - a model of the I/O path: drives, the RAID controller or HBAs
 * between them and the host, the links, the host's CPU, and the layout.
 *
 * Every component is a queueing centre with a service demand per host
 * I/O (seconds of its capacity one host I/O uses: the operational laws
 * of Denning and Buzen). The busiest centre bounds throughput at
 * 1/D_max; Little's law with the outstanding I/Os gives the latency
 * there. RAID closed forms (raid.c) turn one host I/O into member I/Os;
 * the components then see member traffic. docs/model.md says what every
 * parameter means and where its value comes from.
 *
 * Rates are per second; a value of 0 means "unknown: never binds".
 */
#ifndef IOCHAR_MODEL_MODEL_H
#define IOCHAR_MODEL_MODEL_H

#include <stdbool.h>

#include "util/err.h"

#define MDL_NAME_MAX 96

enum mdl_iface { MDL_IF_UNKNOWN, MDL_IF_SAS, MDL_IF_SATA, MDL_IF_NVME };

/* RAID level of the layout; MDL_JBOD: every drive on its own. */
enum mdl_level { MDL_JBOD, MDL_R0, MDL_R1, MDL_R5, MDL_R6, MDL_R10, MDL_R50,
		 MDL_R60 };

/* The path between drives and host. */
enum mdl_path { MDL_PATH_RAID, MDL_PATH_HBA, MDL_PATH_DIRECT };

/* The components a prediction can be bound by (mdl_bound_name). */
enum mdl_bound { MDL_B_DRIVES, MDL_B_DRIVE_LINK, MDL_B_CONTROLLER,
		 MDL_B_PARITY, MDL_B_HBA, MDL_B_PCIE, MDL_B_CPU, MDL_B_NR };

/* One drive of a type: its own limits, measured on one drive or a JBOD
 * set, or from a datasheet. */
struct mdl_drive {
	char type[MDL_NAME_MAX];    /* "960GB SAS SSD 12G": how rows match */
	enum mdl_iface iface;
	double rr_iops, rw_iops;    /* 4 KiB random read / write */
	/* Random reads per second the media sustains when that is above
	 * rr_iops, i.e. pure reads are bound by the front end (SAS/SATA
	 * link, command processing) and overlap with writes in a mix;
	 * fitted from a mixed workload. 0 or <= rr_iops: none. */
	double rr_media_iops;
	double sr_mbps, sw_mbps;    /* sequential read / write, 1e6 B/s */
	double lat_r_ms, lat_w_ms;  /* low-load (QD1) latency */
};

/* The RAID-on-chip controller. Caps count member traffic: one mirrored
 * write is two member writes through it. */
struct mdl_ctrl {
	double iops;                /* member I/Os per second, SAS drives */
	/* member I/Os per second of SATA drives: a SAS RAID-on-chip tunnels
	 * their commands (STP) and saturates lower. 0: iops scaled by the
	 * lanes' rates, 6G / 12G (mdl_ctrl_iops) */
	double sata_iops;
	double read_mbps, write_mbps; /* member bytes */
	/* RAID 5 small (read-modify-write) host writes per second its parity
	 * path sustains; a RAID 6 one costs 6/4 of a RAID 5 one (its member
	 * I/Os, raid.c). */
	double parity_writes;
};

struct mdl_hba {
	unsigned count;             /* HBAs sharing the drives evenly */
	double iops, mbps;          /* per HBA; 0: unknown */
	unsigned pcie_gen, pcie_lanes; /* its host slot */
};

/* Link rates: the payload fraction of the raw rate (link.h) a link
 * delivers, for PCIe and for SAS/SATA lanes; 0: MDL_LINK_EFFICIENCY. */
#define MDL_LINK_EFFICIENCY 0.9
struct mdl_links {
	double eff_pcie, eff_serial; /* 0..1 */
	unsigned pcie_gen;          /* NVMe drives on CPU lanes */
	unsigned lanes_per_drive;   /* NVMe: PCIe lanes per drive */
	unsigned upstream_lanes;    /* a shared upstream port; 0: none */
};

/* iochar's own CPU time per 4 KiB direct I/O at queue depth 32 through
 * io_uring, the kernel's path included, as measured on a quiet machine
 * (docs/performance.md): the host's cost per I/O when a configuration
 * gives its cores but no cost of its own. */
#define MDL_IOCHAR_CPU_US_PER_IO 2.59
struct mdl_host {
	double cpu_us_per_io;       /* CPU time per I/O; 0: unknown */
	unsigned cores;
};

struct mdl_layout {
	enum mdl_level level;
	unsigned vd_count, disks_per_vd; /* 0: derived from the drive count */
	unsigned spans;             /* R10/R50/R60 spans per VD; 0: 2 */
	unsigned strip_kib;         /* 0: 64 */
};

/* A configuration, built or not. */
struct mdl_config {
	struct mdl_drive drive;
	unsigned drive_count;
	enum mdl_path path;
	struct mdl_ctrl ctrl;
	struct mdl_hba hba;
	struct mdl_links links;
	struct mdl_host host;
	struct mdl_layout layout;
};

struct mdl_workload {
	bool random;
	double bs_kib;
	double read_pct;            /* 0..100 */
	double latency_limit_ms;    /* 0: none */
	/* I/Os in flight per drive (iodepth x numjobs / drives); 0: 32 */
	double outstanding_per_drive;
};

struct mdl_answer {
	double iops, mbps;          /* host throughput at the operating point */
	double latency_ms;          /* Little's law there */
	enum mdl_bound bound;
	double utilization;         /* of the bound component, 0..1 */
	double util[MDL_B_NR];      /* every component's; 0: not in the path */
	unsigned saturation_drives; /* first drive count the bound is not the
				     * drives; 0: drives bind up to 256 */
};

/* "drives", "drive-link", "controller", "parity", "hba", "pcie-link",
 * "cpu". */
const char *mdl_bound_name(enum mdl_bound b);

/* "JBOD", "R0", ... ; mdl_level_parse takes those, "raid5", "5", "none". */
const char *mdl_level_name(enum mdl_level l);
int mdl_level_parse(const char *s, enum mdl_level *l);

/* fio's rw= name: randread, randwrite, randrw, read, write, rw (or
 * readwrite) into *random and *read_pct (mix for the mixed ones). 0 or
 * -EINVAL. */
int mdl_rw_parse(const char *rw, double mix, bool *random, double *read_pct);

/* The controller's member I/O ceiling for c's drives (their interface's,
 * or the other interface's scaled by the lane rates); 0: unknown. */
double mdl_ctrl_iops(const struct mdl_config *c);

/* Evaluate c under w into a. Never fails: a missing figure never binds,
 * and a configuration no component bounds answers with throughput 0 and
 * bound "drives" (its drives have no rates). */
void mdl_eval(const struct mdl_config *c, const struct mdl_workload *w,
	      struct mdl_answer *a);

#endif

/* inventory.h - the machine a result was measured on, in full.
 *
 * One read of /proc, /sys and /etc/os-release gives the CPU (model,
 * sockets, cores, threads, NUMA nodes, frequencies), memory (total and per
 * NUMA node), the kernel and distribution, every block device (identity,
 * size, block sizes, transport, queue settings, stacking: partitions,
 * md, dm/LVM, loop), the PCIe links behind block devices and NICs (speed
 * and width in use against the maximum, and shared upstream links narrower
 * than the devices below them), and every network interface (driver,
 * speed, MTU, queues, RPS).
 *
 * Contract shared by every function here:
 *   - All paths are read below a root prefix (inventory_collect's root), so
 *     tests read fixture trees (tests/fixtures/inventory/) instead of "/".
 *   - Reading never fails: an attribute that is missing or unreadable (no
 *     such driver, not root, a container) leaves its field empty: "" for
 *     strings, and for numbers the "unknown" value documented on the field
 *     (0, or -1 where 0 is a real value). Only running out of memory fails.
 *   - Nothing here needs root, except a SCSI disk's serial (vpd_pg80).
 *   - The cost is a few hundred small reads of sysfs (about 400 system
 *     calls, 1.5 ms of CPU on a small VM); it is collected before every run.
 *
 * Formats (docs/inventory.md): inventory_json.c (the one JSON emitter, also
 * used inside the "environment" of every results file), inventory_text.c,
 * inventory_csv.c.
 */
#ifndef IOCHAR_INVENTORY_INVENTORY_H
#define IOCHAR_INVENTORY_INVENTORY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "inventory/nic_profile.h"

#define INV_STR	     128
#define INV_NAME     64
#define INV_LIST     256 /* space-separated names */
#define INV_PCI_ADDR 16	 /* "0000:01:00.0" */

struct inv_os {
	char hostname[INV_STR]; /* /proc/sys/kernel/hostname, else uname */
	char kernel[INV_STR];	/* /proc/sys/kernel/osrelease, else uname -r */
	char kernel_version[INV_STR]; /* /proc/sys/kernel/version (build) */
	char machine[32];     /* uname -m (the running machine, not the root) */
	char distro[INV_STR]; /* os-release PRETTY_NAME */
	char distro_id[INV_NAME];      /* os-release ID ("debian") */
	char distro_version[INV_NAME]; /* os-release VERSION_ID ("12") */
};

struct inv_cpu {
	char model[INV_STR]; /* /proc/cpuinfo "model name" (arm: Model, ...) */
	unsigned threads;    /* online CPUs (/sys/devices/system/cpu/online) */
	unsigned cores;	     /* distinct (package, core_id) of online CPUs */
	unsigned sockets;    /* distinct physical_package_id */
	unsigned numa_nodes; /* online nodes; 0 when the kernel shows none */
	/* kHz over the online CPUs, 0 when cpufreq is absent (most VMs):
	 * lowest cpuinfo_min_freq, highest cpuinfo_max_freq, mean of
	 * scaling_cur_freq; cur falls back to /proc/cpuinfo "cpu MHz". */
	uint64_t freq_min_khz, freq_max_khz, freq_cur_khz;
	char governor[INV_NAME]; /* cpu0's scaling_governor */
};

struct inv_node {
	unsigned id;
	uint64_t mem_bytes; /* nodeN/meminfo MemTotal */
	char cpus[INV_STR]; /* nodeN/cpulist, "0-7,16-23" */
};

struct inv_memory {
	uint64_t total_bytes;	/* /proc/meminfo MemTotal */
	struct inv_node *nodes; /* owned; nr_nodes of them, by id */
	unsigned nr_nodes;
};

/* A PCIe function reached from a block device or NIC. Speeds are in MT/s
 * per lane (2500, 5000, 8000, 16000, 32000, 64000; 0 = unknown). */
struct inv_pci {
	char addr[INV_PCI_ADDR];   /* "0000:01:00.0" */
	char vendor[8], device[8]; /* "0x144d" */
	/* pciutils' names for them (inventory/pci_names.h); "" unknown */
	char vendor_name[INV_NAME * 2], device_name[INV_NAME * 2];
	char driver[INV_NAME];
	int numa_node; /* -1 = none or unknown */
	unsigned cur_speed, cur_width, max_speed, max_width;
	bool below_capability; /* cur speed or width < max */
	char users[INV_LIST];  /* block devices and NICs on it */
	/* The nearest shared upstream link that is oversubscribed: the PCI
	 * address of the bridge port whose link carries this function and
	 * others, and is narrower (MB/s) than the sum of their links. "" when
	 * none. */
	char oversubscribed_by[INV_PCI_ADDR];
};

/* A bridge port whose link is shared by several functions and narrower
 * than the sum of their links. */
struct inv_uplink {
	char addr[INV_PCI_ADDR];
	unsigned speed, width;	  /* its current link */
	uint64_t mbps;		  /* usable MB/s of that link */
	uint64_t demand_mbps;	  /* sum over the links below */
	char functions[INV_LIST]; /* the PCI functions below it */
};

struct inv_block {
	char name[INV_NAME];	 /* "nvme0n1", "sda", "md0", "dm-0" */
	char model[INV_STR];	 /* device/model (nvme, scsi) */
	char vendor[INV_NAME];	 /* device/vendor (scsi: "ATA", "SEAGATE") */
	char firmware[INV_NAME]; /* nvme firmware_rev, scsi rev */
	char serial[INV_STR];	 /* nvme serial, virtio serial, scsi vpd_pg80 */
	uint64_t size;		 /* bytes (size * 512) */
	unsigned logical_block_size, physical_block_size;
	int rotational;		   /* 1, 0, or -1 unknown */
	char transport[16];	   /* nvme sata sas scsi virtio usb mmc iscsi
				    * xen loop md dm zram ram nbd virtual */
	char via[16];		   /* the HBA's transport when it differs,
				    * e.g. "sas" for a SATA disk on a SAS HBA */
	char scheduler[INV_NAME];  /* the active one */
	unsigned nr_requests;	   /* queue/nr_requests; 0 unknown */
	unsigned hw_queues;	   /* entries of mq/; 0 for bio-based devices */
	int numa_node;		   /* of its PCI function; -1 none/unknown */
	char pci[INV_PCI_ADDR];	   /* PCI function it sits behind, "" none */
	char partitions[INV_LIST]; /* "sda1 sda2" */
	char holders[INV_LIST];	   /* holders/: "md0", "dm-0" */
	char slaves[INV_LIST];	   /* slaves/: "sdb1 sdc1" */
	char md_level[16];	   /* md/level: "raid1" */
	char md_state[INV_NAME];   /* md/array_state: "clean", "active" */
	int md_raid_disks;	   /* md/raid_disks; -1 unknown */
	int md_degraded;	 /* md/degraded: missing members; -1 unknown */
	char dm_name[INV_STR];	 /* dm/name: "vg0-data" */
	char dm_kind[16];	 /* "lvm", "crypt", "mpath", ... from dm/uuid */
	char backing_file[4096]; /* loop/backing_file */
};

struct inv_net {
	char name[INV_NAME];
	char driver[INV_NAME]; /* device/driver; "" for virtual interfaces */
	char operstate[16];    /* "up", "down", "unknown" */
	int speed_mbps;	       /* Mb/s; -1 unknown (down, virtual) */
	unsigned mtu;
	unsigned rx_queues, tx_queues; /* queues/rx-N, queues/tx-N */
	unsigned rps_queues;	       /* rx queues with a non-zero rps_cpus */
	int numa_node; /* of its PCI function; -1 none/unknown */
	char pci[INV_PCI_ADDR];
	struct nic_profile *profile; /* owned; the live system only, else NULL */
};

struct inventory {
	char root[4096]; /* the prefix read below, "" for "/" */
	struct inv_os os;
	struct inv_cpu cpu;
	struct inv_memory mem;
	struct inv_block *blocks; /* owned, sorted by name */
	unsigned nr_blocks;
	struct inv_net *nets; /* owned, sorted by name */
	unsigned nr_nets;
	struct inv_pci *pcis; /* owned, by address */
	unsigned nr_pcis;
	struct inv_uplink *uplinks; /* owned: oversubscribed shared links */
	unsigned nr_uplinks;
};

/* Read the machine below root ("/" or NULL for the running system, else a
 * directory holding sys/, proc/ and etc/ like a fixture) into inv, which
 * the caller then owns (release it with inventory_free). Returns 0, or
 * -ENOMEM (inv is then empty and needs no free). Never fails otherwise. */
int inventory_collect(struct inventory *inv, const char *root);

/* One interface, /sys/class/net/<name> below root ("" for the running
 * system), into n: what cannot be read stays empty (speed and NUMA node
 * -1). What `iochar net` reports of the interface a connection uses. */
void inventory_read_net(const char *root, struct inv_net *n, const char *name);

/* Release what inv owns; inv may be NULL. */
void inventory_free(struct inventory *inv);

/* Output. Serials are written only when show_serial is set (they identify
 * a customer's hardware). Each returns 0 or -EIO when writing f fails. */
int inventory_write_text(const struct inventory *inv, FILE *f,
			 bool show_serial);
int inventory_write_csv(const struct inventory *inv, FILE *f, bool show_serial);

struct jw;
/* The inventory as one JSON object value at the writer's current place
 * (after a key, in an array, or as the whole document). The one emitter:
 * `iochar inventory --output-format=json` and the results files' environment
 * both use it. */
void inventory_json_emit(struct jw *w, const struct inventory *inv,
			 bool show_serial);

/* Look-ups for the formats and tests: NULL when absent. */
const struct inv_block *inventory_block(const struct inventory *inv,
					const char *name);
const struct inv_net *inventory_net(const struct inventory *inv,
				    const char *name);
const struct inv_pci *inventory_pci(const struct inventory *inv,
				    const char *addr);

/* Usable MB/s of a PCIe link of speed MT/s per lane and width lanes, after
 * line encoding (8b/10b up to 5 GT/s, 128b/130b from 8 GT/s; 64 GT/s is
 * PAM4/FLIT, counted as 1:1 here). 0 when either is unknown. */
uint64_t inventory_pcie_mbps(unsigned speed, unsigned width);

#endif

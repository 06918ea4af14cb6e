/* nic_profile.h - what a network adapter is set to, as the papers vary
 * it: ring sizes, channels, RSS (indirection table and hash), offloads,
 * interrupt coalescing, and where its interrupts go.
 *
 * Read from the running kernel (the ETHTOOL ioctls, /proc/interrupts and
 * /proc/irq), never from a sysroot: a fixture has no kernel behind it.
 * Each part says whether the device answered; what a driver does not
 * support (loopback has none of it) stays unknown, never zero.
 */
#ifndef IOCHAR_INVENTORY_NIC_PROFILE_H
#define IOCHAR_INVENTORY_NIC_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json_writer.h"

#define NIC_FEATURES_MAX 128
#define NIC_FEATURE_NAME 40
#define NIC_IRQS_MAX 64
#define NIC_RSS_QUEUES_MAX 256

struct nic_irq {
	unsigned irq;
	char name[48];       /* /proc/interrupts' action, e.g. virtio2-input.0 */
	char cpus[64];       /* smp_affinity_list: where it may run */
	char effective[64];  /* effective_affinity_list: where it runs; "" */
};

struct nic_profile {
	bool rings_known;
	uint32_t rx_ring, tx_ring, rx_ring_max, tx_ring_max;
	bool channels_known;
	uint32_t rx_ch, tx_ch, other_ch, combined_ch;
	uint32_t max_rx_ch, max_tx_ch, max_other_ch, max_combined_ch;
	bool rss_known;              /* the indirection table was read */
	uint32_t rss_table_size;     /* entries */
	uint32_t rss_queues;         /* distinct queues the table sends to */
	uint32_t rss_key_bytes;
	char rss_hfunc[33];          /* "toeplitz", "xor", "crc32"; "" unknown */
	bool coalesce_known;
	uint32_t rx_usecs, rx_frames, tx_usecs, tx_frames;
	bool adaptive_rx, adaptive_tx;
	bool features_known;
	int tso, gso, gro, lro;      /* 1 on, 0 off, -1 unknown */
	unsigned nr_features_on;     /* every feature that is on, by name */
	char features_on[NIC_FEATURES_MAX][NIC_FEATURE_NAME];
	unsigned nr_irqs;
	struct nic_irq irqs[NIC_IRQS_MAX];
};

/* Read ifname's profile into p (zeroed first). Never fails: each part
 * the driver does not answer stays unknown. */
void nic_profile_read(const char *ifname, struct nic_profile *p);

/* p as one JSON object (the value of the caller's key); unknown parts
 * are null. */
void nic_profile_json(struct jw *w, const struct nic_profile *p);

/* p in a line or two of text after indent ("rings rx 256/256 tx ...");
 * nothing when no part is known (loopback). */
void nic_profile_text(FILE *f, const char *indent, const struct nic_profile *p);

#endif

/* inventory_csv.c - the inventory as key/value rows:
 *
 *   section,name,key,value
 *   cpu,,threads,16
 *   block,nvme0n1,transport,nvme
 *
 * One row per fact, so every section (and new fields) fit one header;
 * name is the device, interface, PCI address or NUMA node, "" for the
 * host-wide sections. Lists are space-separated; unknown numbers are "".
 * Quoting as RFC 4180, only where needed. See docs/inventory.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "inventory/inventory.h"
#include "util/csv.h"

static void row(FILE *f, const char *sec, const char *name, const char *key,
		const char *val)
{
	csv_field(f, sec);
	fputc(',', f);
	csv_field(f, name);
	fputc(',', f);
	csv_field(f, key);
	fputc(',', f);
	csv_field(f, val);
	fputc('\n', f);
}

static void row_u(FILE *f, const char *sec, const char *name, const char *key,
		  uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	row(f, sec, name, key, b);
}

/* -1 (unknown) as an empty value. */
static void row_i(FILE *f, const char *sec, const char *name, const char *key,
		  int v)
{
	char b[32] = "";

	if (v >= 0)
		snprintf(b, sizeof(b), "%d", v);
	row(f, sec, name, key, b);
}

static void host_rows(FILE *f, const struct inventory *inv)
{
	const struct inv_os *os = &inv->os;
	const struct inv_cpu *c = &inv->cpu;

	row(f, "os", "", "hostname", os->hostname);
	row(f, "os", "", "kernel", os->kernel);
	row(f, "os", "", "kernel_version", os->kernel_version);
	row(f, "os", "", "machine", os->machine);
	row(f, "os", "", "distro", os->distro);
	row(f, "os", "", "distro_id", os->distro_id);
	row(f, "os", "", "distro_version", os->distro_version);
	row(f, "cpu", "", "model", c->model);
	row_u(f, "cpu", "", "sockets", c->sockets);
	row_u(f, "cpu", "", "cores", c->cores);
	row_u(f, "cpu", "", "threads", c->threads);
	row_u(f, "cpu", "", "numa_nodes", c->numa_nodes);
	row_u(f, "cpu", "", "freq_min_khz", c->freq_min_khz);
	row_u(f, "cpu", "", "freq_max_khz", c->freq_max_khz);
	row_u(f, "cpu", "", "freq_cur_khz", c->freq_cur_khz);
	row(f, "cpu", "", "governor", c->governor);
	row_u(f, "memory", "", "total_bytes", inv->mem.total_bytes);
	for (unsigned i = 0; i < inv->mem.nr_nodes; i++) {
		const struct inv_node *n = &inv->mem.nodes[i];
		char id[16];
		snprintf(id, sizeof(id), "%u", n->id);
		row_u(f, "numa_node", id, "mem_bytes", n->mem_bytes);
		row(f, "numa_node", id, "cpus", n->cpus);
	}
}

static void block_rows(FILE *f, const struct inv_block *b, bool show_serial)
{
	const char *s = "block", *n = b->name;

	row(f, s, n, "transport", b->transport);
	row(f, s, n, "via", b->via);
	row(f, s, n, "model", b->model);
	row(f, s, n, "vendor", b->vendor);
	row(f, s, n, "firmware", b->firmware);
	if (show_serial)
		row(f, s, n, "serial", b->serial);
	row_u(f, s, n, "size", b->size);
	row_u(f, s, n, "logical_block_size", b->logical_block_size);
	row_u(f, s, n, "physical_block_size", b->physical_block_size);
	row_i(f, s, n, "rotational", b->rotational);
	row(f, s, n, "scheduler", b->scheduler);
	row_u(f, s, n, "nr_requests", b->nr_requests);
	row_u(f, s, n, "hw_queues", b->hw_queues);
	row_i(f, s, n, "numa_node", b->numa_node);
	row(f, s, n, "pci", b->pci);
	row(f, s, n, "partitions", b->partitions);
	row(f, s, n, "holders", b->holders);
	row(f, s, n, "slaves", b->slaves);
	if (b->md_level[0] || b->md_raid_disks >= 0) {
		row(f, s, n, "md_level", b->md_level);
		row(f, s, n, "md_state", b->md_state);
		row_i(f, s, n, "md_raid_disks", b->md_raid_disks);
		row_i(f, s, n, "md_degraded", b->md_degraded);
	}
	if (b->dm_name[0] || b->dm_kind[0]) {
		row(f, s, n, "dm_name", b->dm_name);
		row(f, s, n, "dm_kind", b->dm_kind);
	}
	if (!strcmp(b->transport, "loop"))
		row(f, s, n, "backing_file", b->backing_file);
}

static void pci_rows(FILE *f, const struct inv_pci *p)
{
	const char *s = "pcie", *n = p->addr;

	row(f, s, n, "vendor", p->vendor);
	row(f, s, n, "device", p->device);
	row(f, s, n, "driver", p->driver);
	row_i(f, s, n, "numa_node", p->numa_node);
	row(f, s, n, "users", p->users);
	row_u(f, s, n, "speed_mts", p->cur_speed);
	row_u(f, s, n, "width", p->cur_width);
	row_u(f, s, n, "max_speed_mts", p->max_speed);
	row_u(f, s, n, "max_width", p->max_width);
	row(f, s, n, "below_capability", p->below_capability ? "1" : "0");
	row(f, s, n, "oversubscribed_by", p->oversubscribed_by);
}

static void uplink_rows(FILE *f, const struct inv_uplink *u)
{
	const char *s = "pcie_oversubscribed", *n = u->addr;

	row_u(f, s, n, "speed_mts", u->speed);
	row_u(f, s, n, "width", u->width);
	row_u(f, s, n, "mbps", u->mbps);
	row_u(f, s, n, "demand_mbps", u->demand_mbps);
	row(f, s, n, "functions", u->functions);
}

static void net_rows(FILE *f, const struct inv_net *x)
{
	const char *s = "net", *n = x->name;

	row(f, s, n, "driver", x->driver);
	row(f, s, n, "operstate", x->operstate);
	row_i(f, s, n, "speed_mbps", x->speed_mbps);
	row_u(f, s, n, "mtu", x->mtu);
	row_u(f, s, n, "rx_queues", x->rx_queues);
	row_u(f, s, n, "tx_queues", x->tx_queues);
	row_u(f, s, n, "rps_queues", x->rps_queues);
	row_i(f, s, n, "numa_node", x->numa_node);
	row(f, s, n, "pci", x->pci);
}

int inventory_write_csv(const struct inventory *inv, FILE *f, bool show_serial)
{
	fputs("section,name,key,value\n", f);
	host_rows(f, inv);
	for (unsigned i = 0; i < inv->nr_blocks; i++)
		block_rows(f, &inv->blocks[i], show_serial);
	for (unsigned i = 0; i < inv->nr_pcis; i++)
		pci_rows(f, &inv->pcis[i]);
	for (unsigned i = 0; i < inv->nr_uplinks; i++)
		uplink_rows(f, &inv->uplinks[i]);
	for (unsigned i = 0; i < inv->nr_nets; i++)
		net_rows(f, &inv->nets[i]);
	return ferror(f) ? -EIO : 0;
}

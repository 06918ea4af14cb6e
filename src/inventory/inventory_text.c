/* inventory_text.c - the inventory for a person: one line per fact, one
 * block of lines per device; problems (a PCIe link below its capability,
 * an oversubscribed uplink, a degraded md array) are marked with "!". */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "inventory/inventory.h"
#include "util/fmt.h"

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

/* "16 GT/s" or "2.5 GT/s" into buf; "?" when unknown. */
static const char *gts(char *buf, size_t len, unsigned mts)
{
	if (!mts)
		snprintf(buf, len, "?");
	else if (mts % 1000)
		snprintf(buf, len, "%.1f GT/s", mts / 1000.0);
	else
		snprintf(buf, len, "%u GT/s", mts / 1000);
	return buf;
}

static void text_host(FILE *f, const struct inventory *inv)
{
	const struct inv_os *os = &inv->os;
	const struct inv_cpu *c = &inv->cpu;
	char b[32];

	fprintf(f, "host:    %s\n", or_dash(os->hostname));
	fprintf(f, "os:      %s; Linux %s (%s)\n", or_dash(os->distro),
		or_dash(os->kernel), or_dash(os->machine));
	fprintf(f, "cpu:     %s\n", or_dash(c->model));
	fprintf(f,
		"         %u socket(s), %u core(s), %u thread(s), %u NUMA "
		"node(s)\n",
		c->sockets, c->cores, c->threads, c->numa_nodes);
	if (c->freq_max_khz)
		fprintf(f,
			"         %llu-%llu MHz, now %llu MHz, governor %s\n",
			(unsigned long long)c->freq_min_khz / 1000,
			(unsigned long long)c->freq_max_khz / 1000,
			(unsigned long long)c->freq_cur_khz / 1000,
			or_dash(c->governor));
	else if (c->freq_cur_khz)
		fprintf(f, "         %llu MHz (no cpufreq)\n",
			(unsigned long long)c->freq_cur_khz / 1000);
	fprintf(f, "memory:  %s\n",
		fmt_bytes(b, sizeof(b), inv->mem.total_bytes));
	for (unsigned i = 0; i < inv->mem.nr_nodes; i++) {
		const struct inv_node *n = &inv->mem.nodes[i];
		fprintf(f, "         node %u: %s, cpus %s\n", n->id,
			fmt_bytes(b, sizeof(b), n->mem_bytes),
			or_dash(n->cpus));
	}
}

static void text_block(FILE *f, const struct inv_block *b, bool show_serial)
{
	char size[32];

	fprintf(f, "  %s: %s%s%s, %s", b->name, or_dash(b->transport),
		b->via[0] ? " via " : "", b->via,
		fmt_bytes(size, sizeof(size), b->size));
	if (b->model[0])
		fprintf(f, ", %s%s%s", b->vendor[0] ? b->vendor : "",
			b->vendor[0] ? " " : "", b->model);
	if (b->firmware[0])
		fprintf(f, ", firmware %s", b->firmware);
	if (show_serial && b->serial[0])
		fprintf(f, ", serial %s", b->serial);
	fputc('\n', f);
	fprintf(f,
		"    %u/%u B sectors, %s, scheduler %s, nr_requests %u, "
		"%u hw queue(s)",
		b->logical_block_size, b->physical_block_size,
		b->rotational < 0 ? "rotational ?"
		: b->rotational	  ? "rotational"
				  : "non-rotational",
		or_dash(b->scheduler), b->nr_requests, b->hw_queues);
	if (b->numa_node >= 0)
		fprintf(f, ", NUMA node %d", b->numa_node);
	if (b->pci[0])
		fprintf(f, ", pci %s", b->pci);
	fputc('\n', f);
	if (b->md_level[0] || b->md_raid_disks >= 0)
		fprintf(f, "  %s md %s, %s, %d disk(s), %d missing\n",
			b->md_degraded > 0 ? "!" : " ", or_dash(b->md_level),
			or_dash(b->md_state), b->md_raid_disks, b->md_degraded);
	if (b->dm_name[0])
		fprintf(f, "    dm %s (%s)\n", b->dm_name, or_dash(b->dm_kind));
	if (b->backing_file[0])
		fprintf(f, "    backing file %s\n", b->backing_file);
	if (b->partitions[0])
		fprintf(f, "    partitions: %s\n", b->partitions);
	if (b->slaves[0])
		fprintf(f, "    on: %s\n", b->slaves);
	if (b->holders[0])
		fprintf(f, "    used by: %s\n", b->holders);
}

static void text_pci(FILE *f, const struct inv_pci *p)
{
	char cur[16], max[16];

	fprintf(f, "  %s %s: %s ", p->below_capability ? "!" : " ", p->addr,
		or_dash(p->driver));
	if (p->vendor_name[0]) /* as lspci names it, the IDs after */
		fprintf(f, "%s%s%s (%s:%s)", p->vendor_name, p->device_name[0] ? " " : "",
			p->device_name, or_dash(p->vendor), or_dash(p->device));
	else
		fprintf(f, "%s:%s", or_dash(p->vendor), or_dash(p->device));
	if (p->cur_speed || p->cur_width || p->max_speed || p->max_width)
		fprintf(f, ", link %s x%u of %s x%u",
			gts(cur, sizeof(cur), p->cur_speed), p->cur_width,
			gts(max, sizeof(max), p->max_speed), p->max_width);
	else
		fputs(", no link speed reported", f);
	if (p->below_capability)
		fputs(" (below capability)", f);
	if (p->numa_node >= 0)
		fprintf(f, ", NUMA node %d", p->numa_node);
	fprintf(f, " [%s]\n", p->users);
	if (p->oversubscribed_by[0])
		fprintf(f, "    shares oversubscribed uplink %s\n",
			p->oversubscribed_by);
}

static void text_uplink(FILE *f, const struct inv_uplink *u)
{
	char s[16];

	fprintf(f,
		"  ! uplink %s: %s x%u = %llu MB/s, below it %llu MB/s "
		"(%s): oversubscribed\n",
		u->addr, gts(s, sizeof(s), u->speed), u->width,
		(unsigned long long)u->mbps, (unsigned long long)u->demand_mbps,
		u->functions);
}

static void text_net(FILE *f, const struct inv_net *n)
{
	fprintf(f, "  %s: %s, %s", n->name,
		n->driver[0] ? n->driver : "virtual", or_dash(n->operstate));
	if (n->speed_mbps > 0)
		fprintf(f, ", %d Mb/s", n->speed_mbps);
	fprintf(f, ", mtu %u, %u rx / %u tx queue(s), rps on %u", n->mtu,
		n->rx_queues, n->tx_queues, n->rps_queues);
	if (n->numa_node >= 0)
		fprintf(f, ", NUMA node %d", n->numa_node);
	if (n->pci[0])
		fprintf(f, ", pci %s", n->pci);
	fputc('\n', f);
	if (n->profile)
		nic_profile_text(f, "    ", n->profile);
}

int inventory_write_text(const struct inventory *inv, FILE *f, bool show_serial)
{
	text_host(f, inv);
	fprintf(f, "block devices: %u\n", inv->nr_blocks);
	for (unsigned i = 0; i < inv->nr_blocks; i++)
		text_block(f, &inv->blocks[i], show_serial);
	fprintf(f, "pcie functions: %u\n", inv->nr_pcis);
	for (unsigned i = 0; i < inv->nr_pcis; i++)
		text_pci(f, &inv->pcis[i]);
	for (unsigned i = 0; i < inv->nr_uplinks; i++)
		text_uplink(f, &inv->uplinks[i]);
	fprintf(f, "network interfaces: %u\n", inv->nr_nets);
	for (unsigned i = 0; i < inv->nr_nets; i++)
		text_net(f, &inv->nets[i]);
	return ferror(f) ? -EIO : 0;
}

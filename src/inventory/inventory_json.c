/* inventory_json.c - the inventory as JSON; the schema is in
 * docs/inventory.md. Unknown strings are "", unknown counts 0, and
 * numbers where 0 is meaningful (numa_node, speed, rotational, md
 * counts) are null when unknown. */
#include <string.h>

#include "inventory/inventory.h"
#include "base/json_writer.h"

static void kv_str(struct jw *w, const char *key, const char *s, size_t len)
{
	jw_key(w, key);
	jw_string_n(w, s, len);
}
#define KV_STR(w, key, field) kv_str(w, key, field, sizeof(field))

static void kv_int_or_null(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	if (v < 0)
		jw_null(w);
	else
		jw_int(w, v);
}

/* A space-separated list as an array of strings. */
static void kv_list(struct jw *w, const char *key, const char *list)
{
	jw_key(w, key);
	jw_array_begin(w);
	while (*list) {
		size_t n = strcspn(list, " ");
		if (n)
			jw_string_n(w, list, n);
		list += n;
		while (*list == ' ')
			list++;
	}
	jw_array_end(w);
}

static void emit_os(struct jw *w, const struct inv_os *os)
{
	jw_key(w, "os");
	jw_object_begin(w);
	KV_STR(w, "hostname", os->hostname);
	KV_STR(w, "kernel", os->kernel);
	KV_STR(w, "kernel_version", os->kernel_version);
	KV_STR(w, "machine", os->machine);
	KV_STR(w, "distro", os->distro);
	KV_STR(w, "distro_id", os->distro_id);
	KV_STR(w, "distro_version", os->distro_version);
	jw_object_end(w);
}

static void emit_cpu(struct jw *w, const struct inv_cpu *c)
{
	jw_key(w, "cpu");
	jw_object_begin(w);
	KV_STR(w, "model", c->model);
	jw_kv_uint(w, "sockets", c->sockets);
	jw_kv_uint(w, "cores", c->cores);
	jw_kv_uint(w, "threads", c->threads);
	jw_kv_uint(w, "numa_nodes", c->numa_nodes);
	jw_kv_uint(w, "freq_min_khz", c->freq_min_khz);
	jw_kv_uint(w, "freq_max_khz", c->freq_max_khz);
	jw_kv_uint(w, "freq_cur_khz", c->freq_cur_khz);
	KV_STR(w, "governor", c->governor);
	jw_object_end(w);
}

static void emit_memory(struct jw *w, const struct inv_memory *m)
{
	jw_key(w, "memory");
	jw_object_begin(w);
	jw_kv_uint(w, "total_bytes", m->total_bytes);
	jw_key(w, "numa_nodes");
	jw_array_begin(w);
	for (unsigned i = 0; i < m->nr_nodes; i++) {
		jw_object_begin(w);
		jw_kv_uint(w, "node", m->nodes[i].id);
		jw_kv_uint(w, "mem_bytes", m->nodes[i].mem_bytes);
		KV_STR(w, "cpus", m->nodes[i].cpus);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

static void emit_block(struct jw *w, const struct inv_block *b,
		       bool show_serial)
{
	jw_object_begin(w);
	KV_STR(w, "name", b->name);
	KV_STR(w, "transport", b->transport);
	KV_STR(w, "via", b->via);
	KV_STR(w, "model", b->model);
	KV_STR(w, "vendor", b->vendor);
	KV_STR(w, "firmware", b->firmware);
	if (show_serial)
		KV_STR(w, "serial", b->serial);
	jw_kv_uint(w, "size", b->size);
	jw_kv_uint(w, "logical_block_size", b->logical_block_size);
	jw_kv_uint(w, "physical_block_size", b->physical_block_size);
	jw_key(w, "rotational");
	if (b->rotational < 0)
		jw_null(w);
	else
		jw_bool(w, b->rotational != 0);
	KV_STR(w, "scheduler", b->scheduler);
	jw_kv_uint(w, "nr_requests", b->nr_requests);
	jw_kv_uint(w, "hw_queues", b->hw_queues);
	kv_int_or_null(w, "numa_node", b->numa_node);
	KV_STR(w, "pci", b->pci);
	kv_list(w, "partitions", b->partitions);
	kv_list(w, "holders", b->holders);
	kv_list(w, "slaves", b->slaves);
	if (b->md_level[0] || b->md_raid_disks >= 0) {
		jw_key(w, "md");
		jw_object_begin(w);
		KV_STR(w, "level", b->md_level);
		KV_STR(w, "state", b->md_state);
		kv_int_or_null(w, "raid_disks", b->md_raid_disks);
		kv_int_or_null(w, "degraded", b->md_degraded);
		jw_object_end(w);
	}
	if (b->dm_name[0] || b->dm_kind[0]) {
		jw_key(w, "dm");
		jw_object_begin(w);
		KV_STR(w, "name", b->dm_name);
		KV_STR(w, "kind", b->dm_kind);
		jw_object_end(w);
	}
	if (!strcmp(b->transport, "loop"))
		KV_STR(w, "backing_file", b->backing_file);
	jw_object_end(w);
}

static void emit_pci(struct jw *w, const struct inv_pci *p)
{
	jw_object_begin(w);
	KV_STR(w, "addr", p->addr);
	KV_STR(w, "vendor", p->vendor);
	KV_STR(w, "device", p->device);
	KV_STR(w, "vendor_name", p->vendor_name); /* pciutils' names, "" unknown */
	KV_STR(w, "device_name", p->device_name);
	KV_STR(w, "driver", p->driver);
	kv_int_or_null(w, "numa_node", p->numa_node);
	kv_list(w, "users", p->users);
	jw_kv_uint(w, "speed_mts", p->cur_speed);
	jw_kv_uint(w, "width", p->cur_width);
	jw_kv_uint(w, "max_speed_mts", p->max_speed);
	jw_kv_uint(w, "max_width", p->max_width);
	jw_kv_bool(w, "below_capability", p->below_capability);
	jw_key(w, "oversubscribed_by");
	if (p->oversubscribed_by[0])
		jw_string_n(w, p->oversubscribed_by,
			    sizeof(p->oversubscribed_by));
	else
		jw_null(w);
	jw_object_end(w);
}

static void emit_uplink(struct jw *w, const struct inv_uplink *u)
{
	jw_object_begin(w);
	KV_STR(w, "addr", u->addr);
	jw_kv_uint(w, "speed_mts", u->speed);
	jw_kv_uint(w, "width", u->width);
	jw_kv_uint(w, "mbps", u->mbps);
	jw_kv_uint(w, "demand_mbps", u->demand_mbps);
	kv_list(w, "functions", u->functions);
	jw_object_end(w);
}

static void emit_net(struct jw *w, const struct inv_net *n)
{
	jw_object_begin(w);
	KV_STR(w, "name", n->name);
	KV_STR(w, "driver", n->driver);
	KV_STR(w, "operstate", n->operstate);
	kv_int_or_null(w, "speed_mbps", n->speed_mbps);
	jw_kv_uint(w, "mtu", n->mtu);
	jw_kv_uint(w, "rx_queues", n->rx_queues);
	jw_kv_uint(w, "tx_queues", n->tx_queues);
	jw_kv_uint(w, "rps_queues", n->rps_queues);
	kv_int_or_null(w, "numa_node", n->numa_node);
	KV_STR(w, "pci", n->pci);
	jw_key(w, "profile");
	if (n->profile)
		nic_profile_json(w, n->profile);
	else
		jw_null(w);
	jw_object_end(w);
}

void inventory_json_emit(struct jw *w, const struct inventory *inv,
			 bool show_serial)
{
	jw_object_begin(w);
	emit_os(w, &inv->os);
	emit_cpu(w, &inv->cpu);
	emit_memory(w, &inv->mem);
	jw_key(w, "block_devices");
	jw_array_begin(w);
	for (unsigned i = 0; i < inv->nr_blocks; i++)
		emit_block(w, &inv->blocks[i], show_serial);
	jw_array_end(w);
	jw_key(w, "pcie");
	jw_array_begin(w);
	for (unsigned i = 0; i < inv->nr_pcis; i++)
		emit_pci(w, &inv->pcis[i]);
	jw_array_end(w);
	jw_key(w, "pcie_oversubscribed");
	jw_array_begin(w);
	for (unsigned i = 0; i < inv->nr_uplinks; i++)
		emit_uplink(w, &inv->uplinks[i]);
	jw_array_end(w);
	jw_key(w, "net");
	jw_array_begin(w);
	for (unsigned i = 0; i < inv->nr_nets; i++)
		emit_net(w, &inv->nets[i]);
	jw_array_end(w);
	jw_object_end(w);
}

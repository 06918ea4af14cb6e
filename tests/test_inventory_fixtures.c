/* test_inventory_fixtures.c - the inventory readers against fixture trees
 * of /sys, /proc and /etc (tests/fixtures/inventory/, built by
 * make_fixtures.sh): every parsed value is asserted exactly. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "base/json_writer.h"

#define FIXTURES "tests/fixtures/inventory"

static struct inventory *load(const char *name)
{
	static struct inventory inv;
	char root[256];

	snprintf(root, sizeof(root), "%s/%s", FIXTURES, name);
	assert_int_equal(inventory_collect(&inv, root), 0);
	return &inv;
}

static const struct inv_block *block(const struct inventory *inv,
				     const char *name)
{
	const struct inv_block *b = inventory_block(inv, name);
	if (!b)
		fail_msg("block device %s not found", name);
	return b;
}

static const struct inv_pci *pci(const struct inventory *inv, const char *a)
{
	const struct inv_pci *p = inventory_pci(inv, a);
	if (!p)
		fail_msg("PCI function %s not found", a);
	return p;
}

static void test_nvme_host(void **state)
{
	struct inventory *inv = load("nvme");

	assert_string_equal(inv->os.hostname, "nvme-host");
	assert_string_equal(inv->os.kernel, "6.1.0-28-amd64");
	assert_string_equal(inv->os.distro, "Debian GNU/Linux 12 (bookworm)");
	assert_string_equal(inv->os.distro_id, "debian");
	assert_string_equal(inv->os.distro_version, "12");
	assert_string_equal(inv->cpu.model,
			    "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
	assert_int_equal(inv->cpu.sockets, 2);
	assert_int_equal(inv->cpu.cores, 8);
	assert_int_equal(inv->cpu.threads, 16);
	assert_int_equal(inv->cpu.numa_nodes, 2);
	assert_int_equal(inv->cpu.freq_min_khz, 1200000);
	assert_int_equal(inv->cpu.freq_max_khz, 3500000);
	assert_int_equal(inv->cpu.freq_cur_khz, 2400000); /* mean, not cpu0 */
	assert_string_equal(inv->cpu.governor, "performance");
	assert_int_equal(inv->mem.total_bytes, 65536000ull * 1024);
	assert_int_equal(inv->mem.nr_nodes, 2);
	assert_int_equal(inv->mem.nodes[0].id, 0);
	assert_int_equal(inv->mem.nodes[0].mem_bytes, 32768000ull * 1024);
	assert_string_equal(inv->mem.nodes[0].cpus, "0-3,8-11");
	assert_int_equal(inv->mem.nodes[1].id, 1);
	assert_string_equal(inv->mem.nodes[1].cpus, "4-7,12-15");
	inventory_free(inv);
}

static void test_nvme_disk(void **state)
{
	struct inventory *inv = load("nvme");

	assert_int_equal(inv->nr_blocks, 2);
	const struct inv_block *b = block(inv, "nvme0n1");
	assert_string_equal(b->transport, "nvme");
	assert_string_equal(b->via, "");
	assert_string_equal(b->model, "Samsung SSD 980 PRO 1TB");
	assert_string_equal(b->firmware, "5B2QGXA7");
	assert_string_equal(b->serial, "S5GXNF0R123456W");
	assert_int_equal(b->size, 1953525168ull * 512);
	assert_int_equal(b->logical_block_size, 512);
	assert_int_equal(b->physical_block_size, 512);
	assert_int_equal(b->rotational, 0);
	assert_string_equal(b->scheduler, "none");
	assert_int_equal(b->nr_requests, 1023);
	assert_int_equal(b->hw_queues, 8);
	assert_int_equal(b->numa_node, 0);
	assert_string_equal(b->pci, "0000:01:00.0");
	assert_string_equal(b->partitions, "nvme0n1p1");
	assert_string_equal(b->holders, "");
	assert_int_equal(b->md_degraded, -1);

	const struct inv_pci *p = pci(inv, "0000:01:00.0");
	assert_string_equal(p->driver, "nvme");
	assert_string_equal(p->vendor, "0x144d");
	assert_int_equal(p->cur_speed, 16000);
	assert_int_equal(p->cur_width, 4);
	assert_int_equal(p->max_speed, 16000);
	assert_int_equal(p->max_width, 4);
	assert_false(p->below_capability);
	assert_string_equal(p->oversubscribed_by, "");
	assert_string_equal(p->users, "nvme0n1");
	assert_int_equal(inv->nr_uplinks, 0);
	inventory_free(inv);
}

static void test_nvme_multipath(void **state)
{
	struct inventory *inv = load("nvme");

	const struct inv_block *b = block(inv, "nvme1n1");
	assert_string_equal(b->transport, "nvme");
	assert_string_equal(b->model, "WDC CL SN720 SDAQNTW-512G-2000");
	assert_string_equal(b->firmware, "10170101");
	assert_string_equal(b->serial, "19334H800123");
	assert_int_equal(b->size, 1000215216ull * 512);
	/* from the controller's path disk, not the bio-based head */
	assert_string_equal(b->pci, "0000:02:00.0");
	assert_int_equal(b->numa_node, 0);
	assert_int_equal(b->hw_queues, 4);
	assert_string_equal(pci(inv, "0000:02:00.0")->users, "nvme1n1");
	inventory_free(inv);
}

static void test_nvme_nic(void **state)
{
	struct inventory *inv = load("nvme");

	assert_int_equal(inv->nr_nets, 2);
	const struct inv_net *n = inventory_net(inv, "ens1f0");
	assert_non_null(n);
	assert_string_equal(n->driver, "mlx5_core");
	assert_string_equal(n->operstate, "up");
	assert_int_equal(n->speed_mbps, 100000);
	assert_int_equal(n->mtu, 9000);
	assert_int_equal(n->rx_queues, 8);
	assert_int_equal(n->tx_queues, 8);
	assert_int_equal(n->rps_queues, 2);
	assert_int_equal(n->numa_node, 1);
	assert_string_equal(n->pci, "0000:81:00.0");
	const struct inv_pci *p = pci(inv, "0000:81:00.0");
	assert_int_equal(p->cur_speed, 8000);
	assert_int_equal(p->cur_width, 16);
	assert_false(p->below_capability);

	const struct inv_net *lo = inventory_net(inv, "lo");
	assert_non_null(lo);
	assert_string_equal(lo->driver, "");
	assert_int_equal(lo->speed_mbps, -1);
	assert_int_equal(lo->mtu, 65536);
	assert_string_equal(lo->pci, "");
	inventory_free(inv);
}

static void test_sata_behind_sas(void **state)
{
	struct inventory *inv = load("sas-sata");

	assert_int_equal(inv->nr_blocks, 3);
	const struct inv_block *a = block(inv, "sda");
	assert_string_equal(a->transport, "sata");
	assert_string_equal(a->via, "sas");
	assert_string_equal(a->vendor, "ATA");
	assert_string_equal(a->model, "ST4000NM0035-1V4");
	assert_string_equal(a->firmware, "TN03");
	assert_string_equal(a->serial, "ZC1ABCDE"); /* VPD page 0x80 */
	assert_int_equal(a->size, 7814037168ull * 512);
	assert_int_equal(a->logical_block_size, 512);
	assert_int_equal(a->physical_block_size, 4096);
	assert_int_equal(a->rotational, 1);
	assert_string_equal(a->scheduler, "mq-deadline");
	assert_int_equal(a->nr_requests, 256);
	assert_string_equal(a->pci, "0000:02:00.0");
	assert_string_equal(a->partitions, "sda1");

	const struct inv_block *s = block(inv, "sdb");
	assert_string_equal(s->transport, "sas");
	assert_string_equal(s->via, "");
	assert_string_equal(s->vendor, "SEAGATE");
	assert_string_equal(s->model, "ST1200MM0129");
	assert_string_equal(s->firmware, "CSLA");
	assert_string_equal(s->serial, "WFK0XYZ1");

	const struct inv_block *c = block(inv, "sdc"); /* AHCI */
	assert_string_equal(c->transport, "sata");
	assert_string_equal(c->via, "");
	assert_int_equal(c->rotational, 0);
	assert_string_equal(c->scheduler, "none");
	assert_int_equal(c->nr_requests, 64);
	assert_string_equal(c->pci, "0000:00:17.0");

	const struct inv_pci *hba = pci(inv, "0000:02:00.0");
	assert_string_equal(hba->driver, "mpt3sas");
	assert_string_equal(hba->users, "sda sdb");
	assert_int_equal(hba->cur_width, 8);

	/* No NUMA and no cpufreq: cpuinfo's MHz, zero nodes. */
	assert_int_equal(inv->cpu.numa_nodes, 0);
	assert_int_equal(inv->mem.nr_nodes, 0);
	assert_int_equal(inv->cpu.freq_max_khz, 0);
	assert_int_equal(inv->cpu.freq_cur_khz, 2200000);
	assert_int_equal(inv->cpu.sockets, 1);
	assert_int_equal(inv->cpu.cores, 2);
	inventory_free(inv);
}

static void test_virtio(void **state)
{
	struct inventory *inv = load("virtio");

	const struct inv_block *b = block(inv, "vda");
	assert_string_equal(b->transport, "virtio");
	assert_string_equal(b->vendor, ""); /* a PCI id there, not a name */
	assert_string_equal(b->serial, "vol-0a1b2c3d");
	assert_int_equal(b->size, 104857600ull * 512);
	assert_int_equal(b->hw_queues, 2);
	assert_int_equal(b->numa_node, -1);
	assert_string_equal(b->scheduler, "mq-deadline");
	assert_string_equal(b->partitions, "vda1 vda2");
	assert_string_equal(b->pci, "0000:00:04.0");
	const struct inv_pci *p = pci(inv, "0000:00:04.0");
	assert_int_equal(p->cur_speed, 0); /* no link attributes */
	assert_false(p->below_capability);

	const struct inv_net *n = inventory_net(inv, "eth0");
	assert_non_null(n);
	assert_string_equal(n->driver, "virtio_net");
	assert_int_equal(n->speed_mbps, -1);
	assert_int_equal(n->rx_queues, 2);
	assert_int_equal(n->tx_queues, 2);
	assert_int_equal(n->rps_queues, 0);
	/* os-release only in /usr/lib */
	assert_string_equal(inv->os.distro_id, "debian");
	assert_int_equal(inv->cpu.threads, 4);
	inventory_free(inv);
}

static void test_pcie_degraded_and_oversubscribed(void **state)
{
	struct inventory *inv = load("pcie");

	const struct inv_pci *slow = pci(inv, "0000:04:00.0");
	assert_int_equal(slow->cur_speed, 8000);
	assert_int_equal(slow->cur_width, 2);
	assert_int_equal(slow->max_speed, 16000);
	assert_int_equal(slow->max_width, 4);
	assert_true(slow->below_capability);
	assert_string_equal(slow->users, "nvme1n1");

	const struct inv_pci *full = pci(inv, "0000:03:00.0");
	assert_false(full->below_capability);

	/* Both sit behind the switch whose x4 uplink carries less than
	 * their links together; the root port above it is the same link
	 * and is not reported again. */
	assert_int_equal(inv->nr_uplinks, 1);
	const struct inv_uplink *u = &inv->uplinks[0];
	assert_string_equal(u->addr, "0000:01:00.0");
	assert_int_equal(u->speed, 16000);
	assert_int_equal(u->width, 4);
	assert_int_equal(u->mbps, 7876);
	assert_int_equal(u->demand_mbps, 7876 + 1969);
	assert_string_equal(u->functions, "0000:03:00.0 0000:04:00.0");
	assert_string_equal(slow->oversubscribed_by, "0000:01:00.0");
	assert_string_equal(full->oversubscribed_by, "0000:01:00.0");

	const struct inv_pci *alone = pci(inv, "0000:05:00.0");
	assert_false(alone->below_capability);
	assert_string_equal(alone->oversubscribed_by, "");
	assert_int_equal(block(inv, "nvme2n1")->logical_block_size, 4096);
	assert_int_equal(block(inv, "nvme1n1")->hw_queues, 16);
	inventory_free(inv);
}

static void test_pcie_mbps(void **state)
{
	assert_int_equal(inventory_pcie_mbps(2500, 1), 250);
	assert_int_equal(inventory_pcie_mbps(5000, 4), 2000);
	assert_int_equal(inventory_pcie_mbps(8000, 1), 984);
	assert_int_equal(inventory_pcie_mbps(16000, 4), 7876);
	assert_int_equal(inventory_pcie_mbps(0, 4), 0);
	assert_int_equal(inventory_pcie_mbps(16000, 0), 0);
}

static void test_md_dm_loop(void **state)
{
	struct inventory *inv = load("md");

	/* loop1 has size 0 (not attached) and is left out */
	assert_int_equal(inv->nr_blocks, 5);
	assert_null(inventory_block(inv, "loop1"));
	const struct inv_block *md = block(inv, "md0");
	assert_string_equal(md->transport, "md");
	assert_string_equal(md->md_level, "raid1");
	assert_string_equal(md->md_state, "clean");
	assert_int_equal(md->md_raid_disks, 3);
	assert_int_equal(md->md_degraded, 1);
	assert_string_equal(md->slaves, "vdb1 vdc1");
	assert_string_equal(md->holders, "dm-0");
	assert_int_equal(md->size, 2091008ull * 512);
	assert_int_equal(md->hw_queues, 0);

	const struct inv_block *dm = block(inv, "dm-0");
	assert_string_equal(dm->transport, "dm");
	assert_string_equal(dm->dm_name, "vg0-data");
	assert_string_equal(dm->dm_kind, "lvm");
	assert_string_equal(dm->slaves, "md0");
	assert_int_equal(dm->md_degraded, -1);

	const struct inv_block *vdb = block(inv, "vdb");
	assert_string_equal(vdb->transport, "virtio");
	assert_string_equal(vdb->partitions, "vdb1");
	assert_string_equal(vdb->holders, "md0"); /* through vdb1 */

	const struct inv_block *lo = block(inv, "loop0");
	assert_string_equal(lo->transport, "loop");
	assert_string_equal(lo->backing_file, "/var/tmp/disk image.img");
	assert_int_equal(lo->size, 204800ull * 512);
	inventory_free(inv);
}

static void test_missing_root_is_empty(void **state)
{
	struct inventory inv;

	assert_int_equal(inventory_collect(&inv, FIXTURES "/no-such-machine"),
			 0);
	assert_int_equal(inv.nr_blocks, 0);
	assert_int_equal(inv.nr_nets, 0);
	assert_int_equal(inv.nr_pcis, 0);
	assert_int_equal(inv.cpu.threads, 0);
	assert_int_equal(inv.mem.total_bytes, 0);
	assert_string_equal(inv.os.hostname, "");
	inventory_free(&inv);
}

/* Write inv in one format into a string (owned by the caller). */
static char *render(const struct inventory *inv, char fmt, bool serial)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	assert_non_null(f);
	if (fmt == 'j') {
		jw_init(&w, f, 0);
		inventory_json_emit(&w, inv, serial);
		assert_int_equal(jw_finish(&w), 0);
	} else if (fmt == 'c') {
		assert_int_equal(inventory_write_csv(inv, f, serial), 0);
	} else {
		assert_int_equal(inventory_write_text(inv, f, serial), 0);
	}
	assert_int_equal(fclose(f), 0);
	return buf;
}

static json_object *path(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("missing key %s", key);
	return v;
}

static void test_json(void **state)
{
	struct inventory *inv = load("pcie");
	char *s = render(inv, 'j', false);
	json_object *o = json_tokener_parse(s);

	assert_non_null(o);
	assert_int_equal(json_object_get_int(path(path(o, "cpu"), "threads")),
			 16);
	json_object *blocks = path(o, "block_devices");
	assert_int_equal(json_object_array_length(blocks), 3);
	json_object *b0 = json_object_array_get_idx(blocks, 0);
	assert_string_equal(json_object_get_string(path(b0, "name")),
			    "nvme0n1");
	assert_false(json_object_object_get_ex(b0, "serial", NULL));
	json_object *p1 = json_object_array_get_idx(path(o, "pcie"), 1);
	assert_string_equal(json_object_get_string(path(p1, "addr")),
			    "0000:04:00.0");
	assert_true(json_object_get_boolean(path(p1, "below_capability")));
	assert_int_equal(json_object_get_int(path(p1, "max_speed_mts")), 16000);
	json_object *u =
	    json_object_array_get_idx(path(o, "pcie_oversubscribed"), 0);
	assert_int_equal(json_object_get_int(path(u, "demand_mbps")), 9845);
	assert_int_equal(json_object_array_length(path(u, "functions")), 2);
	json_object_put(o);
	free(s);

	s = render(inv, 'j', true);
	o = json_tokener_parse(s);
	b0 = json_object_array_get_idx(path(o, "block_devices"), 0);
	assert_string_equal(json_object_get_string(path(b0, "serial")),
			    "SN-nvme0");
	json_object_put(o);
	free(s);
	inventory_free(inv);

	inv = load("md");
	s = render(inv, 'j', false);
	o = json_tokener_parse(s);
	assert_non_null(o);
	json_object *md = NULL;
	blocks = path(o, "block_devices");
	for (size_t i = 0; i < json_object_array_length(blocks); i++) {
		json_object *b = json_object_array_get_idx(blocks, i);
		if (!strcmp(json_object_get_string(path(b, "name")), "md0"))
			md = b;
	}
	assert_non_null(md);
	assert_int_equal(json_object_get_int(path(path(md, "md"), "degraded")),
			 1);
	assert_true(json_object_get_type(path(md, "numa_node")) ==
		    json_type_null);
	assert_int_equal(json_object_array_length(path(md, "slaves")), 2);
	json_object_put(o);
	free(s);
	inventory_free(inv);
}

static void test_csv_and_text(void **state)
{
	struct inventory *inv = load("sas-sata");
	char *s = render(inv, 'c', false);

	assert_int_equal(strncmp(s, "section,name,key,value\n", 23), 0);
	assert_non_null(strstr(s, "\nblock,sda,transport,sata\n"));
	assert_non_null(strstr(s, "\nblock,sda,via,sas\n"));
	assert_non_null(strstr(s, "\ncpu,,threads,2\n"));
	assert_non_null(strstr(s, "\npcie,0000:02:00.0,users,sda sdb\n"));
	assert_null(strstr(s, "serial"));
	free(s);
	s = render(inv, 'c', true);
	assert_non_null(strstr(s, "\nblock,sda,serial,ZC1ABCDE\n"));
	free(s);
	inventory_free(inv);

	inv = load("pcie");
	s = render(inv, 't', false);
	assert_non_null(
	    strstr(s, "link 8 GT/s x2 of 16 GT/s x4 (below capability)"));
	assert_non_null(strstr(s, "uplink 0000:01:00.0"));
	assert_null(strstr(s, "SN-nvme"));
	free(s);
	inventory_free(inv);
}

/* The name pci.ids gives an ID: a vendor's line ("144d  Samsung ...")
 * or, under that vendor, a device's ("\ta80a  NVMe ..."); "" if none. */
static void ids_name(const char *vendor, const char *device, char *out, size_t len)
{
	FILE *f = fopen("/usr/share/misc/pci.ids", "r");
	char line[512];
	bool in_vendor = false;
	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '\t' && line[0] != '#' && line[0])
			in_vendor = !strncmp(line, vendor, 4) && line[4] == ' ';
		if (in_vendor && !device && line[0] != '\t') {
			snprintf(out, len, "%s", line + 6);
			break;
		}
		if (in_vendor && device && line[0] == '\t' && line[1] != '\t' &&
		    !strncmp(line + 1, device, 4) && line[5] == ' ') {
			snprintf(out, len, "%s", line + 7);
			break;
		}
	}
	fclose(f);
}

/* PCI functions named from pciutils' database, the IDs beside: the
 * inventory's names are pci.ids' own lines for them. */
static void test_pci_names(void **state)
{
	(void)state;
	char vendor[512], device[512];
	ids_name("144d", NULL, vendor, sizeof(vendor));
	ids_name("144d", "a80a", device, sizeof(device));
	if (!vendor[0] || !device[0]) {
		printf("SKIP: no pci.ids with 144d:a80a (scripts/deps.sh installs pci.ids)\n");
		return;
	}
	struct inventory *inv = load("nvme");
	const struct inv_pci *p = pci(inv, "0000:01:00.0");
	assert_string_equal(p->vendor_name, vendor);
	assert_string_equal(p->device_name, device);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	inventory_write_text(inv, f, false);
	fclose(f);
	char want[1100];
	snprintf(want, sizeof(want), "0000:01:00.0: nvme %s %s (0x144d:0xa80a)", vendor, device);
	if (!strstr(text, want))
		fail_msg("'%s' not in:\n%s", want, text);
	free(text);
	inventory_free(inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nvme_host),
	    cmocka_unit_test(test_pci_names),
	    cmocka_unit_test(test_nvme_disk),
	    cmocka_unit_test(test_nvme_multipath),
	    cmocka_unit_test(test_nvme_nic),
	    cmocka_unit_test(test_sata_behind_sas),
	    cmocka_unit_test(test_virtio),
	    cmocka_unit_test(test_pcie_degraded_and_oversubscribed),
	    cmocka_unit_test(test_pcie_mbps),
	    cmocka_unit_test(test_md_dm_loop),
	    cmocka_unit_test(test_missing_root_is_empty),
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_csv_and_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

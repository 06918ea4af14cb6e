/* test_inventory_live.c - the inventory of the machine the tests run on,
 * and `iochar inventory` / the results files end to end.
 *
 * Asserts what must hold on any Linux: the CPU count is sysconf's, the
 * memory is /proc/meminfo's, the kernel is uname's, every interface of
 * /sys/class/net is listed, the disk holding "/" is found with a transport
 * that matches its name (vda: virtio). As root, a loop device made on a
 * file shows as loop with that backing file (SKIP otherwise).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "harness.h"
#include "inventory/inventory.h"

static uint64_t meminfo_total(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}

static void test_host_matches_kernel(void **state)
{
	struct inventory inv;
	struct utsname u;

	assert_int_equal(inventory_collect(&inv, NULL), 0);
	assert_int_equal(inv.cpu.threads, sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(inv.cpu.cores >= 1 && inv.cpu.cores <= inv.cpu.threads);
	assert_true(inv.cpu.sockets >= 1 && inv.cpu.sockets <= inv.cpu.cores);
	assert_int_equal(inv.mem.total_bytes, meminfo_total());
	assert_int_equal(uname(&u), 0);
	assert_string_equal(inv.os.kernel, u.release);
	assert_string_equal(inv.os.machine, u.machine);
	assert_true(inv.os.distro[0] != '\0');
	/* NUMA nodes' memory never exceeds the total */
	uint64_t sum = 0;
	for (unsigned i = 0; i < inv.mem.nr_nodes; i++)
		sum += inv.mem.nodes[i].mem_bytes;
	assert_true(sum <= inv.mem.total_bytes);
	inventory_free(&inv);
}

static void test_every_interface(void **state)
{
	struct inventory inv;
	struct dirent *de;
	unsigned n = 0;
	DIR *d = opendir("/sys/class/net");

	assert_non_null(d);
	assert_int_equal(inventory_collect(&inv, NULL), 0);
	while ((de = readdir(d))) {
		char p[512];
		snprintf(p, sizeof(p), "/sys/class/net/%s/ifindex", de->d_name);
		if (de->d_name[0] == '.' || access(p, F_OK))
			continue;
		const struct inv_net *x = inventory_net(&inv, de->d_name);
		if (!x)
			fail_msg("interface %s missing", de->d_name);
		assert_true(x->mtu > 0);
		n++;
	}
	closedir(d);
	assert_int_equal(inv.nr_nets, n);
	const struct inv_net *lo = inventory_net(&inv, "lo");
	assert_non_null(lo);
	assert_string_equal(lo->driver, "");
	inventory_free(&inv);
}

/* Kernel name of the whole disk holding "/", or false. */
static bool root_disk(char *name, size_t len)
{
	char link[64], real[PATH_MAX], *base;
	struct stat st;

	if (stat("/", &st))
		return false;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	if (!realpath(link, real))
		return false;
	char part[PATH_MAX + 16];
	snprintf(part, sizeof(part), "%s/partition", real);
	if (access(part, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	base = strrchr(real, '/');
	snprintf(name, len, "%s", base + 1);
	return true;
}

static void test_root_disk(void **state)
{
	struct inventory inv;
	char name[128];

	if (!root_disk(name, sizeof(name))) {
		printf("SKIP: / is not on a block device here\n");
		skip();
	}
	assert_int_equal(inventory_collect(&inv, NULL), 0);
	const struct inv_block *b = inventory_block(&inv, name);
	if (!b)
		fail_msg("root disk %s not in the inventory", name);
	assert_true(b->size > 0);
	assert_true(b->logical_block_size >= 512);
	if (!strncmp(name, "vd", 2))
		assert_string_equal(b->transport, "virtio");
	else if (!strncmp(name, "nvme", 4))
		assert_string_equal(b->transport, "nvme");
	else if (!strncmp(name, "dm-", 3))
		assert_string_equal(b->transport, "dm");
	else if (!strncmp(name, "md", 2))
		assert_string_equal(b->transport, "md");
	else
		assert_true(b->transport[0] != '\0');
	inventory_free(&inv);
}

static void test_loop_device(void **state)
{
	char dir_backing[PATH_MAX], real[PATH_MAX], dev[64];
	struct inventory inv;

	if (!is_root()) {
		printf("SKIP: attaching a loop device needs root\n");
		skip();
	}
	char *dir = tmpdir_make();
	snprintf(dir_backing, sizeof(dir_backing), "%s/backing file", dir);
	if (!loop_attach(dir_backing, 4 << 20, 512, dev, sizeof(dev))) {
		tmpdir_remove(dir);
		skip();
	}
	assert_non_null(realpath(dir_backing, real));
	int ret = inventory_collect(&inv, NULL);
	const struct inv_block *b =
	    ret ? NULL : inventory_block(&inv, dev + strlen("/dev/"));
	char got_transport[16] = "", got_file[PATH_MAX] = "";
	uint64_t got_size = 0;
	if (b) {
		snprintf(got_transport, sizeof(got_transport), "%s",
			 b->transport);
		snprintf(got_file, sizeof(got_file), "%s", b->backing_file);
		got_size = b->size;
	}
	if (!ret)
		inventory_free(&inv);
	loop_detach(dev);
	tmpdir_remove(dir);
	assert_int_equal(ret, 0);
	if (!b)
		fail_msg("%s not in the inventory", dev);
	assert_string_equal(got_transport, "loop");
	assert_string_equal(got_file, real);
	assert_int_equal(got_size, 4 << 20);
}

static json_object *key(json_object *o, const char *k)
{
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("missing key %s", k);
	return v;
}

static void test_cli_json(void **state)
{
	struct proc_out po;

	run_iochar(&po, NULL, 0, ARGS("inventory", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	assert_int_equal(json_object_get_int(key(key(o, "cpu"), "threads")),
			 sysconf(_SC_NPROCESSORS_ONLN));
	json_object *blocks = key(o, "block_devices");
	for (size_t i = 0; i < json_object_array_length(blocks); i++)
		assert_false(json_object_object_get_ex(
		    json_object_array_get_idx(blocks, i), "serial", NULL));
	json_object_put(o);
	proc_out_free(&po);

	/* the fixture through --sysroot, with serials asked for */
	run_iochar(&po, NULL, 0,
		   ARGS("inventory", "--output-format", "json", "--show-serial",
			"--sysroot=tests/fixtures/inventory/nvme"));
	expect_exit(&po, 0);
	o = parse_json(&po);
	json_object *b0 = json_object_array_get_idx(key(o, "block_devices"), 0);
	assert_string_equal(json_object_get_string(key(b0, "serial")),
			    "S5GXNF0R123456W");
	assert_string_equal(
	    json_object_get_string(key(key(o, "os"), "hostname")), "nvme-host");
	json_object_put(o);
	proc_out_free(&po);
}

static void test_cli_text_csv_errors(void **state)
{
	struct proc_out po;

	run_iochar(
	    &po, NULL, 0,
	    ARGS("inventory", "--sysroot=tests/fixtures/inventory/pcie"));
	expect_exit(&po, 0);
	expect_has(po.out, "below capability");
	expect_has(po.out, "oversubscribed");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("inventory", "--output-format=csv"));
	expect_exit(&po, 0);
	assert_int_equal(strncmp(po.out, "section,name,key,value\n", 23), 0);
	expect_has(po.out, "\ncpu,,threads,");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("inventory", "--output-format=xml"));
	expect_exit(&po, 2);
	expect_has(po.err, "--output-format=xml");
	assert_string_equal(po.out, "");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("inventory", "--sysroot=/no/such/dir"));
	expect_exit(&po, 2);
	expect_has(po.err, "/no/such/dir");
	assert_string_equal(po.out, "");
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("inventory", "--bogus"));
	expect_exit(&po, 2);
	proc_out_free(&po);

	/* the root from the environment, overridden by --sysroot */
	setenv("IOCHAR_SYSROOT", "tests/fixtures/inventory/virtio", 1);
	run_iochar(&po, NULL, 0, ARGS("inventory"));
	expect_exit(&po, 0);
	expect_has(po.out, "virtio-host");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0,
		   ARGS("inventory", "--sysroot=tests/fixtures/inventory/md"));
	unsetenv("IOCHAR_SYSROOT");
	expect_exit(&po, 0);
	expect_has(po.out, "md-host");
	proc_out_free(&po);
}

static void test_run_carries_inventory(void **state)
{
	struct proc_out po;

	run_iochar(&po, NULL, 0,
		   ARGS("run", "--ioengine=null", "--size=1m", "--bs=4k",
			"--output-format=json"));
	expect_exit(&po, 0);
	json_object *o = parse_json(&po);
	json_object *env = key(o, "environment");
	json_object *inv = key(env, "inventory");
	/* the old keys stay, and agree with the inventory they come from */
	assert_int_equal(json_object_get_int(key(env, "cpus")),
			 json_object_get_int(key(key(inv, "cpu"), "threads")));
	assert_int_equal(
	    json_object_get_int64(key(env, "mem_bytes")),
	    json_object_get_int64(key(key(inv, "memory"), "total_bytes")));
	assert_string_equal(
	    json_object_get_string(key(env, "kernel")),
	    json_object_get_string(key(key(inv, "os"), "kernel")));
	assert_true(
	    json_object_is_type(key(inv, "block_devices"), json_type_array));
	assert_true(json_object_is_type(key(inv, "net"), json_type_array));
	json_object_put(o);
	proc_out_free(&po);
}

static void test_plan_carries_inventory(void **state)
{
	char *dir = tmpdir_make();
	char fn[4400], path[4400];
	struct proc_out po;

	snprintf(fn, sizeof(fn), "--filename=%s/f", dir);
	run_iochar(&po, dir, 0,
		   ARGS("plan", "quick", fn, "--size=1m", "--ioengine=null",
			"--mode=fixed", "--runtime=1", "--out", "res"));
	if (po.status != 0)
		fail_msg("exit %d: %s", po.status, po.err);
	proc_out_free(&po);
	snprintf(path, sizeof(path), "%s/res/results.json", dir);
	json_object *o = json_object_from_file(path);
	assert_non_null(o);
	json_object *inv = key(key(o, "environment"), "inventory");
	assert_int_equal(json_object_get_int(key(key(inv, "cpu"), "threads")),
			 sysconf(_SC_NPROCESSORS_ONLN));
	json_object_put(o);
	tmpdir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_host_matches_kernel),
	    cmocka_unit_test(test_every_interface),
	    cmocka_unit_test(test_root_disk),
	    cmocka_unit_test(test_loop_device),
	    cmocka_unit_test(test_cli_json),
	    cmocka_unit_test(test_cli_text_csv_errors),
	    cmocka_unit_test(test_run_carries_inventory),
	    cmocka_unit_test(test_plan_carries_inventory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* cpu.c - CPU model, topology, NUMA nodes and frequencies.
 *
 * Sources: /proc/cpuinfo (model; "cpu MHz" when cpufreq is absent),
 * /sys/devices/system/cpu/online and cpuN/topology/{physical_package_id,
 * core_id}, cpuN/cpufreq/{cpuinfo_min_freq,cpuinfo_max_freq,
 * scaling_cur_freq,scaling_governor}, /sys/devices/system/node/online.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

/* The cpuinfo keys that name the CPU, best first: x86, then what arm, mips
 * and powerpc kernels print. */
static const char *const cpu_keys[] = {"model name", "Model", "Hardware",
				       "cpu model",  "cpu",   "CPU part"};
#define NR_CPU_KEYS (sizeof(cpu_keys) / sizeof(cpu_keys[0]))

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Model name and the mean "cpu MHz" (in kHz, 0 if none) from cpuinfo. */
static void cpuinfo_read(struct inventory *inv, uint64_t *mhz_khz)
{
	char path[4200], line[1024];
	size_t best = NR_CPU_KEYS;
	double mhz_sum = 0;
	unsigned mhz_n = 0;
	FILE *f;

	*mhz_khz = 0;
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", inv->root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *key = trim(line), *val = trim(colon + 1);
		if (!strcmp(key, "cpu MHz")) {
			double v = strtod(val, NULL);
			/* a damaged line (inf, 1e23) would overflow the kHz
			 * figure: up to 10 THz is a clock, anything else noise */
			if (v > 0 && v < 1e7) {
				mhz_sum += v;
				mhz_n++;
			}
			continue;
		}
		for (size_t i = 0; i < best; i++) {
			if (strcmp(key, cpu_keys[i]) == 0 && *val) {
				inv_copy(inv->cpu.model, sizeof(inv->cpu.model),
					 val);
				best = i;
				break;
			}
		}
	}
	fclose(f);
	if (mhz_n)
		*mhz_khz = (uint64_t)(mhz_sum / mhz_n * 1000.0 + 0.5);
}

struct topo_walk {
	struct inventory *inv;
	uint64_t *cores; /* (package << 32 | core_id) seen, distinct */
	unsigned *pkgs;	 /* packages seen, distinct */
	unsigned nr_cores, nr_pkgs, cap;
	uint64_t cur_sum;
	unsigned cur_n;
};

static void add_distinct_u64(uint64_t *v, unsigned *n, uint64_t x)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	v[(*n)++] = x;
}

static void topo_one(unsigned cpu, void *arg)
{
	struct topo_walk *t = arg;
	struct inv_cpu *c = &t->inv->cpu;
	const char *root = t->inv->root;
	int pkg = 0, core = (int)cpu;
	uint64_t v;

	if (t->nr_cores >= t->cap)
		return;
	if (sysfs_read_int(
		root, &pkg,
		"/sys/devices/system/cpu/cpu%u/topology/physical_package_id",
		cpu) == 0 &&
	    pkg >= 0) {
		bool seen = false;
		for (unsigned i = 0; i < t->nr_pkgs; i++)
			seen |= t->pkgs[i] == (unsigned)pkg;
		if (!seen)
			t->pkgs[t->nr_pkgs++] = (unsigned)pkg;
	} else {
		pkg = 0;
	}
	sysfs_read_int(root, &core,
		       "/sys/devices/system/cpu/cpu%u/topology/core_id", cpu);
	add_distinct_u64(t->cores, &t->nr_cores,
			 (uint64_t)(unsigned)pkg << 32 | (unsigned)core);
	if (sysfs_read_u64(
		root, &v,
		"/sys/devices/system/cpu/cpu%u/cpufreq/cpuinfo_min_freq",
		cpu) == 0 &&
	    v && (!c->freq_min_khz || v < c->freq_min_khz))
		c->freq_min_khz = v;
	if (sysfs_read_u64(
		root, &v,
		"/sys/devices/system/cpu/cpu%u/cpufreq/cpuinfo_max_freq",
		cpu) == 0 &&
	    v > c->freq_max_khz)
		c->freq_max_khz = v;
	if (sysfs_read_u64(
		root, &v,
		"/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq",
		cpu) == 0 &&
	    v) {
		t->cur_sum += v;
		t->cur_n++;
	}
}

void inv_collect_cpu(struct inventory *inv)
{
	struct inv_cpu *c = &inv->cpu;
	char online[1024] = "";
	struct topo_walk t = {.inv = inv};
	uint64_t mhz_khz;

	cpuinfo_read(inv, &mhz_khz);
	if (sysfs_read(inv->root, online, sizeof(online),
		       "/sys/devices/system/cpu/online") == 0)
		c->threads = inv_cpulist_each(online, NULL, NULL);
	if (c->threads) {
		t.cap = c->threads;
		t.cores = calloc(t.cap, sizeof(*t.cores));
		t.pkgs = calloc(t.cap, sizeof(*t.pkgs));
		if (t.cores && t.pkgs) {
			inv_cpulist_each(online, topo_one, &t);
			c->cores = t.nr_cores;
			c->sockets = t.nr_pkgs ? t.nr_pkgs : 1;
		}
		free(t.cores);
		free(t.pkgs);
	}
	c->freq_cur_khz = t.cur_n ? t.cur_sum / t.cur_n : mhz_khz;
	sysfs_read(inv->root, c->governor, sizeof(c->governor),
		   "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	if (sysfs_read(inv->root, online, sizeof(online),
		       "/sys/devices/system/node/online") == 0)
		c->numa_nodes = inv_cpulist_each(online, NULL, NULL);
}

/* report_host_env.c - in the Environment section of a run over many hosts,
 * one row per host of what most often explains a slow one: kernel, CPU,
 * memory, and the target's device model, firmware, transport, PCIe link
 * and filesystem, and the NICs' speed and MTU. A cell that differs from
 * the most common value of its column is flagged with class "differs" and
 * a "≠" before it (not colour alone); a PCIe link trained below what the
 * device and slot can do says "below max". A line above names how many
 * hosts differ and in which columns. Columns empty on every host are left
 * out, so a cluster of virtual machines gets a short table. */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_parts.h"
#include "report/svg_chart.h"

#define CELL_MAX 512

enum he_col {
	HE_KERNEL, HE_CPU, HE_CORES, HE_MEM, HE_MODEL, HE_FIRMWARE, HE_TRANSPORT,
	HE_PCIE, HE_FS, HE_NIC, HE_COLS
};

static const char *const col_name[HE_COLS] = {
	"kernel", "CPU model", "cores / threads", "memory", "device model", "firmware",
	"transport", "PCIe link", "filesystem", "NIC speed/MTU",
};

struct he_row {
	char cell[HE_COLS][CELL_MAX];
	bool below;                /* a target's PCIe link is below its maximum */
	bool differs[HE_COLS];
};

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static uint64_t num(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return v && json_object_is_type(v, json_type_int) ? json_object_get_uint64(v) : 0;
}

/* Append text to cell, ", "-separated from what is there. */
static void add(char *cell, const char *text)
{
	size_t n = strlen(cell);
	if (!*text)
		return;
	snprintf(cell + n, CELL_MAX - n, "%s%s", n ? ", " : "", text);
}

/* The element of array key of o whose member m is v. */
static json_object *find(json_object *o, const char *key, const char *m, const char *v)
{
	json_object *a = get(o, key);
	size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n && *v; i++)
		if (!strcmp(str(json_object_array_get_idx(a, i), m), v))
			return json_object_array_get_idx(a, i);
	return NULL;
}

/* The inventory's disk behind a target's device: itself, or the disk
 * whose partitions list names it. */
static json_object *disk_of(json_object *inv, const char *dev)
{
	json_object *b = find(inv, "block_devices", "name", dev);
	json_object *a = get(inv, "block_devices");
	size_t n = !b && a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n && *dev; i++) {
		json_object *parts = get(json_object_array_get_idx(a, i), "partitions");
		size_t np = parts && json_object_is_type(parts, json_type_array)
				    ? json_object_array_length(parts) : 0;
		for (size_t k = 0; k < np; k++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(parts, k)), dev))
				return json_object_array_get_idx(a, i);
	}
	return b;
}

static void gts(char *buf, size_t len, uint64_t mts, uint64_t width)
{
	snprintf(buf, len, "%.4g GT/s x%llu", (double)mts / 1000.0, (unsigned long long)width);
}

/* "8 GT/s x2 of 16 GT/s x4" when below the maximum, else "16 GT/s x4". */
static void pcie_link(struct he_row *row, json_object *pci)
{
	char cur[64], max[96], text[200];
	uint64_t s = num(pci, "speed_mts"), w = num(pci, "width");
	uint64_t ms = num(pci, "max_speed_mts"), mw = num(pci, "max_width");
	if (!s && !w)
		return;
	gts(cur, sizeof(cur), s, w);
	bool below = (ms && s < ms) || (mw && w < mw) ||
		     json_object_get_boolean(get(pci, "below_capability"));
	if (below) {
		gts(max, sizeof(max), ms, mw);
		snprintf(text, sizeof(text), "%s of %s", cur, max);
		row->below = true;
	}
	add(row->cell[HE_PCIE], below ? text : cur);
}

static void target_cells(struct he_row *row, json_object *env)
{
	json_object *inv = get(env, "inventory"), *targets = get(env, "targets");
	size_t n = targets && json_object_is_type(targets, json_type_array)
			   ? json_object_array_length(targets) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(targets, i);
		json_object *disk = disk_of(inv, str(t, "device"));
		add(row->cell[HE_MODEL], *str(t, "model") ? str(t, "model") : str(disk, "model"));
		add(row->cell[HE_FIRMWARE], str(disk, "firmware"));
		add(row->cell[HE_TRANSPORT], str(disk, "transport"));
		add(row->cell[HE_FS], str(t, "fstype"));
		json_object *pci = find(inv, "pcie", "addr", str(disk, "pci"));
		if (pci)
			pcie_link(row, pci);
	}
}

/* Interfaces that are up, with a device (a PCI address or a speed). */
static void nic_cells(struct he_row *row, json_object *inv)
{
	json_object *a = get(inv, "net");
	size_t n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);
		uint64_t speed = num(e, "speed_mbps");
		char text[200], sp[48];
		if (strcmp(str(e, "operstate"), "up") || (!speed && !*str(e, "pci")))
			continue;
		if (!speed)
			snprintf(sp, sizeof(sp), "? Mb/s");
		else if (speed % 1000 == 0)
			snprintf(sp, sizeof(sp), "%llu Gb/s", (unsigned long long)speed / 1000);
		else
			snprintf(sp, sizeof(sp), "%llu Mb/s", (unsigned long long)speed);
		snprintf(text, sizeof(text), "%s %s MTU %llu", str(e, "name"), sp,
			 (unsigned long long)num(e, "mtu"));
		add(row->cell[HE_NIC], text);
	}
}

static void fill_row(struct he_row *row, json_object *env)
{
	json_object *inv = get(env, "inventory"), *cpu = get(inv, "cpu");
	char buf[64];

	memset(row, 0, sizeof(*row));
	add(row->cell[HE_KERNEL], str(env, "kernel"));
	add(row->cell[HE_CPU], *str(env, "cpu_model") ? str(env, "cpu_model") : str(cpu, "model"));
	uint64_t cores = num(cpu, "cores"), threads = num(cpu, "threads");
	if (!threads)
		threads = num(env, "cpus");
	if (cores || threads)
		snprintf(row->cell[HE_CORES], CELL_MAX, "%llu/%llu", (unsigned long long)cores,
			 (unsigned long long)threads);
	if (num(env, "mem_bytes")) {
		snprintf(buf, sizeof(buf), "%.1f GiB", (double)num(env, "mem_bytes") / (1u << 30));
		add(row->cell[HE_MEM], buf);
	}
	target_cells(row, env);
	nic_cells(row, inv);
}

/* Flag every cell that differs from its column's most common value (the
 * first such value on a tie). Returns how many rows have a flag; used[c]
 * says the column has text somewhere, differ[c] that a cell of it differs. */
static unsigned compare_rows(struct he_row *rows, const bool *has, unsigned n,
			     bool *used, bool *differ)
{
	unsigned hosts = 0;
	for (int c = 0; c < HE_COLS; c++) {
		unsigned best = 0, best_count = 0;
		for (unsigned i = 0; i < n; i++) {
			unsigned count = 0;
			if (!has[i])
				continue;
			used[c] |= rows[i].cell[c][0] != '\0';
			for (unsigned k = 0; k < n; k++)
				count += has[k] && !strcmp(rows[i].cell[c], rows[k].cell[c]);
			if (count > best_count) {
				best_count = count;
				best = i;
			}
		}
		for (unsigned i = 0; i < n; i++) {
			rows[i].differs[c] = has[i] && strcmp(rows[i].cell[c], rows[best].cell[c]);
			differ[c] |= rows[i].differs[c];
		}
	}
	for (unsigned i = 0; i < n; i++) {
		bool any = false;
		for (int c = 0; c < HE_COLS; c++)
			any |= rows[i].differs[c];
		hosts += any;
	}
	return hosts;
}

static void summary_line(FILE *f, const struct rs_set *set, const struct he_row *rows,
			 const bool *has, unsigned nr_env, unsigned nr_differ,
			 const bool *differ)
{
	unsigned n = set->nr_host_envs;
	fprintf(f, "<p class=\"host-env-summary\" data-hosts=\"%u\" data-differ=\"%u\">", n,
		nr_differ);
	if (nr_differ) {
		fprintf(f, "<strong class=\"bad\">%u of %u hosts differ:</strong> ", nr_differ, nr_env);
		const char *sep = "";
		for (int c = 0; c < HE_COLS; c++)
			if (differ[c]) {
				fprintf(f, "%s%s", sep, col_name[c]);
				sep = ", ";
			}
		fputs(".", f);
	} else {
		fprintf(f, "All %u hosts agree in every column below.", nr_env);
	}
	for (int list = 0; list < 2; list++) {
		const char *sep = list ? " No environment from (lost): "
				       : " PCIe link below its maximum on: ";
		for (unsigned i = 0; i < n; i++)
			if (list ? !has[i] : has[i] && rows[i].below) {
				fputs(sep, f);
				html_escape(f, set->host_envs[i].host);
				sep = ", ";
			}
		if (sep[0] == ',')
			fputs(".", f);
	}
	fputs("</p>\n", f);
}

static void table(FILE *f, const struct rs_set *set, const struct he_row *rows,
		  const bool *has, const bool *used)
{
	fputs("<table class=\"list host-env\"><thead><tr><th>host</th><th>rank</th>", f);
	for (int c = 0; c < HE_COLS; c++)
		if (used[c])
			fprintf(f, "<th>%s</th>", col_name[c]);
	fputs("</tr></thead><tbody>\n", f);
	for (unsigned i = 0; i < set->nr_host_envs; i++) {
		fprintf(f, "<tr data-rank=\"%u\"><td>", set->host_envs[i].rank);
		html_escape(f, set->host_envs[i].host);
		fprintf(f, "</td><td class=\"num\">%u</td>", set->host_envs[i].rank);
		if (!has[i]) {
			fputs("<td class=\"missing\" colspan=\"99\">no environment recorded (lost)</td></tr>\n", f);
			continue;
		}
		for (int c = 0; c < HE_COLS; c++) {
			if (!used[c])
				continue;
			const struct he_row *r = &rows[i];
			bool below = c == HE_PCIE && r->below;
			fprintf(f, "<td data-col=\"%s\"%s>", col_name[c],
				r->differs[c] ? (below ? " class=\"differs below\"" : " class=\"differs\"")
					      : (below ? " class=\"below\"" : ""));
			if (r->differs[c])
				fputs("<span class=\"mark\">\xe2\x89\xa0</span> ", f);
			if (r->cell[c][0])
				html_escape(f, r->cell[c]);
			else
				fputs("<span class=\"none\">\xe2\x80\x93</span>", f);
			if (below)
				fputs(" <span class=\"mark\">below max</span>", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

bool report_has_host_envs(const struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_host_envs; i++)
			if (r->sets[s].host_envs[i].env)
				return true;
	return false;
}

void report_host_envs(struct report_ctx *r, const struct rs_set *set)
{
	unsigned n = set->nr_host_envs, nr_env = 0;
	bool used[HE_COLS] = {false}, differ[HE_COLS] = {false};

	for (unsigned i = 0; i < n; i++)
		nr_env += set->host_envs[i].env != NULL;
	if (!nr_env)
		return; /* a file from before hosts carried their environment */
	struct he_row *rows = calloc(n, sizeof(*rows));
	bool *has = calloc(n, sizeof(*has));
	if (!rows || !has) {
		free(rows);
		free(has);
		r->ret = -ENOMEM;
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		has[i] = set->host_envs[i].env != NULL;
		if (has[i])
			fill_row(&rows[i], set->host_envs[i].env);
	}
	unsigned nr_differ = compare_rows(rows, has, n, used, differ);
	fputs("<h4>Hosts compared</h4>\n", r->f);
	summary_line(r->f, set, rows, has, nr_env, nr_differ, differ);
	table(r->f, set, rows, has, used);
	fputs("<h4>Rank 0</h4>\n", r->f);
	free(rows);
	free(has);
}

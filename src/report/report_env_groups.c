/* report_env_groups.c - the environment a set was measured on, grouped as
 * a reader looks for it: the host (OS, kernel, CPU, memory), the targets
 * (each once, with the largest size recorded: a target created by the run
 * was first seen empty), the disks with their stacks, the PCIe links
 * (a link below its capability flagged) and the NICs. Read from the
 * environment JSON by name; a member that is absent is left out, and the
 * whole record stays available below the groups (report_env.c). */
#include <json-c/json.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"
#include "util/fmt.h"

enum col_kind {
	COL_TEXT,  /* as recorded; "" and null as a dash */
	COL_BYTES, /* a size */
	COL_YESNO, /* a boolean */
	COL_LIST,  /* an array of scalars, comma-separated */
};

struct env_col {
	const char *title;
	const char *key;
	enum col_kind kind;
};

/* The member at a dot-separated path of o, or NULL. */
static json_object *at(json_object *o, const char *path)
{
	char key[64];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

static void dash(FILE *f)
{
	fputs("<span class=\"none\">\xe2\x80\x93</span>", f);
}

static void cell(FILE *f, json_object *v, enum col_kind kind)
{
	char buf[NUMFMT_MAX];
	if (!v || json_object_is_type(v, json_type_null) ||
	    (json_object_is_type(v, json_type_string) && !*json_object_get_string(v))) {
		dash(f);
		return;
	}
	switch (kind) {
	case COL_BYTES: /* 0 is "not known" (a file not yet written) */
		if (json_object_get_int64(v) > 0)
			html_escape(f, fmt_bytes(buf, sizeof(buf), (uint64_t)json_object_get_int64(v)));
		else
			dash(f);
		break;
	case COL_YESNO:
		fputs(json_object_get_boolean(v) ? "yes" : "no", f);
		break;
	case COL_LIST:
		if (!json_object_is_type(v, json_type_array) || !json_object_array_length(v)) {
			dash(f);
			break;
		}
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *e = json_object_array_get_idx(v, i);
			if (i)
				fputs(", ", f);
			html_escape(f, json_object_is_type(e, json_type_object)
					       ? json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN)
					       : json_object_get_string(e));
		}
		break;
	default:
		html_escape(f, json_object_get_string(v));
	}
}

/* A table of the elements of array a, one row each, in columns cols. */
static void rows_table(FILE *f, const char *title, json_object *a,
		       const struct env_col *cols, unsigned nc)
{
	if (!a || !json_object_is_type(a, json_type_array) || !json_object_array_length(a))
		return;
	fprintf(f, "<h4>%s</h4><table class=\"list env-group\"><thead><tr>", title);
	for (unsigned c = 0; c < nc; c++)
		fprintf(f, "<th>%s</th>", cols[c].title);
	fputs("</tr></thead><tbody>", f);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_object))
			continue;
		fputs("<tr>", f);
		for (unsigned c = 0; c < nc; c++) {
			fputs("<td>", f);
			cell(f, at(e, cols[c].key), cols[c].kind);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</tbody></table>\n", f);
}

static void kv_row(FILE *f, const char *title, json_object *v, enum col_kind kind)
{
	if (!v)
		return;
	fprintf(f, "<tr><th>%s</th><td>", title);
	cell(f, v, kind);
	fputs("</td></tr>", f);
}

static void host_group(FILE *f, json_object *env)
{
	json_object *cpu = at(env, "inventory.cpu");
	fputs("<h4>Host</h4><table class=\"kv env-group\">", f);
	kv_row(f, "host name", at(env, "hostname"), COL_TEXT);
	kv_row(f, "OS", at(env, "inventory.os.distro"), COL_TEXT);
	kv_row(f, "kernel", at(env, "kernel"), COL_TEXT);
	kv_row(f, "machine", at(env, "machine"), COL_TEXT);
	kv_row(f, "CPU model", at(env, "cpu_model"), COL_TEXT);
	if (cpu) {
		fprintf(f, "<tr><th>sockets, cores, threads</th><td>%d, %d, %d</td></tr>",
			json_object_get_int(at(cpu, "sockets")), json_object_get_int(at(cpu, "cores")),
			json_object_get_int(at(cpu, "threads")));
		kv_row(f, "NUMA nodes", at(cpu, "numa_nodes"), COL_TEXT);
		int64_t cur = json_object_get_int64(at(cpu, "freq_cur_khz"));
		int64_t max = json_object_get_int64(at(cpu, "freq_max_khz"));
		if (cur > 0 && max > 0)
			fprintf(f, "<tr><th>frequency</th><td>%.2f GHz now, %.2f GHz at most</td></tr>",
				(double)cur / 1e6, (double)max / 1e6);
		else if (cur > 0 || max > 0)
			fprintf(f, "<tr><th>frequency</th><td>%.2f GHz</td></tr>",
				(double)(cur > 0 ? cur : max) / 1e6);
		kv_row(f, "governor", at(cpu, "governor"), COL_TEXT);
	} else {
		kv_row(f, "CPUs", at(env, "cpus"), COL_TEXT);
	}
	kv_row(f, "memory", at(env, "mem_bytes"), COL_BYTES);
	fputs("</table>\n", f);
}

/* The targets, each path once: a file the run created is recorded empty
 * by the steps that ran before it was written, so the largest size seen
 * is its real one. Returns a new array (caller puts it) or NULL. */
static json_object *targets_once(json_object *targets)
{
	if (!targets || !json_object_is_type(targets, json_type_array))
		return NULL;
	json_object *once = json_object_new_array();
	for (size_t i = 0; once && i < json_object_array_length(targets); i++) {
		json_object *t = json_object_array_get_idx(targets, i);
		const char *path = json_object_get_string(at(t, "path"));
		size_t j, n = json_object_array_length(once);
		for (j = 0; j < n; j++)
			if (path && !strcmp(path, json_object_get_string(
							  at(json_object_array_get_idx(once, j), "path"))))
				break;
		if (j == n) {
			json_object_array_add(once, json_object_get(t));
		} else if (json_object_get_double(at(t, "size")) >
			   json_object_get_double(at(json_object_array_get_idx(once, j), "size"))) {
			json_object_array_put_idx(once, j, json_object_get(t));
		}
	}
	return once;
}

static const struct env_col target_cols[] = {
	{"path", "path", COL_TEXT},	      {"block device", "is_block", COL_YESNO},
	{"filesystem", "fstype", COL_TEXT},   {"device", "device", COL_TEXT},
	{"model", "model", COL_TEXT},	      {"scheduler", "scheduler", COL_TEXT},
	{"size", "size", COL_BYTES},	      {"logical block", "logical_block_size", COL_BYTES},
	{"rotational", "rotational", COL_YESNO},
};
static const struct env_col disk_cols[] = {
	{"name", "name", COL_TEXT},	       {"transport", "transport", COL_TEXT},
	{"model", "model", COL_TEXT},	       {"firmware", "firmware", COL_TEXT},
	{"size", "size", COL_BYTES},	       {"logical block", "logical_block_size", COL_BYTES},
	{"physical block", "physical_block_size", COL_BYTES},
	{"scheduler", "scheduler", COL_TEXT},  {"requests", "nr_requests", COL_TEXT},
	{"queues", "hw_queues", COL_TEXT},     {"NUMA", "numa_node", COL_TEXT},
	{"PCI", "pci", COL_TEXT},	       {"partitions", "partitions", COL_LIST},
	{"used by", "holders", COL_LIST},      {"built on", "slaves", COL_LIST},
};
static const struct env_col nic_cols[] = {
	{"name", "name", COL_TEXT},	  {"driver", "driver", COL_TEXT},
	{"state", "operstate", COL_TEXT}, {"speed (Mb/s)", "speed_mbps", COL_TEXT},
	{"MTU", "mtu", COL_TEXT},	  {"RX queues", "rx_queues", COL_TEXT},
	{"TX queues", "tx_queues", COL_TEXT}, {"NUMA", "numa_node", COL_TEXT},
	{"PCI", "pci", COL_TEXT},
};

/* PCIe: the link as trained against what it can do; below it flagged. */
static void pcie_group(FILE *f, json_object *links)
{
	if (!links || !json_object_is_type(links, json_type_array) || !json_object_array_length(links))
		return;
	fputs("<h4>PCIe links</h4><table class=\"list env-group\"><thead><tr><th>address</th>"
	      "<th>vendor:device</th><th>driver</th><th>used by</th><th>link</th>"
	      "<th>capability</th><th>note</th></tr></thead><tbody>",
	      f);
	for (size_t i = 0; i < json_object_array_length(links); i++) {
		json_object *l = json_object_array_get_idx(links, i);
		bool below = json_object_get_boolean(at(l, "below_capability"));
		json_object *over = at(l, "oversubscribed_by");
		fputs("<tr><td>", f);
		cell(f, at(l, "addr"), COL_TEXT);
		fputs("</td><td>", f);
		cell(f, at(l, "vendor"), COL_TEXT);
		fputs(":", f);
		cell(f, at(l, "device"), COL_TEXT);
		fputs("</td><td>", f);
		cell(f, at(l, "driver"), COL_TEXT);
		fputs("</td><td>", f);
		cell(f, at(l, "users"), COL_LIST);
		const char *names[2][2] = {{"speed_mts", "width"}, {"max_speed_mts", "max_width"}};
		for (int k = 0; k < 2; k++) {
			double mts = json_object_get_double(at(l, names[k][0]));
			int width = json_object_get_int(at(l, names[k][1]));
			fputs(k == 0 && below ? "</td><td class=\"bad\">" : "</td><td>", f);
			if (mts > 0 && width > 0)
				fprintf(f, "%.1f GT/s x%d", mts / 1000, width);
			else
				dash(f);
		}
		fputs("</td><td>", f);
		if (below)
			fputs("<strong class=\"bad\">below capability</strong> ", f);
		if (over && !json_object_is_type(over, json_type_null)) {
			fputs("<strong class=\"bad\">upstream narrower than the devices below: ", f);
			cell(f, over, COL_TEXT);
			fputs("</strong>", f);
		}
		fputs("</td></tr>", f);
	}
	fputs("</tbody></table>\n", f);
}

void report_env_groups(FILE *f, json_object *env)
{
	host_group(f, env);
	json_object *targets = targets_once(at(env, "targets"));
	rows_table(f, "Targets", targets, target_cols, sizeof(target_cols) / sizeof(target_cols[0]));
	json_object_put(targets);
	rows_table(f, "Disks", at(env, "inventory.block_devices"), disk_cols,
		   sizeof(disk_cols) / sizeof(disk_cols[0]));
	pcie_group(f, at(env, "inventory.pcie"));
	rows_table(f, "Network interfaces", at(env, "inventory.net"), nic_cols,
		   sizeof(nic_cols) / sizeof(nic_cols[0]));
}

/* json_cost.c - see json_cost.h. */
#include "report/json_cost.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define COST_OBJECT 800u
#define COST_MEMBER 130u
#define COST_VALUE 80u

uint64_t json_cost_estimate(const char *text, size_t len)
{
	uint64_t objects = 0, members = 0, values = 1;
	bool in_str = false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case '"': in_str = true; break;
		case '{': objects++; break;
		case ':': members++; break;
		case ',': values++; break;
		case '[': values++; break;
		default: break;
		}
	}
	return len + objects * COST_OBJECT + members * COST_MEMBER + values * COST_VALUE;
}

/* MemAvailable in bytes; 0 when unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kib = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kib << 10;
}

int json_cost_check(const char *text, size_t len, const char *file, struct ioc_err *err)
{
	uint64_t cost = json_cost_estimate(text, len);
	unsigned long long mb = (unsigned long long)(cost >> 20);
	if (cost > (uint64_t)len * JSON_COST_MULTIPLE + JSON_COST_FLOOR)
		return err_usage(err, E2BIG,
				 "%s: reading it would take about %llu MB, more than %u times its "
				 "%zu bytes (a document of tiny objects, not results)",
				 file, mb, JSON_COST_MULTIPLE, len);
	uint64_t avail = mem_available();
	if (avail && cost > avail)
		return err_set(err, ENOMEM,
			       "%s: reading it would take about %llu MB; %llu MB available",
			       file, mb, (unsigned long long)(avail >> 20));
	return 0;
}

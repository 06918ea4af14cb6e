/* explain.c - see explain.h. */
#include <stdio.h>

#include "model/explain.h"
#include "model/traffic.h"

char *mdl_fmt_rate(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.*f M", v >= 1e7 ? 1 : 2, v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.0f k", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static const char *bound_words(enum mdl_bound b)
{
	static const char *const words[MDL_B_NR] = {
		"the drives", "each drive's own link", "the RAID controller",
		"the controller's parity path (RAID 5/6 read-modify-write)",
		"the HBAs", "the PCIe link above the drives", "the host CPU",
	};
	return b < MDL_B_NR ? words[b] : "?";
}

char *mdl_explain(const struct mdl_config *c, const struct mdl_workload *w,
		  const struct mdl_answer *a, char *buf, size_t len)
{
	char rate[32];
	unsigned n = mdl_drives_of(c), sat = a->saturation_drives;

	mdl_fmt_rate(rate, sizeof(rate), w->random ? a->iops : a->mbps);
	int k = snprintf(buf, len, "bound by %s (%.0f %%): %s%s", bound_words(a->bound),
			 a->utilization * 100, rate, w->random ? " IOPS" : " MB/s");
	if (k < 0 || (size_t)k >= len)
		return buf;
	if (sat && sat < n)
		snprintf(buf + k, len - (size_t)k, " from %u drive%s on; drives %u-%u add capacity only",
			 sat, sat > 1 ? "s" : "", sat + 1, n);
	else if (sat && sat == n)
		snprintf(buf + k, len - (size_t)k, "; it saturates at %u drives, this count", sat);
	else if (sat)
		snprintf(buf + k, len - (size_t)k, "; it would saturate at %u drives", sat);
	else
		snprintf(buf + k, len - (size_t)k, "; it grows with the drive count");
	return buf;
}

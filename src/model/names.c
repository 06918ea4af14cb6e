/* names.c - the names of bounds and RAID levels (model.h). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "model/model.h"

static const char *const bound_names[MDL_B_NR] = {
	"drives", "drive-link", "controller", "parity", "hba", "pcie-link", "cpu",
};

const char *mdl_bound_name(enum mdl_bound b)
{
	return b < MDL_B_NR ? bound_names[b] : "?";
}

static const struct {
	const char *name;
	enum mdl_level level;
} levels[] = {
	{"JBOD", MDL_JBOD}, {"R0", MDL_R0},   {"R1", MDL_R1},   {"R5", MDL_R5},
	{"R6", MDL_R6},     {"R10", MDL_R10}, {"R50", MDL_R50}, {"R60", MDL_R60},
};

const char *mdl_level_name(enum mdl_level l)
{
	for (unsigned i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (levels[i].level == l)
			return levels[i].name;
	return "?";
}

/* "R5", "raid5", "RAID 5", "5"; "none" and "" are JBOD. */
int mdl_level_parse(const char *s, enum mdl_level *l)
{
	if (!*s || !strcasecmp(s, "none") || !strcasecmp(s, "jbod") ||
	    !strcasecmp(s, "pass-through") || !strcasecmp(s, "passthrough")) {
		*l = MDL_JBOD;
		return 0;
	}
	if (!strncasecmp(s, "raid", 4))
		s += 4;
	else if (*s == 'R' || *s == 'r')
		s++;
	while (*s == ' ' || *s == '-' || *s == '_')
		s++;
	for (unsigned i = 1; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(s, levels[i].name + 1)) {
			*l = levels[i].level;
			return 0;
		}
	return -EINVAL;
}

int mdl_rw_parse(const char *rw, double mix, bool *random, double *read_pct)
{
	static const struct {
		const char *name;
		bool random;
		int read; /* -1: the mix */
	} rws[] = {
		{"randread", true, 100}, {"randwrite", true, 0}, {"randrw", true, -1},
		{"read", false, 100},    {"write", false, 0},    {"rw", false, -1},
		{"readwrite", false, -1},
	};

	for (unsigned i = 0; rw && i < sizeof(rws) / sizeof(rws[0]); i++)
		if (!strcmp(rw, rws[i].name)) {
			*random = rws[i].random;
			*read_pct = rws[i].read < 0 ? mix : rws[i].read;
			return 0;
		}
	return -EINVAL;
}

/* def.c - parsing and checking a VD definition (see def.h). */
#define _GNU_SOURCE
#include "vd/def.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "util/file_id.h"

static const char *const level_names[] = {
	[VD_RAID0] = "raid0", [VD_RAID1] = "raid1", [VD_RAID5] = "raid5",
	[VD_RAID6] = "raid6", [VD_RAID10] = "raid10", [VD_JBOD] = "jbod",
	[VD_SPAN] = "span",
};

const char *vd_level_name(enum vd_level level)
{
	return level_names[level];
}

const char *vd_write_name(enum vd_write_policy w)
{
	return w == VD_WRITE_BACK ? "back" : w == VD_WRITE_BACK_BBU ? "back-bbu" : "through";
}

const char *vd_access_name(const struct vd_def *def)
{
	return def->blocked ? "blocked" : def->read_only ? "ro" : "rw";
}

unsigned vd_level_min_members(enum vd_level level)
{
	switch (level) {
	case VD_RAID0: case VD_JBOD: case VD_SPAN: return 1;
	case VD_RAID1: case VD_RAID10: return level == VD_RAID1 ? 2 : 4;
	case VD_RAID5: return 3;
	case VD_RAID6: return 4;
	}
	return 1;
}

unsigned vd_data_members(const struct vd_def *def)
{
	switch (def->level) {
	case VD_RAID1: return 1;
	case VD_RAID5: return def->nr_members - 1;
	case VD_RAID6: return def->nr_members - 2;
	case VD_RAID10: return def->nr_members / 2;
	default: return def->nr_members;
	}
}

unsigned vd_parity_members(const struct vd_def *def)
{
	return def->level == VD_RAID5 ? 1 : def->level == VD_RAID6 ? 2 : 0;
}

bool vd_survives(const struct vd_def *def, uint64_t mask)
{
	unsigned lost = (unsigned)__builtin_popcountll(mask);

	switch (def->level) {
	case VD_RAID0: case VD_JBOD: case VD_SPAN: return lost == 0;
	case VD_RAID1: return lost < def->nr_members;
	case VD_RAID5: return lost <= 1;
	case VD_RAID6: return lost <= 2;
	case VD_RAID10: /* one of each mirrored pair may go */
		for (unsigned i = 0; i + 1 < def->nr_members; i += 2)
			if (((mask >> i) & 3) == 3)
				return false;
		return true;
	}
	return false;
}

static int parse_level(const char *v, struct vd_def *def, struct ioc_err *err)
{
	for (unsigned i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		if (strcasecmp(v, level_names[i]) == 0) {
			def->level = (enum vd_level)i;
			return 0;
		}
	}
	if (strcasecmp(v, "concat") == 0) {
		def->level = VD_SPAN;
		return 0;
	}
	return err_usage(err, EINVAL,
			 "--vd: unknown level '%s'; accepted: raid0, raid1, raid5, raid6, raid10, jbod, span (concat)",
			 v);
}

static int parse_members(const char *v, struct vd_def *def, struct ioc_err *err)
{
	const char *p = v;

	def->nr_members = 0;
	while (*p) {
		size_t n = strcspn(p, ":");
		if (n == 0)
			return err_usage(err, EINVAL, "--vd: members=%s: empty path", v);
		if (def->nr_members == VD_MAX_MEMBERS)
			return err_usage(err, E2BIG, "--vd: more than %d members",
					 VD_MAX_MEMBERS);
		if (n >= VD_PATH_MAX)
			return err_usage(err, ENAMETOOLONG, "--vd: member path too long");
		memcpy(def->members[def->nr_members], p, n);
		def->members[def->nr_members++][n] = '\0';
		p += n;
		if (*p == ':' && *++p == '\0')
			return err_usage(err, EINVAL, "--vd: members=%s: empty path", v);
	}
	return 0;
}

/* failed= is a ':'-separated list of member numbers, checked later
 * against the member count (members= may come after it). */
static int parse_failed(const char *v, uint64_t *mask, struct ioc_err *err)
{
	char *end;
	const char *p = v;

	*mask = 0;
	if (!*v)
		return err_usage(err, EINVAL, "--vd: failed=: give member numbers, e.g. failed=1:3");
	while (*p) {
		unsigned long i = strtoul(p, &end, 10);
		if (end == p || (*end && *end != ':') || i >= VD_MAX_MEMBERS)
			return err_usage(err, EINVAL,
					 "--vd: failed=%s: not a list of member numbers (0-based, ':'-separated)",
					 v);
		*mask |= 1ull << i;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_pair(const char *key, const char *v, struct vd_def *def,
		      struct ioc_err *err)
{
	uint64_t n;
	int ret;

	if (strcmp(key, "strip") == 0 || strcmp(key, "stripe_unit") == 0)
		return units_parse_size("--vd strip", v, &def->strip, err);
	if (strcmp(key, "members") == 0)
		return parse_members(v, def, err);
	if (strcmp(key, "spans") == 0) {
		if ((ret = units_parse_uint("--vd spans", v, 1, VD_MAX_MEMBERS, &n, err)))
			return ret;
		def->spans = (unsigned)n;
		return 0;
	}
	if (strcmp(key, "failed") == 0)
		return parse_failed(v, &def->failed_mask, err);
	if (strcmp(key, "readahead") == 0 || strcmp(key, "ra") == 0) {
		def->readahead_adaptive = strcasecmp(v, "adaptive") == 0;
		if (strcasecmp(v, "ahead") == 0 || strcasecmp(v, "always") == 0 ||
		    def->readahead_adaptive)
			v = "on";
		if (strcasecmp(v, "none") == 0 || strcasecmp(v, "no") == 0)
			v = "off";
		return units_parse_bool("--vd readahead", v, &def->readahead, err);
	}
	if (strcmp(key, "write") == 0) {
		if (strcasecmp(v, "through") == 0 || strcasecmp(v, "wt") == 0)
			def->write = VD_WRITE_THROUGH;
		else if (strcasecmp(v, "back") == 0 || strcasecmp(v, "wb") == 0)
			def->write = VD_WRITE_BACK;
		else if (strcasecmp(v, "back-bbu") == 0 || strcasecmp(v, "wb-bbu") == 0)
			def->write = VD_WRITE_BACK_BBU;
		else
			return err_usage(err, EINVAL,
					 "--vd: write=%s: accepted: through, back, back-bbu", v);
		return 0;
	}
	if (strcmp(key, "cache") == 0) {
		if ((ret = units_parse_size("--vd cache", v, &def->cache, err)))
			return ret;
		if (def->cache < VD_CACHE_MIN || def->cache > VD_CACHE_MAX)
			return err_usage(err, ERANGE,
					 "--vd: cache=%s: out of range; accepted: "
					 "1m to 16g",
					 v);
		return 0;
	}
	if (strcmp(key, "access") == 0) {
		if (strcasecmp(v, "rw") == 0 || strcasecmp(v, "read-write") == 0)
			def->read_only = false;
		else if (strcasecmp(v, "ro") == 0 || strcasecmp(v, "read-only") == 0)
			def->read_only = true;
		else if (strcasecmp(v, "blocked") == 0)
			def->blocked = true;
		else
			return err_usage(err, EINVAL, "--vd: access=%s: accepted: rw, ro, blocked", v);
		return 0;
	}
	if (strcmp(key, "disk_cache") == 0) {
		bool on;
		if ((ret = units_parse_bool("--vd disk_cache", v, &on, err)))
			return ret;
		def->disk_cache_off = !on;
		return 0;
	}
	if (strcmp(key, "cache_file") == 0 || strcmp(key, "init_file") == 0) {
		char *to = key[0] == 'c' ? def->cache_file : def->init_file;
		if (!*v || strlen(v) >= VD_PATH_MAX)
			return err_usage(err, EINVAL, "--vd: %s=: give a path", key);
		strcpy(to, v);
		return 0;
	}
	if (strcmp(key, "require_init") == 0)
		return units_parse_bool("--vd require_init", v, &def->require_init, err);
	return err_usage(err, EINVAL,
			 "--vd: unknown key '%s'; accepted: strip, members, spans, failed, readahead, write, cache, cache_file, access, disk_cache, init_file, require_init",
			 key);
}

static int check_strip(const struct vd_def *def, struct ioc_err *err)
{
	uint64_t s = def->strip;

	if (s == 0)
		return err_usage(err, EINVAL, "--vd: give strip= (e.g. strip=64k)");
	if (s & (s - 1))
		return err_usage(err, EINVAL, "--vd: strip=%llu: not a power of two",
				 (unsigned long long)s);
	if (s < VD_STRIP_MIN || s > VD_STRIP_MAX)
		return err_usage(err, EINVAL,
				 "--vd: strip=%llu: outside 4k..1m", (unsigned long long)s);
	return 0;
}

static int check_members(const struct vd_def *def, struct ioc_err *err)
{
	const char *lv = vd_level_name(def->level);
	unsigned n = def->nr_members, min = vd_level_min_members(def->level);

	if (n == 0)
		return err_usage(err, EINVAL, "--vd: give members=PATH:PATH:...");
	if (n < min)
		return err_usage(err, EINVAL, "--vd: %s needs at least %u members, got %u",
				 lv, min, n);
	if (def->level == VD_RAID10) {
		if (n % 2)
			return err_usage(err, EINVAL,
					 "--vd: raid10 needs an even number of members (mirrored pairs), got %u", n);
		if ((n / 2) % def->spans)
			return err_usage(err, EINVAL,
					 "--vd: raid10 spans=%u: %u mirrored pairs do not split evenly into %u spans",
					 def->spans, n / 2, def->spans);
	} else if (def->spans != 1) {
		return err_usage(err, EINVAL, "--vd: spans= is for raid10 only");
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < i; k++)
			if (strcmp(def->members[i], def->members[k]) == 0)
				return err_usage(err, EINVAL,
						 "--vd: member %s is listed twice (members %u and %u)",
						 def->members[i], k, i);
	if (def->failed_mask >> n)
		return err_usage(err, EINVAL,
				 "--vd: failed= names member %u, but there are only %u members (numbered from 0)",
				 63u - (unsigned)__builtin_clzll(def->failed_mask), n);
	if (!vd_survives(def, def->failed_mask))
		return err_usage(err, EINVAL,
				 "--vd: failed=: %s cannot survive losing %d of its %u members%s",
				 lv, __builtin_popcountll(def->failed_mask), n,
				 def->level == VD_RAID10 ? " (both halves of a mirrored pair)" : "");
	return 0;
}

int vd_def_parse(const char *text, struct vd_def *def, struct ioc_err *err)
{
	char *copy = strdup(text ? text : "");
	int ret = 0;

	memset(def, 0, sizeof(*def));
	def->cache = VD_CACHE_DEFAULT;
	def->spans = 0;
	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	char *save = NULL, *tok = strtok_r(copy, ",", &save);
	if (!tok) {
		ret = err_usage(err, EINVAL, "--vd: empty; e.g. --vd=raid5,strip=64k,members=A:B:C");
		goto out;
	}
	if ((ret = parse_level(tok, def, err)))
		goto out;
	while (!ret && (tok = strtok_r(NULL, ",", &save))) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok) {
			ret = err_usage(err, EINVAL, "--vd: '%s': expected KEY=VALUE", tok);
			break;
		}
		*eq = '\0';
		ret = parse_pair(tok, eq + 1, def, err);
	}
	if (ret)
		goto out;
	if (!def->spans)
		def->spans = def->level == VD_RAID10 ? 1 : 1;
	if (vd_level_concat(def->level) && !def->strip)
		def->strip = 64 << 10; /* no striping: only the unit sizes are rounded to */
	if (def->level == VD_JBOD && (def->readahead || vd_write_back(def)))
		ret = err_usage(err, EINVAL,
				"--vd: jbod passes each member through (an HBA has no cache): "
				"readahead= and write=back are for RAID levels");
	if (!ret && (ret = check_strip(def, err)) == 0)
		ret = check_members(def, err);
out:
	free(copy);
	return ret;
}

/* The members of a jbod item (n of them), or 0 when item is not jbod. */
static unsigned jbod_members(const char *item)
{
	if (strncasecmp(item, "jbod,", 5) != 0)
		return 0;
	const char *m = strstr(item, ",members=");
	if (!m)
		return 1;
	unsigned n = 1;
	for (m += 9; *m && *m != ','; m++)
		n += *m == ':';
	return n;
}

unsigned vd_drives_count(const char *text)
{
	unsigned n = 0, lc = vd_list_count(text);
	char *one = malloc(strlen(text) + 1);
	for (unsigned i = 0; one && i < lc; i++) {
		unsigned j = vd_list_item(text, i, one, strlen(text) + 1) ? 0 : jbod_members(one);
		n += j ? j : 1;
	}
	free(one);
	return one ? n : lc;
}

/* Item `one` (a jbod of several members) with members= its m-th only. */
static int jbod_one(const char *one, unsigned m, char *out, size_t len)
{
	const char *k = strstr(one, ",members=") + 9, *end = strchr(k, ',');
	const char *p = k;
	for (unsigned i = 0; i < m; i++)
		p = strchr(p, ':') + 1;
	size_t plen = strcspn(p, ":,");
	int n = snprintf(out, len, "%.*s%.*s%s", (int)(k - one), one, (int)plen, p,
			 end ? end : "");
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

int vd_drives_item(const char *text, unsigned i, char *out, size_t len)
{
	size_t cap = strlen(text) + 1;
	char *one = malloc(cap);
	int ret = one ? 0 : -ENOMEM;
	for (unsigned d = 0, at = 0; !ret && d < vd_list_count(text); d++) {
		if ((ret = vd_list_item(text, d, one, cap)))
			break;
		unsigned n = jbod_members(one), span = n ? n : 1;
		if (i < at + span) {
			if (n > 1)
				ret = jbod_one(one, i - at, out, len);
			else
				ret = strlen(one) < len ? (strcpy(out, one), 0) : -E2BIG;
			free(one);
			return ret;
		}
		at += span;
	}
	free(one);
	return ret ? ret : -EINVAL;
}

unsigned vd_list_count(const char *text)
{
	unsigned n = 1;
	for (const char *p = text; *p; p++)
		n += *p == ';';
	return n;
}

int vd_list_item(const char *text, unsigned i, char *out, size_t len)
{
	const char *p = text;
	while (i--) {
		p = strchr(p, ';');
		if (!p)
			return -EINVAL;
		p++;
	}
	size_t n = strcspn(p, ";");
	if (n >= len)
		return -E2BIG;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

char *vd_def_format(const struct vd_def *def)
{
	size_t cap = 128 + (size_t)def->nr_members * (PATH_MAX + 1) + 4 * VD_MAX_MEMBERS;
	char *out = malloc(cap), real[PATH_MAX];
	size_t n;

	if (!out)
		return NULL;
	n = (size_t)snprintf(out, cap, "%s,strip=%llu,members=", vd_level_name(def->level),
			     (unsigned long long)def->strip);
	for (unsigned i = 0; i < def->nr_members; i++) {
		const char *p = realpath(def->members[i], real) ? real : def->members[i];
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ":" : "", p);
	}
	if (def->level == VD_RAID10)
		n += (size_t)snprintf(out + n, cap - n, ",spans=%u", def->spans);
	for (unsigned i = 0, first = 1; i < def->nr_members; i++)
		if (vd_member_failed(def, i)) {
			n += (size_t)snprintf(out + n, cap - n, "%s%u", first ? ",failed=" : ":", i);
			first = 0;
		}
	return out;
}

const char *vd_list_member(const char *text, const char *path)
{
	static char hit[VD_PATH_MAX];
	struct ioc_err ignored = {0};
	char one[4096];
	struct vd_def *def;

	if (!text[0] || !(def = malloc(sizeof(*def))))
		return NULL;
	hit[0] = '\0';
	for (unsigned i = 0; !hit[0] && i < vd_list_count(text); i++) {
		if (vd_list_item(text, i, one, sizeof(one)) || vd_def_parse(one, def, &ignored))
			continue;
		for (unsigned m = 0; !hit[0] && m < def->nr_members; m++)
			if (file_same(def->members[m], path))
				snprintf(hit, sizeof(hit), "%s", def->members[m]);
	}
	free(def);
	return hit[0] ? hit : NULL;
}

/* In def.c, below bbu.c and initmap.c: both files are named by the hash
 * of the layout this file formats. */
int vd_bbu_path(const struct vd_def *def, char *buf, size_t len)
{
	if (def->cache_file[0]) {
		if (strlen(def->cache_file) >= len)
			return -ENAMETOOLONG;
		strcpy(buf, def->cache_file);
		return 0;
	}
	struct vd_def d = *def;
	d.failed_mask = 0;
	char *text = vd_def_format(&d);
	if (!text)
		return -ENOMEM;
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (const char *p = text; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	free(text);
	snprintf(buf, len, "/dev/shm/iochar-vd-%016llx.bbu", (unsigned long long)h);
	return 0;
}

/* units.c - value parsers for sizes, times, integers, booleans, CPU lists.
 * See units.h.
 */
#define _GNU_SOURCE /* CPU_SET and friends */
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SIZE_ACCEPTED                                                          \
	"a whole number of bytes with an optional suffix k, m, g, t, p "       \
	"(powers of 1024), e.g. 512, 4k, 1m, 8g"
#define TIME_ACCEPTED                                                          \
	"a whole number with an optional suffix ns, us, ms, s, m, h, d "           \
	"(no suffix = seconds), e.g. 30, 500ms, 10m"
#define BOOL_ACCEPTED "1/0, true/false, yes/no, on/off"
#define CPUS_ACCEPTED "a CPU list such as 0-3,6,8-9"

/* One message shape for every parser: "opt=value: problem; accepted: ...". */
static int bad(struct ioc_err *err, int code, const char *opt, const char *s,
	       const char *problem, const char *accepted)
{
	return err_usage(err, code, "%s=%s: %s; accepted: %s", opt, s, problem,
			 accepted);
}

/* The leading whole number of s, decimal (or hex after 0x when allow_hex);
 * *end points after it. -EINVAL when s does not start with a digit (this
 * rejects "", "-1", "+1" and " 1"), -ERANGE past UINT64_MAX. */
static int parse_leading(const char *s, bool allow_hex, uint64_t *v,
			 const char **end)
{
	int base = 10;
	char *e;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
		base = 16;
	}
	errno = 0;
	unsigned long long x = strtoull(s, &e, base);
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	*end = e;
	return 0;
}

/* Why s is not a number, for the message. */
static const char *number_problem(const char *s, const char *what)
{
	if (s[0] == '\0')
		return "empty value";
	if (s[0] == '-')
		return "negative values are not accepted";
	return what;
}

/* Binary shift of a size suffix ("", "b", "k", "kb", "kib", ...), or -1. */
/* fio reads a size up to its suffix and ignores whatever follows
 * ("65536)": its own t/strided.py passes that). iochar ignores the rest
 * only from a closing bracket on: after other marks (1.5m, 4k-8k, 4k,8k,
 * 50%) the value most likely meant something else, and an error says so. */
static bool ignored_tail(char c)
{
	return c == ')' || c == ']' || c == '}';
}

static int size_shift(const char *full)
{
	static const char letters[] = "kmgtp";
	char suf[8];
	const char *l;
	size_t n = 0;

	while (full[n] && !ignored_tail(full[n]))
		n++;
	if (n >= sizeof(suf))
		return -1;
	memcpy(suf, full, n);
	suf[n] = '\0';
	if (suf[0] == '\0' || strcasecmp(suf, "b") == 0)
		return 0;
	l = strchr(letters, tolower((unsigned char)suf[0]));
	if (!l)
		return -1;
	if (suf[1] == '\0' || strcasecmp(suf + 1, "b") == 0 ||
	    strcasecmp(suf + 1, "ib") == 0)
		return 10 * (int)(l - letters + 1);
	return -1;
}

int units_parse_size(const char *opt, const char *s, uint64_t *out,
		     struct ioc_err *err)
{
	const char *end;
	uint64_t v;
	int shift, ret;

	ret = parse_leading(s, true, &v, &end);
	if (ret == -ERANGE)
		return bad(err, ERANGE, opt, s, "too large", SIZE_ACCEPTED);
	if (ret)
		return bad(err, EINVAL, opt, s, number_problem(s, "not a size"),
			   SIZE_ACCEPTED);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		shift = *end ? -1 : 0; /* hex takes no suffix: "b" is a digit */
	else
		shift = size_shift(end);
	if (shift < 0)
		return bad(err, EINVAL, opt, s, "not a size", SIZE_ACCEPTED);
	if (shift && v > (UINT64_MAX >> shift))
		return bad(err, ERANGE, opt, s, "too large", SIZE_ACCEPTED);
	*out = v << shift;
	return 0;
}

struct time_unit {
	const char *suffix;
	uint64_t ns;
};

/* clang-format off */
static const struct time_unit time_units[] = {
	{ "", 1000000000ull },	  { "s", 1000000000ull },
	{ "sec", 1000000000ull }, { "ns", 1ull },
	{ "nsec", 1ull },	  { "us", 1000ull },
	{ "usec", 1000ull },	  { "ms", 1000000ull },
	{ "msec", 1000000ull },	  { "m", 60000000000ull },
	{ "min", 60000000000ull }, { "h", 3600000000000ull },
	{ "d", 86400000000000ull },
};
/* clang-format on */

int units_parse_time(const char *opt, const char *s, uint64_t *out_ns,
		     struct ioc_err *err)
{
	const char *end;
	uint64_t v;
	int ret;

	ret = parse_leading(s, false, &v, &end);
	if (ret == -ERANGE)
		return bad(err, ERANGE, opt, s, "too large", TIME_ACCEPTED);
	if (ret)
		return bad(err, EINVAL, opt, s, number_problem(s, "not a time"),
			   TIME_ACCEPTED);
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]);
	     i++) {
		if (strcasecmp(end, time_units[i].suffix) != 0)
			continue;
		if (v > UINT64_MAX / time_units[i].ns)
			return bad(err, ERANGE, opt, s, "too large",
				   TIME_ACCEPTED);
		*out_ns = v * time_units[i].ns;
		return 0;
	}
	return bad(err, EINVAL, opt, s, "not a time", TIME_ACCEPTED);
}

int units_parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *out, struct ioc_err *err)
{
	char accepted[96];
	const char *end;
	uint64_t v;
	int ret;

	snprintf(accepted, sizeof(accepted),
		 "a whole number %" PRIu64 "..%" PRIu64, min, max);
	ret = parse_leading(s, true, &v, &end);
	if (ret == -ERANGE ||
	    (ret == 0 && *end == '\0' && (v < min || v > max)))
		return bad(err, ERANGE, opt, s, "out of range", accepted);
	if (ret || *end != '\0')
		return bad(err, EINVAL, opt, s,
			   number_problem(s, "not a whole number"), accepted);
	*out = v;
	return 0;
}

int units_parse_bool(const char *opt, const char *s, bool *out,
		     struct ioc_err *err)
{
	static const char *const yes[] = {"1", "true", "yes", "on"};
	static const char *const no[] = {"0", "false", "no", "off"};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return bad(err, EINVAL, opt, s, s[0] ? "not a boolean" : "empty value",
		   BOOL_ACCEPTED);
}

int units_parse_percent(const char *opt, const char *s, unsigned *out,
			struct ioc_err *err)
{
	static const char accepted[] = "a whole number 0..100, e.g. 70 or 70%";
	const char *end;
	uint64_t v;
	int ret;

	ret = parse_leading(s, false, &v, &end);
	if (ret == 0 && *end == '%')
		end++;
	if (ret == -ERANGE || (ret == 0 && *end == '\0' && v > 100))
		return bad(err, ERANGE, opt, s, "out of range", accepted);
	if (ret || *end != '\0')
		return bad(err, EINVAL, opt, s,
			   number_problem(s, "not a percentage"), accepted);
	*out = (unsigned)v;
	return 0;
}

/* Add lo..hi to set, checking each CPU against CPU_SETSIZE and online. */
static int cpu_range_add(const char *opt, const char *s, uint64_t lo,
			 uint64_t hi, const cpu_set_t *online, cpu_set_t *set,
			 struct ioc_err *err)
{
	char problem[96], list[256];

	if (hi >= CPU_SETSIZE) {
		snprintf(problem, sizeof(problem),
			 "CPU %" PRIu64 " is beyond the largest supported (%d)",
			 hi, CPU_SETSIZE - 1);
		return bad(err, ERANGE, opt, s, problem, CPUS_ACCEPTED);
	}
	for (uint64_t c = lo; c <= hi; c++) {
		if (online && !CPU_ISSET((size_t)c, online)) {
			snprintf(problem, sizeof(problem),
				 "CPU %" PRIu64 " is not online", c);
			units_format_cpus(list, sizeof(list), online);
			return err_usage(
			    err, ERANGE,
			    "%s=%s: %s; accepted: CPUs online now (%s)", opt, s,
			    problem, list);
		}
		CPU_SET((size_t)c, set);
	}
	return 0;
}

int units_parse_cpu_list(const char *opt, const char *s,
			 const cpu_set_t *online, cpu_set_t *out,
			 struct ioc_err *err)
{
	const char *p = s, *end;
	uint64_t lo, hi;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	for (;;) {
		if (parse_leading(p, false, &lo, &end))
			goto junk;
		hi = lo;
		if (*end == '-' && parse_leading(end + 1, false, &hi, &end))
			goto junk;
		if (hi < lo)
			return bad(err, EINVAL, opt, s,
				   "a range runs backwards", CPUS_ACCEPTED);
		ret = cpu_range_add(opt, s, lo, hi, online, &set, err);
		if (ret)
			return ret;
		if (*end == '\0')
			break;
		if (*end != ',')
			goto junk;
		p = end + 1;
	}
	*out = set;
	return 0;
junk:
	return bad(err, EINVAL, opt, s, number_problem(s, "not a CPU list"),
		   CPUS_ACCEPTED);
}

int units_online_cpus(cpu_set_t *out)
{
	char line[4096];
	FILE *f;
	int ret = 0;

	f = fopen("/sys/devices/system/cpu/online", "re");
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		ret = -EIO;
		goto out;
	}
	line[strcspn(line, "\n")] = '\0';
	ret = units_parse_cpu_list("online", line, NULL, out, NULL);
out:
	fclose(f);
	return ret;
}

int units_parse_cpus(const char *opt, const char *s, cpu_set_t *out,
		     struct ioc_err *err)
{
	cpu_set_t online;

	if (units_online_cpus(&online) < 0)
		return units_parse_cpu_list(opt, s, NULL, out, err);
	return units_parse_cpu_list(opt, s, &online, out, err);
}

char *units_format_size(char *buf, size_t len, uint64_t v)
{
	static const char suffix[] = " kmgtp";
	int i = 0;

	while (v && i < 5 && (v & 1023) == 0) {
		v >>= 10;
		i++;
	}
	if (i)
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[i]);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

char *units_format_time(char *buf, size_t len, uint64_t ns)
{
	static const struct time_unit units[] = {
	    {"d", 86400000000000ull}, {"h", 3600000000000ull},
	    {"m", 60000000000ull},    {"s", 1000000000ull},
	    {"ms", 1000000ull},	      {"us", 1000ull},
	};

	for (size_t i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns,
				 units[i].suffix);
			return buf;
		}
	}
	snprintf(buf, len, ns ? "%" PRIu64 "ns" : "0", ns);
	return buf;
}

char *units_format_cpus(char *buf, size_t len, const cpu_set_t *set)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int last = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		int n = last > c ? snprintf(buf + used, len - used, "%s%d-%d",
					    used ? "," : "", c, last)
				 : snprintf(buf + used, len - used, "%s%d",
					    used ? "," : "", c);
		if (n < 0 || (size_t)n >= len - used)
			break; /* truncated: keep what fit */
		used += (size_t)n;
		c = last;
	}
	return buf;
}

/* debug_log.c - fio's --debug traces in fio's line shape (debug_log.h). */
#define _GNU_SOURCE
#include "util/debug_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

const char *const debug_log_names[] = {
	"process",  "file", "io",	   "mem",	   "blktrace",
	"verify",   "random", "parse",	   "diskutil",	   "job",
	"mutex",    "profile", "time",	   "net",	   "rate",
	"compress", "steadystate", "helperthread", "zbd", "all",
	NULL,
};

static atomic_uint traced; /* a bit per enum debug_type */

void debug_log_enable(enum debug_type t)
{
	atomic_fetch_or(&traced, t >= DEBUG_NR ? (1u << DEBUG_NR) - 1 : 1u << t);
}

bool debug_log_on(enum debug_type t)
{
	return t < DEBUG_NR && (atomic_load(&traced) & (1u << t));
}

void debug_log(enum debug_type t, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!debug_log_on(t))
		return;
	/* fio's dprint: "%-8s " then "%-5u " (its gettid) */
	n = snprintf(line, sizeof(line), "%-8s %-5d ", debug_log_names[t],
		     (int)gettid());
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	flockfile(stdout);
	fputs(line, stdout);
	fputc('\n', stdout);
	funlockfile(stdout);
}

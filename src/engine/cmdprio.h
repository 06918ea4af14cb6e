/* cmdprio.h - fio's per-I/O priorities (fio's engines/cmdprio.c):
 * cmdprio_percentage of the I/Os get cmdprio_class/cmdprio, or, with
 * cmdprio_bssplit, shares of the I/Os of each size get their own. An
 * engine that has them embeds struct cmdprio_opts in its options (all
 * zero: none) and asks cmdprio_pick for each I/O.
 */
#ifndef IOCHAR_ENGINE_CMDPRIO_H
#define IOCHAR_ENGINE_CMDPRIO_H

#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "base/option.h"
#include "util/rng.h"

#define CMDPRIO_BSS_MAX 3 /* entries with a share, per direction */

struct cmdprio_bss {
	uint32_t bs;          /* 0: unused */
	uint8_t perc;
	uint8_t own;          /* prio below given (bs/perc/class/level) */
	uint16_t prio;
};

struct cmdprio_opts {
	unsigned pct, cls, level; /* cmdprio_percentage, _class, cmdprio */
	struct cmdprio_bss bss[DIR_COUNT][CMDPRIO_BSS_MAX];
};

/* The four rows of an engine whose options struct T holds a struct
 * cmdprio_opts named F, for its engine_ops.options table. */
#define CMDPRIO_ROWS(T, F)                                                     \
	{                                                                      \
		.name = "cmdprio_percentage",                                  \
		.type = OPT_PERCENT, .scope = OPT_SCOPE_ENGINE,                \
		.group = OPT_GROUP_ENGINE,                                     \
		.off = offsetof(T, F.pct), .size = sizeof(unsigned),           \
		.def = "0",                                                    \
		.help = "this % of I/Os (either way) carry cmdprio_class and " \
			"cmdprio as their own priority (as fio)",              \
		.fio = OPT_COMPAT_DIFFERENT,                                   \
		.compat = "libaio and io_uring; one value for both "           \
			  "directions (fio: R,W)",                             \
	},                                                                     \
	{                                                                      \
		.name = "cmdprio_class",                                       \
		.type = OPT_UINT, .scope = OPT_SCOPE_ENGINE,                   \
		.group = OPT_GROUP_ENGINE,                                     \
		.off = offsetof(T, F.cls), .size = sizeof(unsigned),           \
		.max = 3, .def = "0",                                          \
		.help = "cmdprio's class: 1 real-time, 2 best-effort (0: as "  \
			"2, fio), 3 idle",                                     \
	},                                                                     \
	{                                                                      \
		.name = "cmdprio",                                             \
		.type = OPT_UINT, .scope = OPT_SCOPE_ENGINE,                   \
		.group = OPT_GROUP_ENGINE,                                     \
		.off = offsetof(T, F.level), .size = sizeof(unsigned),         \
		.max = 7, .def = "0",                                          \
		.help = "cmdprio's level, 0 (highest) to 7",                   \
	},                                                                     \
	{                                                                      \
		.name = "cmdprio_bssplit",                                     \
		.type = OPT_CUSTOM, .scope = OPT_SCOPE_ENGINE,                 \
		.group = OPT_GROUP_ENGINE,                                     \
		.off = offsetof(T, F.bss), .size = sizeof(((T *)0)->F.bss),    \
		.parse = cmdprio_parse_bssplit, .show = cmdprio_show_bssplit,  \
		.arg = "BS/PCT[/CLASS/LEVEL]:...[,...]",                       \
		.help = "of the I/Os of size BS, PCT % get cmdprio_class and " \
			"cmdprio (or CLASS, LEVEL); ',': reads', writes'",     \
		.fio = OPT_COMPAT_DIFFERENT,                                   \
		.compat = "libaio and io_uring; at most 3 entries with a "     \
			  "share per direction",                               \
	}

/* The priority value (class << 13 | level) an I/O of len bytes in
 * direction d gets under o, drawn from r, or -1: its job's own. */
int cmdprio_pick(const struct cmdprio_opts *o, enum io_dir d, uint64_t len,
		 struct rng *r);

/* Does o give any I/O a priority of its own? */
bool cmdprio_on(const struct cmdprio_opts *o);

/* The priorities o gives I/Os of direction d, each once, in fio's
 * order (cmdprio_percentage's, or cmdprio_bssplit's entries'), into
 * out[0..max); how many. */
unsigned cmdprio_prios(const struct cmdprio_opts *o, enum io_dir d, unsigned *out,
		       unsigned max);

struct engine_ops;

/* The cmdprio options of engine e in a job's engine_opts (where e's
 * cmdprio_percentage row puts them), or NULL when e has none. */
const struct cmdprio_opts *cmdprio_of(const struct engine_ops *e, const void *engine_opts);

/* cmdprio_bssplit=BS/PCT[/CLASS/LEVEL]:...[,...] (reads', writes'; one
 * list: both) into the row's bss field; an opt_parse_fn. */
int cmdprio_parse_bssplit(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err);

/* The row's bss field as text; an opt_show_fn. */
int cmdprio_show_bssplit(const void *obj, const struct option_def *o, FILE *f);

#endif

/* plan.h - a characterization plan: steps expanded from an INI file in
 * the shape of a fio job file, or from one of the built-in plans.
 *
 *     [global]
 *     filename=/dev/sdb:/dev/sdc
 *     latency_limit=2ms
 *     mode=search
 *     [random]
 *     rw=randrw
 *     bs=4k,8k                ; a list: one step per value
 *     rwmixread=100,0,70,50   ; cross product: 2 x 4 = 8 steps
 *
 * Any workload key of the option table may take a ','-separated list
 * (except filename, whose separator is ':', and cpus_allowed, whose value
 * has commas of its own); a section expands to the cross product of its
 * lists, in the order the keys appear. Plan keys (mode, targets,
 * latency_limit, ...) take one value each, except `points`.
 */
#ifndef IOCHAR_CHARZ_PLAN_H
#define IOCHAR_CHARZ_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "charz/plan_step.h"
#include "base/job.h"
#include "util/err.h"

struct plan {
	char name[64];             /* file name without directory, or the built-in's */
	char *source;              /* the plan's full text, for the results; owned */
	struct plan_step *steps;   /* owned */
	unsigned nr_steps;
};

/* One built-in plan: its name, one line of description, and its text. */
struct plan_builtin {
	const char *name;
	const char *summary;
	const char *text;
};

/* NULL-terminated table of the built-in plans (plan_builtin.c). */
extern const struct plan_builtin plan_builtins[];

/* Parse plan text; `origin` names it in messages ("my.ini", or
 * "plan whitepaper"). overrides (may be NULL, with nr 0) are "key=value"
 * strings from the command line applied to every step after the file's own
 * values (they may be lists too). Returns 0 with *out filled (release with
 * plan_free), or -errno with "ORIGIN:LINE: key: what is wrong" in err
 * (err->usage set): unknown key, bad value, a list where one value is
 * required, a limit without a unit, an empty matrix (no step), more than
 * PLAN_MAX_STEPS steps. */
int plan_parse(const char *text, const char *origin,
	       const char *const *overrides, unsigned nr_overrides,
	       struct plan *out, struct ioc_err *err);

/* plan_parse of len bytes of text, which may hold NUL bytes: refused at
 * their line ("ORIGIN:LINE: NUL byte at column N; ..."), as a job file's
 * (util/ini.h), never taken as the text's end. */
int plan_parse_n(const char *text, size_t len, const char *origin,
		 const char *const *overrides, unsigned nr_overrides,
		 struct plan *out, struct ioc_err *err);

/* Read the file at path, or the built-in named path when no such file
 * exists and the name is a built-in's, and parse it as plan_parse does. */
int plan_load(const char *path, const char *const *overrides,
	      unsigned nr_overrides, struct plan *out, struct ioc_err *err);

void plan_free(struct plan *p);

#endif

/* plan_parse.h - the plan parser's state, shared by plan.c (reading
 * entries and sections) and plan_expand.c (sections into steps). Private
 * to charz/plan*.c; plan.h is the API. */
#ifndef IOCHAR_CHARZ_PLAN_PARSE_H
#define IOCHAR_CHARZ_PLAN_PARSE_H

#include "charz/plan_keys.h"

struct plan;

/* ---- entries: one key=value each, and ordered maps of them ---- */

struct entry {
	const struct option_def *row; /* a workload option, or NULL */
	const struct option_def *pk;  /* a plan key, or NULL */
	struct plan_list vals;	      /* one step per element */
	unsigned line;		      /* 0: from the command line */
};

/* Settings of a section in the order their keys first appeared; the
 * entries belong to the parser. */
struct keymap {
	struct entry **e;
	unsigned nr, cap;
};

/* ---- the parser ---- */

struct section {
	char name[JOB_NAME_MAX];
	unsigned line;
	struct keymap keys;
	bool is_wl;          /* named in some step's workloads=: not a step */
};

enum where {
	IN_NOTHING, /* before the first [header] */
	IN_GLOBAL,
	IN_STEP,
};

struct parser {
	const char *origin;
	struct plan_step defaults; /* what every step starts from; no memory */
	struct keymap global;	   /* what the next section starts from */
	struct section *secs;
	unsigned nr_secs, cap_secs;
	enum where where;
	struct entry **all; /* every entry made; owned */
	unsigned nr_all, cap_all;
};
/* The key an entry was written as (a plan key's or an option row's name). */
const char *plan_entry_key(const struct entry *e);

/* Apply value v of e (NULL: a bare key) to st. 0 or -errno. */
int plan_entry_apply(struct plan_step *st, const struct entry *e,
		     const char *v, struct ioc_err *err);

/* Prefix err with where line (0: the command line) of p's input is. */
void plan_prefix_origin(const struct parser *p, unsigned line,
			struct ioc_err *err);

/* Expand p's sections (every file line and override read) into out's
 * steps; text becomes out->source. 0 or -errno; out is the caller's to
 * plan_free, also on failure. */
int plan_build(const struct parser *p, const char *text, struct plan *out,
	       struct ioc_err *err);

/* The last path component of path, cut to fit name[len] whole UTF-8
 * characters. */
void plan_set_name(char *name, size_t len, const char *path);

/* Free a step's job and its workloads. */
void plan_step_free(struct plan_step *st);

#endif

/* plan_keys.h - the plan keys (mode, targets, latency_limit, ...): their
 * rows, their value parsers and the ','-lists both they and workload
 * options are split into. Private to charz/plan*.c; plan.h is the API. */
#ifndef IOCHAR_CHARZ_PLAN_KEYS_H
#define IOCHAR_CHARZ_PLAN_KEYS_H

#include <stdbool.h>

#include "base/option.h"
#include "charz/plan_step.h"
#include "util/err.h"

/* A value split into its elements; a bare key is one NULL element. */
struct plan_list {
	char *buf;	/* the elements, NUL-separated; owned */
	const char **v; /* nr pointers into buf; owned */
	unsigned nr;
};

void plan_list_free(struct plan_list *l);

/* Split value at ',' (split false: keep it whole) into l, trimming each
 * element; value NULL (a bare key) is one NULL element. An empty element
 * is a usage error naming key. 0 or -errno; l is the caller's to free. */
int plan_list_make(struct plan_list *l, const char *key, const char *value,
		   bool split, struct ioc_err *err);

/* The plan key row named key, or NULL. */
const struct option_def *plan_key_find(const char *key);

/* st with every default: the option table's for the workload, the plan
 * keys' own for the rest. st->job's memory is the caller's. */
void plan_step_defaults(struct plan_step *st);

/* The usage error for key, neither a workload option nor a plan key,
 * listing the plan keys. Returns the -errno err holds. */
int plan_unknown_key(const char *key, struct ioc_err *err);

#endif

/* jobfile_expand.h - what fio substitutes in a job file's values before
 * parsing them: ${VAR} from the environment (an unset variable is the empty
 * string, as fio's), the reserved keywords $pagesize, $mb_memory, $ncpus,
 * and, when a keyword was replaced and the value holds + - * or /, the
 * integer arithmetic fio has bc compute ("size=8*$mb_memory").
 * The command line gets none of it, as in fio (the shell expands there).
 */
#ifndef IOCHAR_CLI_JOBFILE_EXPAND_H
#define IOCHAR_CLI_JOBFILE_EXPAND_H

#include <stddef.h>

#include "util/err.h"

/* What a job file's values may hold after substitution, all of them
 * together: as much as a job file itself may be (util/ini.h). A value is a
 * few bytes of text naming a variable that may be large, so without a cap
 * 8,000 references to a 120 kB variable took 1.9 GB. */
#define JOBFILE_EXPAND_MAX (16u << 20)

/* Expand value (not modified) into *out, which the caller frees (free());
 * *out is a copy even when nothing was substituted. key names the option
 * in messages. *budget is what the file's values may still hold (start
 * at JOBFILE_EXPAND_MAX): the result's length is taken from it. 0,
 * -ENOMEM, -E2BIG (usage) when the result would pass *budget, or -EINVAL
 * (usage) when the arithmetic of a keyword's value does not compute
 * ("size=$mb_memory*2m": bc refuses it, and fio with it). */
int jobfile_expand(const char *key, const char *value, size_t *budget,
		   char **out, struct ioc_err *err);

/* Integer arithmetic as bc computes it at scale 0: + - * / %, unary -,
 * parentheses, whitespace; '/' truncates toward zero. 0 with *v, or
 * -EINVAL (bad syntax, division by zero) or -ERANGE (past int64),
 * without a message. */
int jobfile_arith(const char *s, long long *v);

#endif

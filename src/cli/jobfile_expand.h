/* jobfile_expand.h - what fio substitutes in a job file's values before
 * parsing them: ${VAR} from the environment (an unset variable is the empty
 * string, as fio's), the reserved keywords $pagesize, $mb_memory, $ncpus,
 * and, when a keyword was replaced and the value holds + - * or /, the
 * integer arithmetic fio has bc compute ("size=8*$mb_memory").
 * The command line gets none of it, as in fio (the shell expands there).
 */
#ifndef IOCHAR_CLI_JOBFILE_EXPAND_H
#define IOCHAR_CLI_JOBFILE_EXPAND_H

#include "util/err.h"

/* Expand value (not modified) into *out, which the caller frees (free());
 * *out is a copy even when nothing was substituted. key names the option
 * in messages. 0, -ENOMEM, or -EINVAL (usage) when the arithmetic of a
 * keyword's value does not compute ("size=$mb_memory*2m": bc refuses it,
 * and fio with it). */
int jobfile_expand(const char *key, const char *value, char **out,
		   struct ioc_err *err);

/* Integer arithmetic as bc computes it at scale 0: + - * / %, unary -,
 * parentheses, whitespace; '/' truncates toward zero. 0 with *v, or
 * -EINVAL (bad syntax, division by zero) or -ERANGE (past int64),
 * without a message. */
int jobfile_arith(const char *s, long long *v);

#endif

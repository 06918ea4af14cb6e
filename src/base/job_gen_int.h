/* job_gen_int.h - what job_gen.c and job_split.c share: splitting a
 * value into pieces and a size piece's checks. Private to src/base. */
#ifndef IOCHAR_BASE_JOB_GEN_INT_H
#define IOCHAR_BASE_JOB_GEN_INT_H

#include <stdint.h>

#include "base/job.h"
#include "base/option.h"
#include "util/err.h"

#define VAL_MAX 256 /* longest piece of a value */

/* Piece i of v split at sep into out (at most VAL_MAX - 1 bytes); the
 * number of pieces, or -1 when one is too long. */
int job_gen_piece(const char *v, char sep, int i, char out[VAL_MAX]);

/* A size piece of option o: 1 (0 for blockalign) up to 1g. */
int job_gen_size_piece(const struct option_def *o, const char *p,
		       uint64_t *out, struct ioc_err *err);

/* The kinds of split lists. */
enum split_kind { SPLIT_BS, SPLIT_ZONED, SPLIT_ZONED_ABS };

/* "E:E:..[,E:E:..]" into out[DIR_COUNT]; one list serves both. */
int job_split_parse(const struct option_def *o, enum split_kind k,
		    const char *v, struct job_split out[DIR_COUNT],
		    struct ioc_err *err);

#endif

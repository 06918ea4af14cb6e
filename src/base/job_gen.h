/* job_gen.h - the parse, show and JSON functions of the generator's
 * option rows (base/job_rows.c): fio's per-direction values ("R,W",
 * "R,W,T": the trim value is accepted and unused), bsrange, bssplit,
 * rw modifiers (randread:8, write:4k), size/offset as percentages and
 * the random distributions. Every parse fills the job's fields only on
 * success and names the option and the culprit on failure.
 */
#ifndef IOCHAR_BASE_JOB_GEN_H
#define IOCHAR_BASE_JOB_GEN_H

#include "base/job.h"
#include "base/option.h"

/* bs=R[,W[,T]] (spec->bs: the read size; bs_dir: each direction's). */
int job_gen_parse_bs(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err);
int job_gen_show_bs(const void *obj, const struct option_def *o, FILE *f);
int job_gen_check_bs(const void *obj, const struct option_def *o,
		     struct ioc_err *err);
void job_gen_emit_bs(const void *obj, const struct option_def *o, struct jw *w);

/* rw=MODE[:N | :SIZE]: N I/Os per random offset, or a SIZE hole. */
int job_gen_parse_rw(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err);
int job_gen_show_rw(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_rw(const void *obj, const struct option_def *o, struct jw *w);

/* size= and offset=: bytes, or N% (of the target, after offset for size). */
int job_gen_parse_size(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err);
int job_gen_show_size(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_size(const void *obj, const struct option_def *o,
		       struct jw *w);

/* bsrange=a-b[,c-d], blockalign=R[,W], bssplit=S/P:S/P[,S/P:...],
 * percentage_random=R[,W]. */
int job_gen_parse_bsrange(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err);
int job_gen_show_bsrange(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_bsrange(const void *obj, const struct option_def *o,
			  struct jw *w);
int job_gen_parse_pair(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err);
int job_gen_show_pair(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_pair(const void *obj, const struct option_def *o,
		       struct jw *w);
int job_gen_parse_bssplit(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err);
int job_gen_show_split(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_split(const void *obj, const struct option_def *o,
			struct jw *w);

/* random_distribution=random|zipf:T|pareto:H|normal:S|zoned:A/B:..
 * |zoned_abs:A/SIZE:.. (per direction with ','). */
int job_gen_parse_dist(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err);
int job_gen_show_dist(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_dist(const void *obj, const struct option_def *o,
		       struct jw *w);
int job_gen_check_dist(const void *obj, const struct option_def *o,
		       struct ioc_err *err);

/* Make spec's I/Os all of spec->bs, sequential without holes, over the
 * whole region once (a preconditioning fill): clears bs=R,W's write size,
 * bsrange, bssplit, blockalign, rw=MODE:N/:SIZE, io_size, number_ios and
 * percentage_random. */
void job_gen_plain(struct job_spec *spec);

/* A boolean stored inverted, so that a zero spec holds the default
 * (randrepeat=1 is randrepeat_off false). */
int job_gen_parse_not(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err);
int job_gen_show_not(const void *obj, const struct option_def *o, FILE *f);
void job_gen_emit_not(const void *obj, const struct option_def *o,
		      struct jw *w);

#endif

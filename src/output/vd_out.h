/* vd_out.h - the VD part of a run's output (docs/output.md, "Virtual
 * drives"): per VD job its definition, host I/Os, amplification, row
 * write paths and per-member figures. The emitters are private to
 * src/output/; vd_out_strings gives the same figures to a plan's steps. */
#ifndef IOCHAR_OUTPUT_VD_OUT_H
#define IOCHAR_OUTPUT_VD_OUT_H

#include <stdio.h>

#include "stats/result.h"
#include "base/json_writer.h"

/* "vd": [...] in the current object; nothing when no job used a VD. */
int json_emit_vds(struct jw *w, const struct run_result *r);

/* Text lines for job j's VD, if it has one. */
int text_emit_vd(FILE *f, const struct run_result *r, unsigned j);

/* r's VD figures for a plan step's point, as a run writes them: *json the
 * "vd" array's text (compact JSON), *text every VD job's text lines, *amp
 * member I/Os per host I/O over every VD, and job_amp[j] (r->nr_jobs
 * entries, the caller's; may be NULL) job j's own (0 for a job on no VD).
 * All NULL / 0 when no job used a VD. The strings are malloc'd, the
 * caller's. 0 or -errno (then nothing is returned). */
int vd_out_strings(const struct run_result *r, char **json, char **text, double *amp,
		   double *job_amp);

#endif

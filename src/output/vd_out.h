/* vd_out.h - the VD part of a run's output (docs/output.md, "Virtual
 * drives"): per VD job its definition, host I/Os, amplification, row
 * write paths and per-member figures. Private to src/output/. */
#ifndef IOCHAR_OUTPUT_VD_OUT_H
#define IOCHAR_OUTPUT_VD_OUT_H

#include <stdio.h>

#include "core/result.h"
#include "output/json_writer.h"

/* "vd": [...] in the current object; nothing when no job used a VD. */
int json_emit_vds(struct jw *w, const struct run_result *r);

/* Text lines for job j's VD, if it has one. */
int text_emit_vd(FILE *f, const struct run_result *r, unsigned j);

#endif

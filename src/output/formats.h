/* formats.h - the emitters behind output_write; private to src/output/.
 *
 * Each writes the whole of r to f and returns 0, -ENOMEM or -EIO. They do
 * not flush f; output_write does.
 */
#ifndef IOCHAR_OUTPUT_FORMATS_H
#define IOCHAR_OUTPUT_FORMATS_H

#include <stdio.h>

#include "stats/result.h"

int output_text_write(const struct run_result *r, FILE *f);
int output_json_write(const struct run_result *r, FILE *f);
int output_json_plus_write(const struct run_result *r, FILE *f); /* json with fio's bins */
int output_csv_write(const struct run_result *r, FILE *f);
int output_terse_write(const struct run_result *r, FILE *f); /* fio's terse v3 */

#endif

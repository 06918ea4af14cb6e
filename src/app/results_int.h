/* results_int.h - what the results' files share (results*.c). */
#ifndef IOCHAR_APP_RESULTS_INT_H
#define IOCHAR_APP_RESULTS_INT_H

#include "app/app.h"
#include "base/json_writer.h"

/* database, benchmark, target and dataset members. */
void app_json_env(struct jw *w, const struct app_run *r);

#endif

/* app_parse.h - read an application run's results.json ("iochar_app": 1,
 * app_model.h) into rs_set.app. Failures are usage errors whose one line
 * names the file and the member that is wrong.
 */
#ifndef IOCHAR_REPORT_APP_PARSE_H
#define IOCHAR_REPORT_APP_PARSE_H

#include <json-c/json.h>
#include <stdbool.h>

#include "report/results_parse.h"

/* Is root an application run (an object with "iochar_app")? */
bool results_is_app(json_object *root);

/* root into s->app (s zeroed by the caller; rs_set_free it in every case):
 * a version other than RS_APP_VERSION, a member missing or of the wrong
 * type is refused. */
int results_parse_app(json_object *root, const char *file, struct rs_set *s,
		      struct ioc_err *err);

#endif

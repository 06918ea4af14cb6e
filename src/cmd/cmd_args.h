/* cmd_args.h - custom value parsers that several commands' option rows
 * (cli/args.h) share. */
#ifndef IOCHAR_CMD_CMD_ARGS_H
#define IOCHAR_CMD_CMD_ARGS_H

#include "cli/args.h"

/* normal, json or csv into an enum output_format field (output/output.h):
 * "--output-format=V: accepted: normal, json, csv" otherwise. */
int cmd_arg_output_format(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err);

#endif

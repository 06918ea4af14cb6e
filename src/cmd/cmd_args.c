/* cmd_args.c - see cmd_args.h. */
#include <errno.h>

#include "cmd/cmd_args.h"
#include "output/output.h"

int cmd_arg_output_format(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err)
{
	if (output_format_parse(v,
				(enum output_format *)((char *)obj + o->off)))
		return err_usage(err, EINVAL,
				 "--output-format=%s: accepted: normal, json, "
				 "csv",
				 v);
	return 0;
}

/* net_args.h - the custom value parsers of `iochar net`'s option rows
 * (client, server, mesh; cli/args.h), with the messages iperf3 users have
 * read so far. Each is an opt_parse_fn: it names the option by o->name
 * (the row's label) and stores at o->off. */
#ifndef IOCHAR_CMD_NET_ARGS_H
#define IOCHAR_CMD_NET_ARGS_H

#include "cli/args.h"

/* The spec of `net CMD` over rows r: getopt_long's unique prefixes, and its
 * messages (a missing value read as an unknown option there). */
/* clang-format off */
#define NET_ARGS_SPEC(cmd, r)                                  \
	ARGS_TABLE(r), .flags = ARGS_PREFIX,                   \
	.unknown = "net " cmd ": unknown option '%s'",         \
	.missing = "net " cmd ": unknown option '%s'"

/* -J and --output-format, the same in every net command: rows of T's int
 * field fmt. */
#define NET_FORMAT_ROWS(T, json_help, format_help)                      \
	{ARG_ROW(T, fmt, "json", OPT_CUSTOM), .o.parse = net_arg_format, \
	 .letter = 'J', .implied = "json", .o.help = (json_help),        \
	 .section = "Output"},                                           \
	{ARG_ROW(T, fmt, "output-format", OPT_CUSTOM),                   \
	 .o.parse = net_arg_format, .o.def = "text", .o.arg = "F",       \
	 .o.help = (format_help)}
/* clang-format on */

/* json: iperf3 3.12's layout (-J) where iperf3 has one, iochar-json:
 * iochar's own (docs/net.md). */
enum net_format { NET_FMT_TEXT, NET_FMT_JSON, NET_FMT_CSV, NET_FMT_IOCHAR_JSON };

/* text, json, iochar-json or csv into an int field (enum net_format). */
int net_arg_format(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err);

/* A size in [o->min, o->max] into a uint32_t or uint64_t field (by
 * o->size). */
int net_arg_size(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err);

/* --secret S, and --secret-file F (its first line), into a char array of
 * o->size bytes. */
int net_arg_secret(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err);
int net_arg_secret_file(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err);

/* -C ALG into a char array of o->size bytes. */
int net_arg_congestion(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err);

/* -i S: 0, or 0.1 to 3600 seconds, into a double. */
/* iperf3's -b: bits a second with an optional K, M, G or T (powers of
 * 1000, as iperf3 reads rates), into a uint64_t field; 0 = unlimited. A
 * burst ("/N") is refused: iochar paces with the kernel, not in bursts. */
int net_arg_rate(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err);

int net_arg_interval(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err);

#endif

/* crctest.h - fio's --crctest: the verify digests' throughput. */
#ifndef IOCHAR_CMD_CRCTEST_H
#define IOCHAR_CMD_CRCTEST_H

#include <stdio.h>

/* Time each verify checksum iochar computes (verify/fio_sum.h), or those
 * named in types (comma-separated; "" = all), on a buffer hashed over and
 * over for about 0.1 s, and print "name:\t  MiB/sec" lines to out as
 * fio --crctest does. Returns 0, or 2 after one line on errf naming a
 * type iochar does not have. */
int crctest_run(const char *types, FILE *out, FILE *errf);

#endif

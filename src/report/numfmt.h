/* numfmt.h - numbers for people in the report and compare: thousands
 * separators, K/M IOPS, MB/s or GB/s (decimal, as the papers), ns/µs/ms/s.
 * Each writes into buf (at least NUMFMT_MAX bytes) and returns buf; a value
 * that is not finite is written as "–".
 */
#ifndef IOCHAR_REPORT_NUMFMT_H
#define IOCHAR_REPORT_NUMFMT_H

#include <stddef.h>

#define NUMFMT_MAX 48

/* 1234567.8 -> "1,234,568" (rounded to an integer). */
char *numfmt_thousands(char *buf, double v);
/* IOPS, 3 significant digits from 100,000: "98,765", "988K", "36.2M". */
char *numfmt_iops(char *buf, double v);
/* bytes per second, decimal: "123 MB/s", "45.6 MB/s", "1.23 GB/s". */
char *numfmt_bw(char *buf, double bytes_per_s);
/* nanoseconds: "850 ns", "123 µs", "12.3 ms", "1.23 s". */
char *numfmt_lat(char *buf, double ns);
/* bytes, binary as fio's bs: "4K", "1M", "1536". */
char *numfmt_size(char *buf, double bytes);
/* a percentage with its sign: "+20.1 %", "-3.0 %". */
char *numfmt_pct(char *buf, double pct);

#endif

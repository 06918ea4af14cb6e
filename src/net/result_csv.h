/* result_csv.h - a network test's figures as CSV (--output-format=csv):
 * one header line, then one row per stream and one total row per
 * direction used. Columns are documented in docs/net.md ("CSV output").
 *
 * Byte columns: sender_bytes is what the sending end wrote, receiver_bytes
 * what the receiving end read; on a stream row one of them comes from the
 * peer and is empty when the peer's count is unknown. The total row of a
 * direction carries the same sums as the JSON "directions" entry, so the
 * stream rows of a direction add up to its total row.
 */
#ifndef IOCHAR_NET_RESULT_CSV_H
#define IOCHAR_NET_RESULT_CSV_H

#include <stdio.h>

#include "net/result.h"

/* The header line (ends in '\n'). */
void net_result_csv_header(FILE *f);

/* r's stream rows, then its total rows (each ends in '\n'). */
void net_result_csv_rows(FILE *f, const struct net_result *r);

#endif

/* fio_clients.h - fio's client/server layout for a run over many hosts
 * (MPI): "client_stats", each entry of jobs[] again with its host's
 * "hostname", then an "All clients" entry of every worker merged (its
 * percentiles from the merged histograms, so exact). Private to
 * src/output/. */
#ifndef IOCHAR_OUTPUT_FIO_CLIENTS_H
#define IOCHAR_OUTPUT_FIO_CLIENTS_H

#include <stdbool.h>

#include "base/json_writer.h"
#include "stats/result.h"

/* "client_stats": [...] as a member of w's current object when r ran over
 * many hosts (r->nr_hosts > 0); nothing otherwise. plus: json+'s bins. */
void fio_clients_json(struct jw *w, const struct run_result *r, bool plus);

#endif

/* mesh_csv.h - the cluster's network matrix as CSV (`iochar net mesh
 * --output-format=csv`): a header line, then one row per measured pair,
 * the same pairs and figures as the JSON's "pairs" (columns in docs/net.md,
 * "CSV output"). Pairs the mode asks for but that were not measured have
 * no row; compare the row count with N*(N-1) (or N with --ring). */
#ifndef IOCHAR_NET_MESH_CSV_H
#define IOCHAR_NET_MESH_CSV_H

#include <stdio.h>

#include "net/mesh.h"

void net_mesh_csv(FILE *f, const struct net_mesh *m);

#endif

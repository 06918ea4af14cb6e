/* mesh_csv.c - the network matrix as CSV rows (see mesh_csv.h). */
#include <inttypes.h>

#include "net/mesh_csv.h"
#include "util/csv.h"

void net_mesh_csv(FILE *f, const struct net_mesh *m)
{
	fputs("client,server,client_host,server_host,server_addr,port,streams,"
	      "sender_bytes,receiver_bytes,seconds,throughput_bps,"
	      "retransmits,rtt_us\n", f);
	for (int a = 0; a < m->size; a++) {
		for (int b = 0; b < m->size; b++) {
			const struct net_mesh_cell *c = &m->cells[a * m->size + b];
			/* the pairs the JSON lists: measured ones the mode asks for */
			if (a == b || (m->ring && b != (a + 1) % m->size) ||
			    !c->measured)
				continue;
			fprintf(f, "%d,%d,", a, b);
			csv_field(f, m->hosts[a]);
			fputc(',', f);
			csv_field(f, m->hosts[b]);
			fputc(',', f);
			csv_field_n(f, c->server, sizeof(c->server));
			fprintf(f, ",%u,%" PRIu32 ",%" PRIu64 ",%" PRIu64
				   ",%.6f,%.0f,",
				(unsigned)c->port, c->streams, c->sender_bytes,
				c->receiver_bytes, c->seconds, c->receiver_bps);
			if (c->retransmits >= 0)
				fprintf(f, "%" PRId64, c->retransmits);
			fprintf(f, ",%" PRIu32 "\n", c->rtt_us);
		}
	}
}

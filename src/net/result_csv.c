/* result_csv.c - a network test's figures as CSV rows (see result_csv.h).
 * Numbers are written as numbers; text goes through csv_field. */
#include <inttypes.h>
#include <string.h>

#include "net/result_csv.h"
#include "util/csv.h"

static const char *dir_name(int d)
{
	return d == NET_C2S ? "client_to_server" : "server_to_client";
}

void net_result_csv_header(FILE *f)
{
	fputs("role,local,peer,scope,direction,stream,streams,"
	      "sender_bytes,receiver_bytes,seconds,"
	      "sender_bits_per_second,receiver_bits_per_second,"
	      "retransmits,snd_cwnd,rtt_us,rttvar_us,pmtu,snd_mss,error\n", f);
}

/* role,local,peer, - the columns that tell tests apart on a server. */
static void row_start(FILE *f, const struct net_result *r)
{
	csv_field(f, r->role);
	fputc(',', f);
	csv_field(f, r->local_addr);
	fputc(',', f);
	csv_field(f, r->peer_addr);
	fputc(',', f);
}

static void put_bytes(FILE *f, bool known, uint64_t b)
{
	if (known)
		fprintf(f, "%" PRIu64, b);
	fputc(',', f);
}

static void put_bps(FILE *f, bool known, uint64_t b, double secs)
{
	if (known)
		fprintf(f, "%.0f", secs > 0 ? (double)b * 8 / secs : 0.0);
	fputc(',', f);
}

/* Empty when unknown (-1), as the JSON's -1. */
static void put_retrans(FILE *f, int64_t v)
{
	if (v >= 0)
		fprintf(f, "%" PRId64, v);
	fputc(',', f);
}

static void stream_row(FILE *f, const struct net_result *r,
		       const struct net_stream_result *s)
{
	bool snd_known = s->sender || s->peer_known;
	bool rcv_known = !s->sender || s->peer_known;
	uint64_t snd = s->sender ? s->bytes : s->peer_bytes;
	uint64_t rcv = s->sender ? s->peer_bytes : s->bytes;

	row_start(f, r);
	fprintf(f, "stream,%s,%u,1,", dir_name(s->dir), s->id);
	put_bytes(f, snd_known, snd);
	put_bytes(f, rcv_known, rcv);
	fprintf(f, "%.6f,", s->seconds);
	put_bps(f, snd_known, snd, s->seconds);
	put_bps(f, rcv_known, rcv, s->seconds);
	put_retrans(f, s->retransmits);
	fprintf(f, "%u,%u,%u,%u,%u,", s->tcp.snd_cwnd, s->tcp.rtt_us,
		s->tcp.rttvar_us, s->tcp.pmtu, s->tcp.snd_mss);
	csv_field(f, s->err ? strerror(-s->err) : "");
	fputc('\n', f);
}

/* TCP columns stay empty: a direction has no one TCP_INFO sample. */
static void total_row(FILE *f, const struct net_result *r, int d)
{
	const struct net_dir_total *t = &r->dir[d];

	row_start(f, r);
	fprintf(f, "total,%s,,%u,%" PRIu64 ",%" PRIu64 ",%.6f,%.0f,%.0f,",
		dir_name(d), t->streams, t->sender_bytes, t->receiver_bytes,
		t->seconds, t->sender_bps, t->receiver_bps);
	put_retrans(f, t->retransmits);
	fprintf(f, ",,,%u,,\n", r->path_mtu);
}

void net_result_csv_rows(FILE *f, const struct net_result *r)
{
	for (unsigned i = 0; i < r->nr_streams; i++)
		stream_row(f, r, &r->streams[i]);
	for (int d = 0; d < 2; d++)
		if (r->dir[d].used)
			total_row(f, r, d);
}

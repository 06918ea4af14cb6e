/* handshake.h - what a connection sends the server before it is let in:
 * its cookie and, for a control connection, the parameter message. Read
 * byte by byte as they come, without a thread or a blocking read, so the
 * server can hold many connections in this state at a bounded cost and
 * give no test slot, thread or stream buffer to a peer that has not yet
 * presented acceptable parameters (and the secret, when one is set).
 *
 * Pure (no sockets): the caller reads into net_hs_want's buffer and
 * reports the count with net_hs_got. It never asks for a byte past the
 * current step, so nothing that follows (stream data) is consumed.
 */
#ifndef IOCHAR_NET_HANDSHAKE_H
#define IOCHAR_NET_HANDSHAKE_H

#include <stddef.h>
#include <stdint.h>

#include "net/proto.h"
#include "util/err.h"

enum net_hs_step {
	NET_HS_COOKIE,  /* reading the 37-byte cookie */
	NET_HS_LEN,     /* reading the parameter message's length */
	NET_HS_BODY,    /* reading its body */
};

enum net_hs_event {
	NET_HS_MORE = 0,      /* need more bytes */
	NET_HS_HAVE_COOKIE,   /* cookie complete and well-formed */
	NET_HS_HAVE_PARAMS,   /* parameter message complete (body, len) */
};

struct net_hs {
	enum net_hs_step step;
	char cookie[NET_COOKIE_SIZE];
	uint8_t hdr[4];
	char *body;           /* owned; NET_HS_BODY only */
	uint32_t len;         /* the body's length */
	uint32_t got;         /* bytes of the current step so far */
};

/* A fresh reader, at the cookie. */
void net_hs_init(struct net_hs *h);

/* Where the next bytes go and how many at most (> 0). */
void *net_hs_want(struct net_hs *h, size_t *len);

/* n (>= 1, at most the length net_hs_want gave) bytes arrived. Returns a
 * net_hs_event, or -EPROTO (not a cookie), -EMSGSIZE (a length over
 * max_json, refused before anything is allocated), -ENOMEM, each with a
 * message in err. */
int net_hs_got(struct net_hs *h, size_t n, uint32_t max_json,
	       struct ioc_err *err);

/* After NET_HS_HAVE_COOKIE on a control connection: go on to read the
 * parameter message. */
void net_hs_expect_params(struct net_hs *h);

/* Free what h holds; h may be reused after net_hs_init. */
void net_hs_free(struct net_hs *h);

#endif

/* handshake.c - the cookie and the parameter message, read as they come. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "net/handshake.h"

void net_hs_init(struct net_hs *h)
{
	memset(h, 0, sizeof(*h));
	h->step = NET_HS_COOKIE;
}

void *net_hs_want(struct net_hs *h, size_t *len)
{
	switch (h->step) {
	case NET_HS_COOKIE:
		*len = NET_COOKIE_SIZE - h->got;
		return h->cookie + h->got;
	case NET_HS_LEN:
		*len = 4 - h->got;
		return h->hdr + h->got;
	default:
		*len = h->len - h->got;
		return h->body + h->got;
	}
}

void net_hs_expect_params(struct net_hs *h)
{
	h->step = NET_HS_LEN;
	h->got = 0;
}

int net_hs_got(struct net_hs *h, size_t n, uint32_t max_json,
	       struct ioc_err *err)
{
	h->got += (uint32_t)n;
	switch (h->step) {
	case NET_HS_COOKIE:
		if (h->got < NET_COOKIE_SIZE)
			return NET_HS_MORE;
		if (!net_cookie_valid(h->cookie))
			return err_set(err, EPROTO, "garbage instead of a cookie");
		return NET_HS_HAVE_COOKIE;
	case NET_HS_LEN:
		if (h->got < 4)
			return NET_HS_MORE;
		h->len = net_len_decode(h->hdr);
		if (h->len > max_json)
			return err_set(err, EMSGSIZE,
				       "parameters: JSON length %u over the "
				       "limit %u", h->len, max_json);
		if (h->len == 0)
			return err_set(err, EPROTO,
				       "parameters: empty JSON message");
		h->body = malloc(h->len);
		if (!h->body)
			return err_set(err, ENOMEM, "out of memory");
		h->step = NET_HS_BODY;
		h->got = 0;
		return NET_HS_MORE;
	default:
		return h->got < h->len ? NET_HS_MORE : NET_HS_HAVE_PARAMS;
	}
}

void net_hs_free(struct net_hs *h)
{
	if (!h)
		return;
	free(h->body);
	h->body = NULL;
}

/* fuzz_net_handshake.c - libFuzzer target for the server's pre-admission
 * reader (net/handshake.h): what a connection sends before it is let in,
 * a cookie and then a framed parameter message, arriving in pieces.
 *
 * The first input byte seeds the sizes of the pieces, the rest is the
 * byte stream. Besides the sanitizers, the target checks the contracts:
 * the reader always asks for 1 or more bytes and never more than the
 * current step needs, so it consumes exactly a 37-byte cookie, 4 length
 * bytes and the body (nothing of what follows); a length over the limit
 * is refused before anything is allocated; every error has a message;
 * a complete body then goes through the parameter parser as the server
 * does.
 *
 *     make fuzz && build-fuzz/fuzz_net_handshake tests/fuzz/corpus/net_handshake
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "net/handshake.h"
#include "net/params.h"

#include "fuzz.h"

#define MAX_JSON 4096

static void check_params(const struct net_hs *h)
{
	struct ioc_err err = {0};
	struct net_params p;
	json_object *j = NULL;

	if (net_json_parse(h->body, h->len, &j, &err)) {
		CHECK(j == NULL && err.msg[0]);
		return;
	}
	if (net_params_from_json(j, &p, &err))
		CHECK(err.msg[0] != '\0');
	json_object_put(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ioc_err err = {0};
	struct net_hs h;
	size_t at = 1, used = 0;
	unsigned seed;

	if (size < 1)
		return 0;
	seed = data[0] | 1u;
	net_hs_init(&h);
	while (at < size) {
		size_t want, piece = seed % 7 + 1;
		void *dst = net_hs_want(&h, &want);

		seed = seed * 1103515245u + 12345u;
		CHECK(want >= 1);
		CHECK(h.step != NET_HS_COOKIE || want <= NET_COOKIE_SIZE);
		CHECK(h.step != NET_HS_LEN || want <= 4);
		CHECK(h.step != NET_HS_BODY || want <= h.len);
		if (piece > want)
			piece = want;
		if (piece > size - at)
			piece = size - at;
		memcpy(dst, data + at, piece);
		at += piece;
		used += piece;
		int ev = net_hs_got(&h, piece, MAX_JSON, &err);
		if (ev < 0) {
			CHECK(err.msg[0] != '\0');
			CHECK(h.body == NULL || h.step == NET_HS_BODY);
			break;
		}
		if (ev == NET_HS_HAVE_COOKIE) {
			CHECK(used == NET_COOKIE_SIZE);
			CHECK(net_cookie_valid(h.cookie));
			net_hs_expect_params(&h);
		} else if (ev == NET_HS_HAVE_PARAMS) {
			CHECK(h.len >= 1 && h.len <= MAX_JSON);
			CHECK(used == NET_COOKIE_SIZE + 4 + h.len);
			check_params(&h);
			break;
		}
	}
	net_hs_free(&h);
	return 0;
}

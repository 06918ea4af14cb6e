/* fuzz_net_control.c - libFuzzer target for the iperf3 control-message
 * parser (net/proto.h, net/params.h, net/exchange.h).
 *
 * The input is what a client might send the server after its cookie: a
 * 4-byte big-endian length and a JSON body. It is parsed as a frame; a
 * frame that parses is read both as a parameter message and as a results
 * message. Besides the sanitizers, the target checks the contracts: a
 * failure leaves no object and says why; parameters that parse survive a
 * round trip through net_params_to_json unchanged; results that parse
 * respect the stream limit. The first 37 bytes also go through the cookie
 * check, which must never read past them.
 *
 *     make fuzz && build-fuzz/fuzz_net_control tests/fuzz/corpus/net_control
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/exchange.h"
#include "net/params.h"
#include "net/proto.h"

#include "fuzz.h"

#define MAX_JSON 65536
#define MAX_STREAMS 64

static void check_params(json_object *j)
{
	struct ioc_err err = {0}, err2 = {0};
	struct net_params p, q;
	json_object *back;

	if (net_params_from_json(j, &p, &err)) {
		CHECK(err.msg[0] != '\0');
		return;
	}
	back = net_params_to_json(&p, "fuzz");
	CHECK(back != NULL);
	CHECK(net_params_from_json(back, &q, &err2) == 0);
	json_object_put(back);
	/* what iochar sends of p comes back the same */
	CHECK(q.parallel == p.parallel && q.duration == p.duration);
	CHECK(q.len == p.len && q.window == p.window && q.mss == p.mss);
	CHECK(q.reverse == p.reverse && q.bidir == p.bidir);
	CHECK(!strcmp(q.congestion, p.congestion));
	CHECK(!strcmp(q.secret, p.secret));
}

static void check_results(json_object *j)
{
	struct ioc_err err = {0};
	struct net_exchange ex;

	if (net_exchange_from_json(j, MAX_STREAMS, &ex, &err)) {
		CHECK(err.msg[0] != '\0');
		CHECK(ex.streams == NULL);
		return;
	}
	CHECK(ex.nr_streams <= MAX_STREAMS);
	for (unsigned i = 0; i < ex.nr_streams; i++)
		CHECK(ex.streams[i].id >= 1);
	json_object *back = net_exchange_to_json(&ex);
	CHECK(back != NULL);
	json_object_put(back);
	net_exchange_free(&ex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ioc_err err = {0};
	json_object *j = NULL;
	int rc;

	if (size >= NET_COOKIE_SIZE) {
		char cookie[NET_COOKIE_SIZE];
		memcpy(cookie, data, sizeof(cookie));
		(void)net_cookie_valid(cookie);
	}
	rc = net_frame_parse(data, size, MAX_JSON, &j, &err);
	if (rc) {
		CHECK(j == NULL);
		CHECK(err.msg[0] != '\0');
		return 0;
	}
	CHECK(j != NULL);
	check_params(j);
	check_results(j);
	json_object_put(j);
	return 0;
}

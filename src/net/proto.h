/* proto.h - the iperf3 3.x control protocol, as bytes: the cookie, the
 * one-byte states, and the length-prefixed JSON messages (parameters and
 * results). Pure functions over buffers, so the parser can be fuzzed and
 * tested without sockets; io.h moves the bytes.
 *
 * A test, as iperf3 runs it over the control connection:
 *   client -> server   cookie (36 characters + NUL)
 *   server -> client   PARAM_EXCHANGE
 *   client -> server   params JSON
 *   server -> client   CREATE_STREAMS; the client opens the data
 *                      connections, each starting with the same cookie
 *   server -> client   TEST_START, TEST_RUNNING
 *   client -> server   TEST_END (the client's timer ends the test)
 *   server -> client   EXCHANGE_RESULTS; client results JSON, then the
 *                      server's; DISPLAY_RESULTS
 *   client -> server   IPERF_DONE
 * A JSON message is a 4-byte big-endian length, then that many bytes of
 * JSON text (no terminator).
 */
#ifndef IOCHAR_NET_PROTO_H
#define IOCHAR_NET_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "util/err.h"

#define NET_COOKIE_SIZE 37 /* 36 characters and a NUL, on the wire too */
#define NET_DEFAULT_PORT 5201

/* Control states: one signed byte on the wire. */
enum net_state {
	NET_TEST_START = 1,
	NET_TEST_RUNNING = 2,
	NET_TEST_END = 4,
	NET_PARAM_EXCHANGE = 9,
	NET_CREATE_STREAMS = 10,
	NET_SERVER_TERMINATE = 11,
	NET_CLIENT_TERMINATE = 12,
	NET_EXCHANGE_RESULTS = 13,
	NET_DISPLAY_RESULTS = 14,
	NET_IPERF_START = 15,
	NET_IPERF_DONE = 16,
	NET_ACCESS_DENIED = -1,
	NET_SERVER_ERROR = -2,
};

/* "TEST_END" etc., or "unknown" for a byte that is no state. */
const char *net_state_name(int state);

/* Is b (a byte as received) one of the states above? */
bool net_state_valid(int8_t b);

/* Fill cookie with a fresh random cookie as iperf3 makes them: 36
 * characters from [a-z2-7] and a NUL. 0 or -errno (no randomness). */
int net_cookie_make(char cookie[NET_COOKIE_SIZE]);

/* Is buf (NET_COOKIE_SIZE bytes as received) a well-formed cookie: 36
 * printable ASCII characters without spaces, then NUL? */
bool net_cookie_valid(const char *buf);

/* The 4-byte length prefix of a JSON message. */
void net_len_encode(uint32_t len, uint8_t out[4]);
uint32_t net_len_decode(const uint8_t in[4]);

/* Parse the body of a JSON message: exactly len bytes of JSON text that
 * must be one object. *out is owned by the caller (json_object_put).
 * 0, or -EINVAL with a message naming what was wrong. */
int net_json_parse(const char *buf, size_t len, json_object **out,
		   struct ioc_err *err);

/* Parse a whole framed message held in buf (length prefix and body), with
 * max the largest body accepted. -EMSGSIZE when the length is over max,
 * -EPROTO when buf holds less (truncated) or more than the frame, -EINVAL
 * for a body that is not one JSON object. For the fuzzer and the tests;
 * io.c reads the same frames from sockets with net_len_decode and
 * net_json_parse. */
int net_frame_parse(const uint8_t *buf, size_t len, uint32_t max,
		    json_object **out, struct ioc_err *err);

#endif

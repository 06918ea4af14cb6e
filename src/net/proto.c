/* proto.c - the iperf3 control protocol's bytes: states, cookie, frames. */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "net/proto.h"

/* Nesting beyond this is no parameter message iperf3 ever sent. */
#define NET_JSON_DEPTH 16

static const struct {
	int state;
	const char *name;
} states[] = {
	{NET_TEST_START, "TEST_START"},
	{NET_TEST_RUNNING, "TEST_RUNNING"},
	{NET_TEST_END, "TEST_END"},
	{NET_PARAM_EXCHANGE, "PARAM_EXCHANGE"},
	{NET_CREATE_STREAMS, "CREATE_STREAMS"},
	{NET_SERVER_TERMINATE, "SERVER_TERMINATE"},
	{NET_CLIENT_TERMINATE, "CLIENT_TERMINATE"},
	{NET_EXCHANGE_RESULTS, "EXCHANGE_RESULTS"},
	{NET_DISPLAY_RESULTS, "DISPLAY_RESULTS"},
	{NET_IPERF_START, "IPERF_START"},
	{NET_IPERF_DONE, "IPERF_DONE"},
	{NET_ACCESS_DENIED, "ACCESS_DENIED"},
	{NET_SERVER_ERROR, "SERVER_ERROR"},
};

const char *net_state_name(int state)
{
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (states[i].state == state)
			return states[i].name;
	return "unknown";
}

bool net_state_valid(int8_t b)
{
	return strcmp(net_state_name(b), "unknown") != 0;
}

int net_cookie_make(char cookie[NET_COOKIE_SIZE])
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char rnd[NET_COOKIE_SIZE - 1];
	size_t got = 0;

	while (got < sizeof(rnd)) {
		ssize_t n = getrandom(rnd + got, sizeof(rnd) - got, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof(rnd); i++)
		cookie[i] = alphabet[rnd[i] % 32];
	cookie[NET_COOKIE_SIZE - 1] = '\0';
	return 0;
}

bool net_cookie_valid(const char *buf)
{
	for (size_t i = 0; i < NET_COOKIE_SIZE - 1; i++)
		if (buf[i] <= ' ' || buf[i] > '~')
			return false;
	return buf[NET_COOKIE_SIZE - 1] == '\0';
}

void net_len_encode(uint32_t len, uint8_t out[4])
{
	out[0] = (uint8_t)(len >> 24);
	out[1] = (uint8_t)(len >> 16);
	out[2] = (uint8_t)(len >> 8);
	out[3] = (uint8_t)len;
}

uint32_t net_len_decode(const uint8_t in[4])
{
	return (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 |
	       (uint32_t)in[2] << 8 | in[3];
}

int net_json_parse(const char *buf, size_t len, json_object **out,
		   struct ioc_err *err)
{
	json_tokener *tok;
	json_object *o;
	size_t used;

	*out = NULL;
	if (len == 0)
		return err_set(err, EINVAL, "empty JSON message");
	if (len > INT32_MAX)
		return err_set(err, EINVAL, "JSON message too long");
	if (memchr(buf, '\0', len))
		return err_set(err, EINVAL, "NUL byte inside a JSON message");
	tok = json_tokener_new_ex(NET_JSON_DEPTH);
	if (!tok)
		return err_set(err, ENOMEM, "out of memory parsing JSON");
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		if (e == json_tokener_continue)
			err_set(err, EINVAL, "JSON message ends early");
		else
			err_set(err, EINVAL, "bad JSON: %s",
				json_tokener_error_desc(e));
		json_tokener_free(tok);
		return -EINVAL;
	}
	used = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (used < len && strchr(" \t\r\n", buf[used]))
		used++;
	if (used != len) {
		json_object_put(o);
		return err_set(err, EINVAL, "bytes after the JSON object");
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return err_set(err, EINVAL, "JSON message is not an object");
	}
	*out = o;
	return 0;
}

int net_frame_parse(const uint8_t *buf, size_t len, uint32_t max,
		    json_object **out, struct ioc_err *err)
{
	uint32_t n;

	*out = NULL;
	if (len < 4)
		return err_set(err, EPROTO, "truncated length prefix");
	n = net_len_decode(buf);
	if (n > max)
		return err_set(err, EMSGSIZE,
			       "JSON length %u over the limit %u", n, max);
	if (len - 4 < n)
		return err_set(err, EPROTO,
			       "truncated JSON message: %zu of %u bytes",
			       len - 4, n);
	if (len - 4 > n)
		return err_set(err, EPROTO, "bytes after the JSON message");
	return net_json_parse((const char *)buf + 4, n, out, err);
}

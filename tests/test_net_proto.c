/* test_net_proto.c - the iperf3 control protocol's codec (src/net/proto,
 * params, exchange) and the results document, without sockets. The
 * parameter message is the one iperf3 3.12 sends for `-c -P 4 -t 5 -R
 * -l 64K -w 1M -C cubic`. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/exchange.h"
#include "net/handshake.h"
#include "net/params.h"
#include "net/proto.h"
#include "net/result.h"
#include "base/json_writer.h"

static const char iperf312_params[] =
	"{\"tcp\":true,\"omit\":0,\"time\":5,\"num\":0,\"blockcount\":0,"
	"\"parallel\":4,\"reverse\":true,\"window\":1048576,\"len\":65536,"
	"\"pacing_timer\":1000,\"congestion\":\"cubic\","
	"\"client_version\":\"3.12\"}";

static size_t frame(uint8_t *buf, const char *json)
{
	size_t n = strlen(json);
	net_len_encode((uint32_t)n, buf);
	memcpy(buf + 4, json, n);
	return n + 4;
}

static void test_states_and_cookie(void **state)
{
	char c[NET_COOKIE_SIZE], d[NET_COOKIE_SIZE];
	(void)state;

	assert_string_equal(net_state_name(NET_TEST_END), "TEST_END");
	assert_string_equal(net_state_name(NET_ACCESS_DENIED), "ACCESS_DENIED");
	assert_true(net_state_valid(16));
	assert_true(net_state_valid(-2));
	assert_false(net_state_valid(3));
	assert_false(net_state_valid(17));
	assert_int_equal(net_cookie_make(c), 0);
	assert_int_equal(net_cookie_make(d), 0);
	assert_int_equal(strlen(c), 36);
	assert_true(net_cookie_valid(c));
	assert_true(memcmp(c, d, NET_COOKIE_SIZE) != 0);
	for (int i = 0; i < 36; i++)
		assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz234567", c[i]));
	c[5] = '\n';
	assert_false(net_cookie_valid(c));
	memset(c, 'a', sizeof(c)); /* no terminating NUL */
	assert_false(net_cookie_valid(c));
}

static void test_frame_good(void **state)
{
	uint8_t buf[512];
	struct ioc_err err = {0};
	json_object *j;
	size_t n = frame(buf, iperf312_params);
	(void)state;

	assert_int_equal(buf[0], 0);
	assert_int_equal(net_len_decode(buf), strlen(iperf312_params));
	assert_int_equal(net_frame_parse(buf, n, 8192, &j, &err), 0);
	assert_non_null(j);
	json_object_put(j);
}

static void test_frame_bad(void **state)
{
	uint8_t buf[512];
	struct ioc_err err = {0};
	json_object *j;
	size_t n = frame(buf, iperf312_params);
	(void)state;

	/* a 4 GB length is refused from the prefix alone */
	uint8_t huge[8] = {0xff, 0xff, 0xff, 0xff, '{', '}', 0, 0};
	assert_int_equal(net_frame_parse(huge, 6, 1u << 20, &j, &err), -EMSGSIZE);
	assert_null(j);
	assert_non_null(strstr(err.msg, "4294967295"));
	/* truncated: prefix says more than there is */
	memset(&err, 0, sizeof(err));
	assert_int_equal(net_frame_parse(buf, n - 3, 8192, &j, &err), -EPROTO);
	assert_int_equal(net_frame_parse(buf, 3, 8192, &j, &err), -EPROTO);
	/* bytes after the frame */
	buf[n] = ' ';
	assert_int_equal(net_frame_parse(buf, n + 1, 8192, &j, &err), -EPROTO);
	/* garbage, an array, trailing junk, a NUL inside, an empty body */
	const char *bad[] = {"\x01\x02garbage", "[1,2,3]", "{\"a\":1} x",
			     "{\"a\":1}", "", "{\"a\":", "{\"a\":[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = frame(buf, bad[i]);
		if (i == 3)
			buf[6] = '\0'; /* NUL in the middle */
		memset(&err, 0, sizeof(err));
		assert_int_equal(net_frame_parse(buf, n, 8192, &j, &err), -EINVAL);
		assert_null(j);
		assert_true(err.msg[0] != '\0');
	}
}

static void test_params_from_iperf3(void **state)
{
	struct ioc_err err = {0};
	struct net_params p;
	json_object *j;
	(void)state;

	assert_int_equal(net_json_parse(iperf312_params, strlen(iperf312_params),
					&j, &err), 0);
	assert_int_equal(net_params_from_json(j, &p, &err), 0);
	json_object_put(j);
	assert_int_equal(p.parallel, 4);
	assert_int_equal(p.duration, 5);
	assert_int_equal(p.len, 65536);
	assert_int_equal(p.window, 1048576);
	assert_true(p.reverse);
	assert_false(p.bidir);
	assert_false(p.udp);
	assert_string_equal(p.congestion, "cubic");
	assert_string_equal(p.client_version, "3.12");
	assert_string_equal(p.secret, "");
}

static void test_params_bad_types(void **state)
{
	static const char *bad[] = {
		"{\"parallel\":\"4\"}", "{\"time\":-1}", "{\"len\":1.5}",
		"{\"parallel\":99999999999}", "{\"congestion\":7}",
		"{\"congestion\":\"aaaaaaaaaaaaaaaaaaaaaaaaa\"}",
	};
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ioc_err err = {0};
		struct net_params p;
		json_object *j;
		assert_int_equal(net_json_parse(bad[i], strlen(bad[i]), &j, &err), 0);
		assert_int_equal(net_params_from_json(j, &p, &err), -EINVAL);
		assert_true(err.msg[0] != '\0');
		json_object_put(j);
	}
}

static void test_params_roundtrip(void **state)
{
	struct ioc_err err = {0};
	struct net_params p, q;
	json_object *j;
	(void)state;

	net_params_default(&p);
	p.parallel = 3;
	p.duration = 7;
	p.len = 1 << 20;
	p.bidir = true;
	snprintf(p.secret, sizeof(p.secret), "s3cret");
	j = net_params_to_json(&p, "iochar test");
	assert_non_null(j);
	assert_int_equal(net_params_from_json(j, &q, &err), 0);
	json_object_put(j);
	assert_int_equal(q.parallel, 3);
	assert_int_equal(q.duration, 7);
	assert_int_equal(q.len, 1 << 20);
	assert_true(q.bidir);
	assert_false(q.reverse);
	assert_string_equal(q.secret, "s3cret");
	assert_string_equal(q.client_version, "iochar test");
}

/* Feed len bytes one at a time; the last event (or error). */
static int hs_feed(struct net_hs *h, const char *buf, size_t len,
		   uint32_t max, struct ioc_err *err)
{
	int ev = NET_HS_MORE;

	for (size_t i = 0; i < len; i++) {
		size_t want;
		char *dst = net_hs_want(h, &want);
		assert_true(want >= 1);
		*dst = buf[i];
		ev = net_hs_got(h, 1, max, err);
		if (ev != NET_HS_MORE)
			assert_int_equal(i, len - 1); /* nothing read past it */
	}
	return ev;
}

/* The pre-admission reader: a cookie, then a parameter frame, byte by
 * byte, consuming exactly what each step needs; a garbage cookie and a
 * length over the limit are errors with a message, the latter before any
 * buffer is allocated. */
static void test_handshake_reader(void **state)
{
	const char body[] = "{\"tcp\":true,\"parallel\":3}";
	struct ioc_err err = {0};
	char cookie[NET_COOKIE_SIZE];
	uint8_t hdr[4];
	struct net_hs h;

	(void)state;
	assert_int_equal(net_cookie_make(cookie), 0);
	net_hs_init(&h);
	assert_int_equal(hs_feed(&h, cookie, sizeof(cookie), 100, &err),
			 NET_HS_HAVE_COOKIE);
	net_hs_expect_params(&h);
	net_len_encode((uint32_t)strlen(body), hdr);
	assert_int_equal(hs_feed(&h, (char *)hdr, 4, 100, &err), NET_HS_MORE);
	assert_int_equal(hs_feed(&h, body, strlen(body), 100, &err),
			 NET_HS_HAVE_PARAMS);
	assert_int_equal(h.len, strlen(body));
	assert_memory_equal(h.body, body, strlen(body));
	net_hs_free(&h);

	net_hs_init(&h);
	hs_feed(&h, cookie, sizeof(cookie), 100, &err);
	net_hs_expect_params(&h);
	net_len_encode(101, hdr);
	assert_int_equal(hs_feed(&h, (char *)hdr, 4, 100, &err), -EMSGSIZE);
	assert_null(h.body);
	assert_non_null(strstr(err.msg, "JSON length 101 over the limit 100"));
	net_hs_free(&h);

	char junk[NET_COOKIE_SIZE];
	memset(junk, '\n', sizeof(junk));
	struct ioc_err err2 = {0};
	net_hs_init(&h);
	assert_int_equal(hs_feed(&h, junk, sizeof(junk), 100, &err2), -EPROTO);
	assert_non_null(strstr(err2.msg, "garbage instead of a cookie"));
	net_hs_free(&h);
}

static void test_stream_ids(void **state)
{
	(void)state;
	/* iperf3's numbering skips 2 */
	assert_int_equal(net_stream_id(0), 1);
	assert_int_equal(net_stream_id(1), 3);
	assert_int_equal(net_stream_id(2), 4);
	assert_int_equal(net_stream_id(7), 9);
}

static void test_exchange(void **state)
{
	static const char from_iperf3[] =
		"{\"cpu_util_total\":12.5,\"cpu_util_user\":2.5,"
		"\"cpu_util_system\":10,\"sender_has_retransmits\":1,"
		"\"congestion_used\":\"cubic\",\"streams\":[{\"id\":1,"
		"\"bytes\":3000000000,\"retransmits\":7,\"jitter\":0,"
		"\"errors\":0,\"packets\":0,\"start_time\":0,\"end_time\":2.0}]}";
	static const char missing[] =
		"{\"cpu_util_total\":1,\"cpu_util_user\":1,"
		"\"sender_has_retransmits\":1,\"streams\":[]}";
	struct ioc_err err = {0};
	struct net_exchange ex, back;
	json_object *j;
	(void)state;

	assert_int_equal(net_json_parse(from_iperf3, strlen(from_iperf3), &j, &err), 0);
	assert_int_equal(net_exchange_from_json(j, 8, &ex, &err), 0);
	json_object_put(j);
	assert_int_equal(ex.nr_streams, 1);
	assert_int_equal(ex.streams[0].bytes, 3000000000ull); /* > 2^31 */
	assert_int_equal(ex.streams[0].retransmits, 7);
	assert_string_equal(ex.congestion_used, "cubic");
	j = net_exchange_to_json(&ex);
	assert_non_null(j);
	assert_int_equal(net_exchange_from_json(j, 8, &back, &err), 0);
	json_object_put(j);
	assert_int_equal(back.streams[0].bytes, 3000000000ull);
	assert_true(back.cpu_total > 12.4 && back.cpu_total < 12.6);
	net_exchange_free(&back);
	/* more streams than allowed */
	j = net_exchange_to_json(&ex);
	assert_int_equal(net_exchange_from_json(j, 0, &back, &err), -EINVAL);
	json_object_put(j);
	net_exchange_free(&ex);
	/* cpu_util_system missing: iperf3 refuses this too */
	memset(&err, 0, sizeof(err));
	assert_int_equal(net_json_parse(missing, strlen(missing), &j, &err), 0);
	assert_int_equal(net_exchange_from_json(j, 8, &ex, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "cpu_util_system"));
	json_object_put(j);
}

/* Two finished streams and a peer's results make the right totals. */
static void test_result_build(void **state)
{
	struct net_stream s[2] = {
		{.fd = -1, .id = 1, .sender = true, .bytes = 1000000,
		 .start_ns = 0, .end_ns = 2000000000},
		{.fd = -1, .id = 3, .sender = false, .bytes = 500000,
		 .start_ns = 0, .end_ns = 2000000000},
	};
	struct net_peer_stream ps[2] = {
		{.id = 1, .bytes = 990000, .retransmits = -1},
		{.id = 3, .bytes = 510000, .retransmits = 4},
	};
	struct net_exchange peer = {.cpu_total = 50, .cpu_user = 10,
				    .cpu_system = 40, .nr_streams = 2,
				    .streams = ps};
	struct net_result r;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	struct jw w;
	json_object *j;
	struct ioc_err err = {0};
	(void)state;

	memset(&r, 0, sizeof(r));
	assert_int_equal(net_result_build(&r, s, 2, true, 0.5, 1.5, &peer), 0);
	assert_int_equal(r.dir[NET_C2S].sender_bytes, 1000000);
	assert_int_equal(r.dir[NET_C2S].receiver_bytes, 990000);
	assert_int_equal(r.dir[NET_S2C].sender_bytes, 510000);
	assert_int_equal(r.dir[NET_S2C].receiver_bytes, 500000);
	assert_int_equal(r.dir[NET_S2C].retransmits, 4);
	assert_true(r.seconds > 1.99 && r.seconds < 2.01);
	assert_true(r.cpu_local.total_pct > 99.9 && r.cpu_local.total_pct < 100.1);
	assert_true(r.cpu_remote.system_s > 0.79 && r.cpu_remote.system_s < 0.81);
	assert_true(net_result_bps(&r) > (990000 + 500000) * 8 / 2.0 - 1);

	f = open_memstream(&text, &len);
	jw_init(&w, f, 0);
	net_result_json(&w, &r, NULL);
	assert_int_equal(jw_finish(&w), 0);
	fclose(f);
	assert_int_equal(net_json_parse(text, len, &j, &err), 0);
	json_object *v;
	assert_true(json_object_object_get_ex(j, "kind", &v));
	assert_string_equal(json_object_get_string(v), "net");
	assert_true(json_object_object_get_ex(j, "iochar_version", &v));
	assert_true(json_object_object_get_ex(j, "directions", &v));
	assert_int_equal(json_object_array_length(v), 2);
	json_object_put(j);
	free(text);
	net_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states_and_cookie),
		cmocka_unit_test(test_frame_good),
		cmocka_unit_test(test_frame_bad),
		cmocka_unit_test(test_params_from_iperf3),
		cmocka_unit_test(test_params_bad_types),
		cmocka_unit_test(test_params_roundtrip),
		cmocka_unit_test(test_handshake_reader),
		cmocka_unit_test(test_stream_ids),
		cmocka_unit_test(test_exchange),
		cmocka_unit_test(test_result_build),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

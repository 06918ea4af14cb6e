/* params.c - the PARAM_EXCHANGE message: struct net_params <-> JSON. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "net/params.h"

void net_params_default(struct net_params *p)
{
	memset(p, 0, sizeof(*p));
	p->parallel = 1;
	p->duration = 10;
	p->len = NET_DEFAULT_LEN;
}

/* A whole number in [0, max]; integers and integral doubles both count,
 * since cJSON writes every number as a double. */
static int get_uint(json_object *j, const char *key, uint64_t max,
		    uint64_t *out, bool *present, struct ioc_err *err)
{
	json_object *v;

	*present = json_object_object_get_ex(j, key, &v);
	if (!*present)
		return 0;
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);
		if (i < 0 || (uint64_t)i > max)
			return err_set(err, EINVAL, "\"%s\": %lld out of range",
				       key, (long long)i);
		*out = (uint64_t)i;
		return 0;
	}
	if (json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);
		if (!(d >= 0 && d <= (double)max) || d != floor(d))
			return err_set(err, EINVAL, "\"%s\": %g out of range",
				       key, d);
		*out = (uint64_t)d;
		return 0;
	}
	return err_set(err, EINVAL, "\"%s\" is not a number", key);
}

/* iperf3's flags count when present; an explicit false is honoured too. */
static bool get_flag(json_object *j, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(j, key, &v))
		return false;
	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v);
	if (json_object_is_type(v, json_type_int))
		return json_object_get_int64(v) != 0;
	return true;
}

static int get_str(json_object *j, const char *key, char *out, size_t size,
		   struct ioc_err *err)
{
	json_object *v;
	const char *s;

	if (!json_object_object_get_ex(j, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return err_set(err, EINVAL, "\"%s\" is not a string", key);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= size ||
	    strlen(s) != (size_t)json_object_get_string_len(v))
		return err_set(err, EINVAL, "\"%s\" too long or has NUL", key);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

int net_params_from_json(json_object *j, struct net_params *p,
			 struct ioc_err *err)
{
	static const struct {
		const char *key;
		size_t off;
		size_t size;
		uint64_t max;
	} nums[] = {
#define NUM(k, f, m) {k, offsetof(struct net_params, f), \
		       sizeof(((struct net_params *)0)->f), m}
		NUM("parallel", parallel, UINT32_MAX),
		NUM("time", duration, UINT32_MAX),
		NUM("omit", omit, UINT32_MAX),
		NUM("len", len, UINT32_MAX),
		NUM("window", window, UINT32_MAX),
		NUM("MSS", mss, UINT32_MAX),
		NUM("num", bytes, UINT64_MAX >> 11),
		NUM("blockcount", blocks, UINT64_MAX >> 11),
		NUM("bandwidth", bandwidth, UINT64_MAX >> 11),
		NUM("fqrate", fqrate, UINT64_MAX >> 11),
		NUM("TOS", tos, 255),
		NUM("burst", burst, UINT32_MAX),
		NUM("flowlabel", flowlabel, UINT32_MAX),
#undef NUM
	};
	int rc;

	net_params_default(p);
	if (!json_object_is_type(j, json_type_object))
		return err_set(err, EINVAL, "parameters are not an object");
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		uint64_t v = 0;
		bool present;
		char *dst = (char *)p + nums[i].off;

		rc = get_uint(j, nums[i].key, nums[i].max, &v, &present, err);
		if (rc)
			return rc;
		if (!present)
			continue;
		if (nums[i].size == sizeof(uint64_t)) {
			uint64_t w = v;
			memcpy(dst, &w, sizeof(w));
		} else {
			uint32_t w = (uint32_t)v;
			memcpy(dst, &w, sizeof(w));
		}
	}
	p->reverse = get_flag(j, "reverse");
	p->bidir = get_flag(j, "bidirectional");
	p->nodelay = get_flag(j, "nodelay");
	p->udp = get_flag(j, "udp");
	p->sctp = get_flag(j, "sctp");
	p->get_server_output = get_flag(j, "get_server_output");
	p->repeating_payload = get_flag(j, "repeating_payload");
	{
		json_object *v;
		p->authtoken = json_object_object_get_ex(j, "authtoken", &v);
		p->server_affinity = json_object_object_get_ex(j, "server_affinity", &v);
	}
	if ((rc = get_str(j, "congestion", p->congestion,
			  sizeof(p->congestion), err)) ||
	    (rc = get_str(j, "client_version", p->client_version,
			  sizeof(p->client_version), err)) ||
	    (rc = get_str(j, "iochar_secret", p->secret, sizeof(p->secret),
			  err)))
		return rc;
	return 0;
}

json_object *net_params_to_json(const struct net_params *p,
				const char *version)
{
	json_object *j = json_object_new_object();
	int rc = 0;

	if (!j)
		return NULL;
#define ADD(k, v) (rc |= json_object_object_add(j, k, v))
	ADD("tcp", json_object_new_boolean(1));
	ADD("omit", json_object_new_int64(0));
	ADD("time", json_object_new_int64(p->duration));
	ADD("parallel", json_object_new_int64(p->parallel));
	if (p->reverse)
		ADD("reverse", json_object_new_boolean(1));
	if (p->bidir)
		ADD("bidirectional", json_object_new_boolean(1));
	if (p->window)
		ADD("window", json_object_new_int64(p->window));
	if (p->mss)
		ADD("MSS", json_object_new_int64(p->mss));
	if (p->nodelay)
		ADD("nodelay", json_object_new_boolean(1));
	if (p->bandwidth)
		ADD("bandwidth", json_object_new_int64((int64_t)p->bandwidth));
	if (p->get_server_output)
		ADD("get_server_output", json_object_new_int64(1));
	if (p->tos)
		ADD("TOS", json_object_new_int64(p->tos));
	if (p->fqrate)
		ADD("fqrate", json_object_new_int64((int64_t)p->fqrate));
	ADD("len", json_object_new_int64(p->len));
	ADD("pacing_timer", json_object_new_int64(1000));
	if (p->congestion[0])
		ADD("congestion", json_object_new_string(p->congestion));
	ADD("client_version", json_object_new_string(version));
	if (p->secret[0])
		ADD("iochar_secret", json_object_new_string(p->secret));
#undef ADD
	if (rc) {
		json_object_put(j);
		return NULL;
	}
	return j;
}

/* exchange.c - the EXCHANGE_RESULTS message: struct net_exchange <-> JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/exchange.h"

unsigned net_stream_id(unsigned index)
{
	return index == 0 ? 1 : index + 2;
}

static int get_num(json_object *j, const char *key, bool required,
		   double *out, struct ioc_err *err)
{
	json_object *v;

	if (!json_object_object_get_ex(j, key, &v)) {
		if (required)
			return err_set(err, EINVAL, "results lack \"%s\"", key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return err_set(err, EINVAL, "results: \"%s\" is not a number",
			       key);
	*out = json_object_get_double(v);
	if (!isfinite(*out))
		return err_set(err, EINVAL, "results: \"%s\" not finite", key);
	return 0;
}

static int get_stream(json_object *js, struct net_peer_stream *s,
		      struct ioc_err *err)
{
	double id = 0, bytes = 0, retr = -1, start = 0, end = 0, unused = 0;
	int rc;

	if (!json_object_is_type(js, json_type_object))
		return err_set(err, EINVAL, "results: a stream is no object");
	if ((rc = get_num(js, "id", true, &id, err)) ||
	    (rc = get_num(js, "bytes", true, &bytes, err)) ||
	    (rc = get_num(js, "retransmits", true, &retr, err)) ||
	    (rc = get_num(js, "jitter", true, &unused, err)) ||
	    (rc = get_num(js, "errors", true, &unused, err)) ||
	    (rc = get_num(js, "packets", true, &unused, err)) ||
	    (rc = get_num(js, "start_time", false, &start, err)) ||
	    (rc = get_num(js, "end_time", false, &end, err)))
		return rc;
	if (id < 1 || id > 1e6 || id != floor(id))
		return err_set(err, EINVAL, "results: stream id %g", id);
	if (bytes < 0 || bytes > 1e19)
		return err_set(err, EINVAL, "results: stream bytes %g", bytes);
	s->id = (unsigned)id;
	s->bytes = (uint64_t)bytes;
	s->retransmits = retr < 0 || retr > 1e18 ? -1 : (int64_t)retr;
	s->start_time = start;
	s->end_time = end;
	return 0;
}

int net_exchange_from_json(json_object *j, unsigned max_streams,
			   struct net_exchange *ex, struct ioc_err *err)
{
	json_object *arr, *v;
	double shr = 0;
	size_t n;
	int rc;

	memset(ex, 0, sizeof(*ex));
	if ((rc = get_num(j, "cpu_util_total", true, &ex->cpu_total, err)) ||
	    (rc = get_num(j, "cpu_util_user", true, &ex->cpu_user, err)) ||
	    (rc = get_num(j, "cpu_util_system", true, &ex->cpu_system, err)) ||
	    (rc = get_num(j, "sender_has_retransmits", true, &shr, err)))
		return rc;
	ex->sender_has_retransmits = shr > 0 ? 1 : shr < 0 ? -1 : 0;
	if (json_object_object_get_ex(j, "congestion_used", &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(ex->congestion_used, sizeof(ex->congestion_used), "%s",
			 json_object_get_string(v));
	if (!json_object_object_get_ex(j, "streams", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return err_set(err, EINVAL, "results lack a \"streams\" array");
	if (json_object_object_get_ex(j, "iochar_nic", &v) &&
	    json_object_is_type(v, json_type_object))
		ex->nic_json = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	if (json_object_object_get_ex(j, "iochar_host_cpu", &v) &&
	    json_object_is_type(v, json_type_object)) {
		double *f[] = {&ex->host_cpu.busy, &ex->host_cpu.user, &ex->host_cpu.system,
			       &ex->host_cpu.irq, &ex->host_cpu.softirq, &ex->host_cpu.steal};
		static const char *const k[] = {"busy", "user", "system", "irq", "softirq", "steal"};
		ex->host_cpu.known = true;
		for (unsigned i = 0; i < 6; i++)
			if (get_num(v, k[i], true, f[i], err)) {
				ex->host_cpu.known = false;
				err->msg[0] = '\0';
			}
	}
	if (json_object_object_get_ex(j, "server_output_json", &v) &&
	    json_object_is_type(v, json_type_object)) {
		ex->server_output = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		ex->server_output_is_json = true;
	} else if (json_object_object_get_ex(j, "server_output_text", &v) &&
		   json_object_is_type(v, json_type_string)) {
		ex->server_output = strdup(json_object_get_string(v));
	}
	n = json_object_array_length(arr);
	if (n > max_streams)
		return err_set(err, EINVAL, "results: %zu streams, at most %u",
			       n, max_streams);
	if (n) {
		ex->streams = calloc(n, sizeof(*ex->streams));
		if (!ex->streams)
			return err_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		rc = get_stream(json_object_array_get_idx(arr, i),
				&ex->streams[i], err);
		if (rc) {
			net_exchange_free(ex);
			return rc;
		}
		ex->nr_streams++;
	}
	return 0;
}

json_object *net_exchange_to_json(const struct net_exchange *ex)
{
	json_object *j = json_object_new_object();
	json_object *arr = json_object_new_array();
	int rc = 0;

	if (!j || !arr) {
		json_object_put(j);
		json_object_put(arr);
		return NULL;
	}
	rc |= json_object_object_add(j, "cpu_util_total",
				     json_object_new_double(ex->cpu_total));
	rc |= json_object_object_add(j, "cpu_util_user",
				     json_object_new_double(ex->cpu_user));
	rc |= json_object_object_add(j, "cpu_util_system",
				     json_object_new_double(ex->cpu_system));
	rc |= json_object_object_add(
		j, "sender_has_retransmits",
		json_object_new_int(ex->sender_has_retransmits));
	if (ex->congestion_used[0])
		rc |= json_object_object_add(
			j, "congestion_used",
			json_object_new_string(ex->congestion_used));
	rc |= json_object_object_add(j, "streams", arr);
	if (ex->nic_json) {
		json_object *nic = json_tokener_parse(ex->nic_json);
		rc |= nic ? json_object_object_add(j, "iochar_nic", nic) : -1;
	}
	if (ex->host_cpu.known) {
		json_object *c = json_object_new_object();
		const double f[] = {ex->host_cpu.busy, ex->host_cpu.user, ex->host_cpu.system,
				    ex->host_cpu.irq, ex->host_cpu.softirq, ex->host_cpu.steal};
		static const char *const k[] = {"busy", "user", "system", "irq", "softirq", "steal"};
		for (unsigned i = 0; c && i < 6; i++)
			rc |= json_object_object_add(c, k[i], json_object_new_double(f[i]));
		rc |= c ? json_object_object_add(j, "iochar_host_cpu", c) : -1;
	}
	if (ex->server_output && ex->server_output_is_json) {
		json_object *so = json_tokener_parse(ex->server_output);
		rc |= so ? json_object_object_add(j, "server_output_json", so) : -1;
	} else if (ex->server_output) {
		rc |= json_object_object_add(j, "server_output_text",
					     json_object_new_string(ex->server_output));
	}
	for (unsigned i = 0; i < ex->nr_streams; i++) {
		const struct net_peer_stream *s = &ex->streams[i];
		json_object *o = json_object_new_object();

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			rc = -1;
			break;
		}
		rc |= json_object_object_add(o, "id", json_object_new_int64(s->id));
		rc |= json_object_object_add(o, "bytes",
					     json_object_new_int64((int64_t)s->bytes));
		rc |= json_object_object_add(o, "retransmits",
					     json_object_new_int64(s->retransmits));
		rc |= json_object_object_add(o, "jitter", json_object_new_int(0));
		rc |= json_object_object_add(o, "errors", json_object_new_int(0));
		rc |= json_object_object_add(o, "packets", json_object_new_int(0));
		rc |= json_object_object_add(o, "start_time",
					     json_object_new_double(s->start_time));
		rc |= json_object_object_add(o, "end_time",
					     json_object_new_double(s->end_time));
	}
	if (rc) {
		json_object_put(j);
		return NULL;
	}
	return j;
}

void net_exchange_free(struct net_exchange *ex)
{
	if (!ex)
		return;
	free(ex->streams);
	ex->streams = NULL;
	ex->nr_streams = 0;
	free(ex->server_output);
	ex->server_output = NULL;
	free(ex->nic_json);
	ex->nic_json = NULL;
}

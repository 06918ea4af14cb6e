/* test_host_env_json.c - the text a rank sends rank 0 of its environment
 * (json_environment_text) placed with jw_raw: inside an indented document
 * it reads byte for byte as if rank 0 had emitted that environment itself
 * (json_emit_environment), for this machine's real environment; and
 * jw_raw refuses empty text and places values like any other. */
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

#include "inventory/environment.h"
#include "output/json_parts.h"
#include "base/json_writer.h"

/* {"hosts": [{"rank": 0, "environment": ENV}]} at indent 2, ENV emitted
 * directly (text NULL) or placed from text. */
static char *doc(const struct environment *e, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	struct jw w;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f, 2);
	jw_object_begin(&w);
	jw_key(&w, "hosts");
	jw_array_begin(&w);
	jw_object_begin(&w);
	jw_kv_int(&w, "rank", 0);
	if (text) {
		jw_key(&w, "environment");
		jw_raw(&w, text, strlen(text));
	} else {
		json_emit_environment(&w, e);
	}
	jw_object_end(&w);
	jw_array_end(&w);
	jw_object_end(&w);
	assert_int_equal(jw_finish(&w), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_placed_text_reads_as_emitted(void **state)
{
	(void)state;
	struct environment env;
	const char *paths[] = {"/proc/self/status"};
	char *text = NULL;
	size_t len = 0;
	assert_int_equal(environment_collect(&env, paths, 1), 0);
	assert_int_equal(json_environment_text(&env, &text, &len), 0);
	assert_int_equal(strlen(text), len);
	assert_non_null(strstr(text, "\"hostname\": \""));
	assert_non_null(strstr(text, "\"inventory\": {"));
	char *direct = doc(&env, NULL), *placed = doc(&env, text);
	assert_string_equal(placed, direct);
	free(direct);
	free(placed);
	free(text);
	environment_free(&env);
}

static void test_raw_values(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	struct jw w;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f, 0);
	jw_array_begin(&w);
	jw_raw(&w, "{\"a\": 1}\n", 9); /* a trailing line end is the writer's */
	jw_raw(&w, "null", 4);
	jw_array_end(&w);
	assert_int_equal(jw_finish(&w), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "[{\"a\": 1},null]\n");
	free(buf);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	jw_init(&w, f, 2);
	jw_array_begin(&w);
	jw_raw(&w, " \n", 2);
	jw_array_end(&w);
	assert_int_equal(jw_finish(&w), -EINVAL);
	fclose(f);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placed_text_reads_as_emitted),
		cmocka_unit_test(test_raw_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

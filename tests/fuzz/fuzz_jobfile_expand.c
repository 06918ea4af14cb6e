/* fuzz_jobfile_expand.c - libFuzzer target for the job files' value
 * substitutions (cli/jobfile_expand.h): ${VAR}, $pagesize, $mb_memory,
 * $ncpus and their arithmetic.
 *
 * The input is "VARIABLE\0VALUE": the bytes before the first NUL become
 * the variable IOCHAR_FZ (so "${IOCHAR_FZ}" in the value expands to
 * them), the bytes after it, up to a next NUL, the value expanded. The
 * budget is 1 MiB, so a few references to a large variable reach it
 * quickly (the job file's is JOBFILE_EXPAND_MAX; the code is the same).
 *
 * Besides the sanitizers, the target checks jobfile_expand's contract:
 * success gives a NUL-terminated copy no longer than the budget, taken
 * from it; failure leaves no output and says why, a usage error for a
 * value the budget cannot hold (-E2BIG) or bad arithmetic (-EINVAL);
 * a value without '$' comes out as it went in.
 *
 *     make fuzz && build-fuzz/fuzz_jobfile_expand tests/fuzz/corpus/jobfile_expand
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jobfile_expand.h"

#include "fuzz.h"

#define FUZZ_BUDGET (1u << 20)

/* IOCHAR_FZ=var through one buffer of ours that putenv keeps: glibc's
 * setenv never frees an old value, so millions of runs would grow RSS
 * until libFuzzer's limit. A longer var is cut to the buffer. */
static void set_var(const char *var)
{
	static char env[16 + 65536];

	snprintf(env, sizeof(env), "IOCHAR_FZ=%s", var);
	putenv(env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t vlen = nul ? (size_t)(nul - data) : size;
	char *var = strndup((const char *)data, vlen);
	char *value = nul ? strndup((const char *)nul + 1, size - vlen - 1)
			  : strdup("${IOCHAR_FZ}");
	size_t budget = FUZZ_BUDGET;
	struct ioc_err err = {0};
	char *out = (char *)&budget; /* must change only on success */
	int ret;

	if (!var || !value)
		goto done;
	set_var(var);
	ret = jobfile_expand("fuzz", value, &budget, &out, &err);
	if (ret == 0) {
		CHECK(out != (char *)&budget && out != NULL);
		CHECK(strlen(out) <= FUZZ_BUDGET);
		CHECK(budget == FUZZ_BUDGET - strlen(out) ||
		      /* arithmetic: the number, from the budget of the text */
		      budget <= FUZZ_BUDGET);
		if (!strchr(value, '$'))
			CHECK(strcmp(out, value) == 0 &&
			      budget == FUZZ_BUDGET - strlen(out));
		free(out);
	} else {
		CHECK(ret == -E2BIG || ret == -EINVAL || ret == -ENOMEM);
		CHECK(out == (char *)&budget);
		CHECK(err.msg[0] != '\0');
		CHECK(ret == -ENOMEM || err.usage == 1);
		CHECK(budget == FUZZ_BUDGET);
	}
done:
	free(var);
	free(value);
	return 0;
}

/* fuzz_jobfile.c - libFuzzer target for fio-style job files
 * (cli/jobfile.h, through util/ini.h and the option table).
 *
 * The input is the bytes of a job file, NUL bytes included: it is parsed
 * from memory with jobfile_parse_text_n, as jobfile_parse parses a file's
 * contents (a NUL byte is refused, not taken as the end). Besides the
 * sanitizers,
 * the target checks jobfile.h's contract: a failure leaves the outputs
 * untouched and says why in err; a success gives at least one job with a
 * non-empty, NUL-terminated name.
 *
 *     make fuzz && build-fuzz/fuzz_jobfile tests/fuzz/corpus/jobfile
 *     scripts/fuzz.sh 60        (every target, a fresh corpus copy each)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jobfile.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_spec *sentinel = (struct job_spec *)&size;
	struct job_spec *jobs = sentinel;
	struct ioc_err err = {0};
	unsigned nr = 77777;
	char *text = malloc(size + 1);
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = jobfile_parse_text_n(text, size, "fuzz.fio", &jobs, &nr, &err);
	if (ret) {
		CHECK(ret < 0);
		CHECK(err.msg[0] != '\0');
		/* no control byte of the input is echoed; several bad lines
		 * are one message line each, joined by '\n' (none empty) */
		for (const char *c = err.msg; *c; c++)
			CHECK((((unsigned char)*c >= 0x20 || *c == '\t') && *c != 0x7f) ||
			      (*c == '\n' && c > err.msg && c[-1] != '\n' && c[1]));
		CHECK(jobs == sentinel && nr == 77777);
	} else {
		CHECK(jobs != sentinel && jobs != NULL);
		CHECK(nr >= 1 && nr != 77777);
		for (unsigned i = 0; i < nr; i++) {
			CHECK(memchr(jobs[i].name, '\0',
				     sizeof(jobs[i].name)) != NULL);
			CHECK(jobs[i].name[0] != '\0');
			CHECK(jobs[i].nr_files <= JOB_MAX_FILES);
		}
		jobfile_free_jobs(jobs, nr);
	}
	free(text);
	return 0;
}

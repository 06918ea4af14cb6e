/* fio_seps.c - see fio_seps.h. */
#include "base/fio_seps.h"

#include <string.h>

void fio_dir_commas(const char *v, bool dash, char *out, size_t n)
{
	size_t len = strlen(v);

	if (len >= n) {
		len = n - 1;
	}
	memcpy(out, v, len);
	out[len] = '\0';
	if (strchr(out, ','))
		return;
	char sep = strchr(out, ':') ? ':' : dash ? '-' : '\0';
	for (char *p = out; sep && (p = strchr(p, sep)); p++)
		*p = ',';
}

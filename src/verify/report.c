/* report.c - see report.h. */
#include "verify/report.h"

#include <inttypes.h>
#include <string.h>

#define LINE_MAX_LEN 1024

void vreport_count(struct verify_counts *c, enum vkind k)
{
	switch (k) {
	case VK_OK:
		c->checked_units++;
		return;
	case VK_UNVERIFIED:
		c->unverified_units++;
		return;
	case VK_CORRUPTED:
		c->corrupted++;
		break;
	case VK_MISPLACED:
		c->misplaced++;
		break;
	case VK_STALE:
		c->stale++;
		break;
	case VK_NEVER_WRITTEN:
		c->never_written++;
		break;
	}
	c->checked_units++;
	c->failures++;
}

/* "%u" or "-" into buf. */
static const char *opt_u64(char *buf, size_t len, bool known, uint64_t v)
{
	if (!known)
		return "-";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static size_t dump(char *buf, size_t len, const uint8_t *d, size_t n)
{
	size_t used = 0;

	for (size_t i = 0; i < n && used + 3 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%02x",
					 i && i % 4 == 0 ? " " : "", d[i]);
	return used;
}

void vreport_print(FILE *out, const char *target, const struct vfailure *f)
{
	char line[LINE_MAX_LEN], eg[24], fg[24], fo[24], fd[24], hex[128];
	char crc[24] = "-", stored[24] = "-";
	/* header fields mean something when the magic or the offset is ours */
	bool found = f->header || f->found.offset == f->offset;
	size_t ndump =
	    f->unit_len < VBLOCK_DUMP_LEN ? f->unit_len : VBLOCK_DUMP_LEN;

	dump(hex, sizeof(hex), f->data, ndump);
	if (f->header) {
		snprintf(crc, sizeof(crc), "0x%08x", f->crc);
		snprintf(stored, sizeof(stored), "0x%08x", f->found.crc);
	}
	snprintf(line, sizeof(line),
		 "verify failure: target=%s offset=%" PRIu64
		 " kind=%s why=\"%s\""
		 " expected_gen=%s found_gen=%s expected_offset=%" PRIu64
		 " found_offset=%s crc=%s stored_crc=%s first_diff=%s"
		 " unit=%u data=%s\n",
		 target, f->offset, vkind_name(f->kind), f->why,
		 opt_u64(eg, sizeof(eg), f->expected_gen, f->expected_gen),
		 opt_u64(fg, sizeof(fg), found, f->found.gen), f->offset,
		 opt_u64(fo, sizeof(fo), found, f->found.offset), crc, stored,
		 opt_u64(fd, sizeof(fd), f->first_diff >= 0,
			 (uint64_t)f->first_diff),
		 f->unit_len, hex);
	fputs(line, out);
}

uint64_t vreport_missing(FILE *out, const char *target, uint64_t end,
			 uint64_t extent, uint32_t unit_len)
{
	if (extent <= end)
		return 0;
	if (out)
		fprintf(out,
			"verify failure: target=%s offset=%" PRIu64
			" kind=missing why=\"the target ends before the "
			"region its verified data was written for\" "
			"missing=[%" PRIu64 ", %" PRIu64 ") bytes=%" PRIu64
			"\n",
			target, end, end, extent, extent - end);
	return (extent - end + unit_len - 1) / unit_len;
}

void vreport_print_cap(FILE *out, const char *target)
{
	fprintf(out,
		"verify: target=%s: more than %d failures; further ones are "
		"counted, not printed\n",
		target, VREPORT_MAX_LINES);
}

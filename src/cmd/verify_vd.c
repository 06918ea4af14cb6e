/* verify_vd.c - see verify_vd.h. */
#include "cmd/verify_vd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "vd/members.h"
#include "vd/sync.h"

struct verify_vd {
	struct vd_members m;
	struct vd_sync s;
	bool open;
};

int verify_vd_open(const char *text, uint64_t size, uint64_t offset,
		   struct verify_vd **out, uint64_t *capacity,
		   struct ioc_err *err)
{
	struct verify_vd *v = calloc(1, sizeof(*v));
	int ret;

	*out = NULL;
	if (!v)
		return err_set(err, ENOMEM, "out of memory");
	if (strchr(text, ';')) {
		free(v);
		return err_usage(err, EINVAL,
				 "verify: --vd names several VDs (';'); "
				 "verify one at a time");
	}
	struct vd_members_params p = {
	    .text = text, .size = size, .offset = offset, .writes = false,
	};
	ret = vd_members_inspect(&p, &v->m, err);
	if (!ret)
		for (unsigned i = 0; i < v->m.def.nr_members; i++)
			if (v->m.fill[i] && !vd_member_failed(&v->m.def, i)) {
				ret = err_usage(err, EINVAL,
						"verify: --vd member %u (%s) is "
						"missing or shorter than the VD "
						"needs: nothing to read back",
						i, v->m.def.members[i]);
				break;
			}
	if (ret) {
		err->usage = 1;
		free(v);
		return ret;
	}
	/* a battery-backed cache a crash left is the VD's newest data:
	 * written to the members first, as at a controller's power-on */
	ret = vd_prepare_cache(&v->m, err);
	if (!ret)
		ret = vd_sync_open(&v->s, &v->m.def, v->m.member_bytes, false, err);
	if (ret) {
		free(v);
		return ret;
	}
	v->open = true;
	*capacity = v->m.geom.capacity;
	*out = v;
	return 0;
}

void verify_vd_close(struct verify_vd *v)
{
	if (!v)
		return;
	if (v->open)
		vd_sync_close(&v->s);
	free(v);
}

static int read_vd(void *arg, void *buf, size_t len, uint64_t off,
		   struct ioc_err *err)
{
	struct verify_vd *v = arg;

	return vd_sync_read(&v->s, buf, off, len, err);
}

void verify_vd_where(void *arg, FILE *out, uint64_t offset)
{
	struct verify_vd *v = arg;
	unsigned m;
	uint64_t moff;
	bool live = vd_sync_locate(&v->s, offset, &m, &moff);

	fprintf(out,
		"  vd: offset=%" PRIu64 " member=%u path=%s member_offset=%" PRIu64
		"%s\n",
		offset, m, v->m.def.members[m], moff,
		live ? "" : " (lost: rebuilt from the other members)");
}

void verify_vd_hook(struct verify_vd *v, struct vscan *p)
{
	p->read = read_vd;
	p->read_arg = v;
	p->where = verify_vd_where;
	p->where_arg = v;
}

/* members.c - inspecting a VD's members (see members.h). */
#define _GNU_SOURCE
#include "vd/members.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/target.h"
#include "util/file_id.h"
#include "util/fmt.h"
#include "util/note.h"
#include "target/guard.h"
#include "vd/bbu.h"
#include "vd/initmap.h"
#include "vd/sync.h"

static int fsync_all(const struct vd_sync *s)
{
	int ret = 0;
	for (unsigned i = 0; i < VD_MAX_MEMBERS; i++)
		if (s->fds[i] >= 0 && fdatasync(s->fds[i]))
			ret = -errno;
	return ret;
}

/* Two members that name one file (util/file_id.h), however spelt. */
static int check_twice(const struct vd_def *def, struct ioc_err *err)
{
	struct file_id *ids = calloc(def->nr_members, sizeof(*ids));
	int ret = 0;

	if (!ids)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < def->nr_members && !ret; i++) {
		file_id_of(def->members[i], &ids[i]);
		for (unsigned k = 0; k < i && !ret; k++)
			if (file_id_same(&ids[i], &ids[k]))
				ret = err_usage(err, EINVAL,
						"--vd: members %u (%s) and %u (%s) are the same file",
						k, def->members[k], i, def->members[i]);
	}
	free(ids);
	return ret;
}

static int check_member(const struct vd_members_params *p, const char *path,
			const struct target_info *ti, struct ioc_err *err)
{
	if (!ti->exists) {
		if (!p->size)
			return err_usage(err, ENOENT,
					 "--vd: member %s does not exist; give size= to create it",
					 path);
		if (!ti->parent_writable)
			return err_usage(err, EACCES,
					 "--vd: member %s: cannot create it: directory missing or not writable",
					 path);
		return 0;
	}
	if (p->writes)
		return guard_check(path, ti, p->force, err);
	return 0;
}

/* The initialization map (vd/initmap.h): this geometry's, and none left
 * uninitialized when the definition says require_init=1. */
static int check_init(struct vd_members *out, struct ioc_err *err)
{
	uint64_t left = 0;
	int ret;
	if (out->geom.np && (ret = vd_init_check(&out->def, out->geom.rows, &left, err)))
		return ret;
	if (left && out->def.require_init)
		return err_usage(err, EPERM,
				 "--vd: require_init=1, but %llu of its %llu stripe rows are not initialized (fast init): run iochar vd init --vd=... first",
				 (unsigned long long)left, (unsigned long long)out->geom.rows);
	out->uninit_rows = left;
	return 0;
}

/* What the definition allows this use of it: a jbod of several members
 * only in a run (split into one job per member), access=. */
static int check_use(const struct vd_members_params *p, const struct vd_def *def,
		     struct ioc_err *err)
{
	if (def->level == VD_JBOD && def->nr_members > 1)
		return err_usage(err, EINVAL,
				 "--vd: jbod passes each of its %u members through as its own drive, "
				 "which only a run does (one job per member); here give one member, "
				 "or span for one drive over them", def->nr_members);
	if (def->read_only && p->writes)
		return err_usage(err, EPERM, "--vd: access=ro, but the job writes");
	if (def->blocked && !p->maintenance)
		return err_usage(err, EPERM,
				 "--vd: access=blocked: the VD takes no host I/O (reads included); use access=rw or ro to run on it");
	return 0;
}

int vd_members_inspect(const struct vd_members_params *p, struct vd_members *out,
		       struct ioc_err *err)
{
	struct vd_def *def = &out->def;
	struct target_info ti[VD_MAX_MEMBERS];
	char a[32], b[32];
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = vd_def_parse(p->text, def, err)) || (ret = check_twice(def, err)) ||
	    (ret = check_use(p, def, err)))
		return ret;
	uint64_t smallest = UINT64_MAX, largest = 0;
	bool all_exist = true;
	out->dio_align = 512;
	for (unsigned i = 0; i < def->nr_members; i++) {
		if (vd_member_failed(def, i) || ((p->skip_mask >> i) & 1))
			continue;
		if ((ret = target_inspect(def->members[i], &ti[i], err)))
			return ret;
		if ((ret = check_member(p, def->members[i], &ti[i], err)))
			return ret;
		if (ti[i].dio_align > out->dio_align)
			out->dio_align = ti[i].dio_align;
		if (!ti[i].exists) {
			all_exist = false;
			continue;
		}
		if (ti[i].size < smallest)
			smallest = ti[i].size;
		if (ti[i].size > largest)
			largest = ti[i].size;
	}
	if (def->strip < out->dio_align)
		return err_usage(err, EINVAL,
				 "--vd: strip=%llu is smaller than the members' logical block (%u bytes)",
				 (unsigned long long)def->strip, out->dio_align);
	uint64_t need = p->size ? vd_geom_member_bytes_for(def, p->offset + p->size) : 0;
	if (!need) {
		if (!all_exist || smallest == UINT64_MAX)
			return err_usage(err, ENOENT, "--vd: give size= to create the members");
		need = smallest - smallest % def->strip;
	}
	out->sizes_differ = largest > 0 && smallest != largest;
	out->smallest = smallest;
	for (unsigned i = 0; i < def->nr_members; i++) {
		if (vd_member_failed(def, i) || ((p->skip_mask >> i) & 1))
			continue;
		if (ti[i].exists && ti[i].size >= need)
			continue;
		if (ti[i].is_block)
			return err_usage(err, EINVAL,
					 "--vd: member %s (%s) is smaller than the %s each member needs for size=",
					 def->members[i], fmt_bytes(a, sizeof(a), ti[i].size),
					 fmt_bytes(b, sizeof(b), need));
		if (ti[i].exists && !p->force && guard_is_ours(def->members[i]) != 1)
			return err_usage(err, EPERM,
					 "--vd: member %s is shorter (%s) than the %s each member needs, and iochar did not create it; give a smaller size, or --force",
					 def->members[i], fmt_bytes(a, sizeof(a), ti[i].size),
					 fmt_bytes(b, sizeof(b), need));
		out->fill[i] = true;
	}
	out->member_bytes = need;
	out->init_from = all_exist ? (smallest < need ? smallest : need) : 0;
	out->init_from -= out->init_from % def->strip;
	vd_geom_init(&out->geom, def, need);
	if ((ret = check_init(out, err)))
		return ret;
	if (out->geom.capacity <= p->offset)
		return err_usage(err, EINVAL, "--vd: offset=%s is beyond the VD's %s",
				 fmt_bytes(a, sizeof(a), p->offset),
				 fmt_bytes(b, sizeof(b), out->geom.capacity));
	return 0;
}

int vd_prepare_cache(const struct vd_members *m, struct ioc_err *err)
{
	uint64_t bytes = 0;

	for (unsigned i = 0; i < m->def.nr_members; i++)
		if (m->fill[i]) /* new members: a cache of old ones is meaningless */
			return vd_bbu_discard(&m->def, err);
	int ret = vd_bbu_replay(&m->def, m->member_bytes, &bytes, err);
	if (!ret && bytes)
		note_once("--vd: wrote %llu bytes of battery-backed cache (left by a crash) to the members first",
			  (unsigned long long)bytes);
	return ret;
}

int vd_prepare(const struct vd_members *m, const struct target_fill_ctl *c,
	       struct ioc_err *err)
{
	static const struct target_fill_ctl none;
	bool any = false;
	int ret;

	if (!c)
		c = &none;
	if ((ret = vd_prepare_cache(m, err)))
		return ret;
	for (unsigned i = 0; i < m->def.nr_members; i++) {
		if (!m->fill[i])
			continue;
		any = true;
		/* Ctrl-C stops a member's pre-write as it stops a file's */
		if ((ret = target_fill_ctl(m->def.members[i], m->member_bytes, c, err)))
			return ret;
	}
	if (!any || m->def.level == VD_RAID0 || vd_level_concat(m->def.level))
		return 0;
	struct vd_sync s;
	if ((ret = vd_sync_open(&s, &m->def, m->member_bytes, true, err)))
		return ret;
	ret = vd_sync_init_rows(&s, m->init_from / m->def.strip, vd_sync_rows(&s), err);
	if (!ret && fsync_all(&s))
		ret = err_set(err, EIO, "--vd: cannot sync the members");
	vd_sync_close(&s);
	return ret;
}

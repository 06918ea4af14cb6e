/* def.h - a virtual drive (VD) definition: level, strip, members, policies.
 *
 * The text form is what --vd= and plan files take:
 *
 *     LEVEL,strip=SIZE,members=PATH:PATH:...[,spans=N][,failed=I:J]
 *          [,readahead=on|adaptive|off][,write=through|back|back-bbu][,cache=SIZE]
 *          [,cache_file=PATH][,access=rw|ro|blocked][,disk_cache=on|off]
 *          [,init_file=PATH][,require_init=0|1]
 *
 * LEVEL is raid0, raid1, raid5, raid6, raid10 or jbod. Member numbers in
 * failed= (and in `vd rebuild --replace=`) count from 0 in members= order.
 * Parsing is syntax and arithmetic only: it touches no file (vd_members_inspect
 * in members.h looks at the paths). A vd_def owns no memory beyond itself.
 */
#ifndef IOCHAR_VD_DEF_H
#define IOCHAR_VD_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define VD_MAX_MEMBERS 64
#define VD_PATH_MAX 1024
#define VD_STRIP_MIN 4096u
#define VD_STRIP_MAX (1u << 20)
#define VD_CACHE_DEFAULT (64ull << 20)
/* cache=: 1m to 16g, checked where the definition is read. 16g is twice
 * the largest RAID controller's cache; more (cache=1t) made each worker
 * allocate its slot table, 294 MB, before the cache's own map failed. */
#define VD_CACHE_MIN (1ull << 20)
#define VD_CACHE_MAX (16ull << 30)

enum vd_level {
	VD_RAID0,
	VD_RAID1,
	VD_RAID5,
	VD_RAID6,
	VD_RAID10,
	VD_JBOD,          /* each member its own drive: runs split it, one job per member */
	VD_SPAN,          /* one drive, the members concatenated ("concat") */
};

/* Levels laid out as a concatenation (a one-member jbod is its member). */
static inline bool vd_level_concat(enum vd_level l)
{
	return l == VD_SPAN || l == VD_JBOD;
}

enum vd_write_policy {
	VD_WRITE_THROUGH,
	VD_WRITE_BACK,    /* acknowledged from memory, destaged in the background */
	VD_WRITE_BACK_BBU, /* ... the memory survives a crash (a file mapping) */
};



struct vd_def {
	enum vd_level level;
	uint64_t strip;                 /* bytes, power of two, 4 KiB .. 1 MiB */
	unsigned nr_members;
	char members[VD_MAX_MEMBERS][VD_PATH_MAX];
	unsigned spans;                 /* raid10: groups of mirrored pairs */
	uint64_t failed_mask;           /* bit i: member i is missing */
	bool readahead;                 /* readahead=on|always|adaptive */
	bool readahead_adaptive;        /* adaptive: only sequential streams load strips */
	enum vd_write_policy write;
	uint64_t cache;                 /* bytes of read-ahead / write-back cache */
	bool read_only;                 /* access=ro: writes are refused */
	bool blocked;                   /* access=blocked: no host I/O at all */
	bool disk_cache_off;            /* disk_cache=off: member writes durable (O_DSYNC) */
	char cache_file[VD_PATH_MAX];   /* write=back-bbu: the cache's file; "" = default */
	char init_file[VD_PATH_MAX];    /* the initialization map (vd/initmap.h); "" = default */
	bool require_init;              /* require_init=1: refuse a VD with uninitialized rows */
};

/* Parse text into def. 0, or -EINVAL with one usage line naming the
 * offending part ("--vd: raid5 needs at least 3 members, got 2"). Checks
 * everything that needs no file: level, strip range and power of two,
 * member count for the level, spans, failed members in range and not more
 * than the level survives, the same path listed twice. */
int vd_def_parse(const char *text, struct vd_def *def, struct ioc_err *err);

/* Several VDs in one option (plans: several VDs per step, run in
 * parallel and summed) are separated by ';'. Number of VDs in text. */
unsigned vd_list_count(const char *text);

/* Copy the i-th VD of text into out (len bytes). 0, or -E2BIG / -EINVAL. */
int vd_list_item(const char *text, unsigned i, char *out, size_t len);

/* The drives a run makes of the list: one per VD, and one per member of
 * a jbod (each member passed through as its own drive, as behind an HBA:
 * the item with members= that member alone). Count, and the i-th drive's
 * definition into out (0, or -E2BIG / -EINVAL / -ENOMEM). */
unsigned vd_drives_count(const char *text);
int vd_drives_item(const char *text, unsigned i, char *out, size_t len);

/* The member of a VD in the list text (';'-separated definitions) that
 * is the file path names, however either is spelt (util/file_id.h);
 * NULL when none is, or a definition does not parse (its own error
 * comes where it is checked). The pointer is into a static buffer. */
const char *vd_list_member(const char *text, const char *path);

/* The layout part of def as text vd_def_parse takes back: level, strip,
 * members (each made absolute when it resolves), spans, failed. Policies
 * are left out: they do not change where blocks live. Returns a malloc'd
 * string (free()), or NULL when out of memory. */
char *vd_def_format(const struct vd_def *def);

/* "through", "back", "back-bbu"; "rw", "ro", "blocked". */
const char *vd_write_name(enum vd_write_policy w);
const char *vd_access_name(const struct vd_def *def);

static inline bool vd_write_back(const struct vd_def *def)
{
	return def->write != VD_WRITE_THROUGH;
}

/* "raid5" ... */
const char *vd_level_name(enum vd_level level);

/* Fewest members the level takes. */
unsigned vd_level_min_members(enum vd_level level);

/* Members holding data in each stripe row (raid5: n-1, raid6: n-2,
 * raid1: 1, raid10: n/2, raid0 and jbod: n). */
unsigned vd_data_members(const struct vd_def *def);

/* Parity members per row: 1 for raid5, 2 for raid6, else 0. */
unsigned vd_parity_members(const struct vd_def *def);

/* Can the VD still serve every block with the members in mask missing? */
bool vd_survives(const struct vd_def *def, uint64_t mask);

static inline bool vd_member_failed(const struct vd_def *def, unsigned i)
{
	return (def->failed_mask >> i) & 1;
}

/* The write-back cache file of def (vd/bbu.h) into buf (len bytes):
 * cache_file=, else /dev/shm/iochar-vd-HASH.bbu with HASH of the layout.
 * 0 or -ENAMETOOLONG. */
int vd_bbu_path(const struct vd_def *def, char *buf, size_t len);

#endif

/* initmap.h - which stripe rows of a VD are initialized (their parity
 * agrees with their data), as a controller tracks after a fast
 * initialization: `iochar vd init --mode=fast` marks every row
 * uninitialized; a write to such a row cannot trust the parity for a
 * read-modify-write and pays a reconstruct-write (it reads every data
 * strip it does not overwrite), after which the row is initialized. A
 * full initialization (`vd init`, or iochar creating the members) leaves
 * no map: every row is initialized.
 *
 * The map is a file: init_file= of the definition, else
 * /dev/shm/iochar-vd-HASH.init (the HASH of vd/bbu.h). Loaded by
 * vd_create, written back by vd_destroy (removed once every row is
 * initialized).
 */
#ifndef IOCHAR_VD_INITMAP_H
#define IOCHAR_VD_INITMAP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "vd/def.h"
#include "vd/geom.h"

int vd_init_path(const struct vd_def *def, char *buf, size_t len);

/* Rows of def's map still uninitialized into *left (0: no map), of
 * *rows. 0, or -EINVAL with a usage message when the map belongs to
 * another geometry. */
int vd_init_check(const struct vd_def *def, uint64_t rows, uint64_t *left,
		  struct ioc_err *err);

/* Write a map with all `rows` rows uninitialized (fast init). 0 or -errno. */
int vd_init_mark_fast(const struct vd_def *def, uint64_t rows, struct ioc_err *err);

/* Remove def's map: every row initialized (full init). */
void vd_init_clear(const struct vd_def *def);

/* vd.c: load the map of def (geometry g) into *uninit, a bit per row
 * (NULL when there is none); save it back, or remove it when every row
 * is initialized. */
int vd_init_load(const struct vd_def *def, const struct vd_geom *g,
		 _Atomic uint64_t **uninit);
void vd_init_save(const struct vd_def *def, const struct vd_geom *g,
		  _Atomic uint64_t *uninit);

#endif

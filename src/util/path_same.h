/* path_same.h - whether two spellings of a path name one file: `J`,
 * `./J`, `sub/../J` and a symlink to J are the same file, whether or not
 * it exists yet (a run may create it). */
#ifndef IOCHAR_UTIL_PATH_SAME_H
#define IOCHAR_UTIL_PATH_SAME_H

#include <stdbool.h>
#include <stddef.h>

/* path as the kernel would resolve it, into out (len bytes): absolute,
 * every symlink followed (a dangling one to the file it would create),
 * '.' and '..' taken; the last component need not exist, its directory
 * must. 0, or -errno (-ENOENT: no such directory, -ELOOP, -ENAMETOOLONG). */
int path_resolve(const char *path, char *out, size_t len);

/* Do a and b name the same file: the same inode when both exist, else
 * the same resolved path? A path that cannot be resolved is compared as
 * spelled. */
bool path_same(const char *a, const char *b);

#endif

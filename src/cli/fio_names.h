/* fio_names.h - every option name fio knows (generated from fio's source by
 * scripts/gen_fio_options.sh into fio_names.c): to tell an option fio has
 * but iochar does not from a name fio does not know either, and to list
 * every fio option in docs/fio-compat.md.
 */
#ifndef IOCHAR_CLI_FIO_NAMES_H
#define IOCHAR_CLI_FIO_NAMES_H

struct fio_name {
	const char *name;
	const char *alias; /* "" = none */
	const char *where; /* "" = a job option; "ioengine=X"; "profile X" */
	int prio;	   /* fio parses a section's options highest first */
};

/* In fio's order, ended by a row whose name is NULL. Static data. */
extern const struct fio_name fio_names[];

/* The fio release the list was generated from ("fio-3.33"). */
extern const char fio_names_version[];

/* The row of fio_names that key names (name or alias, compared as fio's
 * keys are: exactly, but '-' and '_' alike as iochar's), or NULL. */
const struct fio_name *fio_name_find(const char *key);

#endif

/* os.c - host name, kernel and distribution.
 *
 * The kernel strings come from /proc/sys/kernel (so a fixture root can
 * hold them), falling back to uname(2) on the running system; the
 * distribution from os-release(5): /etc/os-release, else
 * /usr/lib/os-release.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "inventory/collect.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"

/* os-release values may be quoted with " or ' and use \ escapes. */
static void unquote(char *v)
{
	size_t n = strlen(v);
	char *out = v;

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = '\0';
		for (char *in = v + 1; *in; in++) {
			if (*in == '\\' && in[1])
				in++;
			*out++ = *in;
		}
		*out = '\0';
	}
}

static int os_release(struct inventory *inv, const char *path)
{
	char full[4200], line[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", inv->root, path);
	f = fopen(full, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		char *val = eq + 1;
		val[strcspn(val, "\n")] = '\0';
		unquote(val);
		if (!strcmp(line, "PRETTY_NAME"))
			inv_copy(inv->os.distro, sizeof(inv->os.distro), val);
		else if (!strcmp(line, "ID"))
			inv_copy(inv->os.distro_id, sizeof(inv->os.distro_id),
				 val);
		else if (!strcmp(line, "VERSION_ID"))
			inv_copy(inv->os.distro_version,
				 sizeof(inv->os.distro_version), val);
	}
	fclose(f);
	return 0;
}

void inv_collect_os(struct inventory *inv)
{
	struct inv_os *os = &inv->os;
	struct utsname u;
	bool live = !inv->root[0];

	sysfs_read(inv->root, os->hostname, sizeof(os->hostname),
		   "/proc/sys/kernel/hostname");
	sysfs_read(inv->root, os->kernel, sizeof(os->kernel),
		   "/proc/sys/kernel/osrelease");
	sysfs_read(inv->root, os->kernel_version, sizeof(os->kernel_version),
		   "/proc/sys/kernel/version");
	if (uname(&u) == 0) {
		inv_copy(os->machine, sizeof(os->machine), u.machine);
		if (live && !os->hostname[0])
			inv_copy(os->hostname, sizeof(os->hostname),
				 u.nodename);
		if (live && !os->kernel[0])
			inv_copy(os->kernel, sizeof(os->kernel), u.release);
		if (live && !os->kernel_version[0])
			inv_copy(os->kernel_version, sizeof(os->kernel_version),
				 u.version);
	}
	if (os_release(inv, "/etc/os-release"))
		os_release(inv, "/usr/lib/os-release");
}

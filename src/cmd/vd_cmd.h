/* vd_cmd.h - the `iochar vd` subcommands' shared pieces (cmd/vd.c has
 * rebuild, cmd/vd_init.c init). */
#ifndef IOCHAR_CMD_VD_CMD_H
#define IOCHAR_CMD_VD_CMD_H

/* Take `--name=V` or `--name V` out of argv (in place, every occurrence;
 * the last wins). Returns V (pointing into the original argv strings) or
 * NULL when absent. */
const char *vd_cmd_take(int *argc, char **argv, const char *name);

/* iochar vd init --vd=DEF [--mode=full|fast] [--size=] [--force]
 *                [--output-format=normal|json]  (argv[0] "init") */
int vd_init_cmd(int argc, char **argv);

#endif

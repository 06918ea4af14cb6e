/* vd_cmd.h - the `iochar vd` subcommands' shared pieces (cmd/vd.c has
 * rebuild, cmd/vd_init.c init). */
#ifndef IOCHAR_CMD_VD_CMD_H
#define IOCHAR_CMD_VD_CMD_H

/* iochar vd init --vd=DEF [--mode=full|fast] [--size=] [--force]
 *                [--output-format=normal|json]  (argv[0] "init") */
int vd_init_cmd(int argc, char **argv);

#endif

/* seams.h - the program's wiring of the runner's seams (core/seams.h). */
#ifndef IOCHAR_CMD_SEAMS_H
#define IOCHAR_CMD_SEAMS_H

/* Install RAID virtual drives (vd/target.h), verification
 * (verify/hooks.h) and the environment snapshot (inventory/environment.h)
 * for every run of this process. Called once by main() before any
 * command. */
void cmd_seams_install(void);

#endif

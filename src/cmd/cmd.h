/* cmd.h - the commands main dispatches to. Each takes argv with argv[0]
 * the command's name and returns the process exit status: 0 success,
 * 1 failure while running, 2 bad input, 130 stopped by a signal. */
#ifndef IOCHAR_CMD_CMD_H
#define IOCHAR_CMD_CMD_H

#define EXIT_USAGE 2
#define EXIT_SIGNAL 130

int cmd_run(int argc, char **argv);

/* Read a target back and check the units a verify=1 run wrote. */
int cmd_verify(int argc, char **argv);

/* net server / net client: TCP throughput, iperf3-compatible. */
int cmd_net(int argc, char **argv);
/* net mesh: every host pair's throughput over MPI (cmd/net_mesh.c). */
int cmd_net_mesh(int argc, char **argv);

/* plan, search, curve and precondition (argv[0] tells which). */
int cmd_plan(int argc, char **argv);

/* The machine's inventory (src/inventory/), as text, JSON or CSV. */
int cmd_inventory(int argc, char **argv);
/* vd rebuild: regenerate a RAID virtual drive's member (cmd/vd.c). */
int cmd_vd(int argc, char **argv);
/* The HTML report, and the comparison, of result sets (src/report). */
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
/* capture DEVICE... --time=T -o FILE: blktrace into a replayable trace. */
int cmd_capture(int argc, char **argv);
/* app BENCH ...: a real database benchmark on the device under test. */
int cmd_app(int argc, char **argv);
/* model fit|predict|loo: the I/O-path model (src/model/, docs/model.md). */
int cmd_model(int argc, char **argv);

#endif

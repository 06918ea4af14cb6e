/* plan_builtin.c - the plans iochar knows by name ("iochar plan quick"),
 * each the text of a plan file, so it can be printed, copied and edited.
 * Files named in them are absent on purpose: the caller runs a plan on the
 * targets given on the command line, or on the scratch file.
 */
#include "charz/plan.h"

static const char whitepaper[] =
    "; whitepaper: the disk characterization of the 2U rack server paper.\n"
    "; Random 4K and 8K at read:write 100:0, 0:100, 70:30 and 50:50;\n"
    "; sequential 256K and 1M at 100:0 and 0:100. Each step searches the\n"
    "; iodepth x numjobs that gives the most IOPS (MB/s) inside the\n"
    "; latency limit: 2 ms mean in each direction, as the paper. As the\n"
    "; paper, all targets (virtual drives) run at once and are summed\n"
    "; (each one's row kept); targets=each runs them one at a time. QD\n"
    "; and jobs are per target: 4 targets at QD 32 x 2 jobs are 256\n"
    "; outstanding I/Os. Each random step that writes is preceded by SNIA\n"
    "; PTS preconditioning (the 2x capacity 128K fill once per target,\n"
    "; then rounds of that step's own workload to steady state, at most\n"
    "; 25 of 60 s): precondition=off to skip it on drives you prepared.\n"
    "; 12 steps.\n"
    "[global]\n"
    "mode=search\n"
    "targets=parallel\n"
    "precondition=auto\n"
    "latency_limit=2ms\n"
    "latency_stat=mean\n"
    "latency_scope=each\n"
    "direct=1\n"
    "ioengine=io_uring\n"
    "time_based\n"
    "runtime=10s\n"
    "ramp_time=2s\n"
    "\n"
    "; randrw with rwmixread=100 is pure random read, 0 pure random write\n"
    "[random]\n"
    "rw=randrw\n"
    "bs=4k,8k\n"
    "rwmixread=100,0,70,50\n"
    "\n"
    "[sequential]\n"
    "rw=rw\n"
    "bs=256k,1m\n"
    "rwmixread=100,0\n";

static const char four_corners[] =
    "; four-corners: the classic corners of a device, 4K random read and\n"
    "; write (IOPS) and 1M sequential read and write (MB/s), each the\n"
    "; best iodepth x numjobs within 10 ms mean latency: a limit loose\n"
    "; enough to find the device's maximum without queueing forever.\n"
    "; 4 steps.\n"
    "[global]\n"
    "mode=search\n"
    "latency_limit=10ms\n"
    "latency_stat=mean\n"
    "direct=1\n"
    "time_based\n"
    "runtime=10s\n"
    "ramp_time=2s\n"
    "\n"
    "[random-4k]\n"
    "rw=randread,randwrite\n"
    "bs=4k\n"
    "\n"
    "[sequential-1m]\n"
    "rw=read,write\n"
    "bs=1m\n";

static const char vdbench_curves[] =
    "; vdbench-curves: latency versus load, as the NVMe SSD review drew\n"
    "; with vdbench: 4K random read and write at 128 outstanding I/Os\n"
    "; (iodepth=32 x 4 jobs), 64K sequential read and write at 32\n"
    "; (iodepth=16 x 2 jobs). Each runs its maximum, then 10 % to 120 %\n"
    "; of it with random (Poisson) arrivals, vdbench's default; a point\n"
    "; is not reached when the device falls short of the rate asked. A\n"
    "; point past 100 ms mean latency ends the curve: the device is\n"
    "; saturated and later points would only queue. The review filled\n"
    "; the drive first: run a mode=precondition step before this.\n"
    "; 4 steps of 13 runs.\n"
    "[global]\n"
    "mode=curve\n"
    "points=10,20,30,40,50,60,70,80,90,100,110,120\n"
    "stop_latency=100ms\n"
    "latency_stat=mean\n"
    "rate_process=poisson\n"
    "direct=1\n"
    "time_based\n"
    "runtime=10s\n"
    "ramp_time=2s\n"
    "\n"
    "[random-4k]\n"
    "rw=randread,randwrite\n"
    "bs=4k\n"
    "iodepth=32\n"
    "numjobs=4\n"
    "\n"
    "[sequential-64k]\n"
    "rw=read,write\n"
    "bs=64k\n"
    "iodepth=16\n"
    "numjobs=2\n";

static const char oltp[] =
    "; oltp: a database-like load, 8K random at read:write 70:30 and\n"
    "; 50:50 on a hot region (zipf 1.1: a few blocks take most I/O), the\n"
    "; best iodepth x numjobs inside 2 ms mean latency, the target of the\n"
    "; Oracle (SLOB) tests. 2 steps.\n"
    "[global]\n"
    "mode=search\n"
    "latency_limit=2ms\n"
    "latency_stat=mean\n"
    "direct=1\n"
    "time_based\n"
    "runtime=10s\n"
    "ramp_time=2s\n"
    "\n"
    "[oltp]\n"
    "rw=randrw\n"
    "bs=8k\n"
    "rwmixread=70,50\n"
    "random_distribution=zipf:1.1\n";

static const char quick[] =
    "; quick: a first look in under a minute, on the scratch file unless\n"
    "; targets are given: the best 4K random read depth inside 2 ms (about\n"
    "; 8 points of 2 s), 1M sequential read and write, 4K random write.\n"
    "; About 25 s of I/O in 4 steps.\n"
    "[global]\n"
    "direct=1\n"
    "time_based\n"
    "runtime=3s\n"
    "\n"
    "[rand4k-search]\n"
    "mode=search\n"
    "rw=randread\n"
    "bs=4k\n"
    "latency_limit=2ms\n"
    "max_iodepth=32\n"
    "max_numjobs=2\n"
    "runtime=2s\n"
    "\n"
    "[seq1m]\n"
    "mode=fixed\n"
    "rw=read,write\n"
    "bs=1m\n"
    "iodepth=8\n"
    "\n"
    "[rand4k-write]\n"
    "mode=fixed\n"
    "rw=randwrite\n"
    "bs=4k\n"
    "iodepth=16\n";

const struct plan_builtin plan_builtins[] = {
    {"whitepaper",
     "the rack server paper's matrix: random 4K/8K, sequential 256K/1M, "
     "best inside 2 ms",
     whitepaper},
    {"four-corners",
     "4K random read/write and 1M sequential read/write, best within "
     "10 ms",
     four_corners},
    {"vdbench-curves",
     "latency-versus-load curves, 10 % to 120 % of the maximum, 4K "
     "random and 64K sequential",
     vdbench_curves},
    {"oltp", "8K random 70:30 and 50:50 on a hot region, best inside 2 ms",
     oltp},
    {"quick", "a first look in under a minute", quick},
    {NULL, NULL, NULL},
};

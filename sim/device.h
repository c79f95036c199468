/* device.h: the host API.  A harness opens a device for an arch profile,
 * loads PTX, allocates and copies buffers, sets function attributes,
 * launches kernels and reads results and statistics back -- the CUDA driver
 * API's shape, reduced to what lessons, the grader and `warpsim run` need.
 *
 * Two backends implement it: the simulator (device_open_sim, here in sim/)
 * and the real GPU (gpu/, through the driver API).  Both take the very same
 * PTX text.  Nothing here prints or exits: errors fill a SimError. */
#ifndef WARPSIM_DEVICE_H
#define WARPSIM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef struct Device Device;             /* opaque: one open device */
typedef struct DeviceModule DeviceModule; /* opaque: one loaded PTX module */
typedef uint64_t DevicePtr;               /* a device address */

typedef struct {
    unsigned x, y, z;
} DeviceDim3;

/* Function attributes settable before a launch (cuFuncSetAttribute). */
typedef enum {
    DEVICE_ATTR_MAX_DYNAMIC_SMEM,   /* bytes of dynamic shared memory allowed */
    DEVICE_ATTR_PREFERRED_CARVEOUT  /* -1 default, else 0..100 percent */
} DeviceAttr;

/* Warp states of the timing model, under Nsight Compute's names
 * (smsp__pcsamp_warps_issue_stalled_*): each resident warp is in one of
 * them every cycle.  device_stall_name gives "long_scoreboard", ... */
enum {
    DEVICE_STALL_LONG_SCOREBOARD, /* waits for a global/local load (L1TEX) */
    DEVICE_STALL_SHORT_SCOREBOARD,/* waits for shared memory, SFU, a collective (MIO) */
    DEVICE_STALL_WAIT,            /* waits a fixed-latency dependency */
    DEVICE_STALL_BARRIER,         /* waits at bar.sync for its block */
    DEVICE_STALL_MEMBAR,          /* waits for a memory fence */
    DEVICE_STALL_MATH_PIPE_THROTTLE, /* its pipe (FP64, SFU, ...) is busy */
    DEVICE_STALL_LG_THROTTLE,     /* the L1's queue of global/local work is full */
    DEVICE_STALL_MIO_THROTTLE,    /* the shared-memory (MIO) queue is full */
    DEVICE_STALL_NOT_SELECTED,    /* ready, but its scheduler issued another warp */
    DEVICE_STALL_SELECTED,        /* issued this cycle */
    DEVICE_STALL_DISPATCH,        /* its block was just dispatched (dispatch_stall) */
    DEVICE_STALL_SLEEPING,        /* nanosleep */
    DEVICE_STALL_MISC,            /* waits for the rest of a warp-synchronous mask */
    DEVICE_STALL_COUNT
};
const char *device_stall_name(int i);

#define DEVICE_TIMING_MAX_SMS 256

/* What the timing model measured (DeviceLaunch.timing).  Sector counts are
 * 32-byte sectors as Nsight Compute counts them. */
typedef struct {
    bool on;                  /* the launch ran with the timing model */
    double clock_mhz;         /* the SM clock the cycles are in */
    double achieved_occupancy;/* 0..1: active warps per active cycle over the
                                 SM's maximum (sm__warps_active.avg.pct_of_peak_sustained_active) */
    uint64_t launch_overhead; /* cycles of the total that are launch overhead */
    int nsm;                  /* SMs in sm_active_cycles (those of the launch) */
    uint64_t sm_active_cycles[DEVICE_TIMING_MAX_SMS]; /* cycles each SM held a block */
    uint64_t l1_sectors, l1_hits;   /* global/local load sectors looked up in L1, hits */
    uint64_t l2_sectors, l2_hits;   /* sectors reaching L2 (loads, stores, atomics), hits */
    uint64_t dram_read_bytes, dram_write_bytes;
    uint64_t smem_wavefronts;       /* shared-memory wavefronts */
    uint64_t bank_conflict_replays; /* wavefronts beyond one per phase */
    size_t l1_bytes, smem_carveout_bytes; /* the split of the unified cache */
    uint64_t stall[DEVICE_STALL_COUNT]; /* warp-cycles in each state */
} DeviceTiming;

/* Counters of one launch. */
typedef struct {
    uint64_t warp_insts;      /* warp-level instructions issued */
    uint64_t thread_insts;    /* instructions executed summed over active lanes */
    uint64_t blocks;          /* blocks run to completion (or to the fault) */
    uint64_t warps;           /* warps created */
    uint64_t threads;         /* threads launched */
    uint64_t global_loads, global_stores;  /* per-thread accesses */
    uint64_t shared_loads, shared_stores;
    uint64_t atomics;         /* per-thread atomic element updates */
    uint64_t barriers;        /* block-wide barrier releases */
    uint64_t divergent_branches; /* branches that split a warp */
    uint64_t cycles;          /* simulated cycles: each SM issues up to 4 warp
                                 instructions per cycle, one per scheduler.
                                 With the timing model: the modelled kernel
                                 duration in SM cycles */
    int regs_per_thread;      /* registers declared by the kernel's PTX (sim) or
                                 allocated by ptxas (gpu); -1 unknown */
    uint64_t static_smem;     /* bytes of static shared memory */
    uint64_t local_bytes;     /* bytes of local memory per thread */
    double seconds;           /* host wall time of the launch */
    double kernel_ms;         /* gpu: the kernel's own time, cuEvent elapsed time
                                 between events recorded around the launch on its
                                 stream (ms, about 0.5 us resolution); 0 unknown
                                 and on the simulator (its time is cycles) */
    uint64_t printf_dropped;  /* bytes of printf output dropped past the first
                                 DEVICE_PRINTF_MAX (0: the output is whole) */
    DeviceTiming timing;      /* .on only when the launch ran with timing */
    int sm_threads;           /* threads the launch's SMs ran on (device_set_threads;
                                 0 on the GPU) */
    char sm_threads_note[160];/* "" or, when more threads were tried and the launch
                                 ran again on one, why */
} DeviceStats;

/* The most printf output one launch keeps (device_printf_output); what comes
 * after is counted in DeviceStats.printf_dropped, never silently lost. */
#define DEVICE_PRINTF_MAX ((size_t)64 << 20)

/* Why a launch stopped early.  kind is a short word: "out-of-bounds",
 * "misaligned", "barrier-divergence", "deadlock", "budget-exceeded", "trap",
 * "unsupported", "stack-overflow" (recursion deeper than the call stack),
 * "memory-limit" (device_set_memory_limit), "printf-limit"
 * (device_set_printf_limit), "illegal-address" (gpu). */
typedef struct {
    bool faulted;
    char kind[32];
    char msg[256];            /* one sentence, e.g. "st.global.u32 of 4 bytes at
                                 0x...: 4 bytes past the end of buffer #1" */
    DeviceDim3 block;         /* the faulting thread's %ctaid */
    DeviceDim3 thread;        /* and its %tid */
    int warp, lane;
    int ptx_line;             /* line in the PTX text, 0 when unknown */
    char ptx_text[160];       /* that line's instruction */
    char file[256];           /* the .cu file (outermost inlined location) */
    int line;                 /* its line, 0 when unknown */
    uint64_t addr;            /* the address involved, when there is one */
} DeviceFault;

struct SimView;                           /* a paused launch (sim/inspect.h) */

typedef struct {
    DeviceDim3 grid, block;
    unsigned smem;            /* dynamic shared memory, bytes */
    uint64_t inst_budget;     /* stop with "budget-exceeded" after this many warp
                                 instructions; 0 = the default (10^10) */
    const char *trace_path;   /* write a trace of the launch here (traces/FORMAT.md);
                                 NULL: no trace.  The simulator only: the GPU
                                 backend refuses it with SIM_ERR_UNSUPPORTED */
    int trace_level;          /* TraceLevel (sim/trace.h): 0 blocks, 1 warps,
                                 2 instructions, 3 memory */
    /* How the simulator orders what hardware leaves unordered (the GPU
     * backend ignores these).  Zero values are the deterministic defaults;
     * seed drives the random and adversarial choices. */
    int schedule;             /* DEVICE_SCHED_*: which warp issues next */
    int atomic_order;         /* DEVICE_ATOMIC_*: order of one instruction's lanes */
    int divergence;           /* DEVICE_DIV_*: independent thread scheduling or
                                 the pre-Volta reconvergence stack */
    uint64_t seed;
    unsigned checks;          /* DEVICE_CHECK_* bits */
    bool cooperative;         /* cudaLaunchCooperativeKernel: every block resident
                                 at once (refused with SIM_ERR_USAGE when the
                                 grid cannot be), grid-wide sync (grid.sync())
                                 through a workspace named in %envreg1/2; on the
                                 GPU cuLaunchCooperativeKernel, after the same
                                 residency check */
    DeviceDim3 cluster;       /* thread block cluster dimensions (sm_90+), as
                                 cudaLaunchKernelEx's cudaLaunchAttributeClusterDimension:
                                 {0,0,0} (or {1,1,1} with no __cluster_dims__) is no
                                 cluster; the kernel's __cluster_dims__
                                 (.reqnctapercluster) apply when this is zero, and
                                 both given and different is SIM_ERR_USAGE (the
                                 driver's CUDA_ERROR_INVALID_CLUSTER_SIZE).  The grid
                                 must be a multiple of it in each dimension, and it
                                 may hold at most 8 CTAs (the portable limit).  A
                                 cluster's CTAs run at once on SMs of one GPC
                                 (arch_gpc_layout), share distributed shared memory
                                 (mapa, ld/st/atom .shared::cluster) and
                                 barrier.cluster.  On the GPU cuLaunchKernelEx */
    /* The simulator calls on_issue(on_issue_user, view, block, warp) before
     * every warp instruction (sim/inspect.h: a SimIssueFn); it may inspect the
     * paused launch and stop it.  NULL: not called.  The GPU refuses it. */
    int (*on_issue)(void *user, const struct SimView *view, uint64_t block, int warp);
    void *on_issue_user;
    /* The simulator calls on_progress(on_progress_user, retired, total) between
     * rounds of its schedule (every few thousand cycles, never inside an
     * instruction) with the blocks retired so far of the grid's total: for a
     * progress line, and to stop on Ctrl-C.  Nonzero stops the launch (a fault
     * of kind "stopped").  NULL: not called.  The GPU ignores it. */
    int (*on_progress)(void *user, uint64_t retired, uint64_t total);
    void *on_progress_user;
    /* Run the timing model (sim/timing.h, docs/timing.md): warps issue in
     * the order modelled time gives, stats.cycles is the modelled duration
     * and stats.timing is filled.  Outputs of race-free kernels are the same
     * bit for bit.  The GPU backend ignores it. */
    bool timing;
} DeviceLaunch;

enum { DEVICE_SCHED_ROUNDROBIN = 0, DEVICE_SCHED_RANDOM, DEVICE_SCHED_ADVERSARIAL };
enum { DEVICE_ATOMIC_LANE = 0, DEVICE_ATOMIC_REVERSE, DEVICE_ATOMIC_RANDOM,
       DEVICE_ATOMIC_ADVERSARIAL };
enum { DEVICE_DIV_ITS = 0, DEVICE_DIV_STACK };
enum { DEVICE_CHECK_RACES = 1u << 0 };  /* race and sync checking (DeviceRace) */

/* Names for options and reports ("roundrobin", "lane", "its"), and their
 * inverse (-1 when unknown). */
const char *device_schedule_name(int s);
const char *device_atomic_order_name(int a);
const char *device_divergence_name(int d);
int device_schedule_parse(const char *name);
int device_atomic_order_parse(const char *name);
int device_divergence_parse(const char *name);

/* One access named by a race finding. */
typedef struct {
    DeviceDim3 block, thread;
    int warp, lane;
    int ptx_line;             /* 0 unknown */
    int line;                 /* .cu line, 0 unknown */
    char op[16];              /* "read", "write", "atomic", "cp.async" */
} DeviceAccess;

/* A race or synchronisation finding of a launch run with DEVICE_CHECK_RACES.
 * kind: "read-after-write", "write-after-read", "write-after-write",
 * "lost-update", "atomic-scope", "cp-async" (shared memory read while a
 * cp.async still fills it).  first is the earlier access, second the one
 * that revealed the hazard. */
typedef struct {
    char kind[32];
    char space[16];           /* "shared", "global" */
    uint64_t addr;            /* shared: offset in the block's window; global: address */
    char file[256];           /* the .cu file of second (else first), "" unknown */
    DeviceAccess first, second;
    char msg[256];            /* one sentence a student can act on */
} DeviceRace;

/* Findings of the last launch (deduplicated by kind and the two lines; at
 * most DEVICE_MAX_RACES).  0 / NULL when checking was off or on the GPU. */
#define DEVICE_MAX_RACES 64
int device_race_count(const Device *d);
const DeviceRace *device_race(const Device *d, int i);

/* The order in which atomic element updates hit the first addresses the
 * last launch updated atomically: up to DEVICE_ATOMIC_LOG_ADDRS addresses,
 * DEVICE_ATOMIC_LOG_UPDATES updates each (simulator only; 0 on the GPU). */
#define DEVICE_ATOMIC_LOG_ADDRS 8
#define DEVICE_ATOMIC_LOG_UPDATES 64
typedef struct {
    uint64_t addr;
    char space[16];
    int n;                    /* updates recorded */
    uint64_t total;           /* updates that happened */
    struct { DeviceDim3 block, thread; uint64_t old, val; } u[DEVICE_ATOMIC_LOG_UPDATES];
} DeviceAtomicLog;
int device_atomic_log_count(const Device *d);
const DeviceAtomicLog *device_atomic_log(const Device *d, int i);

/* Open the simulator for an arch profile ("sm_80", "sm_90", ...).
 * NULL with SIM_ERR_USAGE for an unknown arch. */
Device *device_open_sim(const char *arch, SimError *err);

/* Close a device and free every module and allocation it holds. */
void device_close(Device *d);

/* "simulator" or "gpu", and the arch profile in use ("sm_90"). */
const char *device_backend(const Device *d);
const char *device_arch(const Device *d);

/* Load a PTX module.  path names it in messages; text need not be
 * NUL-terminated.  Bad PTX: SIM_ERR_PARSE; an instruction the backend does
 * not support: SIM_ERR_UNSUPPORTED naming it and its line.  The module
 * belongs to the device. */
SimStatus device_load_ptx(Device *d, const char *path, const char *text,
                          size_t len, DeviceModule **out, SimError *err);

/* The PTX entry name of `name`, which is either an entry name or the plain
 * C++ name of a mangled one ("block_sum" finds "_Z9block_sumPKiPii").
 * NULL with SIM_ERR_USAGE (listing the entries) when none or several match. */
const char *device_find_kernel(DeviceModule *m, const char *name, SimError *err);

/* Parameters of kernel `entry`: count, and each one's size in bytes. */
int device_kernel_nparams(DeviceModule *m, const char *entry);
int device_kernel_param_size(DeviceModule *m, const char *entry, int i);
/* The block size kernel `entry` declares: its .reqntid, else its .maxntid
 * (a tile kernel's __launch_bounds__(tile::kThreads)), missing dimensions 1.
 * true with *block filled; false when it declares neither (or is unknown). */
bool device_kernel_declared_block(DeviceModule *m, const char *entry, DeviceDim3 *block);
/* Parameter i's type (a PtxType of ptx.h) as the PTX declares it (.u32 for an int, .f32 for a
 * float, .u64 for a pointer, .b8 for a struct); PTX_T_NONE out of range. */
int device_kernel_param_type(DeviceModule *m, const char *entry, int i);
/* Does kernel entry (or a function of its module) use the special function
 * unit -- an approximate instruction (sin.approx, ex2.approx, rcp.approx,
 * div.approx, ...)?  When it does, what gets "sin.approx.f32 at PTX line 41
 * (kernel.cu:12)", the first one, and the result is true.  xcheck names it
 * when a buffer differs from hardware. */
bool device_kernel_sfu(DeviceModule *m, const char *entry, char *what, size_t cap);

/* The most simulated memory the device may hold: global allocations
 * (device_malloc and module variables) plus, during a launch, the local
 * memory, shared memory and registers of its resident blocks; 0 (the
 * default) is no limit.  Over it, device_malloc and device_load_ptx fail
 * with SIM_ERR_USAGE naming the sizes, and a launch stops before it
 * allocates with a "memory-limit" fault such as "local memory: 64 KiB per
 * thread x 1024 threads x 8 resident blocks = 512 MiB exceeds the 256 MiB
 * limit".  A grader sets it so a submission cannot take the machine's
 * memory.  The simulator only: the GPU backend keeps its own memory. */
void device_set_memory_limit(Device *d, uint64_t bytes);
uint64_t device_memory_limit(const Device *d);

/* The most printf output one launch may write before it is stopped: past
 * it the launch ends with a "printf-limit" fault ("printf wrote more than
 * 1 MiB, this launch's printf limit; the launch was stopped"), keeping
 * the output up to the call that passed it.  0 (the default): no such stop; output
 * past DEVICE_PRINTF_MAX is dropped and counted (DeviceStats.printf_dropped).
 * A grader sets it so that a kernel printing in an endless loop ends in a
 * moment.  The simulator only: the GPU backend ignores it. */
void device_set_printf_limit(Device *d, uint64_t bytes);
uint64_t device_printf_limit(const Device *d);

/* Threads one launch may run on (default 1).  With more, the simulator
 * runs a launch's SMs side by side, with outputs, statistics, faults and
 * the atomic log exactly those of one thread: it notes every byte of global
 * memory each thread's SMs touch, and when SMs on two threads touched the
 * same bytes (one writing) or anything faulted, puts memory back and runs
 * the launch again on one thread.  Only launches where SMs share nothing
 * else run side by side: untimed, untraced, without race checking, the
 * roundrobin schedule, lane or reverse atomic order, no clusters or
 * cooperative launch or stepper, no printf or device malloc in the kernel;
 * the rest run on one thread.  The GPU backend ignores it. */
void device_set_threads(Device *d, int threads);
int device_threads(const Device *d);

/* Blocks of a launch of kernel entry with cfg (its grid, block and dynamic
 * shared memory) that the simulator holds resident at once, and allocates
 * registers, shared and local memory for: the occupancy model's blocks per
 * SM (with the kernel's shared memory and carveout) on each of the arch's
 * SMs, no more than the grid's blocks -- the count the memory limit's
 * "resident blocks" names.  A grader estimates a test's memory with it
 * before running it.  0 when entry is not in m or m is not on the
 * simulator. */
uint64_t device_resident_blocks(DeviceModule *m, const char *entry, const DeviceLaunch *cfg);

/* Global memory.  Allocations are zero-filled; every access a kernel makes is
 * checked against them. */
SimStatus device_malloc(Device *d, size_t bytes, DevicePtr *out, SimError *err);
SimStatus device_free(Device *d, DevicePtr p, SimError *err);
SimStatus device_memcpy_htod(Device *d, DevicePtr dst, const void *src,
                             size_t bytes, SimError *err);
SimStatus device_memcpy_dtoh(Device *d, void *dst, DevicePtr src, size_t bytes,
                             SimError *err);

SimStatus device_set_attr(DeviceModule *m, const char *entry, DeviceAttr a,
                          int value, SimError *err);

/* Launch entry and wait for it.  args[i] points at the value of parameter i
 * (device_kernel_param_size bytes), as with cuLaunchKernel.  stats and fault
 * may be NULL.  Returns SIM_OK, or SIM_ERR_FAULT with *fault filled (the
 * launch stopped cleanly), or another status with err filled (bad launch
 * configuration, unknown kernel, ...). */
SimStatus device_launch(DeviceModule *m, const char *entry,
                        const DeviceLaunch *cfg, void **args,
                        DeviceStats *stats, DeviceFault *fault, SimError *err);

/* Text the last launch printed with printf (vprintf), in a deterministic order:
 * by block (in launch order), then by warp, then in the order the warp's
 * printf calls ran (lane order within one call).  Owned by the
 * device, valid until the next launch; "" when nothing was printed. */
const char *device_printf_output(Device *d);

#endif

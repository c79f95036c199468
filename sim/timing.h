/* timing.h: the timing model's contract -- when things happen, beside the
 * functional executor that decides what happens.  With DeviceLaunch.timing
 * the executor's scheduler (exec_sched.c) asks this model which warp each
 * sub-partition scheduler issues, one instruction a cycle, and the model
 * charges every instruction its latency, pipe, memory traffic and stall
 * reason.  The functional results never depend on it for race-free kernels.
 * Parameters: one table per arch profile (timing_params.c); docs/timing.md. */
#ifndef WARPSIM_TIMING_H
#define WARPSIM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* ---- parameters (timing_params.c) ---------------------------------------- */

/* One per row of an arch's table.  Latencies and intervals in SM cycles. */
typedef enum {
    TP_CLOCK_MHZ,          /* SM clock the cycle counts are in */
    /* dependent-issue latency per instruction class */
    TP_LAT_FP32, TP_LAT_FP64, TP_LAT_INT, TP_LAT_IMUL, TP_LAT_SFU, TP_LAT_CVT,
    TP_LAT_BRANCH, TP_LAT_COLLECTIVE, TP_LAT_INTDIV,
    /* cycles one sub-partition's pipe is busy per warp instruction */
    TP_INT_FP32, TP_INT_FP64, TP_INT_INT, TP_INT_SFU, TP_INT_CVT, TP_INT_COLLECTIVE,
    TP_INT_INTDIV,
    /* shared memory (MIO) */
    TP_SMEM_LAT,           /* a conflict-free shared load */
    TP_MIO_QUEUE,          /* shared-memory instructions queued before issue stalls */
    /* L1 data cache (L1TEX) */
    TP_L1_LAT,             /* load hit */
    TP_L1_SECTORS_PER_CYCLE, /* tag/data throughput of one SM's L1 */
    TP_L1_WAYS_MIN,        /* associativity floor (sets are a power of two) */
    TP_SMEM_CONFIG_MIN,    /* KB: the least shared memory the driver configures */
    TP_LG_QUEUE,           /* global/local/atomic instructions the L1's queue holds
                              before their issue stalls (at most TIMING_LG_MAX) */
    TP_L1_LINE_OUT,        /* L1 cycles per line a load sends on to L2 (a miss) */
    TP_L1_STORE_LINE_OUT,  /* L1 cycles per line a store sends on to L2 */
    /* L2 */
    TP_L2_KB,              /* capacity */
    TP_L2_WAYS,
    TP_L2_PARTITIONS,
    TP_L2_LAT,             /* load hit in the near partition, from the SM */
    TP_L2_FAR_EXTRA,       /* extra cycles to the far partition */
    TP_L2_BYTES_PER_CYCLE, /* all partitions together */
    /* DRAM */
    TP_DRAM_LAT,           /* added to an L2 miss */
    TP_DRAM_BYTES_PER_CYCLE,
    TP_DRAM_FETCH_SECTORS, /* sectors an L2 miss reads from DRAM at once (aligned) */
    TP_DRAM_SPREAD,        /* an access's latency is TP_DRAM_LAT plus 0..this, by its
                              address (the DRAM's state: row, bank, refresh) */
    /* atomics at L2 */
    TP_ATOM_LAT,           /* a global atomic's round trip, uncontended */
    TP_ATOM_SAME_ADDR,     /* cycles between two updates of one address */
    TP_ATOM_SAME_LINE,     /* cycles the atomic unit of a line spends per address of it in a request */
    TP_SMEM_ATOM_LAT,      /* shared-memory atomic */
    TP_ATOM_OUTSTANDING,   /* atomic updates an SM may have sent and L2 not yet performed */
    /* synchronisation */
    TP_BAR_LAT,            /* barrier release to the first issue after it */
    TP_MEMBAR_LAT,         /* membar.gl / fence */
    /* launch */
    TP_LAUNCH_OVERHEAD,    /* cycles a launch adds to its blocks' span */
    TP_BLOCK_DISPATCH,     /* cycles from dispatch to a block's first issue */
    TP_BLOCK_INTERVAL,     /* cycles between two block dispatches on one SM */
    TP_DSMEM_LAT,          /* load from another CTA's shared memory (a cluster's
                              distributed shared memory, over the SM-to-SM network) */
    TP_COUNT
} TimingParamId;

typedef struct {
    const char *arch;      /* "sm_90" */
    const char *part;      /* the part it is calibrated for: "h100-sxm" */
    double v[TP_COUNT];
    const char *source[TP_COUNT]; /* where each value comes from (never NULL) */
} TimingParams;

/* The table for an arch profile: its own where one exists (sm_90, sm_80),
 * else the nearest older one.  Never NULL. */
const TimingParams *timing_params_for(const ArchProfile *a);
/* The name of a parameter ("l1_hit_latency"), NULL out of range. */
const char *timing_param_name(int id);

/* ---- instruction classes (timing_scoreboard.c) --------------------------- */
typedef enum {
    TC_INT, TC_IMUL, TC_INTDIV, TC_FP32, TC_FP64, TC_SFU, TC_CVT, TC_BRANCH,
    TC_COLLECTIVE,          /* shfl, vote, match, redux, bar.warp.sync */
    TC_GLOBAL,              /* ld/st global, local, generic, const */
    TC_SHARED,              /* ld/st shared */
    TC_ATOM_GLOBAL, TC_ATOM_SHARED,
    TC_CP_ASYNC,            /* cp.async (global -> shared) */
    TC_CP_WAIT,             /* cp.async.wait_group / wait_all */
    TC_BARRIER, TC_MEMBAR,
    TC_PARAM,               /* ld.param through a register (a __grid_constant__ address) */
    TC_NANOSLEEP,
    TC_CONST,               /* a read of a constant bank the SASS makes with LDC/ULDC
                               or as an operand: an entry's ld.param, mov of %ntid or
                               %nctaid, mov of a global variable's address */
    TC_COUNT
} TimingClass;

/* ---- stall reasons, Nsight Compute's names ------------------------------- */
/* see device.h DEVICE_STALL_COUNT and device_stall_name */

/* ---- shared-memory unit (timing_smem.c) ---------------------------------- */
/* Bank conflicts of one warp access: 32 banks of 4-byte words; lanes that
 * read the same word share it.  Wider accesses go in phases of 128 bytes.
 * Returns the wavefronts the access takes (sum over phases of the most
 * distinct words one bank serves in it); *degree gets the worst phase's
 * count and *phases the phases (either may be NULL). */
int timing_smem_wavefronts(uint32_t mask, const uint64_t addr[32], unsigned size, int *degree, int *phases);

/* ---- coalescer (timing_coalescer.c) -------------------------------------- */
#define TIMING_MAX_LINES 64
typedef struct {
    uint64_t line[TIMING_MAX_LINES];  /* 128-byte line addresses (byte address >> 7) */
    uint8_t sectors[TIMING_MAX_LINES];/* bit k: 32-byte sector k of that line is touched */
    int nlines, nsectors;
} TimingAccess;

/* The lines and sectors the lanes of mask touch, each lane reading size
 * bytes at addr[lane] (size 1..128). */
void timing_coalesce(uint32_t mask, const uint64_t addr[32], unsigned size, TimingAccess *out);

#endif

/* residency.h: what the per-block records of an instrumented launch
 * (gpu/instrument.h: SM, start and end time of every block) say about
 * residency -- blocks resident per SM over time, the most at once per SM and
 * overall, the number of waves, and achieved occupancy.  Pure computation
 * on the records: no GPU needed, so it is tested anywhere
 * (tests/test_residency.c) and also runs on records the simulator wrote.
 *
 * Definitions (times are %globaltimer nanoseconds):
 *   - A block is resident on its SM during [start, end).  Where one block
 *     ends and another starts at the same tick they do not overlap (a new
 *     block starts only after a slot is freed; the timer is coarse).
 *   - max_resident: the most blocks resident at once on one SM, however
 *     briefly.
 *   - steady_resident: the largest number of blocks that the SMs held for at
 *     least RESIDENCY_STEADY_FRACTION of their active time -- the level a
 *     launch settles at.  This is the number to compare with an occupancy
 *     prediction.  A block is counted from its first thread's start to its
 *     last thread's end, but a GPU frees a warp's slot when the warp exits,
 *     so the next block can start while the old one's last warps finish:
 *     on an H100 that shows as brief, impossible peaks (10 blocks of 256
 *     threads on an SM that holds 2048 threads, for a few microseconds).
 *   - waves: the longest chain of blocks that ran one after another on one
 *     SM (a block's wave is 1 + the highest wave among the blocks of its SM
 *     that had ended when it started).  Equal blocks that fill every SM k
 *     at a time give ceil(blocks / (k x SMs)).
 *   - achieved occupancy: active warps integrated over time, divided by
 *     max_warps_per_sm x the time each SM had at least one block, summed
 *     over SMs -- the same as Nsight Compute's
 *     sm__warps_active.avg.pct_of_peak_sustained_active / 100 when every
 *     warp of a block lives as long as the block (it counts a block's warps
 *     from its first thread's start to its last thread's end, so it is an
 *     upper bound when warps finish at different times). */
#ifndef WARPSIM_RESIDENCY_H
#define WARPSIM_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "instrument.h"

typedef struct {
    size_t blocks;             /* records given */
    size_t complete;           /* records with 0 < start <= end */
    int sms;                   /* distinct SMs that ran a complete block */
    int max_smid;              /* highest %smid seen, -1 when none */
    int max_resident;          /* most blocks resident at once on one SM */
    int min_of_max_resident;   /* the smallest per-SM maximum among SMs used */
    int steady_resident;       /* see above */
    int *max_resident_per_sm;  /* [max_smid + 1]: per SM, 0 for SMs unused
                                  (owned; residency_free) */
    int waves;                 /* longest chain of blocks one after another */
    double achieved_occupancy; /* 0..1 (see above) */
    double mean_resident;      /* blocks resident, time-weighted over the
                                  time each SM was active */
    double *time_at;           /* [max_resident + 1]: fraction of active
                                  SM-time with k blocks resident (time_at[0]
                                  is 0: idle time is not active); owned */
    uint64_t first_start;      /* earliest start */
    uint64_t last_end;         /* latest end */
} Residency;

#define RESIDENCY_STEADY_FRACTION 0.10

/* One step of blocks resident on one SM: from time t on, `resident` blocks. */
typedef struct {
    uint64_t t;
    int resident;
} ResidencyStep;

/* Compute *out from n records of blocks of warps_per_block warps each, on
 * an SM that holds max_warps_per_sm warps (sim/arch.h).  Incomplete records
 * (start 0, end 0 or end < start) are counted and left out.  SIM_OK, or
 * SIM_ERR_USAGE for warps_per_block or max_warps_per_sm < 1 (out cleared),
 * or SIM_ERR_NOMEM.  Free with residency_free. */
SimStatus residency_compute(const InstrRecord *recs, size_t n, int warps_per_block,
                            int max_warps_per_sm, Residency *out, SimError *err);

void residency_free(Residency *r);

/* Blocks resident on SM smid over time, as steps in time order (one per
 * distinct event time), written to steps[0..cap).  Returns the number of
 * steps there are (which may exceed cap, as snprintf). */
size_t residency_series(const InstrRecord *recs, size_t n, uint32_t smid, ResidencyStep *steps,
                        size_t cap);

#endif

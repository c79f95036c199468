/* occupancy.h: the occupancy model.  Given an arch profile and a kernel's
 * launch (block size, registers, shared memory, carveout, barriers) it
 * answers what cudaOccupancyMaxActiveBlocksPerMultiprocessor answers --
 * exactly, checked against the toolkit's cuda_occupancy.h by
 * tests/test_occupancy.c -- names every limit that binds, and says how much
 * of the unified cache is shared memory and how much is L1.  Also the
 * block-size search of cudaOccupancyMaxPotentialBlockSize, an upper bound on
 * co-resident clusters (sm_90+), and a plain-English walk through the
 * limits.  The rules are in ../shared/reference/arch-facts.md; lesson 4
 * (lessons/04-occupancy) teaches them.  Nothing here prints or exits. */
#ifndef WARPSIM_OCCUPANCY_H
#define WARPSIM_OCCUPANCY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "arch.h"
#include "carveout.h"
#include "error.h"

/* A per-SM limit with nothing to bind it (no registers, no shared memory). */
#define OCC_UNLIMITED INT_MAX

/* max_dynamic_smem value meaning "whatever the launch needs": the kernel's
 * cudaFuncAttributeMaxDynamicSharedMemorySize is the CUDA default (48 KB
 * minus static) or, when the launch asks for more, opted in to exactly it. */
#define OCC_DYN_AUTO ((size_t)-1)

/* Limiter bits (the same values as cudaOccLimitingFactor). */
typedef enum {
    OCC_LIMIT_WARPS = 0x01,          /* warp (thread) slots per SM */
    OCC_LIMIT_REGISTERS = 0x02,      /* register file */
    OCC_LIMIT_SHARED_MEMORY = 0x04,  /* shared memory (carveout) */
    OCC_LIMIT_BLOCKS = 0x08,         /* resident blocks per SM */
    OCC_LIMIT_BARRIERS = 0x10,       /* block barriers per SM (sm_90+) */
    OCC_LIMIT_VIRTUAL = 0x20         /* virtual resources per SM (sm_100+) */
} OccLimiter;

/* One kernel launch, as the occupancy calculation sees it.  Start from
 * occ_config_init() and set what you know. */
typedef struct {
    int block_size;            /* threads per block, >= 1 */
    int regs_per_thread;       /* ptxas "Used N registers"; 0 = none counted */
    size_t smem_static;        /* __shared__ arrays (ptxas "N bytes smem") */
    size_t smem_dynamic;       /* the third <<<>>> argument */
    size_t max_dynamic_smem;   /* cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  or OCC_DYN_AUTO */
    bool smem_optin;           /* true (as the runtime API): the per-block
                                  ceiling rises to the opt-in maximum when
                                  static + reserve + max_dynamic_smem > 48 KB,
                                  and smem_dynamic may not exceed
                                  max_dynamic_smem.  false: the ceiling stays
                                  at 48 KB (+ reserve) */
    int carveout;              /* -1 default, else 0..100 percent */
    CarveoutCacheConfig cache_config; /* legacy preference, used when carveout is -1 */
    int barriers;              /* block barriers the kernel uses (runtime: 1) */
    int virtual_resources;     /* virtual resources per block (0 = none) */
    int max_threads_per_block; /* kernel's own limit (__launch_bounds__), 0 = none;
                                  only the block-size search reads it */
} OccConfig;

/* Everything the calculation worked out.  Limits are in blocks per SM. */
typedef struct {
    int blocks_per_sm;         /* active blocks per SM (the API's answer) */
    int warps_per_sm;          /* blocks_per_sm x warps_per_block */
    int threads_per_sm;        /* blocks_per_sm x block_size */
    double occupancy;          /* warps_per_sm / max_warps_per_sm, 0..1 */
    unsigned limiters;         /* OccLimiter bits: every limit equal to
                                  blocks_per_sm */

    int limit_warps;           /* max_warps_per_sm / warps_per_block (0 if the
                                  block is larger than 1024 threads) */
    int limit_regs;            /* OCC_UNLIMITED with 0 registers */
    int limit_smem;            /* OCC_UNLIMITED with no shared memory */
    int limit_blocks;          /* max_blocks_per_sm */
    int limit_barriers;        /* OCC_UNLIMITED before sm_90 or with 0 barriers */
    int limit_virtual;         /* OCC_UNLIMITED when not used */

    int warps_per_block;       /* ceil(block_size / 32) */
    int regs_per_warp;         /* allocated: regs x 32 rounded up to 256 */
    int regs_per_block;        /* regs_per_warp x warps_per_block */
    int regs_per_block_checked;/* regs_per_warp x warps rounded up to 4: what
                                  the launch check compares with regsPerBlock */
    int warps_per_sm_by_regs;  /* warps the register file holds (4 partitions x
                                  16384 / regs_per_warp); OCC_UNLIMITED with 0 */
    bool regs_over_thread_max; /* regs_per_thread above what the API accepts */

    size_t smem_per_block;     /* static + reserve + dynamic, rounded up to the
                                  allocation unit */
    size_t smem_reserved;      /* the per-block reserve included above */
    size_t smem_block_ceiling; /* the most one block may have (incl. reserve) */
    bool smem_ceiling_optin;   /* the ceiling is the opt-in one, not 48 KB */
    bool smem_dyn_over_max;    /* smem_dynamic > max_dynamic_smem (opt-in rule) */
    size_t max_dynamic_smem;   /* the max_dynamic_smem used (OCC_DYN_AUTO resolved) */

    int carveout_effective;    /* after the legacy cache config: -1 or 0..100 */
    size_t smem_preferred;     /* capacity the carveout preference maps to */
    size_t smem_capacity;      /* shared-memory capacity per SM the calculation
                                  settles on: the preferred one, raised to the
                                  next supported size when one block would not
                                  fit in it */
    size_t l1_capacity;        /* unified cache left for L1 beside smem_capacity */

    int resident_blocks_per_sm;/* blocks the hardware keeps resident per SM.
                                  The driver treats the carveout as a hint and
                                  may keep more: the API's answer, except that
                                  a kernel with no shared memory at all is not
                                  limited by the per-block reserve (measured on
                                  an H100; occupancy.c says what is known) */
} OccResult;

/* Result of the block-size search. */
typedef struct {
    int block_size;            /* the block size with the most threads per SM */
    int min_grid_size;         /* its blocks_per_sm x sm_count */
    int blocks_per_sm;
    double occupancy;
} OccBlockSizeResult;

/* Dynamic shared memory for a candidate block size (the runtime's
 * blockSizeToDynamicSMemSize). */
typedef size_t (*OccDynSmemFn)(int block_size, void *user);

/* Co-resident clusters (sm_90+). */
typedef struct {
    int cluster_size;          /* blocks per cluster */
    int max_cluster_size;      /* 8 portable; 16 with the non-portable opt-in
                                  where confirmed */
    int blocks_per_sm;         /* per-SM blocks a cluster launch may use:
                                  min(occupancy, 8) -- the 8 is measured on an
                                  H200 and undocumented */
    int clusters_upper_bound;  /* floor(sm_count x blocks_per_sm / size); the
                                  API can answer less because a cluster must
                                  fit in one GPC (packing is undocumented) */
    int gpcs;                  /* GPCs of the model (arch_gpc_layout) */
    int max_active_clusters;   /* cudaOccupancyMaxActiveClusters' idea: per GPC
                                  floor(its SMs x blocks_per_sm / size), summed.
                                  Still an upper bound: an H200 (132 SMs, 128-
                                  thread blocks) answered 248, 124, 58 for sizes
                                  4, 8, 16 where this gives 264, 132, 66 */
    bool cluster_limits;       /* fewer blocks resident (max_active_clusters x
                                  size) than the SMs alone allow (sm_count x
                                  the occupancy's blocks per SM): the cluster,
                                  not the SM, is the limiter */
} OccCluster;

/* Fill c with a 1-thread, 0-register launch: carveout default, 1 barrier
 * (what the runtime assumes), smem_optin on, max_dynamic_smem OCC_DYN_AUTO. */
void occ_config_init(OccConfig *c);

/* Compute the occupancy of cfg on arch a.  SIM_OK and *out filled, or
 * SIM_ERR_USAGE (out untouched) for block_size < 1, negative registers,
 * barriers or virtual resources, a carveout outside -1..100, or shared-memory
 * sizes above 1 GB.  A launch that cannot run at all is not an error: it gives
 * blocks_per_sm = 0 with the limit(s) that are 0 named. */
SimStatus occ_compute(const ArchProfile *a, const OccConfig *cfg,
                      OccResult *out, SimError *err);

/* cudaOccupancyMaxPotentialBlockSize: try block sizes from the largest
 * allowed (min of 1024, cfg->max_threads_per_block and block_size_limit when
 * those are nonzero) down in steps of 32, keep the one with the most threads
 * per SM (the larger on a tie).  Dynamic shared memory is dyn(size, user)
 * when dyn is non-NULL, else cfg->smem_dynamic; cfg->block_size is ignored.
 * SIM_ERR_USAGE as occ_compute. */
SimStatus occ_max_potential_block_size(const ArchProfile *a, int sm_count,
                                       const OccConfig *cfg, OccDynSmemFn dyn,
                                       void *user, int block_size_limit,
                                       OccBlockSizeResult *out, SimError *err);

/* Cluster occupancy for cluster_size blocks per cluster.  nonportable: the
 * kernel opted in to cudaFuncAttributeNonPortableClusterSizeAllowed.
 * SIM_ERR_UNSUPPORTED before sm_90; SIM_ERR_USAGE for a size outside
 * 1..max_cluster_size, or as occ_compute. */
SimStatus occ_cluster(const ArchProfile *a, int sm_count, const OccConfig *cfg,
                      int cluster_size, bool nonportable, OccCluster *out,
                      SimError *err);

/* "warps", "registers", "shared_memory", "blocks", "barriers",
 * "virtual_resources" for one bit; "" for anything else. */
const char *occ_limiter_name(OccLimiter bit);

/* The limiter names of a bit set, comma-separated, in the order above,
 * into buf.  Returns buf. */
char *occ_limiters_format(unsigned bits, char *buf, size_t cap);

/* Walk through every limit in plain sentences, the way lesson 4 does ("768
 * threads per block: the 2048-thread limit leaves room for 2 blocks ...").
 * t gives the arch (and the part, for its name and SM count); cfg and r are
 * what occ_compute was given and returned.  Writes at most cap bytes
 * (NUL-terminated) and returns the length the whole text needs, as
 * snprintf does.  (occupancy_explain.c) */
size_t occ_explain(const ArchTarget *t, const OccConfig *cfg,
                   const OccResult *r, char *buf, size_t cap);

/* One line of `warpsim occupancy --batch` input, a flat JSON object:
 * "arch" or "gpu" (string), "block", "regs" (required), "smem_static",
 * "smem_dyn", "barriers" (integers >= 0), "carveout" (-1..100 or a name as
 * carveout_parse takes).  true with *cfg (from occ_config_init) and *t
 * filled; false with a one-line reason in err ("unknown key \"x\"",
 * "expected ',' or '}' at column 37").  (occupancy_batch.c) */
bool occ_batch_parse(const char *line, OccConfig *cfg, ArchTarget *t, char *err, size_t cap);

/* The answer's fields as JSON, without braces: "blocks_per_sm": 2,
 * "warps_per_sm": 48, "occupancy": 0.75, "limiters": ["warps"],
 * "smem_capacity": ..., "l1_capacity": ..., "resident_blocks_per_sm": 2.
 * Returns what snprintf returns.  (occupancy_batch.c) */
int occ_json_fields(char *buf, size_t cap, const OccResult *r);

#endif

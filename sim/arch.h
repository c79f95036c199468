/* arch.h: GPU architecture profiles (sm_70 ... sm_120) and named parts
 * (v100, a100, h100-sxm, ...).  A profile holds every per-SM and per-block
 * limit the occupancy model, the block dispatcher and %nsmid need; a part
 * adds its SM count.  The numbers and their sources are in
 * ../shared/reference/arch-facts.md (Tables 1 to 4); lesson 4 teaches them.
 * Pure data and lookups: nothing here prints, allocates or exits. */
#ifndef WARPSIM_ARCH_H
#define WARPSIM_ARCH_H

#include <stdbool.h>

#include "error.h"

#define ARCH_MAX_CARVEOUTS 12

/* One compute capability.  Byte counts are plain bytes (KB = 1024). */
typedef struct {
    const char *name;             /* "sm_90" */
    int cc_major, cc_minor;       /* 9, 0 */
    const char *family;           /* "Hopper" */

    /* Fixed on every profile here. */
    int warp_size;                /* 32 */
    int max_threads_per_block;    /* 1024 */
    int max_block_dim[3];         /* 1024, 1024, 64 */
    int max_grid_dim[3];          /* 2^31-1, 65535, 65535 */

    /* Table 1: threads, warps, blocks, registers. */
    int max_threads_per_sm;       /* maxThreadsPerMultiProcessor */
    int max_warps_per_sm;         /* max_threads_per_sm / warp_size */
    int max_blocks_per_sm;        /* maxBlocksPerMultiProcessor */
    int regs_per_sm;              /* 32-bit registers per SM */
    int max_regs_per_block;       /* regsPerBlock */
    int max_regs_per_thread;      /* 255, what ptxas may allocate */
    int reg_alloc_unit;           /* registers are given to a warp in units of this (256) */
    int reg_subpartitions;        /* the register file is split in this many (4) */

    /* Table 2: shared memory and the unified L1/texture/shared cache. */
    int smem_per_sm;              /* sharedMemPerMultiprocessor (bytes) */
    int smem_per_block;           /* default per-block ceiling, 48 KB */
    int smem_per_block_optin;     /* sharedMemPerBlockOptin */
    int smem_reserved_per_block;  /* reservedSharedMemPerBlock (1 KB from sm_80) */
    int smem_alloc_unit;          /* allocation granularity (256 or 128 bytes) */
    int unified_cache;            /* L1 + shared memory bytes per SM */
    int carveout_kb[ARCH_MAX_CARVEOUTS]; /* supported shared-memory capacities, KB, ascending */
    int n_carveouts;

    /* Other per-SM resources. */
    int barrier_slots_per_block;  /* barriers available = this x max_blocks_per_sm (2 or 1) */
    int virtual_resources_per_sm; /* 128 on CC 10 to 12, 0 = not modelled */
    int cluster_max_portable;     /* 8 from sm_90, 0 = no clusters */
    int cluster_max_nonportable;  /* 16 where confirmed, else = portable */

    const char *reference_part;   /* part whose SM count a bare "sm_XX" uses */
} ArchProfile;

/* A named product. */
typedef struct {
    const char *name;             /* "h100-sxm" (what --gpu takes) */
    const char *product;          /* "NVIDIA H100 SXM5" */
    const char *arch;             /* "sm_90" */
    int sm_count;
    bool confirmed;               /* false: the SM count comes from a third party */
} ArchPart;

/* What "--arch sm_90" or "--gpu h100-sxm" resolves to. */
typedef struct {
    const ArchProfile *arch;
    const ArchPart *part;         /* the part named, or the arch's reference part */
    int sm_count;                 /* part->sm_count */
    bool by_part;                 /* true when the name given was a part name */
} ArchTarget;

/* Number of profiles, and profile i (0 <= i < arch_count()), ordered by
 * compute capability.  NULL for i out of range. */
int arch_count(void);
const ArchProfile *arch_at(int i);

/* Number of parts, and part i.  NULL for i out of range. */
int arch_part_count(void);
const ArchPart *arch_part_at(int i);

/* Profile by name: "sm_90", "sm90", "90", "9.0", "compute_90" (case-
 * insensitive).  NULL when unknown. */
const ArchProfile *arch_find(const char *name);

/* Profile by compute capability (9, 0).  NULL when not modelled. */
const ArchProfile *arch_find_cc(int major, int minor);

/* Part by name ("h100-sxm", case-insensitive; "_" and "-" are the same).
 * NULL when unknown. */
const ArchPart *arch_part_find(const char *name);

/* Resolve an arch or a part name.  SIM_OK and *out filled, or
 * SIM_ERR_USAGE with a message listing every known name. */
SimStatus arch_resolve(const char *name, ArchTarget *out, SimError *err);

/* Write every arch name (first) and part name (then) into buf as
 * "sm_70, sm_75, ..." and "v100, t4, ...".  Returns buf. */
char *arch_list_names(char *buf, int cap, bool parts);

/* GPCs (graphics processing clusters): a thread block cluster runs on the
 * SMs of one GPC.  The model for sm_count SMs: ceil(sm_count / 18) GPCs (at
 * most ARCH_MAX_GPCS, at least 1), whole TPCs (2 SMs) dealt to them round
 * robin, SMs numbered GPC after GPC.  For the H100 SXM5's 132 SMs: 2 GPCs of
 * 18 SMs and 6 of 16 (the GH100 die has 8 GPCs of 9 TPCs, 144 SMs; which
 * TPCs a part fuses off is not published -- NVIDIA H100 Tensor Core GPU
 * Architecture whitepaper, 2022).  sms[g] gets GPC g's SM count (sms may
 * hold ARCH_MAX_GPCS); returns the number of GPCs. */
#define ARCH_MAX_GPCS 8
int arch_gpc_layout(int sm_count, int sms[ARCH_MAX_GPCS]);

#endif

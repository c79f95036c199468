/* occupancy.c: active blocks per SM and the limits that set it (see
 * occupancy.h).  Each limit is its own function below, in the order of
 * arch-facts.md "Algorithm" part A; occ_compute takes the smallest.  The
 * block-size search and the cluster bound build on occ_compute. */
#include "occupancy.h"

#include <string.h>

#define SMEM_INPUT_MAX ((size_t)1 << 30)   /* 1 GB: beyond any GPU, rejected */
#define OCC_CLUSTER_BLOCKS_PER_SM 8        /* measured on an H200, undocumented */

static long long round_up(long long x, long long unit)
{
    return (x + unit - 1) / unit * unit;
}

static int min_int(int a, int b) { return a < b ? a : b; }

void occ_config_init(OccConfig *c)
{
    memset(c, 0, sizeof *c);
    c->block_size = 1;
    c->max_dynamic_smem = OCC_DYN_AUTO;
    c->smem_optin = true;
    c->carveout = CARVEOUT_DEFAULT;
    c->cache_config = CARVEOUT_CACHE_PREFER_NONE;
    c->barriers = 1;
}

/* Warp slots: a block takes whole warps; a block above the per-block thread
 * limit cannot launch at all. */
static void limit_warps(const ArchProfile *a, const OccConfig *c, OccResult *r)
{
    if (c->block_size > a->max_threads_per_block)
        r->limit_warps = 0;
    else
        r->limit_warps = a->max_warps_per_sm / r->warps_per_block;
}

/* Registers are given to whole warps in units of reg_alloc_unit, from one of
 * reg_subpartitions equal slices of the register file. */
static void limit_regs(const ArchProfile *a, const OccConfig *c, OccResult *r)
{
    long long w = r->warps_per_block;
    /* The API accepts one register more than ptxas can allocate (256). */
    r->regs_over_thread_max = c->regs_per_thread > a->max_regs_per_thread + 1;
    long long per_warp = r->regs_over_thread_max
                             ? 0
                             : round_up((long long)c->regs_per_thread * a->warp_size,
                                        a->reg_alloc_unit);
    long long per_block = per_warp * w;
    /* The launch check assumes every partition gets the same number of warps. */
    long long checked = per_warp * round_up(w, a->reg_subpartitions);
    r->regs_per_warp = (int)per_warp;
    r->regs_per_block = per_block > INT_MAX ? INT_MAX : (int)per_block;
    r->regs_per_block_checked = checked > INT_MAX ? INT_MAX : (int)checked;
    r->warps_per_sm_by_regs = OCC_UNLIMITED;
    if (r->regs_over_thread_max || checked > a->max_regs_per_block ||
        per_block > a->max_regs_per_block) {
        r->limit_regs = 0;
        if (r->regs_over_thread_max)
            r->regs_per_warp = r->regs_per_block = r->regs_per_block_checked = 0;
        return;
    }
    if (per_warp == 0) {
        r->limit_regs = OCC_UNLIMITED;
        return;
    }
    int per_partition = a->regs_per_sm / a->reg_subpartitions;
    r->warps_per_sm_by_regs = (int)(per_partition / per_warp) * a->reg_subpartitions;
    r->limit_regs = (int)(r->warps_per_sm_by_regs / w);
}

/* Shared memory: the block's allocation against its per-block ceiling, then
 * against the SM capacity the carveout gives. */
static SimStatus limit_smem(const ArchProfile *a, const OccConfig *c,
                            OccResult *r, SimError *err)
{
    SimStatus st = carveout_effective(c->carveout, c->cache_config,
                                      &r->carveout_effective, err);
    if (st == SIM_OK)
        st = carveout_capacity(a, c->carveout, c->cache_config,
                               &r->smem_preferred, err);
    if (st != SIM_OK)
        return st;

    size_t reserve = (size_t)a->smem_reserved_per_block;
    size_t fixed = c->smem_static + reserve;
    r->smem_reserved = reserve;
    r->smem_per_block = (size_t)round_up((long long)(fixed + c->smem_dynamic),
                                         a->smem_alloc_unit);

    size_t max_dyn = c->max_dynamic_smem;
    if (max_dyn == OCC_DYN_AUTO) {
        size_t deflt = c->smem_static < (size_t)a->smem_per_block
                           ? (size_t)a->smem_per_block - c->smem_static : 0;
        max_dyn = c->smem_dynamic > deflt ? c->smem_dynamic : deflt;
    }
    r->max_dynamic_smem = max_dyn;
    r->smem_dyn_over_max = c->smem_optin && c->smem_dynamic > max_dyn;

    /* More than 48 KB per block needs the opt-in; from sm_80 the ceiling
     * also covers the driver's reserve. */
    r->smem_ceiling_optin = c->smem_optin && fixed + max_dyn > (size_t)a->smem_per_block;
    r->smem_block_ceiling = r->smem_ceiling_optin ? (size_t)a->smem_per_block_optin
                                                  : (size_t)a->smem_per_block;
    if (a->cc_major >= 8)
        r->smem_block_ceiling += reserve;

    r->smem_capacity = r->smem_preferred;
    if (r->smem_dyn_over_max || r->smem_per_block > r->smem_block_ceiling) {
        r->limit_smem = 0;
    } else {
        /* A preference too small for even one block is overridden by the
         * smallest capacity that holds one. */
        if (r->smem_preferred < r->smem_per_block) {
            st = carveout_round_up(a, r->smem_per_block, &r->smem_capacity, err);
            if (st != SIM_OK)
                return st;
        }
        r->limit_smem = r->smem_per_block
                            ? (int)(r->smem_capacity / r->smem_per_block)
                            : OCC_UNLIMITED;
    }
    r->l1_capacity = carveout_l1(a, r->smem_capacity);
    return SIM_OK;
}

static SimStatus check_config(const OccConfig *c, SimError *err)
{
    if (c->block_size < 1)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "block size %d: a block has at least 1 thread", c->block_size);
    if (c->regs_per_thread < 0)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "%d registers per thread: must be 0 or more", c->regs_per_thread);
    if (c->barriers < 0 || c->virtual_resources < 0)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "barrier and virtual-resource counts must be 0 or more");
    if (c->smem_static > SMEM_INPUT_MAX || c->smem_dynamic > SMEM_INPUT_MAX ||
        (c->max_dynamic_smem != OCC_DYN_AUTO && c->max_dynamic_smem > SMEM_INPUT_MAX))
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "shared memory sizes above 1 GB are not meaningful");
    return SIM_OK;
}

SimStatus occ_compute(const ArchProfile *a, const OccConfig *c, OccResult *out,
                      SimError *err)
{
    SimStatus st = check_config(c, err);
    if (st != SIM_OK)
        return st;
    OccResult r;
    memset(&r, 0, sizeof r);
    r.warps_per_block = (c->block_size + a->warp_size - 1) / a->warp_size;

    limit_regs(a, c, &r);
    limit_warps(a, c, &r);
    r.limit_blocks = a->max_blocks_per_sm;
    st = limit_smem(a, c, &r, err);
    if (st != SIM_OK)
        return st;
    r.limit_virtual = a->virtual_resources_per_sm > 0 && c->virtual_resources > 0
                          ? a->virtual_resources_per_sm / c->virtual_resources
                          : OCC_UNLIMITED;
    /* From sm_90 a block's barriers come out of a per-SM pool. */
    r.limit_barriers = a->cc_major >= 9 && c->barriers > 0
                           ? a->barrier_slots_per_block * a->max_blocks_per_sm / c->barriers
                           : OCC_UNLIMITED;

    int n = min_int(r.limit_regs, min_int(r.limit_smem, min_int(r.limit_warps,
            min_int(r.limit_blocks, min_int(r.limit_virtual, r.limit_barriers)))));
    r.blocks_per_sm = n;
    r.limiters = (r.limit_warps == n ? OCC_LIMIT_WARPS : 0) |
                 (r.limit_regs == n ? OCC_LIMIT_REGISTERS : 0) |
                 (r.limit_smem == n ? OCC_LIMIT_SHARED_MEMORY : 0) |
                 (r.limit_blocks == n ? OCC_LIMIT_BLOCKS : 0) |
                 (r.limit_barriers == n ? OCC_LIMIT_BARRIERS : 0) |
                 (r.limit_virtual == n ? OCC_LIMIT_VIRTUAL : 0);
    r.warps_per_sm = n * r.warps_per_block;
    r.threads_per_sm = n * c->block_size;
    r.occupancy = (double)r.warps_per_sm / a->max_warps_per_sm;
    /* What the hardware keeps resident (measured on an H100, 504 launches,
     * traces/hw/nvidia-h100-80gb-hbm3/carveout-sweep.json): the API's answer,
     * except that a kernel using no shared memory at all is not held back
     * by the 1 KB per-block reserve -- with a small carveout the API counts
     * that reserve against the capacity (8 blocks at carveout 0) while the
     * driver keeps every block the other limits allow.  The driver's other
     * departures from the API (small blocks with a few KB of dynamic shared
     * memory and a small carveout get the next larger capacity) follow no
     * rule found yet; see lessons/04-occupancy. */
    r.resident_blocks_per_sm = n;
    if (c->smem_static == 0 && c->smem_dynamic == 0 && r.limit_smem == n)
        r.resident_blocks_per_sm = min_int(r.limit_regs, min_int(r.limit_warps,
                                   min_int(r.limit_blocks, min_int(r.limit_virtual, r.limit_barriers))));
    *out = r;
    return SIM_OK;
}

SimStatus occ_max_potential_block_size(const ArchProfile *a, int sm_count,
                                       const OccConfig *cfg, OccDynSmemFn dyn,
                                       void *user, int block_size_limit,
                                       OccBlockSizeResult *out, SimError *err)
{
    int limit = a->max_threads_per_block;
    if (block_size_limit > 0 && block_size_limit < limit)
        limit = block_size_limit;
    if (cfg->max_threads_per_block > 0 && cfg->max_threads_per_block < limit)
        limit = cfg->max_threads_per_block;
    if (block_size_limit < 0 || cfg->max_threads_per_block < 0)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "block size limits must be 0 (none) or positive");

    OccConfig c = *cfg;
    int best_size = 0, best_blocks = 0, best_threads = 0;
    int step = a->warp_size;
    /* The first candidate is the limit itself, even when not a multiple of 32. */
    for (int aligned = (int)round_up(limit, step); aligned > 0; aligned -= step) {
        c.block_size = aligned < limit ? aligned : limit;
        if (dyn)
            c.smem_dynamic = dyn(c.block_size, user);
        OccResult r;
        SimStatus st = occ_compute(a, &c, &r, err);
        if (st != SIM_OK)
            return st;
        if (r.threads_per_sm > best_threads) {
            best_size = c.block_size;
            best_blocks = r.blocks_per_sm;
            best_threads = r.threads_per_sm;
        }
        if (best_threads == a->max_threads_per_sm)
            break;
    }
    out->block_size = best_size;
    out->blocks_per_sm = best_blocks;
    out->min_grid_size = best_blocks * sm_count;
    out->occupancy = best_size ? (double)best_blocks * ((best_size + step - 1) / step) /
                                     a->max_warps_per_sm
                               : 0.0;
    return SIM_OK;
}

SimStatus occ_cluster(const ArchProfile *a, int sm_count, const OccConfig *cfg,
                      int cluster_size, bool nonportable, OccCluster *out,
                      SimError *err)
{
    if (a->cluster_max_portable == 0)
        return sim_error_set(err, SIM_ERR_UNSUPPORTED, NULL, 0, 0,
                             "%s has no thread-block clusters (they start with sm_90)",
                             a->name);
    int max = nonportable ? a->cluster_max_nonportable : a->cluster_max_portable;
    if (cluster_size < 1 || cluster_size > max)
        return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0,
                             "cluster size %d: %s allows 1..%d blocks per cluster%s",
                             cluster_size, a->name, max,
                             nonportable || max == a->cluster_max_nonportable
                                 ? "" : " (more with the non-portable opt-in)");
    OccResult r;
    SimStatus st = occ_compute(a, cfg, &r, err);
    if (st != SIM_OK)
        return st;
    out->cluster_size = cluster_size;
    out->max_cluster_size = max;
    out->blocks_per_sm = min_int(r.blocks_per_sm, OCC_CLUSTER_BLOCKS_PER_SM);
    out->clusters_upper_bound = (int)((long long)sm_count * out->blocks_per_sm / cluster_size);
    int sms[ARCH_MAX_GPCS];
    out->gpcs = arch_gpc_layout(sm_count, sms);
    out->max_active_clusters = 0;
    for (int g = 0; g < out->gpcs; g++) /* a cluster runs inside one GPC */
        out->max_active_clusters += sms[g] * out->blocks_per_sm / cluster_size;
    out->cluster_limits =
        (long long)out->max_active_clusters * cluster_size < (long long)sm_count * r.blocks_per_sm;
    return SIM_OK;
}

static const char *const limiter_names[] = {
    "warps", "registers", "shared_memory", "blocks", "barriers", "virtual_resources",
};

const char *occ_limiter_name(OccLimiter bit)
{
    for (int i = 0; i < 6; i++)
        if ((unsigned)bit == 1u << i)
            return limiter_names[i];
    return "";
}

char *occ_limiters_format(unsigned bits, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap)
        buf[0] = 0;
    for (int i = 0; i < 6 && cap; i++) {
        if (!(bits & (1u << i)))
            continue;
        size_t len = strlen(limiter_names[i]) + (n ? 2 : 0);
        if (n + len + 1 > cap)
            break;
        if (n) {
            memcpy(buf + n, ", ", 2);
            n += 2;
        }
        memcpy(buf + n, limiter_names[i], strlen(limiter_names[i]) + 1);
        n += strlen(limiter_names[i]);
    }
    return buf;
}

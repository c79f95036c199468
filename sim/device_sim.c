/* device_sim.c: the simulator backend of the host API.  Modules are decoded
 * once at load (exec_decode.c), buffers live in the simulated global memory
 * (memory.c), and a launch checks shared-memory limits the way the driver
 * does before the executor (exec_run.c) runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_int.h"
#include "carveout.h"
#include "occupancy.h"
#include "race.h"
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_race.h"
#include "file_read.h"
#include "memory.h"

#define MAX_KERNEL_ATTRS 64

typedef struct {
    const char *entry;
    int max_dyn_smem;
    int carveout;
} KernelAttrs;

typedef struct {
    DeviceModule base;
    SimProgram *prog;
    KernelAttrs attrs[MAX_KERNEL_ATTRS];
    int n_attrs;
} SimModule;

typedef struct {
    Device base;
    Memory *mem;
    char *printf_out;
    ExecArena *arena;         /* the last launch's resident-block memory, for the next */
} SimDevice;

static const DeviceOps sim_ops;

Device *device_open_sim(const char *arch, SimError *err)
{
    ArchTarget tgt;
    if (arch_resolve(arch, &tgt, err))
        return NULL;
    SimDevice *d = calloc(1, sizeof *d);
    if (!d || !(d->mem = mem_new())) {
        free(d);
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    d->base.ops = &sim_ops;
    snprintf(d->base.arch, sizeof d->base.arch, "%s", tgt.arch->name);
    d->base.prof = tgt.arch;
    d->base.sm_count = tgt.sm_count;
    return &d->base;
}

static void sim_close(Device *dd)
{
    SimDevice *d = (SimDevice *)dd;
    for (DeviceModule *m = dd->modules, *n; m; m = n) {
        n = m->next;
        exec_program_free(((SimModule *)m)->prog);
        free(m);
    }
    mem_free_all(d->mem);
    exec_arena_free(d->arena);
    free(d->printf_out);
    free(d);
}

/* Would `more` bytes of global memory pass the device's limit?  Fills err. */
static bool global_over_limit(Device *dd, uint64_t more, const char *what, SimError *err)
{
    uint64_t have = mem_bytes(((SimDevice *)dd)->mem), lim = dd->mem_limit;
    if (!lim || (more <= lim && have <= lim - more))
        return false;
    char a[32], b[32], c[32];
    sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                  "global memory: %s of %s on top of the %s allocated exceeds the %s memory limit "
                  "(--max-memory sets it)",
                  file_size_text(more, a, sizeof a), what, file_size_text(have, b, sizeof b),
                  file_size_text(lim, c, sizeof c));
    return true;
}

static SimStatus sim_load(Device *dd, const char *path, const char *text, size_t len, PtxModule *ptx,
                          DeviceModule **out, SimError *err)
{
    (void)text;
    (void)len;
    SimDevice *d = (SimDevice *)dd;
    uint64_t vars = 0; /* module variables live in global memory */
    for (int i = 0; i < ptx->n_vars; i++)
        if (ptx->vars[i].space == PTX_SPACE_GLOBAL || ptx->vars[i].space == PTX_SPACE_CONST)
            vars += ptx->vars[i].size;
    if (global_over_limit(dd, vars, "module variables", err)) {
        if (err)
            snprintf(err->file, sizeof err->file, "%s", path);
        ptx_module_free(ptx);
        return SIM_ERR_USAGE;
    }
    SimProgram *prog = exec_decode(ptx, d->mem, err);
    if (!prog)
        return err ? err->status : SIM_ERR_UNSUPPORTED;
    SimModule *m = calloc(1, sizeof *m);
    if (!m) {
        exec_program_free(prog);
        return sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, "out of memory");
    }
    m->prog = prog;
    m->base.ptx = prog->ptx;
    *out = &m->base;
    return SIM_OK;
}

static SimStatus sim_malloc(Device *dd, size_t bytes, DevicePtr *out, SimError *err)
{
    if (global_over_limit(dd, bytes, "device_malloc", err))
        return SIM_ERR_USAGE;
    MemAlloc *a = mem_alloc(((SimDevice *)dd)->mem, bytes, NULL);
    if (!a)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "cannot allocate %zu bytes of device memory", bytes);
    *out = a->addr;
    return SIM_OK;
}

static SimStatus sim_free(Device *dd, DevicePtr p, SimError *err)
{
    MemAlloc *a = mem_find(((SimDevice *)dd)->mem, p, 0);
    if (a && a->addr == p && a->heap)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "free of 0x%llx, which a kernel's malloc made: only a kernel's free releases it",
                             (unsigned long long)p);
    if (!mem_release(((SimDevice *)dd)->mem, p))
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "free of 0x%llx, which is not an allocation",
                             (unsigned long long)p);
    return SIM_OK;
}

static SimStatus sim_htod(Device *dd, DevicePtr dst, const void *src, size_t bytes, SimError *err)
{
    MemAlloc *a = mem_find(((SimDevice *)dd)->mem, dst, bytes);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "copy of %zu bytes to 0x%llx is outside every allocation",
                             bytes, (unsigned long long)dst);
    memcpy(a->host + (dst - a->addr), src, bytes);
    return SIM_OK;
}

static SimStatus sim_dtoh(Device *dd, void *dst, DevicePtr src, size_t bytes, SimError *err)
{
    MemAlloc *a = mem_find(((SimDevice *)dd)->mem, src, bytes);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "copy of %zu bytes from 0x%llx is outside every allocation", bytes,
                             (unsigned long long)src);
    memcpy(dst, a->host + (src - a->addr), bytes);
    return SIM_OK;
}

static KernelAttrs *attrs_of(SimModule *m, const char *entry)
{
    for (int i = 0; i < m->n_attrs; i++)
        if (!strcmp(m->attrs[i].entry, entry))
            return &m->attrs[i];
    int f = device_entry_index(&m->base, entry);
    if (m->n_attrs == MAX_KERNEL_ATTRS || f < 0)
        return NULL;
    KernelAttrs *a = &m->attrs[m->n_attrs++];
    a->entry = m->base.ptx->funcs[f].name;
    a->max_dyn_smem = 48 * 1024;
    a->carveout = -1;
    return a;
}

static SimStatus sim_set_attr(DeviceModule *mm, const char *entry, DeviceAttr at, int value, SimError *err)
{
    SimModule *m = (SimModule *)mm;
    KernelAttrs *a = attrs_of(m, entry);
    if (!a)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "too many kernels with attributes");
    const ArchProfile *p = mm->dev->prof;
    uint64_t st = m->prog->funcs[device_entry_index(mm, entry)].static_smem;
    if (at == DEVICE_ATTR_MAX_DYNAMIC_SMEM) {
        if ((uint64_t)value + st > (uint64_t)p->smem_per_block_optin)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "maximum dynamic shared memory %d plus %llu static exceeds the %d bytes a block "
                                 "may opt in to on %s", value, (unsigned long long)st, p->smem_per_block_optin,
                                 p->name);
        a->max_dyn_smem = value;
    } else {
        a->carveout = value;
    }
    return SIM_OK;
}

/* Open the trace writer for a launch of function f: the header describes
 * the launch, the string table holds kernel, arch and the PTX's files. */
static TraceWriter *trace_open_for(DeviceModule *mm, int f, const char *entry, const DeviceLaunch *cfg,
                                   const DeviceStats *stats, SimError *err)
{
    SimModule *m = (SimModule *)mm;
    const PtxModule *ptx = m->prog->ptx;
    if (cfg->trace_level < TRACE_LEVEL_BLOCKS || cfg->trace_level > TRACE_LEVEL_MEMORY) {
        sim_error_set(err, SIM_ERR_USAGE, "", 0, 0, "trace level %d is not 0..3", cfg->trace_level);
        return NULL;
    }
    TraceLaunch l = {.level = (uint8_t)cfg->trace_level, .arch = 1, .kernel = 0,
                     .grid = {cfg->grid.x, cfg->grid.y, cfg->grid.z},
                     .block = {cfg->block.x, cfg->block.y, cfg->block.z}, .dyn_smem = cfg->smem,
                     .static_smem = (uint32_t)m->prog->funcs[f].static_smem,
                     .regs = stats->regs_per_thread >= 0 ? (uint32_t)stats->regs_per_thread : TRACE_NONE,
                     .ptx_regs = (uint32_t)ptx->funcs[f].n_regs,
                     .sm_count = mm->dev->sm_count > 0 ? (uint32_t)mm->dev->sm_count : 1, .warp_size = WARP};
    if (cfg->timing && cfg->trace_level >= TRACE_LEVEL_WARPS) /* warp states (a v3 file) */
        l.flags = TRACE_FLAG_STATES;
    uint32_t n = 2 + (uint32_t)(ptx->n_files > 0 ? ptx->n_files : 0);
    const char **s = calloc(n, sizeof *s);
    if (!s) {
        sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        return NULL;
    }
    s[0] = entry;
    s[1] = mm->dev->arch;
    for (uint32_t i = 2; i < n; i++)
        s[i] = ptx->files[i - 2];
    TraceWriter *t = trace_writer_open(cfg->trace_path, &l, s, n, err);
    free(s);
    return t;
}

/* Blocks of this launch one SM holds at once: the occupancy model with the
 * kernel's shared memory and carveout (registers are unknown without ptxas,
 * so they do not limit it here). */
static int resident_blocks(DeviceModule *mm, const KernelAttrs *a, const DeviceLaunch *cfg, uint64_t static_smem,
                           ExecOptions *opt)
{
    OccConfig oc;
    occ_config_init(&oc);
    oc.block_size = (int)(cfg->block.x * cfg->block.y * cfg->block.z);
    oc.smem_static = (size_t)static_smem;
    oc.smem_dynamic = cfg->smem;
    oc.max_dynamic_smem = cfg->smem;
    oc.carveout = a ? a->carveout : -1;
    OccResult r;
    SimError e;
    const ArchProfile *p = mm->dev->prof;
    opt->smem_carveout = (size_t)p->smem_per_sm;
    opt->l1_bytes = carveout_l1(p, opt->smem_carveout);
    if (occ_compute(p, &oc, &r, &e) != SIM_OK || r.blocks_per_sm < 1)
        return 1;
    /* The unified cache's split for the timing model: an explicit preference
     * gives the capacity the occupancy API settles on; the default lets the
     * driver choose, and it takes the smallest capacity that holds the
     * resident blocks' shared memory, leaving the rest to L1 (docs/timing.md) */
    size_t smem = r.smem_capacity;
    if (r.carveout_effective < 0) {
        size_t need = static_smem + cfg->smem ? (size_t)r.blocks_per_sm * r.smem_per_block : 0;
        if (!need || carveout_round_up(p, need, &smem, &e) != SIM_OK)
            smem = need ? r.smem_capacity : 0;
    }
    opt->smem_carveout = smem;
    opt->l1_bytes = carveout_l1(p, smem);
    return r.blocks_per_sm;
}

uint64_t device_resident_blocks(DeviceModule *mm, const char *entry, const DeviceLaunch *cfg)
{
    int f = mm && entry && cfg ? device_entry_index(mm, entry) : -1;
    if (f < 0 || mm->dev->ops != &sim_ops)
        return 0;
    SimModule *m = (SimModule *)mm;
    ExecOptions opt = {0};
    int per_sm = resident_blocks(mm, attrs_of(m, entry), cfg, m->prog->funcs[f].static_smem, &opt);
    uint64_t nblocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    int sms, per;
    const PtxFunc *pf = &m->prog->ptx->funcs[f];
    unsigned cs = cfg->cluster.x * cfg->cluster.y * cfg->cluster.z;
    if (!cs && pf->reqnctapercluster[0])
        cs = (unsigned)pf->reqnctapercluster[0] * (unsigned)(pf->reqnctapercluster[1] ? pf->reqnctapercluster[1] : 1) *
             (unsigned)(pf->reqnctapercluster[2] ? pf->reqnctapercluster[2] : 1);
    uint64_t slots = (uint64_t)exec_resident_slots(mm->dev->sm_count, per_sm, nblocks, (int)cs, &sms, &per);
    /* a grid that does not fill its SMs evenly leaves a few slots empty */
    return slots < nblocks ? slots : nblocks;
}

/* The cluster dimensions of a launch of kernel pf with cfg: the launch's
 * (cudaLaunchAttributeClusterDimension), else the kernel's __cluster_dims__
 * (.reqnctapercluster); {1,1,1} for none.  SIM_ERR_USAGE for what the
 * driver refuses. */
static SimStatus cluster_dims(const SimModule *m, const PtxFunc *pf, const DeviceLaunch *cfg, int per_sm,
                              DeviceDim3 *out, SimError *err)
{
    const ArchProfile *a = m->base.dev->prof;
    DeviceDim3 k = {1, 1, 1}, l = cfg->cluster;
    bool has_k = pf->reqnctapercluster[0] > 0, has_l = l.x || l.y || l.z;
    if (has_k)
        k = (DeviceDim3){(unsigned)pf->reqnctapercluster[0],
                         (unsigned)(pf->reqnctapercluster[1] ? pf->reqnctapercluster[1] : 1),
                         (unsigned)(pf->reqnctapercluster[2] ? pf->reqnctapercluster[2] : 1)};
    if (has_l) {
        if (!l.x || !l.y || !l.z)
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "cluster dimensions %ux%ux%u: each must be at least 1", l.x, l.y, l.z);
        if (has_k && (l.x != k.x || l.y != k.y || l.z != k.z))
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "kernel %s declares __cluster_dims__(%u, %u, %u) but the launch asks for clusters "
                                 "of %ux%ux%u: a kernel compiled with a cluster size cannot be launched with another "
                                 "(the driver refuses it: CUDA_ERROR_INVALID_CLUSTER_SIZE); drop --cluster or make "
                                 "it agree", pf->name, k.x, k.y, k.z, l.x, l.y, l.z);
    }
    DeviceDim3 d = has_l ? l : k;
    unsigned long long size = (unsigned long long)d.x * d.y * d.z;
    *out = d;
    if (size <= 1)
        return SIM_OK;
    if (!a->cluster_max_portable)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "%s has no thread block clusters (they start with sm_90, Hopper): run with --arch "
                             "sm_90 or later", a->name);
    if (size > (unsigned long long)a->cluster_max_portable)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "clusters of %llu CTAs (%ux%ux%u): at most %d are portable (%s allows %d only after "
                             "cudaFuncSetAttribute(..., cudaFuncAttributeNonPortableClusterSizeAllowed, 1), which "
                             "warpsim does not offer): CUDA_ERROR_INVALID_CLUSTER_SIZE", size, d.x, d.y, d.z,
                             a->cluster_max_portable, a->name, a->cluster_max_nonportable);
    if (pf->maxclusterrank > 0 && size > (unsigned long long)pf->maxclusterrank)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "clusters of %llu CTAs exceed kernel %s's .maxclusterrank %d", size, pf->name,
                             pf->maxclusterrank);
    if (cfg->grid.x % d.x || cfg->grid.y % d.y || cfg->grid.z % d.z)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "grid %ux%ux%u is not a multiple of the cluster %ux%ux%u in every dimension (a "
                             "cluster launch needs whole clusters: CUDA_ERROR_INVALID_CLUSTER_SIZE)",
                             cfg->grid.x, cfg->grid.y, cfg->grid.z, d.x, d.y, d.z);
    int room = exec_cluster_gpc_room(m->base.dev->sm_count, per_sm);
    if ((unsigned long long)room < size)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "a cluster of %llu CTAs must be resident at once on the SMs of one GPC, which hold "
                             "at most %d CTAs of this kernel (%d per SM): cudaErrorClusterOutOfResources",
                             size, room, per_sm);
    return SIM_OK;
}

static SimStatus sim_launch(DeviceModule *mm, const char *entry, const DeviceLaunch *cfg, void **args,
                            DeviceStats *stats, DeviceFault *fault, SimError *err)
{
    SimModule *m = (SimModule *)mm;
    SimDevice *d = (SimDevice *)mm->dev;
    int f = device_entry_index(mm, entry);
    KernelAttrs *a = attrs_of(m, entry);
    int maxdyn = a ? a->max_dyn_smem : 48 * 1024;
    const SimFuncInfo *fi = &m->prog->funcs[f];
    uint64_t st = fi->static_smem;
    if (!m->prog->ptx->funcs[f].is_extern && exec_kernel_check(m->prog, f, err))
        return err ? err->status : SIM_ERR_UNSUPPORTED;
    if (cfg->smem > (unsigned)maxdyn)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "%u bytes of dynamic shared memory exceed the kernel's maximum of %d; above 48 KB a "
                             "kernel must opt in (cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...))",
                             cfg->smem, maxdyn);
    if (st + cfg->smem > (uint64_t)mm->dev->prof->smem_per_block_optin)
        return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                             "%llu bytes of shared memory per block exceed the %d bytes %s allows",
                             (unsigned long long)(st + cfg->smem), mm->dev->prof->smem_per_block_optin,
                             mm->dev->prof->name);
    uint64_t psize = 0;
    for (int i = 0; i < fi->nparams; i++)
        if ((uint64_t)(fi->param_off[i] + fi->param_size[i]) > psize)
            psize = (uint64_t)(fi->param_off[i] + fi->param_size[i]);
    uint8_t *params = calloc(1, psize + 8);
    if (!params)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
    for (int i = 0; i < fi->nparams; i++)
        memcpy(params + fi->param_off[i], args[i], (size_t)fi->param_size[i]);
    stats->static_smem = st;
    stats->local_bytes = fi->local_size;
    free(d->printf_out);
    d->printf_out = NULL;
    size_t out_len = 0;
    TraceWriter *tw = NULL;
    if (cfg->trace_path && !(tw = trace_open_for(mm, f, entry, cfg, stats, err))) {
        free(params);
        return err ? err->status : SIM_ERR_IO;
    }
    ExecOptions opt = {.nsm = mm->dev->sm_count, .arch = mm->dev->prof, .trace = tw, .alog = d->base.alog,
                       .n_alog = &d->base.n_alog, .races = d->base.races, .n_races = &d->base.n_races,
                       .arena = &d->arena, .mem_limit = d->base.mem_limit,
                       .printf_limit = d->base.printf_limit, .threads = d->base.threads};
    int per_sm = opt.blocks_per_sm = resident_blocks(mm, a, cfg, st, &opt);
    DeviceLaunch ccfg = *cfg; /* with the cluster dimensions in effect */
    if (cluster_dims(m, &m->prog->ptx->funcs[f], cfg, per_sm, &ccfg.cluster, err)) {
        free(params);
        if (tw)
            trace_writer_close(tw, 1, NULL);
        return err ? err->status : SIM_ERR_USAGE;
    }
    cfg = &ccfg;
    MemAlloc *ws = NULL;
    if (cfg->cooperative) {
        /* as cudaLaunchCooperativeKernel: every block resident at once, else
         * cudaErrorCooperativeLaunchTooLarge; the grid barrier's workspace is
         * fresh global memory the kernel finds in %envreg1/%envreg2 */
        uint64_t nb = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
        uint64_t fit = (uint64_t)per_sm * (uint64_t)(mm->dev->sm_count > 0 ? mm->dev->sm_count : 1);
        if (nb > fit) {
            free(params);
            if (tw)
                trace_writer_close(tw, 1, NULL);
            return sim_error_set(err, SIM_ERR_USAGE, "", 0, 0,
                                 "a cooperative launch of %llu blocks needs them all resident at once, but %d "
                                 "SMs hold %d blocks each of this kernel (%llu in all): "
                                 "cudaErrorCooperativeLaunchTooLarge", (unsigned long long)nb,
                                 mm->dev->sm_count, per_sm, (unsigned long long)fit);
        }
        if (!(ws = mem_alloc(d->mem, 64, "cooperative grid barrier"))) {
            free(params);
            if (tw)
                trace_writer_close(tw, 1, NULL);
            return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory");
        }
    }
    opt.coop_ws = ws ? ws->addr : 0;
    if ((cfg->checks & DEVICE_CHECK_RACES) &&
        !(opt.race = race_new(cfg->block.x * cfg->block.y * cfg->block.z))) {
        free(params);
        if (tw)
            trace_writer_close(tw, 1, NULL);
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory for the race checker");
    }
    SimStatus rc = exec_launch(m->prog, d->mem, f, cfg, params, stats, fault, &opt, &d->printf_out, &out_len);
    free(params);
    if (ws)
        mem_release(d->mem, ws->addr);
    if (opt.race) {
        d->base.n_races = exec_race_findings(m->prog, cfg, opt.race, d->base.races, d->base.n_races,
                                             DEVICE_MAX_RACES, tw, stats->cycles);
        race_free(opt.race);
    }
    if (tw) {
        SimError werr;
        if (trace_writer_close(tw, rc == SIM_ERR_FAULT, &werr) && rc != SIM_ERR_NOMEM) {
            if (err)
                *err = werr;
            return werr.status;
        }
    }
    if (rc == SIM_ERR_NOMEM)
        return sim_error_set(err, SIM_ERR_NOMEM, "", 0, 0, "out of memory while launching %s", entry);
    return rc;
}

static const char *sim_printf_output(Device *dd)
{
    return ((SimDevice *)dd)->printf_out;
}

static const DeviceOps sim_ops = {
    .name = "simulator",
    .close = sim_close,
    .load = sim_load,
    .malloc = sim_malloc,
    .free = sim_free,
    .htod = sim_htod,
    .dtoh = sim_dtoh,
    .set_attr = sim_set_attr,
    .launch = sim_launch,
    .printf_output = sim_printf_output,
};

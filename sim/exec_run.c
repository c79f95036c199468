/* exec_run.c: a launch -- the register slots it names, the memory of its
 * resident blocks (kept for the next launch of the same shape), the memory
 * limit, each warp's special registers, and exec_launch, which sets up the
 * Exec and hands it to exec_sched.c.  Called by device_sim.c. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_par.h"
#include "exec_trace.h"
#include "file_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef struct {
    int32_t lo, hi;       /* value register slots named */
    uint32_t specials;    /* special register slots named (bit per SLOT_*) */
} RegSpan;

/* Slot s, read (src) or written: the span, and a special register read
 * (warp_setup and exec_warp_init write those in use).  A destination is
 * never a special; in a predicate's instruction it is a predicate index,
 * which must not count as one (a setp's %p3 would have every warp fill
 * %ctaid.z's row at its start). */
static void span_add(int32_t s, RegSpan *sp, bool src)
{
    if (src && s >= 0 && s < SLOT_COUNT)
        sp->specials |= 1u << s;
    if (s < SLOT_COUNT) /* constants, none */
        return;
    if (s < sp->lo)
        sp->lo = s;
    if (s + 1 > sp->hi)
        sp->hi = s + 1;
}

/* The register slots [x->reg_lo, x->reg_hi) that the kernel x->fidx and
 * the functions it calls name, and of those the ranges x->zero a warp
 * clears when it starts: the kernel's registers that a lane may read before
 * writing them (exec_regs.c), every register of the functions it calls, and
 * with a stepper watching (cfg->on_issue, which shows any register) all of
 * them.  The module's other functions have slots of their own (reg_lo ==
 * reg_hi: none).  false: out of memory. */
static bool launch_reg_span(Exec *x)
{
    const SimProgram *p = x->prog;
    const PtxModule *m = p->ptx;
    RegSpan sp = {INT32_MAX, 0, 0};
    char *seen = calloc((size_t)m->n_funcs + 1, 1);
    if (!seen)
        return false;
    exec_mark_reachable(m, x->fidx, seen);
    for (int f = 0; f < m->n_funcs; f++) {
        if (!seen[f])
            continue;
        for (int pc = p->funcs[f].entry_pc; pc < p->funcs[f].end_pc; pc++) {
            const SimInst *in = &x->insts[pc];
            span_add(in->d, &sp, false); /* a predicate index here only widens it */
            span_add(in->d2, &sp, false);
            span_add(in->base, &sp, true);
            for (int k = 0; k < 4; k++) {
                if (k > 0 || in->fn != exec_mov_sreg_fn()) /* that mov reads Exec.sregs */
                    span_add(in->s[k], &sp, true);
                span_add(in->vd[k], &sp, true); /* (a store's sources) */
            }
        }
    }
    if (sp.lo >= sp.hi)
        sp.lo = sp.hi = SLOT_COUNT;
    x->reg_lo = sp.lo;
    x->reg_hi = sp.hi;
    x->specials = sp.specials;
    /* which of [lo, hi) to clear, one byte a slot, then as ranges */
    size_t n = (size_t)(sp.hi - sp.lo);
    uint8_t *clear = calloc(n + 1, 1);
    bool ok = clear != NULL;
    for (int f = 0; ok && f < m->n_funcs; f++) {
        const SimFuncInfo *fi = &p->funcs[f];
        if (!seen[f])
            continue;
        bool all = f != x->fidx || !fi->read_unset || x->cfg->on_issue;
        const int32_t *pack = x->insts == p->packed ? fi->pack : NULL;
        for (int k = 0; k < fi->n_vals; k++) {
            int32_t s = pack ? pack[k] : fi->reg_base + k;
            if (s >= sp.lo && s < sp.hi && (all || (fi->read_unset[k / 64] >> (k % 64) & 1)))
                clear[s - sp.lo] = 1;
        }
    }
    int runs = 0;
    for (size_t i = 0; ok && i < n; i++)
        runs += clear[i] && (i == 0 || !clear[i - 1]);
    if (ok && runs && !(x->zero = malloc((size_t)runs * sizeof *x->zero)))
        ok = false;
    for (size_t i = 0; ok && i < n; i++) {
        if (!clear[i] || (i > 0 && clear[i - 1]))
            continue;
        size_t j = i;
        while (j < n && clear[j])
            j++;
        x->zero[x->n_zero][0] = sp.lo + (int32_t)i;
        x->zero[x->n_zero++][1] = sp.lo + (int32_t)j;
    }
    free(clear);
    free(seen);
    return ok;
}

/* Special register k of the 32 lanes of warp id of a block on SM sm,
 * into r (ctaid: 0, exec_warp_init writes it per block). */
static void sreg_values(const Exec *x, int id, int sm, int dev_nsm, int k, uint64_t r[WARP])
{
    const DeviceLaunch *c = x->cfg;
    int t0 = id * WARP;
    uint64_t v = 0;
    switch (k) {
    case SLOT_TID_X: case SLOT_TID_Y: case SLOT_TID_Z: {
        /* thread t = t0 + l is (t % x, t / x % y, t / (x * y)): counted up */
        unsigned bx = c->block.x, by = c->block.y;
        unsigned tx = (unsigned)t0 % bx, ty = (unsigned)t0 / bx % by, tz = (unsigned)t0 / (bx * by);
        for (int l = 0; l < WARP; l++) {
            r[l] = k == SLOT_TID_X ? tx : k == SLOT_TID_Y ? ty : tz;
            if (++tx == bx) {
                tx = 0;
                if (++ty == by) {
                    ty = 0;
                    tz++;
                }
            }
        }
        return;
    }
    case SLOT_LANEID: for (int l = 0; l < WARP; l++) r[l] = (uint64_t)l; return;
    case SLOT_LANEMASK_EQ: for (int l = 0; l < WARP; l++) r[l] = 1u << l; return;
    case SLOT_LANEMASK_LE: for (int l = 0; l < WARP; l++) r[l] = (uint32_t)((2ull << l) - 1); return;
    case SLOT_LANEMASK_LT: for (int l = 0; l < WARP; l++) r[l] = (1u << l) - 1; return;
    case SLOT_LANEMASK_GE: for (int l = 0; l < WARP; l++) r[l] = (uint32_t)(0xffffffffull << l); return;
    case SLOT_LANEMASK_GT: for (int l = 0; l < WARP; l++) r[l] = (uint32_t)(0xfffffffeull << l); return;
    case SLOT_NTID_X: v = c->block.x; break;
    case SLOT_NTID_Y: v = c->block.y; break;
    case SLOT_NTID_Z: v = c->block.z; break;
    case SLOT_CTAID_X: case SLOT_CTAID_Y: case SLOT_CTAID_Z: v = 0; break; /* exec_warp_init */
    case SLOT_NCTAID_X: v = c->grid.x; break;
    case SLOT_NCTAID_Y: v = c->grid.y; break;
    case SLOT_NCTAID_Z: v = c->grid.z; break;
    case SLOT_WARPID: v = (uint64_t)id; break;
    case SLOT_NWARPID: v = 64; break;
    case SLOT_SMID: v = (uint64_t)sm; break;
    case SLOT_NSMID: v = (uint64_t)dev_nsm; break;
    case SLOT_GRIDID: v = 1; break;
    case SLOT_DYN_SMEM: v = x->dyn_smem; break;
    case SLOT_TOTAL_SMEM: v = x->shared_size; break;
    default: break;
    }
    for (int l = 0; l < WARP; l++)
        r[l] = v;
}

/* The special registers of warp id of a block slot that stay the same for
 * every block the slot runs: set once per launch (exec_launch), only those
 * some instruction other than a mov reads (a mov reads Exec.sregs, which
 * every block shares, or its block). */
static void warp_setup(Exec *x, Block *b, Warp *w, int id, int dev_nsm)
{
    w->blk = b;
    w->id = id;
    w->slot = (uint32_t)((size_t)(b - x->blocks) * (size_t)x->nwarps + (size_t)id);
    int n = x->nthreads - id * WARP;
    w->present = n >= WARP ? FULL_MASK : (1u << n) - 1;
    for (uint32_t u = x->specials; u; u &= u - 1) { /* Exec.sregs's, but the SM's own */
        int k = __builtin_ctz(u);
        if (k == SLOT_SMID)
            sreg_values(x, id, b->sm, dev_nsm, k, w->r + (size_t)k * WARP);
        else
            memcpy(w->r + (size_t)k * WARP, x->sregs + ((size_t)id * SLOT_COUNT + (size_t)k) * WARP,
                   WARP * sizeof *w->r);
    }
}

/* Exec.sregs: every warp index's special registers (SMID and the ctaids
 * are the block's: ex_mov_sreg reads those from it).  false: out of memory. */
static bool sregs_setup(Exec *x, int dev_nsm)
{
    size_t n = (size_t)x->nwarps * SLOT_COUNT * WARP;
    uint64_t *t = malloc(n * sizeof *t);
    if (!t)
        return false;
    for (int id = 0; id < x->nwarps; id++)
        for (int k = 0; k < SLOT_COUNT; k++)
            sreg_values(x, id, 0, dev_nsm, k, t + ((size_t)id * SLOT_COUNT + (size_t)k) * WARP);
    x->sregs = t;
    return true;
}

/* ---- the memory of resident blocks, kept from one launch to the next ------
 * A big grid keeps thousands of warps resident; allocating their registers,
 * shared and local memory costs more (in page faults) than running a short
 * kernel.  The device keeps the last launch's arena and the next launch of
 * the same shape reuses it (explore, grade and lessons launch one kernel
 * many times). */
enum { ARENA_WARPS, ARENA_PREDS, ARENA_SHARED, ARENA_LOCAL, ARENA_TPARAM, ARENA_RETPC, ARENA_MAPS };

struct ExecArena {
    int nslots, nsm, per_sm, nwarps, nthreads;
    int32_t reg_lo, reg_hi;
    bool specials;           /* the kernel reads special registers from slots (Exec.specials) */
    int n_preds;
    uint64_t shared_size, local_size, tparam_size;
    Block *blocks;
    SimSM *sms;
    uint64_t *regs;          /* every warp's registers, one mapping (see arena_new) */
    size_t regs_bytes;
    void *map[ARENA_MAPS];   /* the rest, a mapping each: warps, predicates, shared,
                                local and parameter memory, call return pcs */
    size_t map_bytes[ARENA_MAPS];
};

static bool arena_fits(const ExecArena *a, const ExecArena *s)
{
    return a->nslots == s->nslots && a->nsm == s->nsm && a->per_sm == s->per_sm && a->nwarps == s->nwarps &&
           a->nthreads == s->nthreads && a->reg_lo == s->reg_lo && a->reg_hi == s->reg_hi &&
           a->specials == s->specials && a->n_preds == s->n_preds &&
           a->shared_size == s->shared_size && a->local_size == s->local_size && a->tparam_size == s->tparam_size;
}

void exec_arena_free(ExecArena *a)
{
    if (!a)
        return;
    if (a->blocks)
        for (int i = 0; i < a->nslots; i++) {
            Block *b = &a->blocks[i];
            if (b->warps)
                for (int k = 0; k < a->nwarps; k++)
                    free(b->warps[k].stack);
        }
    for (int k = 0; k < ARENA_MAPS; k++)
        if (a->map[k])
            munmap(a->map[k], a->map_bytes[k]);
    if (a->sms)
        for (int s = 0; s < a->nsm; s++)
            free(a->sms[s].wl);
    free(a->sms);
    free(a->blocks);
    if (a->regs)
        munmap(a->regs, a->regs_bytes);
    free(a);
}

/* The distance in register slots between one warp's registers and the
 * next's.  A warp uses slots [0, SLOT_COUNT) (special registers) and
 * [lo, hi) (the kernel's); the slots between belong to other kernels of the
 * module and are never touched.  A kernel that reads no special register
 * from a slot (Exec.specials: its specials come through mov, from
 * Exec.sregs) needs only [lo, hi): its warps' registers follow each other
 * back to back, an SM's in one run of memory, with nothing between that the
 * host's prefetchers would fetch in vain.  Otherwise, rather than leave the
 * gap empty in every warp, warps follow each other every T slots with T
 * chosen so that each warp's kernel registers fall into the gaps of the
 * warps after it: the specials of every warp sit at [0, SLOT_COUNT) modulo
 * T, the kernel's at [lo mod T, lo mod T + hi - lo), and the two never
 * overlap. */
static size_t warp_stride(int32_t lo, int32_t hi, bool specials)
{
    size_t s = SLOT_COUNT, u = hi > lo ? (size_t)(hi - lo) : 0;
    if (!specials) /* no special register read from a slot: the kernel's slots back to back */
        return u ? u : 1;
    if (!u)
        return s;
    for (size_t t = s + u; t <= 2 * (s + u); t++) {
        size_t m = (size_t)lo % t;
        if (m >= s && m + u <= t)
            return t;
    }
    return (size_t)hi; /* the gap kept: every warp's slots apart */
}

/* Zeroed memory of n bytes in a mapping of its own (kept in a->map[k]),
 * in huge pages when huge and the kernel gives them on request: the SMs
 * take turns through all resident blocks' state, and with 4 KB pages each
 * turn also missed the TLB. */
static void *arena_map(ExecArena *a, int k, size_t n, bool huge)
{
    void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (huge)
        madvise(p, n, MADV_HUGEPAGE);
#else
    (void)huge;
#endif
    a->map[k] = p;
    a->map_bytes[k] = n ? n : 1;
    return p;
}

/* n rounded up to a cache line. */
static size_t line_up(size_t n)
{
    return (n + 63) / 64 * 64;
}

static ExecArena *arena_new(const ExecArena *shape)
{
    ExecArena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    *a = *shape;
    a->blocks = calloc((size_t)a->nslots, sizeof *a->blocks);
    a->sms = calloc((size_t)a->nsm, sizeof *a->sms);
    if (!a->blocks || !a->sms)
        goto fail;
    for (int s = 0; s < a->nsm; s++)
        if (!(a->sms[s].wl = calloc((size_t)a->per_sm * (size_t)a->nwarps, sizeof *a->sms[s].wl)))
            goto fail;
    /* the registers of every warp in one mapping, warp after warp
     * (warp_stride): thousands of resident warps touch their registers in
     * turn, and packed they take the fewest pages */
    size_t stride = warp_stride(a->reg_lo, a->reg_hi, a->specials) * WARP, nw = (size_t)a->nslots * (size_t)a->nwarps;
    a->regs_bytes = ((nw ? nw - 1 : 0) * stride + (size_t)a->reg_hi * WARP) * sizeof(uint64_t) + 1;
    a->regs = mmap(NULL, a->regs_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a->regs == MAP_FAILED) {
        a->regs = NULL;
        goto fail;
    }
#ifdef MADV_HUGEPAGE
    madvise(a->regs, a->regs_bytes, MADV_HUGEPAGE); /* as arena_map does */
#endif
    /* every slot's warps, predicates, shared, local and parameter memory
     * side by side, each kind in one mapping; the call stacks' return pcs
     * too, but in small pages: most kernels never touch them */
    size_t ns = (size_t)a->nslots, nwk = (size_t)a->nwarps, nt = (size_t)a->nthreads;
    size_t preds = line_up((size_t)(a->n_preds + 1) * sizeof(uint32_t)), shared = line_up(a->shared_size + 1);
    size_t local = line_up(nt * (a->local_size + 1)), tparam = line_up(nt * (a->tparam_size + 1));
    size_t retpc = (size_t)WARP * MAX_CALL_DEPTH * sizeof(int32_t);
    Warp *warps = arena_map(a, ARENA_WARPS, ns * nwk * sizeof *warps, true);
    uint8_t *pp = arena_map(a, ARENA_PREDS, ns * nwk * preds, true);
    uint8_t *sp = arena_map(a, ARENA_SHARED, ns * shared, true);
    uint8_t *lp = arena_map(a, ARENA_LOCAL, ns * local, true);
    uint8_t *tp = arena_map(a, ARENA_TPARAM, ns * tparam, true);
    uint8_t *rp = arena_map(a, ARENA_RETPC, ns * nwk * retpc, false);
    if (!warps || !pp || !sp || !lp || !tp || !rp)
        goto fail;
    for (size_t i = 0; i < ns; i++) {
        Block *b = &a->blocks[i];
        b->shared = sp + i * shared;
        b->local = lp + i * local;
        b->tparam = tp + i * tparam;
        b->warps = warps + i * nwk;
        for (size_t k = 0; k < nwk; k++) {
            Warp *w = &b->warps[k];
            w->r = a->regs + (i * nwk + k) * stride;
            w->p = (uint32_t *)(void *)(pp + (i * nwk + k) * preds);
            w->retpc = (int32_t *)(void *)(rp + (i * nwk + k) * retpc);
        }
    }
    return a;
fail:
    exec_arena_free(a);
    return NULL;
}

/* Bytes arena_new takes for shape. */
static uint64_t arena_bytes(const ExecArena *a, uint64_t *local, uint64_t *shared, uint64_t *regs)
{
    uint64_t slots = (uint64_t)a->nslots, nt = (uint64_t)a->nthreads, nw = (uint64_t)a->nwarps;
    *local = slots * nt * a->local_size;
    *shared = slots * a->shared_size;
    /* registers, and the rest a resident warp and thread needs */
    *regs = slots * nw *
                ((uint64_t)a->reg_hi * WARP * sizeof(uint64_t) + ((uint64_t)a->n_preds + 1) * sizeof(uint32_t) +
                 (uint64_t)WARP * MAX_CALL_DEPTH * sizeof(int32_t) + sizeof(Warp)) +
            slots * nt * (a->tparam_size + 2) + slots;
    return *local + *shared + *regs;
}

/* Fault with "memory-limit" when the launch's resident blocks and the global
 * memory in use would pass opt->mem_limit; true when it did.  The message
 * names the biggest part the way a student can act on it. */
static bool over_memory_limit(Exec *x, const ExecArena *shape, uint64_t limit)
{
    uint64_t local, shared, regs, global = mem_bytes(x->mem);
    uint64_t launch = arena_bytes(shape, &local, &shared, &regs);
    if (!limit || launch + global <= limit)
        return false;
    char a[32], b[32], c[32], t[32];
    file_size_text(limit, b, sizeof b);
    file_size_text(launch + global, t, sizeof t);
    unsigned long long slots = (unsigned long long)shape->nslots;
    if (local >= shared && local >= regs && local >= global)
        exec_fault(x, NULL, NULL, -1, "memory-limit", 0,
                   "local memory: %s per thread \u00d7 %d threads \u00d7 %llu resident blocks = %s exceeds the %s "
                   "limit (%s in all; --max-memory sets it)",
                   file_size_text(shape->local_size, a, sizeof a), shape->nthreads, slots,
                   file_size_text(local, c, sizeof c), b, t);
    else if (shared >= regs && shared >= global)
        exec_fault(x, NULL, NULL, -1, "memory-limit", 0,
                   "shared memory: %s per block \u00d7 %llu resident blocks = %s exceeds the %s limit (%s in all; "
                   "--max-memory sets it)",
                   file_size_text(shape->shared_size, a, sizeof a), slots, file_size_text(shared, c, sizeof c), b, t);
    else if (regs >= global)
        exec_fault(x, NULL, NULL, -1, "memory-limit", 0,
                   "registers: %d per thread \u00d7 %d threads \u00d7 %llu resident blocks = %s exceeds the %s limit "
                   "(%s in all; --max-memory sets it)",
                   (int)shape->reg_hi, shape->nthreads, slots, file_size_text(regs, c, sizeof c), b, t);
    else
        exec_fault(x, NULL, NULL, -1, "memory-limit", 0,
                   "global memory: %s allocated, and this launch needs %s more: %s exceeds the %s limit "
                   "(--max-memory sets it)",
                   file_size_text(global, a, sizeof a), file_size_text(launch, c, sizeof c), t, b);
    return true;
}

/* Every SM empty and every block slot free, its warps' special registers
 * set: before a launch runs, and before it runs again (exec_par.c). */
static void slots_reset(Exec *x, int dev_nsm)
{
    for (int s = 0; s < x->nsm; s++) {
        SimSM *sm = &x->sms[s];
        sm->first_slot = s * x->per_sm;
        sm->live = sm->nwl = 0;
        sm->now = 0;
        sm->free_at = 0;
        sm->finishing = 0;
        sm->stale = false;
        memset(sm->last, 0, sizeof sm->last);
        memset(sm->busy, 0, sizeof sm->busy);
    }
    for (int i = 0; i < x->nslots; i++) {
        Block *b = &x->blocks[i];
        b->sm = i / x->per_sm;
        b->live = false;
        b->init_pending = false;
        b->cl = NULL; /* an arena's block may still name an earlier launch's cluster */
        b->crank = 0;
        for (int k = 0; k < x->nwarps; k++)
            warp_setup(x, b, &b->warps[k], k, dev_nsm);
    }
}

int exec_resident_slots(int nsm, int blocks_per_sm, uint64_t nblocks, int csize, int *sms, int *per_sm)
{
    int n = nsm > 0 ? nsm : 1, per = blocks_per_sm > 0 ? blocks_per_sm : 1;
    /* no more slots than blocks: a small grid uses a few SMs only (with
     * clusters every SM, so that each GPC has its SMs to place them on) */
    if ((uint64_t)n > nblocks && csize <= 1)
        n = (int)nblocks;
    if (n > 0 && (uint64_t)n * (uint64_t)per > nblocks)
        per = (int)((nblocks + (uint64_t)n - 1) / (uint64_t)n);
    *sms = n;
    *per_sm = per;
    return n * per;
}

SimStatus exec_launch(SimProgram *prog, Memory *mem, int fidx, const DeviceLaunch *cfg,
                      uint8_t *params, DeviceStats *stats, DeviceFault *fault, const ExecOptions *opt,
                      char **out, size_t *out_len)
{
    Exec x;
    memset(&x, 0, sizeof x);
    DeviceFault dummy;
    if (!fault)
        fault = &dummy;
    memset(fault, 0, sizeof *fault);
    x.prog = prog;
    /* registers packed (exec_pack.c) unless something looks at them by
     * name: the timing model's scoreboard, a trace, a stepper */
    x.insts = prog->packed && !cfg->timing && !opt->trace && !cfg->on_issue && exec_pack_wanted() ? prog->packed
                                                                                                  : prog->insts;
    x.mem = mem;
    x.cfg = cfg;
    x.params = params;
    {
        const SimFuncInfo *fi = &prog->funcs[fidx];
        for (int i = 0; i < fi->nparams; i++)
            if ((uint64_t)(fi->param_off[i] + fi->param_size[i]) > x.params_size)
                x.params_size = (uint64_t)(fi->param_off[i] + fi->param_size[i]);
    }
    x.fidx = fidx;
    x.stats = stats;
    x.fault = fault;
    x.trace = opt->trace;
    x.race = opt->race;
    x.alog = opt->alog;
    x.n_alog = opt->n_alog;
    x.races = opt->race ? opt->races : NULL;
    x.n_races = opt->n_races;
    x.rng = cfg->seed ^ 0x5741525053494dull; /* "WARPSIM" */
    x.coop_ws = opt->coop_ws;
    x.printf_limit = opt->printf_limit;
    x.budget = cfg->inst_budget ? cfg->inst_budget : 10000000000ull;
    x.nthreads = (int)(cfg->block.x * cfg->block.y * cfg->block.z);
    x.nwarps = (x.nthreads + WARP - 1) / WARP;
    x.dyn_smem = cfg->smem;
    x.shared_size = prog->funcs[fidx].static_smem + cfg->smem;
    x.nblocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    int csize = (int)(cfg->cluster.x * cfg->cluster.y * cfg->cluster.z);
    x.nslots = exec_resident_slots(opt->nsm, opt->blocks_per_sm, x.nblocks, csize, &x.nsm, &x.per_sm);
    SimStatus rc = SIM_ERR_FAULT;
    if (prog->ptx->funcs[fidx].is_extern) { /* its pcs would be the next function's */
        exec_fault(&x, NULL, NULL, -1, "unsupported", 0,
                   "kernel %s is only declared (.extern) in this module; it has no body to run",
                   prog->ptx->funcs[fidx].name);
        goto done;
    }
    rc = SIM_ERR_NOMEM;
    if (csize > 1 && !exec_cluster_begin(&x, cfg->cluster, x.nsm))
        goto done;
    if (!launch_reg_span(&x))
        goto done;
    ExecArena shape = {.nslots = x.nslots, .nsm = x.nsm, .per_sm = x.per_sm, .nwarps = x.nwarps,
                       .nthreads = x.nthreads, .reg_lo = x.reg_lo, .reg_hi = x.reg_hi,
                       .specials = x.specials != 0, .n_preds = prog->n_preds,
                       .shared_size = x.shared_size, .local_size = prog->local_size,
                       .tparam_size = prog->tparam_size};
    rc = SIM_ERR_FAULT;
    if (over_memory_limit(&x, &shape, opt->mem_limit))
        goto done;
    rc = SIM_ERR_NOMEM;
    ExecArena *ar = opt->arena ? *opt->arena : NULL;
    if (ar && arena_fits(ar, &shape)) {
        *opt->arena = NULL; /* ours while it runs */
    } else {
        if (ar) {
            exec_arena_free(ar);
            *opt->arena = NULL;
        }
        ar = arena_new(&shape);
        if (!ar)
            goto done;
    }
    x.arena = ar;
    x.blocks = ar->blocks;
    x.sms = ar->sms;
    if (!sregs_setup(&x, opt->nsm > 0 ? opt->nsm : 1))
        goto done;
    slots_reset(&x, opt->nsm > 0 ? opt->nsm : 1);
    stats->timing.on = false; /* a stats record reused from a timed launch */
    if (cfg->timing && !timing_launch_begin(&x, opt)) /* timing hook */
        goto done;
    if (!exec_trace_states_begin(&x))
        goto done;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    stats->threads = (uint64_t)x.nthreads * x.nblocks;
    stats->sm_threads_note[0] = '\0';
    DeviceStats before = *stats;
    int n_alog = x.n_alog ? *x.n_alog : 0;
    exec_sched_run(&x, opt->threads);
    ExecParReport rep = {.threads = 1};
    bool tried = x.par != NULL;
    if (x.par && exec_par_end(&x, &rep)) {
        /* abandoned (exec_par.c): global memory is as it was; again on one thread */
        *stats = before;
        if (x.n_alog)
            *x.n_alog = n_alog;
        memset(fault, 0, sizeof *fault);
        x.faulted = false;
        x.next_block = 0;
        x.cycle = x.end_cycle = 0;
        x.rng = cfg->seed ^ 0x5741525053494dull;
        x.atom_flip = 0;
        for (int i = 0; i < x.nslots; i++)
            exec_async_block_end(&x, &x.blocks[i]);
        slots_reset(&x, opt->nsm > 0 ? opt->nsm : 1);
        if (cfg->timing && !timing_launch_begin(&x, opt)) /* timing hook: the model afresh */
            goto done;
        exec_sched_run(&x, 1);
        snprintf(stats->sm_threads_note, sizeof stats->sm_threads_note,
                 "tried on %d threads, ran again on one after round %llu: %s", rep.threads,
                 (unsigned long long)rep.rounds, rep.why);
        rep.threads = 1;
    }
    stats->sm_threads = tried ? rep.threads : 1;
    if (tried && rep.rounds_serial && !rep.abandoned) /* went on on one thread (exec_par.c) */
        snprintf(stats->sm_threads_note, sizeof stats->sm_threads_note,
                 "its first %llu of %llu rounds; the rest on one: %s",
                 (unsigned long long)(rep.rounds - rep.rounds_serial), (unsigned long long)rep.rounds,
                 rep.serial_why);
    if (!tried && x.par_serial && opt->threads > 1)
        snprintf(stats->sm_threads_note, sizeof stats->sm_threads_note, "%s", x.par_serial);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    stats->cycles = x.cycle;
    if (x.trace)
        trace_writer_advance(x.trace, x.cycle);
    rc = x.faulted ? SIM_ERR_FAULT : SIM_OK;
done:
    exec_trace_states_end(&x);
    if (x.tm) /* timing hook: a launch that stopped before the grid ran */
        timing_launch_end(&x);
    if (x.arena) {
        for (int i = 0; i < x.nslots; i++) {
            exec_async_block_end(&x, &x.blocks[i]);
            exec_tile_block_end(&x, &x.blocks[i], false);
        }
        if (opt->arena && !*opt->arena) /* keep it for the next launch of this shape */
            *opt->arena = x.arena;
        else
            exec_arena_free(x.arena);
    }
    exec_cluster_end(&x);
    free(x.zero);
    free(x.sregs);
    exec_printf_finish(&x);
    stats->printf_dropped = x.out_dropped;
    *out = x.out;
    *out_len = x.out_len;
    return rc;
}

/* exec_run.c: running a launch -- one warp instruction at a time, block
 * barriers, faults, and the launch itself (exec_sched.c decides which warp
 * of which resident block issues when).
 *
 * Every lane has its own PC: a warp issues the group of runnable lanes at
 * the lowest PC, so lanes that branched apart run in turns and reconverge as
 * soon as their PCs meet again.  Under independent thread scheduling (its,
 * the default) a diverged group that keeps looping yields to the others
 * every SPIN_YIELD backward branches, so a lane spinning on a flag another
 * lane of its warp sets still makes progress, as on Volta and later; under
 * the pre-Volta stack model it never yields.  While all runnable lanes share
 * one PC the warp is "converged" and takes a fast path with a single PC. */
#include "exec_int.h"
#include "file_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define SPIN_YIELD 64

void exec_fault(Exec *x, Warp *w, const SimInst *in, int lane, const char *kind,
                uint64_t addr, const char *fmt, ...)
{
    if (x->faulted)
        return;
    x->faulted = true;
    DeviceFault *f = x->fault;
    if (!f)
        return;
    memset(f, 0, sizeof *f);
    f->faulted = true;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    f->block = w ? w->blk->ctaid : (DeviceDim3){0, 0, 0};
    f->addr = addr;
    f->warp = w ? w->id : -1;
    f->lane = lane;
    if (w && lane >= 0) {
        int t = exec_tid(w, lane);
        unsigned bx = x->cfg->block.x, by = x->cfg->block.y;
        f->thread.x = (unsigned)t % bx;
        f->thread.y = (unsigned)t / bx % by;
        f->thread.z = (unsigned)t / (bx * by);
    }
    if (in) {
        const PtxModule *m = x->prog->ptx;
        f->ptx_line = in->ptx_line;
        char buf[512];
        ptx_source_line(m, in->ptx_line, buf, sizeof buf);
        const char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        snprintf(f->ptx_text, sizeof f->ptx_text, "%.159s", s);
        if (in->loc >= 0 && in->loc < m->n_locs) {
            const PtxLoc *l = &m->locs[in->loc];
            int guard = 0;
            while (l->inlined_at >= 0 && l->inlined_at < m->n_locs && guard++ < 64)
                l = &m->locs[l->inlined_at];
            if (l->file >= 0 && l->file < m->n_files && m->files[l->file])
                snprintf(f->file, sizeof f->file, "%s", m->files[l->file]);
            f->line = l->line;
        }
    }
    if (x->trace)
        exec_trace_fault(x, w, in, lane);
}

/* ---- warps --------------------------------------------------------------- */

/* Mark function f and every function it calls (transitively) in seen. */
static void mark_reachable(const PtxModule *m, int f, char *seen)
{
    if (f < 0 || f >= m->n_funcs || seen[f])
        return;
    seen[f] = 1;
    const PtxFunc *fn = &m->funcs[f];
    for (int i = 0; i < fn->n_insts; i++) {
        const PtxInst *pi = &fn->insts[i];
        if (strcmp(pi->opcode, "call"))
            continue;
        for (int k = 0; k < pi->n_opnds; k++)
            if (pi->opnds[k].kind == PTX_OPND_FUNC)
                mark_reachable(m, pi->opnds[k].target, seen);
    }
}

typedef struct {
    int32_t lo, hi;       /* value register slots named */
    uint32_t specials;    /* special register slots named (bit per SLOT_*) */
} RegSpan;

static void span_add(int32_t s, RegSpan *sp)
{
    if (s >= 0 && s < SLOT_COUNT) /* specials: warp_setup writes those in use */
        sp->specials |= 1u << s;
    if (s < SLOT_COUNT) /* constants, none */
        return;
    if (s < sp->lo)
        sp->lo = s;
    if (s + 1 > sp->hi)
        sp->hi = s + 1;
}

/* The register slots [*lo, *hi) that the kernel fidx and the functions it
 * calls name.  Only these can be read, so only these need zeroing per warp:
 * the module's other functions have slots of their own (*lo == *hi: none). */
static void launch_reg_span(const SimProgram *p, int fidx, int32_t *lo, int32_t *hi, uint32_t *specials)
{
    const PtxModule *m = p->ptx;
    RegSpan sp = {INT32_MAX, 0, 0};
    *specials = (1u << SLOT_COUNT) - 1;
    char *seen = calloc((size_t)m->n_funcs + 1, 1);
    if (!seen) { /* zero them all */
        *lo = SLOT_COUNT;
        *hi = p->n_regs;
        return;
    }
    mark_reachable(m, fidx, seen);
    for (int f = 0; f < m->n_funcs; f++) {
        if (!seen[f])
            continue;
        for (int pc = p->funcs[f].entry_pc; pc < p->funcs[f].end_pc; pc++) {
            const SimInst *in = &p->insts[pc];
            span_add(in->d, &sp); /* a predicate index here only widens it */
            span_add(in->d2, &sp);
            span_add(in->base, &sp);
            for (int k = 0; k < 4; k++) {
                span_add(in->s[k], &sp);
                span_add(in->vd[k], &sp);
            }
        }
    }
    free(seen);
    *lo = sp.lo;
    *hi = sp.hi;
    *specials = sp.specials;
    if (*lo >= *hi)
        *lo = *hi = SLOT_COUNT;
}

/* The special registers of warp id of a block slot that stay the same for
 * every block the slot runs: set once per launch (exec_launch). */
static void warp_setup(Exec *x, Block *b, Warp *w, int id, int dev_nsm)
{
    const DeviceLaunch *c = x->cfg;
    w->blk = b;
    w->id = id;
    w->present = 0;
    uint64_t v[SLOT_COUNT];
    for (int l = 0; l < WARP; l++) {
        int t = id * WARP + l;
        if (t < x->nthreads)
            w->present |= 1u << l;
        v[SLOT_TID_X] = (unsigned)t % c->block.x;
        v[SLOT_TID_Y] = (unsigned)t / c->block.x % c->block.y;
        v[SLOT_TID_Z] = (unsigned)t / (c->block.x * c->block.y);
        v[SLOT_NTID_X] = c->block.x;
        v[SLOT_NTID_Y] = c->block.y;
        v[SLOT_NTID_Z] = c->block.z;
        v[SLOT_CTAID_X] = v[SLOT_CTAID_Y] = v[SLOT_CTAID_Z] = 0; /* exec_warp_init */
        v[SLOT_NCTAID_X] = c->grid.x;
        v[SLOT_NCTAID_Y] = c->grid.y;
        v[SLOT_NCTAID_Z] = c->grid.z;
        v[SLOT_LANEID] = (uint64_t)l;
        v[SLOT_WARPID] = (uint64_t)id;
        v[SLOT_NWARPID] = 64;
        v[SLOT_SMID] = (uint64_t)b->sm;
        v[SLOT_NSMID] = (uint64_t)dev_nsm;
        v[SLOT_GRIDID] = 1;
        v[SLOT_LANEMASK_EQ] = 1u << l;
        v[SLOT_LANEMASK_LE] = (uint32_t)((2ull << l) - 1);
        v[SLOT_LANEMASK_LT] = (1u << l) - 1;
        v[SLOT_LANEMASK_GE] = (uint32_t)(0xffffffffull << l);
        v[SLOT_LANEMASK_GT] = (uint32_t)(0xfffffffeull << l);
        v[SLOT_DYN_SMEM] = x->dyn_smem;
        v[SLOT_TOTAL_SMEM] = x->shared_size;
        /* only the ones the kernel reads: the others' memory is never touched */
        for (uint32_t u = x->specials; u; u &= u - 1) {
            int k = __builtin_ctz(u);
            w->r[k * WARP + l] = v[k];
        }
    }
}

void exec_warp_init(Exec *x, Block *b, Warp *w, int id)
{
    SimProgram *p = x->prog;
    int32_t reg_lo = x->reg_lo, reg_hi = x->reg_hi;
    (void)id; /* warp_setup numbered the slot's warps */
    memset(w->r + (size_t)reg_lo * WARP, 0, (size_t)(reg_hi - reg_lo) * WARP * sizeof *w->r);
    memset(w->p, 0, (size_t)(p->n_preds + 1) * sizeof *w->p);
    uint64_t *r = w->r;
    int32_t entry = p->funcs[x->fidx].entry_pc;
    uint32_t sp = x->specials;
    const uint64_t ctaid[3] = {b->ctaid.x, b->ctaid.y, b->ctaid.z};
    for (int k = 0; k < 3; k++)
        if (sp >> (SLOT_CTAID_X + k) & 1)
            for (int l = 0; l < WARP; l++)
                r[(SLOT_CTAID_X + k) * WARP + l] = ctaid[k];
    for (int l = 0; l < WARP; l++)
        w->pc[l] = entry;
    memset(w->callsp, 0, sizeof w->callsp);
    w->run = w->present;
    w->exited = ~w->present;
    w->barwait = 0;
    memset(w->barmask, 0, sizeof w->barmask);
    w->bar_skip = 0;
    w->syncwait = 0;
    w->spin = 0;
    w->yield_pc = -1;
    w->trace_mask = 0;
    w->span_start = x->cycle;
    w->upc = entry;
    w->conv = true;
}

/* Write the common PC out to every runnable lane and leave the fast path. */
void exec_warp_diverge(Warp *w)
{
    if (w->conv) {
        for (uint32_t r = w->run; r; r &= r - 1)
            w->pc[__builtin_ctz(r)] = w->upc;
        w->conv = false;
    }
}

/* Take the converged fast path again when every runnable lane is at one
 * PC (what the next scheduling step would find; done early after a
 * barrier release, where the whole warp usually waits at one bar.sync). */
void exec_warp_try_converge(Warp *w)
{
    if (w->conv || !w->run)
        return;
    int32_t pc = w->pc[__builtin_ctz(w->run)];
    for (uint32_t r = w->run; r; r &= r - 1)
        if (w->pc[__builtin_ctz(r)] != pc)
            return;
    w->conv = true;
    w->upc = pc;
}

int32_t exec_next_group(const Warp *w, uint32_t *mask)
{
    if (w->conv) {
        *mask = w->run;
        return w->upc;
    }
    int32_t pc = INT32_MAX, above = INT32_MAX;
    uint32_t m = 0, ma = 0;
    int32_t y = w->yield_pc;
    for (uint32_t r = w->run; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        int32_t p = w->pc[l];
        if (p < pc) {
            pc = p;
            m = 1u << l;
        } else if (p == pc) {
            m |= 1u << l;
        }
        if (y >= 0 && p > y) {
            if (p < above) {
                above = p;
                ma = 1u << l;
            } else if (p == above) {
                ma |= 1u << l;
            }
        }
    }
    *mask = ma ? ma : m;
    return ma ? above : pc;
}

bool exec_issue(Exec *x, Warp *w)
{
    const SimInst *insts = x->prog->insts;
    DeviceStats *st = x->stats;
    int32_t pc;
    uint32_t m;
    if (w->conv) {
        pc = w->upc;
        m = w->run;
    } else {
        pc = exec_next_group(w, &m);
        w->yield_pc = -1; /* a yield lasts one pick */
        if (m == w->run) {
            w->conv = true;
            w->upc = pc;
        }
    }
    const SimInst *in = &insts[pc];
    if (in->pseudo) { /* a tile marker: runs, but is no instruction on hardware */
        in->fn(x, w, in, m);
        if (w->conv)
            w->upc++;
        else
            for (uint32_t r = m; r; r &= r - 1)
                w->pc[__builtin_ctz(r)]++;
        return false;
    }
    uint32_t em = m;
    if (in->guard >= 0) {
        uint32_t g = w->p[in->guard];
        em &= in->guard_neg ? ~g : g;
    }
    if (x->trace)
        exec_trace_issue(x, w, in, m);
    st->warp_insts++;
    st->thread_insts += (uint64_t)exec_popc(em);
    if (in->wsync && em && !exec_sync_arrive(x, w, in, em)) {
        /* parked (or faulted): lanes whose guard is false go on */
        exec_warp_diverge(w);
        for (uint32_t r = m & ~em; r; r &= r - 1)
            w->pc[__builtin_ctz(r)]++;
    } else if (in->flow == SIM_FLOW_NEXT) {
        if (em)
            in->fn(x, w, in, em);
        if (w->conv)
            w->upc++;
        else
            for (uint32_t r = m; r; r &= r - 1)
                w->pc[__builtin_ctz(r)]++;
    } else if (in->flow == SIM_FLOW_BRANCH) {
        if (em)
            in->fn(x, w, in, em); /* e.g. counts; the move is done here */
        if (w->conv) {
            if (em == m) {
                w->upc = in->target;
            } else if (em == 0) {
                w->upc++;
            } else {
                for (uint32_t r = m; r; r &= r - 1) {
                    int l = __builtin_ctz(r);
                    w->pc[l] = (em >> l & 1) ? in->target : pc + 1;
                }
                w->conv = false;
                st->divergent_branches++;
            }
        } else {
            for (uint32_t r = m; r; r &= r - 1) {
                int l = __builtin_ctz(r);
                w->pc[l] = (em >> l & 1) ? in->target : w->pc[l] + 1;
            }
            /* a diverged group looping back: under its, yield now and then */
            if (em && in->target <= pc && x->cfg->divergence == DEVICE_DIV_ITS && ++w->spin >= SPIN_YIELD) {
                w->spin = 0;
                w->yield_pc = in->target;
            }
        }
    } else {
        exec_warp_diverge(w);
        if (em)
            in->fn(x, w, in, em);
        for (uint32_t r = m & ~em; r; r &= r - 1)
            w->pc[__builtin_ctz(r)]++;
    }
    if (x->faulted)
        return true;
    if (st->warp_insts >= x->budget)
        exec_fault(x, w, in, __builtin_ctz(m), "budget-exceeded", 0,
                   "the launch executed %llu warp instructions, its instruction budget "
                   "(an infinite loop?  If not, raise the budget: --budget N, or "
                   "DeviceLaunch.inst_budget)", (unsigned long long)st->warp_insts);
    return true;
}

/* Checking: barrier id of blk releases with arrivals from different
 * barrier instructions, or without the threads that exited.  Called before
 * the waiting lanes move on (their pcs are one past the barrier). */
static void barrier_divergence(Exec *x, Block *blk, int id)
{
    SimBarrier *b = &blk->bar[id];
    const Warp *w1 = NULL, *w2 = NULL;
    int l1 = -1, l2 = -1;
    for (int wi = 0; wi < x->nwarps && !(w1 && w2); wi++) {
        const Warp *w = &blk->warps[wi];
        for (uint32_t r = w->barwait; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            if (w->barid[l] != id)
                continue;
            if (!w1 && w->pc[l] - 1 == b->pc) {
                w1 = w;
                l1 = l;
            } else if (b->mixed && !w2 && w->pc[l] - 1 != b->pc) {
                w2 = w;
                l2 = l;
            }
        }
        if (!b->mixed && !w2 && w->exited & w->present) {
            w2 = w;
            l2 = __builtin_ctz(w->exited & w->present);
        }
    }
    if (w1 && w2)
        exec_race_barrier_divergence(x, blk, id, w1, l1, b->pc, w2, l2, b->mixed ? w2->pc[l2] - 1 : w2->pc[l2],
                                     !b->mixed);
}

/* Release barrier id of block b when enough threads have arrived. */
bool exec_barrier_try_release(Exec *x, Block *blk, int id)
{
    SimBarrier *b = &blk->bar[id];
    if (!b->arrived)
        return false;
    uint32_t need = b->expected ? b->expected : (uint32_t)x->nthreads - blk->exited_threads;
    if (b->arrived < need)
        return false;
    if (x->races && !b->expected && (b->mixed || b->arrived < (uint32_t)x->nthreads))
        barrier_divergence(x, blk, id);
    for (int wi = 0; wi < x->nwarps; wi++) {
        Warp *w = &blk->warps[wi];
        uint32_t rel = w->barmask[id];
        if (rel && w->bar_skip) {
            int l = __builtin_ctz(rel);
            const SimInst *bi = &x->prog->insts[w->pc[l] - 1];
            exec_fault(x, w, bi, l, "barrier-divergence", 0,
                       "barrier %d was reached by lanes 0x%08x of warp %d, but its lanes 0x%08x "
                       "went past it without arriving (a __syncthreads() in a branch that only "
                       "some threads of the warp take)", id, rel, w->id, w->bar_skip);
            return false;
        }
        if (rel) {
            int32_t bpc = -1;
            const SimInst *bi = NULL;
            w->barmask[id] = 0;
            for (uint32_t r = b->red ? rel : 0; r; r &= r - 1) { /* bar.red delivers its result */
                int l = __builtin_ctz(r);
                if (w->pc[l] != bpc) {
                    bpc = w->pc[l];
                    bi = &x->prog->insts[bpc - 1];
                }
                if (bi->sub != 3)
                    continue;
                if (bi->aux == 0)
                    exec_reg(w, bi->d)[l] = b->red_popc;
                else {
                    bool v = bi->aux == 1 ? b->red_and : b->red_or;
                    w->p[bi->pd] = (w->p[bi->pd] & ~(1u << l)) | ((uint32_t)v << l);
                }
            }
            exec_warp_diverge(w);
            w->barwait &= ~rel;
            if (!w->run)
                w->span_start = x->cycle;
            w->run |= rel;
            if (x->tm) /* timing hook */
                timing_barrier_release(x, w);
            exec_warp_try_converge(w);
        }
    }
    if (x->race && !b->expected)
        exec_race_barrier(x, blk);
    if (x->trace)
        exec_trace_release(x, blk, (uint32_t)id, b->arrived);
    b->arrived = 0;
    b->expected = 0;
    b->mixed = false;
    b->red = false;
    b->red_popc = 0;
    b->gen++;
    x->stats->barriers++;
    return true;
}

/* ---- the memory of resident blocks, kept from one launch to the next ------
 * A big grid keeps thousands of warps resident; allocating their registers,
 * shared and local memory costs more (in page faults) than running a short
 * kernel.  The device keeps the last launch's arena and the next launch of
 * the same shape reuses it (explore, grade and lessons launch one kernel
 * many times). */
struct ExecArena {
    int nslots, nsm, per_sm, nwarps, nthreads;
    int32_t reg_lo, reg_hi;
    int n_preds;
    uint64_t shared_size, local_size, tparam_size;
    Block *blocks;
    SimSM *sms;
    uint64_t *regs;          /* every warp's registers, one block (see arena_new) */
    size_t regs_bytes;
};

static bool arena_fits(const ExecArena *a, const ExecArena *s)
{
    return a->nslots == s->nslots && a->nsm == s->nsm && a->per_sm == s->per_sm && a->nwarps == s->nwarps &&
           a->nthreads == s->nthreads && a->reg_lo == s->reg_lo && a->reg_hi == s->reg_hi && a->n_preds == s->n_preds &&
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
                for (int k = 0; k < a->nwarps; k++) {
                    free(b->warps[k].p);
                    free(b->warps[k].retpc);
                }
            free(b->warps);
            free(b->shared);
            free(b->local);
            free(b->tparam);
        }
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
 * module and are never touched.  Rather than leave that gap empty in every
 * warp, warps follow each other every T slots with T chosen so that each
 * warp's kernel registers fall into the gaps of the warps after it: the
 * specials of every warp sit at [0, SLOT_COUNT) modulo T, the kernel's at
 * [lo mod T, lo mod T + hi - lo), and the two never overlap. */
static size_t warp_stride(int32_t lo, int32_t hi)
{
    size_t s = SLOT_COUNT, u = hi > lo ? (size_t)(hi - lo) : 0;
    if (!u)
        return s;
    for (size_t t = s + u; t <= 2 * (s + u); t++) {
        size_t m = (size_t)lo % t;
        if (m >= s && m + u <= t)
            return t;
    }
    return (size_t)hi; /* the gap kept: every warp's slots apart */
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
    size_t stride = warp_stride(a->reg_lo, a->reg_hi) * WARP, nw = (size_t)a->nslots * (size_t)a->nwarps;
    a->regs_bytes = ((nw ? nw - 1 : 0) * stride + (size_t)a->reg_hi * WARP) * sizeof(uint64_t) + 1;
    a->regs = mmap(NULL, a->regs_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a->regs == MAP_FAILED) {
        a->regs = NULL;
        goto fail;
    }
    for (int i = 0; i < a->nslots; i++) {
        Block *b = &a->blocks[i];
        b->shared = calloc(1, a->shared_size + 1);
        b->local = calloc((size_t)a->nthreads, a->local_size + 1);
        b->tparam = calloc((size_t)a->nthreads, a->tparam_size + 1);
        b->warps = calloc((size_t)a->nwarps, sizeof *b->warps);
        if (!b->shared || !b->local || !b->tparam || !b->warps)
            goto fail;
        for (int k = 0; k < a->nwarps; k++) {
            Warp *w = &b->warps[k];
            w->r = a->regs + ((size_t)i * (size_t)a->nwarps + (size_t)k) * stride;
            w->p = malloc((size_t)(a->n_preds + 1) * sizeof *w->p);
            w->retpc = malloc((size_t)WARP * MAX_CALL_DEPTH * sizeof *w->retpc);
            if (!w->p || !w->retpc)
                goto fail;
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
    x.budget = cfg->inst_budget ? cfg->inst_budget : 10000000000ull;
    x.nthreads = (int)(cfg->block.x * cfg->block.y * cfg->block.z);
    x.nwarps = (x.nthreads + WARP - 1) / WARP;
    x.dyn_smem = cfg->smem;
    x.shared_size = prog->funcs[fidx].static_smem + cfg->smem;
    x.nblocks = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    x.nsm = opt->nsm > 0 ? opt->nsm : 1;
    x.per_sm = opt->blocks_per_sm > 0 ? opt->blocks_per_sm : 1;
    /* no more slots than blocks: a small grid uses a few SMs only */
    if ((uint64_t)x.nsm > x.nblocks)
        x.nsm = (int)x.nblocks;
    if ((uint64_t)x.nsm * (uint64_t)x.per_sm > x.nblocks)
        x.per_sm = (int)((x.nblocks + (uint64_t)x.nsm - 1) / (uint64_t)x.nsm);
    x.nslots = x.nsm * x.per_sm;
    SimStatus rc = SIM_ERR_FAULT;
    if (prog->ptx->funcs[fidx].is_extern) { /* its pcs would be the next function's */
        exec_fault(&x, NULL, NULL, -1, "unsupported", 0,
                   "kernel %s is only declared (.extern) in this module; it has no body to run",
                   prog->ptx->funcs[fidx].name);
        goto done;
    }
    rc = SIM_ERR_NOMEM;
    launch_reg_span(prog, fidx, &x.reg_lo, &x.reg_hi, &x.specials);
    ExecArena shape = {.nslots = x.nslots, .nsm = x.nsm, .per_sm = x.per_sm, .nwarps = x.nwarps,
                       .nthreads = x.nthreads, .reg_lo = x.reg_lo, .reg_hi = x.reg_hi, .n_preds = prog->n_preds,
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
    for (int s = 0; s < x.nsm; s++) {
        SimSM *sm = &x.sms[s];
        sm->first_slot = s * x.per_sm;
        sm->live = sm->nwl = 0;
        sm->now = 0;
        sm->free_at = 0;
        sm->finishing = 0;
        memset(sm->last, 0, sizeof sm->last);
        memset(sm->busy, 0, sizeof sm->busy);
    }
    for (int i = 0; i < x.nslots; i++) {
        Block *b = &x.blocks[i];
        b->sm = i / x.per_sm;
        b->live = false;
        for (int k = 0; k < x.nwarps; k++)
            warp_setup(&x, b, &b->warps[k], k, opt->nsm > 0 ? opt->nsm : 1);
    }
    stats->timing.on = false; /* a stats record reused from a timed launch */
    if (cfg->timing && !timing_launch_begin(&x, opt)) /* timing hook */
        goto done;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    stats->threads = (uint64_t)x.nthreads * x.nblocks;
    exec_sched_run(&x);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    stats->cycles = x.cycle;
    if (x.trace)
        trace_writer_advance(x.trace, x.cycle);
    rc = x.faulted ? SIM_ERR_FAULT : SIM_OK;
done:
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
    exec_printf_finish(&x);
    stats->printf_dropped = x.out_dropped;
    *out = x.out;
    *out_len = x.out_len;
    return rc;
}

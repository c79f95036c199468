/* exec_run.c: running a launch -- grid -> blocks -> warps -> lanes.
 *
 * Blocks run one after another in launch order (x fastest).  Inside a block
 * the warps take turns, each running up to a quantum of instructions or
 * until all its lanes wait at a barrier or have exited.  Every lane has its
 * own PC (independent thread scheduling, Volta and later): a warp issues the
 * group of runnable lanes at the lowest PC, so lanes that branched apart run
 * in turns and reconverge as soon as their PCs meet again.  While all
 * runnable lanes share one PC the warp is "converged" and takes a fast path
 * that keeps a single PC. */
#include "exec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUANTUM 64

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
    f->block = x->ctaid;
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

static void span_add(int32_t s, int32_t *lo, int32_t *hi)
{
    if (s < SLOT_COUNT) /* constants, none, specials (warp_init writes them) */
        return;
    if (s < *lo)
        *lo = s;
    if (s + 1 > *hi)
        *hi = s + 1;
}

/* The register slots [*lo, *hi) that the kernel fidx and the functions it
 * calls name.  Only these can be read, so only these need zeroing per warp:
 * the module's other functions have slots of their own (*lo == *hi: none). */
static void launch_reg_span(const SimProgram *p, int fidx, int32_t *lo, int32_t *hi)
{
    const PtxModule *m = p->ptx;
    *lo = INT32_MAX;
    *hi = 0;
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
            span_add(in->d, lo, hi); /* a predicate index here only widens it */
            span_add(in->d2, lo, hi);
            span_add(in->base, lo, hi);
            for (int k = 0; k < 4; k++) {
                span_add(in->s[k], lo, hi);
                span_add(in->vd[k], lo, hi);
            }
        }
    }
    free(seen);
    if (*lo >= *hi)
        *lo = *hi = SLOT_COUNT;
}

static void warp_init(Exec *x, Warp *w, int id, int32_t reg_lo, int32_t reg_hi)
{
    SimProgram *p = x->prog;
    const DeviceLaunch *c = x->cfg;
    memset(w->r + (size_t)reg_lo * WARP, 0, (size_t)(reg_hi - reg_lo) * WARP * sizeof *w->r);
    memset(w->p, 0, (size_t)(p->n_preds + 1) * sizeof *w->p);
    w->id = id;
    w->present = 0;
    for (int l = 0; l < WARP; l++) {
        int t = id * WARP + l;
        if (t < x->nthreads)
            w->present |= 1u << l;
        uint64_t tx = (unsigned)t % c->block.x, ty = (unsigned)t / c->block.x % c->block.y,
                 tz = (unsigned)t / (c->block.x * c->block.y);
        uint64_t *r = w->r;
        r[SLOT_TID_X * WARP + l] = tx;
        r[SLOT_TID_Y * WARP + l] = ty;
        r[SLOT_TID_Z * WARP + l] = tz;
        r[SLOT_NTID_X * WARP + l] = c->block.x;
        r[SLOT_NTID_Y * WARP + l] = c->block.y;
        r[SLOT_NTID_Z * WARP + l] = c->block.z;
        r[SLOT_CTAID_X * WARP + l] = x->ctaid.x;
        r[SLOT_CTAID_Y * WARP + l] = x->ctaid.y;
        r[SLOT_CTAID_Z * WARP + l] = x->ctaid.z;
        r[SLOT_NCTAID_X * WARP + l] = c->grid.x;
        r[SLOT_NCTAID_Y * WARP + l] = c->grid.y;
        r[SLOT_NCTAID_Z * WARP + l] = c->grid.z;
        r[SLOT_LANEID * WARP + l] = (uint64_t)l;
        r[SLOT_WARPID * WARP + l] = (uint64_t)id;
        r[SLOT_NWARPID * WARP + l] = 64;
        r[SLOT_SMID * WARP + l] = 0;
        r[SLOT_NSMID * WARP + l] = (uint64_t)x->nsm;
        r[SLOT_GRIDID * WARP + l] = 1;
        r[SLOT_LANEMASK_EQ * WARP + l] = 1u << l;
        r[SLOT_LANEMASK_LE * WARP + l] = (uint32_t)((2ull << l) - 1);
        r[SLOT_LANEMASK_LT * WARP + l] = (1u << l) - 1;
        r[SLOT_LANEMASK_GE * WARP + l] = (uint32_t)(0xffffffffull << l);
        r[SLOT_LANEMASK_GT * WARP + l] = (uint32_t)(0xfffffffeull << l);
        r[SLOT_DYN_SMEM * WARP + l] = x->dyn_smem;
        r[SLOT_TOTAL_SMEM * WARP + l] = x->shared_size;
        w->pc[l] = p->funcs[x->fidx].entry_pc;
        w->callsp[l] = 0;
    }
    w->run = w->present;
    w->exited = ~w->present;
    w->barwait = 0;
    w->bar_skip = 0;
    w->upc = p->funcs[x->fidx].entry_pc;
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
static void warp_try_converge(Warp *w)
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

/* Run warp w for up to n instructions. */
static void warp_run(Exec *x, Warp *w, int n)
{
    const SimInst *insts = x->prog->insts;
    DeviceStats *st = x->stats;
    while (n-- > 0 && w->run) {
        int32_t pc;
        uint32_t m;
        if (w->conv) {
            pc = w->upc;
            m = w->run;
        } else {
            pc = INT32_MAX;
            m = 0;
            for (uint32_t r = w->run; r; r &= r - 1) {
                int l = __builtin_ctz(r);
                if (w->pc[l] < pc) {
                    pc = w->pc[l];
                    m = 1u << l;
                } else if (w->pc[l] == pc) {
                    m |= 1u << l;
                }
            }
            if (m == w->run) {
                w->conv = true;
                w->upc = pc;
            }
        }
        const SimInst *in = &insts[pc];
        uint32_t em = m;
        if (in->guard >= 0) {
            uint32_t g = w->p[in->guard];
            em &= in->guard_neg ? ~g : g;
        }
        if (x->trace)
            exec_trace_issue(x, w, in, m);
        st->warp_insts++;
        st->thread_insts += (uint64_t)exec_popc(em);
        if (in->flow == SIM_FLOW_NEXT) {
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
            }
        } else {
            exec_warp_diverge(w);
            if (em)
                in->fn(x, w, in, em);
            for (uint32_t r = m & ~em; r; r &= r - 1)
                w->pc[__builtin_ctz(r)]++;
        }
        if (x->faulted)
            return;
        if (st->warp_insts >= x->budget) {
            exec_fault(x, w, in, __builtin_ctz(m), "budget-exceeded", 0,
                       "the launch executed %llu warp instructions, its instruction budget "
                       "(an infinite loop?)", (unsigned long long)st->warp_insts);
            return;
        }
    }
}

/* Release barrier id when enough threads have arrived. */
static bool barrier_try_release(Exec *x, int id)
{
    SimBarrier *b = &x->bar[id];
    if (!b->arrived)
        return false;
    uint32_t need = b->expected ? b->expected : (uint32_t)x->nthreads - x->exited_threads;
    if (b->arrived < need)
        return false;
    for (int wi = 0; wi < x->nwarps; wi++) {
        Warp *w = &x->warps[wi];
        uint32_t rel = 0;
        for (uint32_t r = w->barwait; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            if (w->barid[l] == id)
                rel |= 1u << l;
        }
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
            for (uint32_t r = rel; r; r &= r - 1) { /* bar.red delivers its result */
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
            w->run |= rel;
            warp_try_converge(w);
        }
    }
    if (x->trace)
        exec_trace_release(x, (uint32_t)id, b->arrived);
    b->arrived = 0;
    b->expected = 0;
    b->red_popc = 0;
    b->gen++;
    x->stats->barriers++;
    return true;
}

static void run_block(Exec *x)
{
    for (;;) {
        bool any_run = false, any_wait = false;
        for (int wi = 0; wi < x->nwarps; wi++) {
            Warp *w = &x->warps[wi];
            if (w->run) {
                uint64_t start = x->stats->warp_insts;
                warp_run(x, w, QUANTUM);
                if (x->trace)
                    exec_trace_turn(x, w, start);
                if (x->faulted)
                    return;
                any_run = true;
            }
            if (w->barwait)
                any_wait = true;
        }
        bool released = false;
        if (any_wait)
            for (int id = 0; id < 16; id++) {
                released |= barrier_try_release(x, id);
                if (x->faulted)
                    return;
            }
        if (!any_run && !released) {
            if (!any_wait)
                return; /* every thread exited */
            /* nobody can run and no barrier can release: deadlock */
            for (int wi = 0; wi < x->nwarps; wi++) {
                Warp *w = &x->warps[wi];
                if (w->barwait) {
                    int l = __builtin_ctz(w->barwait);
                    int id = w->barid[l];
                    uint32_t need = x->bar[id].expected ? x->bar[id].expected
                                                        : (uint32_t)x->nthreads - x->exited_threads;
                    const SimInst *in = &x->prog->insts[w->pc[l] - 1];
                    exec_fault(x, w, in, l, "deadlock", 0,
                               "barrier %d waits for %u threads but only %u arrived and no other "
                               "thread can run (barrier divergence)", id, need, x->bar[id].arrived);
                    return;
                }
            }
            return;
        }
    }
}

SimStatus exec_launch(SimProgram *prog, Memory *mem, int fidx, const DeviceLaunch *cfg,
                      uint8_t *params, DeviceStats *stats, DeviceFault *fault, int nsm,
                      char **out, size_t *out_len, TraceWriter *trace)
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
    x.nsm = nsm;
    x.trace = trace;
    x.budget = cfg->inst_budget ? cfg->inst_budget : 10000000000ull;
    x.nthreads = (int)(cfg->block.x * cfg->block.y * cfg->block.z);
    x.nwarps = (x.nthreads + WARP - 1) / WARP;
    x.dyn_smem = cfg->smem;
    x.shared_size = prog->funcs[fidx].static_smem + cfg->smem;
    SimStatus rc = SIM_ERR_FAULT;
    if (prog->ptx->funcs[fidx].is_extern) { /* its pcs would be the next function's */
        exec_fault(&x, NULL, NULL, -1, "unsupported", 0,
                   "kernel %s is only declared (.extern) in this module; it has no body to run",
                   prog->ptx->funcs[fidx].name);
        goto done;
    }
    rc = SIM_ERR_NOMEM;
    x.shared = calloc(1, x.shared_size + 1);
    x.local = calloc((size_t)x.nthreads, prog->local_size + 1);
    x.tparam = calloc((size_t)x.nthreads, prog->tparam_size + 1);
    x.warps = calloc((size_t)x.nwarps, sizeof *x.warps);
    if (!x.shared || !x.local || !x.tparam || !x.warps)
        goto done;
    for (int i = 0; i < x.nwarps; i++) {
        Warp *w = &x.warps[i];
        w->r = malloc((size_t)prog->n_regs * WARP * sizeof *w->r);
        w->p = malloc((size_t)(prog->n_preds + 1) * sizeof *w->p);
        w->retpc = malloc((size_t)WARP * MAX_CALL_DEPTH * sizeof *w->retpc);
        if (!w->r || !w->p || !w->retpc)
            goto done;
    }
    int32_t reg_lo, reg_hi;
    launch_reg_span(prog, fidx, &reg_lo, &reg_hi);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    stats->threads = (uint64_t)x.nthreads * cfg->grid.x * cfg->grid.y * cfg->grid.z;
    for (unsigned bz = 0; bz < cfg->grid.z && !x.faulted; bz++)
        for (unsigned by = 0; by < cfg->grid.y && !x.faulted; by++)
            for (unsigned bx = 0; bx < cfg->grid.x && !x.faulted; bx++) {
                x.ctaid = (DeviceDim3){bx, by, bz};
                memset(x.shared, 0, x.shared_size);
                memset(x.local, 0, (size_t)x.nthreads * prog->local_size);
                memset(x.bar, 0, sizeof x.bar);
                x.exited_threads = 0;
                for (int i = 0; i < x.nwarps; i++)
                    warp_init(&x, &x.warps[i], i, reg_lo, reg_hi);
                stats->warps += (uint64_t)x.nwarps;
                if (x.trace)
                    exec_trace_block(&x, true);
                run_block(&x);
                stats->blocks++;
                if (x.trace)
                    exec_trace_block(&x, false);
            }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    stats->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    rc = x.faulted ? SIM_ERR_FAULT : SIM_OK;
done:
    if (x.warps)
        for (int i = 0; i < x.nwarps; i++) {
            free(x.warps[i].r);
            free(x.warps[i].p);
            free(x.warps[i].retpc);
        }
    free(x.warps);
    free(x.shared);
    free(x.local);
    free(x.tparam);
    *out = x.out;
    *out_len = x.out_len;
    return rc;
}

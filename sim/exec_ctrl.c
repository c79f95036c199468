/* exec_ctrl.c: control flow and synchronisation -- bra, call/ret (with .param
 * passing and the vprintf/__assertfail system calls), exit, trap, block
 * barriers (bar/barrier .sync .arrive .red) and the memory fences, which are
 * no-ops in a sequentially consistent simulator. */
#include "exec_cluster.h"
#include "exec_int.h"
#include "exec_issue.h"
#include "exec_trace.h"
#include "exec_decode.h"
#include "exec_lanes.h"
#include "race.h"

#include <stdlib.h>
#include <string.h>

static void ex_nothing(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)x; (void)w; (void)in; (void)m;
}

static void lanes_exit(Exec *x, Warp *w, uint32_t em)
{
    w->run &= ~em;
    w->exited |= em;
    w->blk->exited_threads += (uint32_t)exec_popc(em);
    if (w->blk->cl)
        exec_cluster_exit(x, w, em);
}

static void ex_exit(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)in;
    lanes_exit(x, w, m);
}

/* Recursion (PTX ISA 7.2 "Function declarations and definitions": a .func
 * may call itself).  Registers, parameters and .local variables belong to a
 * function, not to one activation, so a call of a recursive function first
 * pushes the callee's copies for the lane (registers, predicate bits, its
 * .param and return bytes, its .local range) on the lane's stack, and its
 * return pops them after handing over the results. */
static void frame_move(Exec *x, Warp *w, int l, const SimFuncInfo *fi, uint8_t *s, bool save)
{
    SimProgram *p = x->prog;
    for (int k = 0; k < fi->n_vals; k++, s += 8) {
        uint64_t *r = &w->r[(int64_t)(fi->reg_base + k) * WARP + l];
        if (save) memcpy(s, r, 8); else memcpy(r, s, 8);
    }
    for (int k = 0; k < fi->n_preds; k++) {
        uint32_t *pr = &w->p[fi->pred_base + k];
        if (save) {
            if (k % 8 == 0) s[k / 8] = 0;
            s[k / 8] |= (uint8_t)((*pr >> l & 1) << (k % 8));
        } else {
            *pr = (*pr & ~(1u << l)) | (uint32_t)(s[k / 8] >> (k % 8) & 1) << l;
        }
    }
    s += (fi->n_preds + 7) / 8;
    uint8_t *tp = w->blk->tparam + (uint64_t)exec_tid(w, l) * p->tparam_size;
    for (int i = 0; i < fi->nparams + fi->nrets; i++) {
        uint8_t *q = tp + (i < fi->nparams ? fi->param_off[i] : fi->ret_off[i - fi->nparams]);
        size_t n = (size_t)(i < fi->nparams ? fi->param_size[i] : fi->ret_size[i - fi->nparams]);
        if (save) memcpy(s, q, n); else memcpy(q, s, n);
        s += n;
    }
    uint8_t *lp = w->blk->local + (uint64_t)exec_tid(w, l) * p->local_size + fi->local_lo;
    if (save) memcpy(s, lp, fi->local_hi - fi->local_lo); else memcpy(lp, s, fi->local_hi - fi->local_lo);
}

static void ex_ret(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)in;
    SimProgram *p = x->prog;
    uint64_t depth[WARP / 8];
    memcpy(depth, w->callsp, sizeof depth);
    if (!(depth[0] | depth[1] | depth[2] | depth[3]) && !w->blk->cl) { /* no lane in a call: all leave */
        lanes_exit(x, w, m);
        return;
    }
    uint32_t out = 0; /* lanes leaving the kernel: together, but one by one in a cluster,
                         whose barrier may complete as each exits */
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        if (w->callsp[l] == 0) {
            if (w->blk->cl)
                lanes_exit(x, w, 1u << l);
            else
                out |= 1u << l;
            continue;
        }
        int callpc = w->retpc[l * MAX_CALL_DEPTH + --w->callsp[l]];
        const SimCall *sc = &p->calls[x->insts[callpc].aux];
        uint8_t *tp = w->blk->tparam + (uint64_t)exec_tid(w, l) * p->tparam_size;
        for (int k = 0; k < sc->n_rets; k++)
            memmove(tp + sc->ret_dst[k], tp + sc->ret_src[k], (size_t)sc->ret_size[k]);
        const SimFuncInfo *fi = &p->funcs[sc->callee];
        if (fi->recursive) { /* the caller's copies back */
            w->stack_sp[l] -= fi->frame_bytes;
            frame_move(x, w, l, fi, w->stack + (uint64_t)l * EXEC_STACK_BYTES + w->stack_sp[l], false);
        }
        w->pc[l] = callpc + 1;
    }
    if (out)
        lanes_exit(x, w, out);
}

/* Device malloc/free (CUDA Programming Guide, "Dynamic Global Memory
 * Allocation"): malloc takes from the device heap (memory.h, 8 MB by
 * default) and returns NULL when it cannot, as the hardware does; free(NULL)
 * does nothing; freeing anything else that malloc did not return (or twice)
 * stops the launch.  Allocations outlive the launch, as on a GPU.  false:
 * a fault was recorded. */
static bool heap_call(Exec *x, Warp *w, const SimInst *in, int l, const SimCall *sc, uint8_t *tp, uint64_t a0)
{
    if (sc->sys == SIM_SYS_MALLOC) {
        MemAlloc *al = mem_heap_alloc(x->mem, a0);
        uint64_t r = al ? al->addr : 0;
        if (!al)
            x->heap_failed = true;
        if (sc->n_rets > 0)
            memcpy(tp + sc->ret_dst[0], &r, sc->ret_size[0] < 8 ? (size_t)sc->ret_size[0] : 8);
        return true;
    }
    MemAlloc *al = a0 ? mem_find(x->mem, a0, 1) : NULL;
    uint64_t size = al ? al->size : 0;
    if (a0 && mem_heap_free(x->mem, a0)) {
        exec_fault(x, w, in, l, "trap", a0, "free of 0x%llx, which is not a block device malloc returned "
                   "(or was freed already)", (unsigned long long)a0);
        return false;
    }
    if (a0 && x->race) /* a later malloc may hand these bytes to another block: no race */
        race_forget_global(x->race, a0, size);
    return true;
}

static void ex_call(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    SimProgram *p = x->prog;
    const SimCall *sc = &p->calls[in->aux];
    int pc = (int)(in - x->insts);
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint8_t *tp = w->blk->tparam + (uint64_t)exec_tid(w, l) * p->tparam_size;
        if (sc->callee < 0) { /* vprintf or __assertfail */
            uint64_t a0 = 0, a1 = 0;
            if (sc->n_args > 0)
                memcpy(&a0, tp + sc->arg_src[0], 8);
            if (sc->n_args > 1)
                memcpy(&a1, tp + sc->arg_src[1], 8);
            if (sc->sys == SIM_SYS_MALLOC || sc->sys == SIM_SYS_FREE) {
                if (!heap_call(x, w, in, l, sc, tp, a0))
                    return;
            } else if (sc->is_vprintf) {
                exec_vprintf(x, w, in, l, a0, a1);
                if (sc->n_rets > 0)
                    memset(tp + sc->ret_dst[0], 0, (size_t)sc->ret_size[0]);
            } else {
                char msg[128] = "";
                for (int i = 0; i < 127; i++) {
                    uint8_t *c = exec_addr(x, w, in, l, PTX_SPACE_NONE, a0 + (uint64_t)i, 1, false);
                    if (!c || !*c)
                        break;
                    msg[i] = (char)*c;
                }
                x->faulted = false;
                exec_fault(x, w, in, l, "trap", 0, "assertion failed: %s", msg);
                return;
            }
            if (x->faulted)
                return;
            w->pc[l] = pc + 1;
            continue;
        }
        if (w->callsp[l] >= MAX_CALL_DEPTH) {
            exec_fault(x, w, in, l, "stack-overflow", 0,
                       "call depth exceeds %d, the simulator's call stack (on hardware the limit is the "
                       "per-thread stack, cudaLimitStackSize)", MAX_CALL_DEPTH);
            return;
        }
        const SimFuncInfo *fi = &p->funcs[sc->callee];
        if (fi->recursive) {
            if (!w->stack) {
                if (!(w->stack = malloc((size_t)WARP * EXEC_STACK_BYTES))) {
                    exec_fault(x, w, in, l, "stack-overflow", 0, "out of host memory for the call stack");
                    return;
                }
                memset(w->stack_sp, 0, sizeof w->stack_sp); /* exec_warp_init clears it once there is a stack */
            }
            if (w->stack_sp[l] + fi->frame_bytes > EXEC_STACK_BYTES) {
                exec_fault(x, w, in, l, "stack-overflow", 0,
                           "recursion in %s is too deep: its %u saved frames fill the %d bytes of the "
                           "simulator's per-thread call stack", x->prog->ptx->funcs[sc->callee].name,
                           w->stack_sp[l] / fi->frame_bytes, EXEC_STACK_BYTES);
                return;
            }
            frame_move(x, w, l, fi, w->stack + (uint64_t)l * EXEC_STACK_BYTES + w->stack_sp[l], true);
            w->stack_sp[l] += fi->frame_bytes;
        }
        for (int k = 0; k < sc->n_args; k++)
            memmove(tp + sc->arg_dst[k], tp + sc->arg_src[k], (size_t)sc->arg_size[k]);
        w->retpc[l * MAX_CALL_DEPTH + w->callsp[l]++] = pc;
        w->pc[l] = p->funcs[sc->callee].entry_pc;
    }
}

static void ex_trap(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    exec_fault(x, w, in, __builtin_ctz(m), "trap", 0, "the kernel executed trap");
}

/* Lanes m arrive at barrier b from the instruction at pc (ex_bar,
 * exec_bar_whole): counted, and arrivals from two instructions marked. */
static inline void bar_count(SimBarrier *b, int32_t pc, uint32_t m)
{
    if (!b->arrived)
        b->pc = pc;
    else if (b->pc != pc)
        b->mixed = true;
    b->arrived += (uint32_t)exec_popc(m);
}

/* Lanes m of w wait at barrier id until it releases. */
static inline void bar_wait(Warp *w, uint32_t id, uint32_t m)
{
    if (m == FULL_MASK)
        memset(w->barid, (int)id, WARP);
    else
        for (uint32_t r = m; r; r &= r - 1)
            w->barid[__builtin_ctz(r)] = (uint8_t)id;
    w->run &= ~m;
    w->barwait |= m;
    w->barmask[id] |= m;
}

/* bar.sync / barrier.sync / bar.arrive / bar.red: arrive, and (except
 * arrive) wait.  Release happens in exec_run.c once enough have arrived. */
static void ex_bar(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t id = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(m)];
    if (id >= 16) {
        exec_fault(x, w, in, __builtin_ctz(m), "trap", 0, "barrier id %u is not in 0..15", id);
        return;
    }
    SimBarrier *b = &w->blk->bar[id];
    if (in->s[1] != -1) {
        uint32_t cnt = (uint32_t)exec_src(x, w, in->s[1])[__builtin_ctz(m)];
        if (cnt == 0 || cnt % WARP || cnt > (uint32_t)((x->nthreads + WARP - 1) / WARP * WARP)) {
            exec_fault(x, w, in, __builtin_ctz(m), "trap", 0,
                       "barrier thread count %u is not a positive multiple of 32 within the block", cnt);
            return;
        }
        b->expected = cnt;
    }
    if (in->aligned) {
        /* .aligned: every live lane of the warp must execute this barrier.
         * Lanes elsewhere are remembered; a lane about to leave the kernel
         * (an early "return" before the barrier) is fine, as on hardware,
         * which counts exited threads as arrived. */
        uint32_t skip = 0;
        for (uint32_t r = w->present & ~w->exited & ~w->barwait & ~m; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            ExecFn fn = x->insts[w->pc[l]].fn;
            if (!((fn == ex_ret && w->callsp[l] == 0) || fn == ex_exit))
                skip |= 1u << l;
        }
        w->bar_skip = (w->bar_skip | skip) & ~m;
    }
    int32_t pc = (int32_t)(in - x->insts);
    bar_count(b, pc, m);
    if (in->sub == 3) { /* bar.red: accumulate the predicate */
        uint32_t pv = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
        if (in->negsrc)
            pv = ~pv;
        b->red_popc += (uint32_t)exec_popc(pv & m);
        if (b->arrived == (uint32_t)exec_popc(m)) {
            b->red_and = true;
            b->red_or = false;
        }
        if ((pv & m) != m)
            b->red_and = false;
        if (pv & m)
            b->red_or = true;
    }
    lanes_add_pc(w->pc, m, 1);
    if (in->sub != 1) /* not arrive: wait */
        bar_wait(w, id, m);
    if (in->sub == 3)
        b->red = true;
    if (x->trace)
        exec_trace_arrive(x, w, id, m, b->arrived);
    if (b->expected && in->sub != 1) /* a counted barrier may release while others run */
        exec_barrier_try_release(x, w->blk, (int)id);
}

bool exec_bar_whole(Exec *x, Warp *w, const SimInst *in)
{
    uint32_t m = w->run;
    if (!w->conv || m != (w->present & ~w->exited) || exec_guard_mask(w, in, m) != m)
        return false;
    uint32_t id = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(m)];
    if (id >= 16 || w->blk->bar[id].expected)
        return false;
    SimBarrier *b = &w->blk->bar[id];
    DeviceStats *st = x->stats;
    st->warp_insts++;
    st->thread_insts += (uint64_t)exec_popc(m);
    /* exec_issue: the warp's lanes take their own pcs; ex_bar: every live
     * lane is here (nothing skipped), arrives and waits one past it */
    int32_t pc = (int32_t)(in - x->insts);
    lanes_fill_pc(w->pc, m, pc + 1);
    w->conv = false;
    w->gok = false;
    if (in->aligned)
        w->bar_skip &= ~m;
    bar_count(b, pc, m);
    bar_wait(w, id, m);
    if (st->warp_insts >= x->budget)
        exec_budget_fault(x, w, in, m);
    return true;
}

/* barrier.cluster.arrive (sub 1) / .wait (sub 2).  A launch without
 * clusters runs each CTA as a cluster of one: wait is the CTA's barrier over
 * every thread (hardware barrier 15, which a kernel naming its own barriers
 * is unlikely to use) and arrive marks nothing a later wait would not see. */
static void ex_cluster_bar(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    if (w->blk->cl) {
        exec_cluster_barrier(x, w, in, m);
        return;
    }
    if (in->sub == 2) { /* ex_bar waits for every sub but 1 (arrive) and 3 (red) */
        ex_bar(x, w, in, m);
        return;
    }
    for (uint32_t r = m; r; r &= r - 1)
        w->pc[__builtin_ctz(r)]++;
}

SimStatus dec_ctrl(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    SimProgram *p = c->p;
    static const char *const ign[] = {"uni", "aligned", NULL};
    dec_ignore(c, ign);
    if (!strcmp(op, "bra")) {
        if (c->pi->n_opnds != 1 || c->pi->opnds[0].kind != PTX_OPND_LABEL)
            return dec_fail(c, "bra needs a label (indirect branches are not supported)");
        in->flow = SIM_FLOW_BRANCH;
        in->target = c->pi->opnds[0].target;
        in->fn = ex_nothing;
        return SIM_OK;
    }
    if (!strcmp(op, "ret") || !strcmp(op, "exit")) {
        in->flow = SIM_FLOW_SELF;
        in->fn = op[0] == 'r' ? ex_ret : ex_exit;
        return SIM_OK;
    }
    if (!strcmp(op, "trap")) {
        in->fn = ex_trap;
        return SIM_OK;
    }
    if (!strcmp(op, "griddepcontrol")) {
        /* programmatic dependent launch (PTX ISA, griddepcontrol, sm_90):
         * .wait waits for the grids this one depends on, which in the
         * simulator have finished before it starts (launches run one after
         * another); .launch_dependents lets a dependent grid start early, a
         * scheduling hint.  Both change no value here. */
        if (!dec_mod(c, "wait") && !dec_mod(c, "launch_dependents"))
            return dec_fail(c, "needs .wait or .launch_dependents");
        if (c->pi->n_opnds)
            return dec_fail(c, "takes no operands");
        in->fn = ex_nothing;
        return SIM_OK;
    }
    if (!strcmp(op, "membar") || !strcmp(op, "fence") || !strcmp(op, "brkpt") ||
        !strcmp(op, "nanosleep") || !strcmp(op, "pmevent")) {
        static const char *const fences[] = {"cta", "gl", "sys", "gpu", "cluster", "sc", "acq_rel",
                                             "proxy", "async", "alias", "release", "acquire",
                                             "mbarrier_init", "shared", "u32", "mask", NULL};
        dec_ignore(c, fences);
        in->fn = ex_nothing;
        return SIM_OK;
    }
    if (!strcmp(op, "bar") || !strcmp(op, "barrier")) {
        if (dec_mod(c, "warp")) { /* bar.warp.sync: waits for its member mask (exec_sync.c) */
            dec_mod(c, "sync");
            if (dec_src(c, 0, PTX_T_B32, &in->wmask))
                return c->err->status;
            in->wsync = 1;
            in->fn = exec_warp_sync_fn();
            return SIM_OK;
        }
        if (dec_mod(c, "cluster")) {
            /* barrier.cluster.arrive / .wait: across the CTAs of a cluster
             * (exec_cluster.c); see ex_cluster_bar for a launch without */
            static const char *const ign2[] = {"relaxed", "release", "acquire", NULL};
            dec_ignore(c, ign2);
            if (c->pi->n_opnds)
                return dec_fail(c, "takes no operands");
            if (dec_mod(c, "arrive"))
                in->sub = 1;
            else if (dec_mod(c, "wait"))
                in->sub = 2;
            else
                return dec_fail(c, "needs .arrive or .wait");
            in->s[0] = dec_konst(c, 15);
            in->aligned = 0;
            in->flow = SIM_FLOW_SELF;
            in->fn = ex_cluster_bar;
            return SIM_OK;
        }
        dec_mod(c, "cta");
        /* bar is barrier.aligned; plain barrier.sync lets a warp's threads
         * arrive separately (dec_ignore above marked "aligned" used) */
        in->aligned = !strcmp(op, "bar");
        for (int i = 0; i < c->pi->n_mods; i++)
            if (!strcmp(c->pi->mods[i], "aligned"))
                in->aligned = 1;
        int nsrc;
        if (dec_mod(c, "sync") || dec_mod(c, "all")) {
            in->sub = 0;
        } else if (dec_mod(c, "arrive")) {
            in->sub = 1;
        } else if (dec_mod(c, "red")) {
            in->sub = 3;
        } else if (c->pi->n_mods == 0 || !strcmp(op, "bar")) {
            in->sub = 0; /* plain "bar 0" is bar.sync */
        } else {
            return dec_fail(c, "expected .sync, .arrive or .red");
        }
        int i = 0;
        if (in->sub == 3) {
            int kind;
            if (dec_mod(c, "popc")) kind = 0;
            else if (dec_mod(c, "and")) kind = 1;
            else if (dec_mod(c, "or")) kind = 2;
            else return dec_fail(c, "bar.red needs .popc, .and or .or");
            static const char *const ty[] = {"u32", "pred", NULL};
            dec_ignore(c, ty);
            in->aux = kind;
            if (kind == 0) {
                if (dec_dst(c, 0, &in->d))
                    return c->err->status;
            } else if (dec_pred(c, 0, &in->pd, NULL)) {
                return c->err->status;
            }
            i = 1;
            nsrc = c->pi->n_opnds - 1 - 1; /* barrier id [, count], pred */
            bool neg = false;
            if (dec_pred(c, c->pi->n_opnds - 1, &in->ps, &neg))
                return c->err->status;
            in->negsrc = neg;
        } else {
            nsrc = c->pi->n_opnds;
        }
        if (nsrc < 1 || nsrc > 2)
            return dec_fail(c, "expected a barrier id and an optional thread count");
        if (dec_src(c, i, PTX_T_U32, &in->s[0]))
            return c->err->status;
        if (nsrc == 2 && dec_src(c, i + 1, PTX_T_U32, &in->s[1]))
            return c->err->status;
        in->flow = SIM_FLOW_SELF;
        in->fn = ex_bar;
        in->cta_sync = in->sub == 0 && nsrc == 1;
        return SIM_OK;
    }
    if (!strcmp(op, "call")) {
        /* call{.uni} [(ret),] func, [(args)] [, prototype] */
        int i = 0, n = c->pi->n_opnds;
        const PtxOperand *rets = NULL, *args = NULL, *fo = NULL;
        if (i < n && c->pi->opnds[i].kind == PTX_OPND_LIST)
            rets = &c->pi->opnds[i++];
        if (i < n && c->pi->opnds[i].kind == PTX_OPND_FUNC)
            fo = &c->pi->opnds[i++];
        if (i < n && c->pi->opnds[i].kind == PTX_OPND_LIST)
            args = &c->pi->opnds[i++];
        if (!fo)
            return dec_fail(c, "indirect calls are not supported");
        if (fo->target < 0 || fo->target >= c->m->n_funcs)
            return dec_fail(c, "bad call target");
        const PtxFunc *callee = &c->m->funcs[fo->target];
        if (callee->is_entry) /* its parameters live in the launch's buffer, not a frame */
            return dec_fail(c, "%s is a kernel (.entry); only a .func can be called", callee->name);
        SimCall sc;
        memset(&sc, 0, sizeof sc);
        sc.callee = fo->target;
        if (callee->is_extern) {
            if (!strcmp(callee->name, "vprintf")) {
                sc.is_vprintf = true;
                sc.sys = SIM_SYS_PRINTF;
            } else if (!strcmp(callee->name, "__assertfail")) {
                sc.sys = SIM_SYS_ASSERT;
            } else if (!strcmp(callee->name, "malloc")) {
                sc.sys = SIM_SYS_MALLOC;
            } else if (!strcmp(callee->name, "free")) {
                sc.sys = SIM_SYS_FREE;
            } else {
                return dec_fail(c, "calls to the external function %s are not supported", callee->name);
            }
            sc.callee = -1;
        }
        int na = args ? args->n_elems : 0, nr = rets ? rets->n_elems : 0;
        if (na > 16 || nr > 4)
            return dec_fail(c, "too many call arguments");
        if (sc.callee >= 0 && (na != callee->n_params || nr != callee->n_rets))
            return dec_fail(c, "%s takes %d parameters and %d results; the call passes %d and %d",
                            callee->name, callee->n_params, callee->n_rets, na, nr);
        for (int k = 0; k < na + nr; k++) {
            const PtxOperand *e = k < na ? &args->elems[k] : &rets->elems[k - na];
            uint64_t a;
            int sp;
            const PtxVar *v = dec_var(c, e, &a, &sp);
            if (e->kind != PTX_OPND_VAR || !v || sp != SPACE_TPARAM)
                return dec_fail(c, "call arguments must be .param variables");
            if (k < na) {
                sc.arg_src[k] = (int64_t)a;
                sc.arg_size[k] = (int64_t)v->size;
                if (sc.callee >= 0) {
                    sc.arg_dst[k] = p->funcs[sc.callee].param_off[k];
                    if (p->funcs[sc.callee].param_size[k] < (int)v->size)
                        sc.arg_size[k] = p->funcs[sc.callee].param_size[k];
                }
            } else {
                int j = k - na;
                sc.ret_dst[j] = (int64_t)a;
                sc.ret_size[j] = (int64_t)v->size;
                if (sc.callee >= 0) {
                    sc.ret_src[j] = p->funcs[sc.callee].ret_off[j];
                    if (p->funcs[sc.callee].ret_size[j] < (int)v->size)
                        sc.ret_size[j] = p->funcs[sc.callee].ret_size[j];
                }
            }
        }
        sc.n_args = na;
        sc.n_rets = nr;
        SimCall *nc = realloc(p->calls, (size_t)(p->n_calls + 1) * sizeof *nc);
        if (!nc)
            return sim_error_set(c->err, SIM_ERR_NOMEM, c->m->path, 0, 0, "out of memory");
        p->calls = nc;
        p->calls[p->n_calls] = sc;
        in->aux = p->n_calls++;
        in->flow = SIM_FLOW_SELF;
        in->fn = ex_call;
        return SIM_OK;
    }
    return dec_fail(c, "unknown control instruction");
}

/* exec_issue.c: a warp issues one instruction -- its guard, its lane
 * group, the handler, then the PCs moved by its control-flow class.  Under
 * independent thread scheduling (its, the default) a diverged group that
 * keeps looping yields to the others every SPIN_YIELD backward branches, so
 * a lane spinning on a flag another lane of its warp sets still makes
 * progress, as on Volta and later; under the pre-Volta stack model it never
 * yields.  A scheduler's burst runs in exec_burst.h's loop (the converged
 * common cases inline); a diverged warp remembers its next group while it
 * stays below the rest, and when its groups meet (exec_group_keep).  Also a
 * warp's start in a block slot
 * (clearing only the registers exec_regs.c names).  Called by exec_sched.c;
 * calls exec_lanes.c, exec_sync.c (warp-synchronous waits), the handlers
 * through SimInst.fn, exec_trace.c and exec_fault.c. */
#include "exec_int.h"
#include "exec_burst.h"
#include "exec_issue.h"
#include "exec_lanes.h"
#include "exec_vec.h"
#include "exec_trace.h"

#include <string.h>

#define SPIN_YIELD 64

void exec_warp_init(Exec *x, Block *b, Warp *w, int id)
{
    SimProgram *p = x->prog;
    (void)id; /* warp_setup numbered the slot's warps */
    /* the registers a lane may read before writing them read 0 (exec_regs.c);
     * the rest keep what the slot's last warp left, never seen */
    for (int k = 0; k < x->n_zero; k++)
        memset(w->r + (size_t)x->zero[k][0] * WARP, 0, (size_t)(x->zero[k][1] - x->zero[k][0]) * WARP * sizeof *w->r);
    memset(w->p, 0, (size_t)(p->n_preds + 1) * sizeof *w->p);
    uint64_t *r = w->r;
    int32_t entry = p->funcs[x->fidx].entry_pc;
    uint32_t sp = x->specials;
    const uint64_t ctaid[3] = {b->ctaid.x, b->ctaid.y, b->ctaid.z};
    for (int k = 0; k < 3; k++)
        if (sp >> (SLOT_CTAID_X + k) & 1)
            exec_vec_fill(r + (SLOT_CTAID_X + k) * WARP, ctaid[k], FULL_MASK);
    lanes_fill_pc(w->pc, FULL_MASK, entry);
    memset(w->callsp, 0, sizeof w->callsp);
    w->run = w->present;
    w->exited = ~w->present;
    w->barwait = 0;
    memset(w->barmask, 0, sizeof w->barmask);
    w->bar_skip = 0;
    w->syncwait = 0;
    w->spin = 0;
    w->cc = 0;
    w->carrived = w->cdone = w->cwait = 0;
    if (w->stack) /* (allocated at the slot's first recursive call, which clears it then) */
        memset(w->stack_sp, 0, sizeof w->stack_sp);
    w->yield_pc = -1;
    w->gok = false;
    w->trace_mask = 0;
    w->span_start = x->cycle;
    w->upc = entry;
    w->conv = true;
}

void exec_budget_fault(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    exec_fault(x, w, in, __builtin_ctz(m), "budget-exceeded", 0,
               "the launch executed %llu warp instructions, its instruction budget "
               "(an infinite loop?  If not, raise the budget: --budget N, or "
               "DeviceLaunch.inst_budget)", (unsigned long long)x->stats->warp_insts);
}

/* A diverged warp's group (lanes m) moved on to gpc, every other runnable
 * lane being at `above` or higher (all at above when `all`): while gpc is
 * below them and no yield is pending, it is the next group too -- kept, so
 * that its next issue need not look at every lane's pc again (Warp.gok 1);
 * when it reached them and they are all there, the groups met: the next
 * issue converges (Warp.gok 2), with no look either. */
void exec_group_keep(Warp *w, int32_t gpc, uint32_t m, int32_t above, bool all)
{
    if (w->conv || w->yield_pc >= 0)
        return;
    if (gpc < above) {
        w->gok = 1;
        w->gpc = gpc;
        w->gmask = m;
        w->gabove = above;
        w->gall = all;
        w->grun = w->run;
    } else if (gpc == above && all) {
        w->gok = 2;
        w->gpc = gpc;
        w->grun = w->run;
    }
}

/* A diverged warp whose next group is the kept one (Warp.gok) issues it
 * when its instruction is plain with flow NEXT: exec_issue's work for that
 * case, without its look for the group -- and with a straight run
 * (SimInst.straight) up to room more, while the group stays below the other
 * lanes, as exec_straight_run does for a converged warp.  Returns how many
 * instructions it issued, 0 when the case is not that one. */
uint64_t exec_kept_group(Exec *x, Warp *w, uint64_t room, int alone)
{
    if (w->gok != 1 || w->grun != w->run || w->yield_pc >= 0 || w->gmask == w->run || x->trace)
        return 0;
    const SimInst *in = &x->insts[w->gpc];
    if (!in->plain || in->flow != SIM_FLOW_NEXT)
        return 0;
    uint32_t m = w->gmask;
    DeviceStats *st = x->stats;
    uint64_t n = alone == 1 ? in->straight_blk : in->straight, i = 0;
    if (n > (uint64_t)(w->gabove - w->gpc))
        n = (uint64_t)(w->gabove - w->gpc);
    if (n > room)
        n = room;
    if (n > 1 && st->warp_insts + n < x->budget) { /* unguarded, no budget fault among them */
        i = exec_straight_run(x, w, in, m, n);
    } else {
        uint32_t em = exec_guard_mask(w, in, m);
        st->warp_insts++;
        st->thread_insts += (uint64_t)exec_popc(em);
        if (em)
            in->fn(x, w, in, em);
        i = 1;
        if (!x->faulted && st->warp_insts >= x->budget)
            exec_budget_fault(x, w, in, m);
    }
    lanes_add_pc(w->pc, m, (int32_t)i);
    w->gpc += (int32_t)i;
    if (w->gpc >= w->gabove) { /* group_keep: it is the next group while below the rest */
        w->gok = 0;
        exec_group_keep(w, w->gpc, m, w->gabove, w->gall); /* (met, or nothing kept) */
    }
    return i;
}

/* exec_issue_burst's loop, k instructions issued already (exec_burst.h's,
 * for a diverged warp's burst and exec_sched.c's stepped path). */
uint64_t exec_burst_loop(Exec *x, Warp *w, uint64_t k, uint64_t max)
{
    return exec_burst_run(x, w, k, max);
}

uint64_t exec_issue_burst_diverged(Exec *x, Warp *w, uint64_t max)
{
    /* its first group without the loop's set-up */
    uint64_t k = exec_kept_group(x, w, max, -1);
    int alone = -1;
    if (!k)
        k = exec_issue(x, w);
    if (!w->run || x->faulted || (k && (k >= max || !exec_burst_goes_on(x, w, x->insts, &alone))))
        return k;
    return exec_burst_loop(x, w, k, max);
}

bool exec_issue(Exec *x, Warp *w)
{
    const SimInst *insts = x->insts;
    DeviceStats *st = x->stats;
    int32_t pc, above = INT32_MIN; /* diverged: the other runnable lanes' lowest pc (INT32_MIN: not known) */
    bool all = false;              /* ... and all of them are there */
    uint32_t m;
    if (w->conv) {
        pc = w->upc;
        m = w->run;
    } else {
        if (w->gok == 1 && w->grun == w->run && w->yield_pc < 0) { /* group_keep's */
            pc = w->gpc;
            m = w->gmask;
            above = w->gabove;
            all = w->gall;
        } else if (w->gok == 2 && w->grun == w->run && w->yield_pc < 0) { /* met: every lane at gpc */
            pc = w->gpc;
            m = w->run;
            above = INT32_MAX;
        } else if (w->yield_pc < 0) {
            pc = exec_next_group_above(w, &m, &above);
        } else {
            pc = exec_next_group(w, &m);
        }
        w->gok = false;
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
    uint32_t em = exec_guard_mask(w, in, m);
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
        if (w->conv) {
            w->upc++;
        } else {
            for (uint32_t r = m; r; r &= r - 1)
                w->pc[__builtin_ctz(r)]++;
            exec_group_keep(w, pc + 1, m, above, all);
        }
    } else if (in->flow == SIM_FLOW_BRANCH) {
        if (em)
            in->fn(x, w, in, em); /* e.g. counts; the move is done here */
        if (w->conv) {
            /* as a burst's bra, but the group it keeps is let go: the caller's
             * exec_burst_goes_on would go on with it, and a burst ends where a
             * warp diverges (the stepper's issues too) */
            if (exec_branch_conv(x, w, in, m, em))
                w->gok = 0;
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
            if (em == m || em == 0)
                exec_group_keep(w, em ? in->target : pc + 1, m, above, all);
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
        exec_budget_fault(x, w, in, m);
    return true;
}

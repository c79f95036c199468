/* exec_burst.h: a converged warp's burst -- the loop of exec_issue_burst,
 * inline here so that the scheduler's pick (exec_sched.c's sm_cycle_rr)
 * runs it without a call: straight runs of plain instructions (and the bra
 * ending one), a block barrier's whole-warp arrival, exec_issue for the
 * rest, until exec_burst_goes_on says another warp could observe the next
 * instruction.  A diverged warp's kept group and the groups' bookkeeping
 * stay in exec_issue.c (exec_kept_group, exec_group_keep). */
#ifndef WARPSIM_EXEC_BURST_H
#define WARPSIM_EXEC_BURST_H

#include "exec_issue.h"
#include "exec_trace.h"

/* A diverged warp's group (lanes m) moved on to gpc, every other runnable
 * lane at above or higher (all at above when all): kept as the next group
 * while below them, the groups met when all there (Warp.gok). */
void exec_group_keep(Warp *w, int32_t gpc, uint32_t m, int32_t above, bool all);
/* A diverged warp's kept group issued, up to room instructions: how many,
 * 0 when its next instruction is not plain with flow NEXT (exec_issue then). */
uint64_t exec_kept_group(Exec *x, Warp *w, uint64_t room, int alone);

/* Lanes m run the n instructions from in on (n <= in->straight or, while
 * the rest of the block waits, in->straight_blk; the budget not reached by
 * them): what exec_issue does for each, less what none of them needs
 * (guards, flow, traces, the budget), stopping after one that faults; the
 * caller moves the pcs.  Returns how many ran. */
__attribute__((always_inline)) static inline uint64_t exec_straight_run(Exec *x, Warp *w, const SimInst *in, uint32_t m,
                                                                 uint64_t n)
{
    uint64_t i = 0;
    while (i < n) {
        in[i].fn(x, w, &in[i], m);
        i++;
        if (x->faulted)
            break;
    }
    x->stats->warp_insts += i;
    x->stats->thread_insts += i * (uint64_t)exec_popc(m);
    return i;
}

/* A converged warp's bra (flow BRANCH) at w->upc, lanes m (all it runs),
 * em of them taking it: the pcs move (its handler does nothing,
 * SimInst.jumps).  true when the warp diverged: then the group at the lower
 * pc is the next (what exec_next_group_above would find), kept, and the
 * caller ends the burst, as exec_burst_goes_on would for a warp with no
 * kept group. */
__attribute__((always_inline)) static inline bool exec_branch_conv(Exec *x, Warp *w, const SimInst *in, uint32_t m,
                                                              uint32_t em)
{
    if (em == m) {
        w->upc = in->target;
        return false;
    }
    if (em == 0) {
        w->upc++;
        return false;
    }
    int32_t pc = w->upc, t = in->target;
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        w->pc[l] = (em >> l & 1) ? t : pc + 1;
    }
    w->conv = false;
    w->gok = 0;
    x->stats->divergent_branches++;
    if (t > pc + 1) /* forward: the lanes falling through first */
        exec_group_keep(w, pc + 1, m & ~em, t, true);
    else if (t < pc + 1)
        exec_group_keep(w, t, em, pc + 1, true);
    return true;
}

/* exec_issue_burst's loop, k instructions issued already. */
__attribute__((always_inline)) static inline uint64_t exec_burst_run(Exec *x, Warp *w, uint64_t k, uint64_t max)
{
    const SimInst *insts = x->insts;
    DeviceStats *st = x->stats;
    int alone = -1; /* exec_burst_goes_on's look, once a burst (1: the
                       block's shared accesses join straight runs) */
    for (;;) {
        const SimInst *in = &insts[w->upc];
        uint64_t n, j;
        if (!w->conv) {
            n = exec_kept_group(x, w, max - k, alone);
            k += n ? n : exec_issue(x, w);
        } else if (!in->plain) { /* everything else: exec_issue */
            k += in->cta_sync && !x->trace && exec_bar_whole(x, w, in) ? 1 : exec_issue(x, w);
        } else if ((n = alone == 1 ? in->straight_blk : in->straight) + (j = in->jumps >> (alone == 1) & 1) > 1 &&
                   !x->trace && st->warp_insts + n + j < x->budget) {
            uint64_t ran = exec_straight_run(x, w, in, w->run, n < max - k ? n : max - k);
            w->upc += (int32_t)ran;
            k += ran;
            if (j && ran == n && k < max && !x->faulted) { /* the bra that ends the run */
                const SimInst *b = &insts[w->upc];
                uint32_t m = w->run, em = exec_guard_mask(w, b, m);
                st->warp_insts++;
                st->thread_insts += (uint64_t)exec_popc(em);
                k++;
                if (exec_branch_conv(x, w, b, m, em))
                    return k;
            }
        } else { /* exec_issue's converged FLOW_NEXT and FLOW_BRANCH cases, inline */
            uint32_t m = w->run, em = exec_guard_mask(w, in, m);
            if (x->trace)
                exec_trace_issue(x, w, in, m);
            st->warp_insts++;
            st->thread_insts += (uint64_t)exec_popc(em);
            if (em)
                in->fn(x, w, in, em);
            if (in->flow == SIM_FLOW_NEXT) {
                if (w->conv)
                    w->upc++;
                else
                    for (uint32_t r = m; r; r &= r - 1)
                        w->pc[__builtin_ctz(r)]++;
            } else if (exec_branch_conv(x, w, in, m, em)) {
                k++;
                if (!x->faulted && st->warp_insts >= x->budget)
                    exec_budget_fault(x, w, in, m);
                return k;
            }
            k++;
            if (!x->faulted && st->warp_insts >= x->budget)
                exec_budget_fault(x, w, in, m);
        }
        if (!w->run || x->faulted || (k && (k >= max || !exec_burst_goes_on(x, w, insts, &alone))))
            return k;
    }
}

#endif

/* exec_issue.h: how a warp issues -- one instruction (exec_issue), a
 * scheduler's burst of the instructions no other warp can observe
 * (exec_issue_burst, exec_burst_goes_on), a whole warp's arrival at a block
 * barrier in one step (exec_bar_whole), the budget's fault.  exec_issue.c
 * and exec_ctrl.c; called by exec_sched.c and timing_scheduler.c. */
#ifndef WARPSIM_EXEC_ISSUE_H
#define WARPSIM_EXEC_ISSUE_H

#include "exec_int.h"

/* The budget ran out after w's instruction in (lanes m): the fault. */
void exec_budget_fault(Exec *x, Warp *w, const SimInst *in, uint32_t m);
/* Issue one instruction of warp w (the scheduler picked it).  false when
 * it was a tile marker (a pseudo-instruction: it took no issue slot). */
bool exec_issue(Exec *x, Warp *w);
/* exec_issue_burst's parts (exec_issue.c): its loop, k instructions issued
 * already; a diverged warp's burst. */
uint64_t exec_burst_loop(Exec *x, Warp *w, uint64_t k, uint64_t max);
uint64_t exec_issue_burst_diverged(Exec *x, Warp *w, uint64_t max);
/* Issue w's next instruction, then while w stays runnable and
 * exec_burst_goes_on the ones no other warp can observe (SimInst.visible
 * clear), up to max in all, until a fault: exec_sched.c's burst without a
 * stepper watching (it asks before each instruction).  Returns how many
 * took an issue slot.  (Inline: a converged warp goes straight to the
 * loop, one call less a burst.) */
static inline uint64_t exec_issue_burst(Exec *x, Warp *w, uint64_t max)
{
    return w->conv ? exec_burst_loop(x, w, 0, max) : exec_issue_burst_diverged(x, w, max);
}
/* After an instruction of w's burst: its next one is known and no other
 * warp can observe it now, so the burst goes on.  A diverged warp goes on
 * only while its next group is the one exec_issue kept (Warp.gok: the group
 * it issued goes on below the other lanes, with no yield due), so its next
 * instruction is that group's, as exec_issue would pick it.  An instruction
 * only its block's warps can observe (SimInst.blk_private: shared memory,
 * no clusters) joins the burst while every other warp of the block waits
 * (at a barrier, or exited): none of them can run before this warp does
 * something they can see.  Not in a traced launch: there each shared
 * access keeps a cycle of its own, so the memory view shows one access a
 * cycle (traced launches already interleave SMs in shorter slices).  *alone
 * caches that look for one burst (-1: not looked yet): the other warps
 * cannot start running during it. */
static inline bool exec_burst_goes_on(const Exec *x, const Warp *w, const SimInst *insts, int *alone)
{
    const SimInst *next;
    if (w->conv)
        next = &insts[w->upc];
    else if (w->gok == 1 && w->grun == w->run && w->yield_pc < 0)
        next = &insts[w->gpc];
    else
        return false;
    if (!next->visible)
        return true;
    if (!next->blk_private || x->cl || x->trace)
        return false;
    if (*alone < 0) {
        const Warp *v = w->blk->warps, *end = v + x->nwarps;
        uint32_t others = 0;
        for (; v < end; v++)
            others |= v == w ? 0 : v->run;
        *alone = others == 0;
    }
    return *alone;
}

/* A converged warp whose every live lane runs in (SimInst.cta_sync) arrives
 * at its barrier and waits: exec_issue's and ex_bar's work for that case
 * (exec_ctrl.c), the warp's instruction counted.  false, nothing done, when
 * the case is not that one (a guard off in some lane, a lane elsewhere, an
 * id out of range, a counted barrier pending). */
bool exec_bar_whole(Exec *x, Warp *w, const SimInst *in);

#endif

/* exec_barrier.c: block barriers (bar.sync, barrier.sync, bar.red) -- a
 * barrier releases when its expected count of threads has arrived, and
 * with --check races, arrivals from different barrier instructions or
 * without threads that exited are reported.  Called by exec_ctrl.c (the
 * instruction) and exec_sched.c (threads that exit); calls exec_race.c,
 * exec_trace.c and exec_fault.c. */
#include "exec_int.h"
#include "exec_race.h"
#include "exec_trace.h"

#include <string.h>

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
            const SimInst *bi = &x->insts[w->pc[l] - 1];
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
                    bi = &x->insts[bpc - 1];
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
            if (w->conv)
                exec_warp_diverge(w);
            w->barwait &= ~rel;
            bool alone = !w->run; /* the released lanes are all it runs */
            if (alone)
                w->span_start = x->cycle;
            w->run |= rel;
            if (x->tm) /* timing hook */
                timing_barrier_release(x, w);
            if (alone && !b->mixed) { /* every arrival came from b->pc: all just past it */
                w->conv = true;
                w->upc = b->pc + 1;
            } else {
                exec_warp_try_converge(w);
            }
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

/* exec_sync.c: when a warp-synchronous instruction may run.
 *
 * shfl/vote/match/redux .sync and bar.warp.sync name a member mask.  Under
 * independent thread scheduling (--divergence its, Volta and later) a lane
 * that reaches one waits until every lane of its mask has arrived at a
 * warp-synchronous instruction of the same kind -- at whatever PC -- and
 * then they all run it together, each with its own operands (seed 002's
 * strange_shuffle_volta; an H100 agrees bit for bit).  What hardware does
 * with a broken mask is reported instead of hanging: a mask that leaves out
 * the lane itself, names lanes that do not exist or have exited, lanes of
 * one mask that disagree on it, or that wait at different kinds of
 * instruction (shfl.idx against shfl.bfly hangs an H100).
 *
 * Under the pre-Volta stack model (--divergence stack) nothing waits: the
 * lanes of the mask must already be converged, executing this instruction
 * together, or the launch stops with "warp-sync" naming the missing lanes. */
#include "exec_int.h"

#include <string.h>

static uint32_t lane_mask(Exec *x, Warp *w, const SimInst *in, int l)
{
    return (uint32_t)exec_src(x, w, in->wmask)[l];
}

static bool same_kind(const SimInst *a, const SimInst *b)
{
    return a->fn == b->fn && a->sub == b->sub && a->type == b->type && a->size == b->size;
}

/* Lanes of mask mm that can never arrive: absent or exited. */
static uint32_t gone(const Warp *w, uint32_t mm)
{
    return mm & (~w->present | w->exited);
}

static bool check_mask(Exec *x, Warp *w, const SimInst *in, int l, uint32_t mm)
{
    if (!(mm >> l & 1)) {
        exec_fault(x, w, in, l, "warp-sync", 0,
                   "lane %d executes %s with member mask 0x%08x, which does not name the lane itself", l,
                   exec_sync_kind_name(in), mm);
        return false;
    }
    uint32_t g = gone(w, mm);
    if (g) {
        exec_fault(x, w, in, l, "warp-sync", 0,
                   "%s with member mask 0x%08x waits for lanes 0x%08x of warp %d, which %s", exec_sync_kind_name(in),
                   mm, g, w->id,
                   (g & ~w->present) == g ? "do not exist (the block's last warp is partial)"
                                          : "have already exited");
        return false;
    }
    return true;
}

/* Run the lanes of g (all parked at compatible instructions) together. */
static void release(Exec *x, Warp *w, uint32_t g)
{
    exec_collective(x, w, g);
    w->syncwait &= ~g;
    for (uint32_t r = g; r; r &= r - 1)
        w->pc[__builtin_ctz(r)]++;
    if (!w->run)
        w->span_start = x->cycle;
    w->run |= g;
    exec_warp_try_converge(w);
}

/* Release every group of parked lanes whose whole mask has arrived. */
static void try_release(Exec *x, Warp *w)
{
    const SimInst *insts = x->insts;
    for (uint32_t r = w->syncwait; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        if (!(w->syncwait >> l & 1))
            continue;
        uint32_t mm = w->syncmask[l];
        if ((mm & w->syncwait) != mm)
            continue;
        const SimInst *in = &insts[w->pc[l]];
        for (uint32_t q = mm; q; q &= q - 1) {
            int k = __builtin_ctz(q);
            const SimInst *ik = &insts[w->pc[k]];
            if (w->syncmask[k] != mm) {
                exec_fault(x, w, ik, k, "warp-sync", 0,
                           "lanes %d and %d of warp %d meet at warp-synchronous instructions with different "
                           "member masks (0x%08x and 0x%08x); every lane of a mask must pass the same mask",
                           l, k, w->id, mm, w->syncmask[k]);
                return;
            }
            if (!same_kind(in, ik)) {
                exec_fault(x, w, ik, k, "warp-sync", 0,
                           "lane %d waits at %s (PTX line %d) and lane %d at %s for the same member mask "
                           "0x%08x: different warp-synchronous operations never meet (an H100 hangs here)",
                           l, exec_sync_kind_name(in), in->ptx_line, k, exec_sync_kind_name(ik), mm);
                return;
            }
        }
        release(x, w, mm);
        if (x->faulted)
            return;
    }
}

bool exec_sync_arrive(Exec *x, Warp *w, const SimInst *in, uint32_t em)
{
    int l0 = __builtin_ctz(em);
    uint32_t mm = lane_mask(x, w, in, l0);
    bool uniform = true;
    for (uint32_t r = em & (em - 1); r; r &= r - 1)
        if (lane_mask(x, w, in, __builtin_ctz(r)) != mm) {
            uniform = false;
            break;
        }
    if (uniform && mm == em)
        return true; /* the usual case: the converged group is the mask */
    if (x->cfg->divergence == DEVICE_DIV_STACK) {
        for (uint32_t r = em; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            uint32_t ml = lane_mask(x, w, in, l);
            if (!check_mask(x, w, in, l, ml))
                return false;
            if ((ml & em) != ml) {
                exec_fault(x, w, in, l, "warp-sync", 0,
                           "%s with member mask 0x%08x: lanes 0x%08x of the mask are not converged with lane %d "
                           "(pre-Volta warps execute one path at a time and cannot wait for the others)",
                           exec_sync_kind_name(in), ml, ml & ~em, l);
                return false;
            }
        }
        if (uniform)
            return true; /* every lane's mask within the converged group */
        /* one converged group, several masks (disjoint ballots): each mask's
         * lanes run the instruction as a collective of their own */
        exec_warp_diverge(w);
        for (uint32_t left = em; left && !x->faulted;) {
            uint32_t ml = lane_mask(x, w, in, __builtin_ctz(left)), g = 0;
            for (uint32_t r = left; r; r &= r - 1)
                if (lane_mask(x, w, in, __builtin_ctz(r)) == ml)
                    g |= 1u << __builtin_ctz(r);
            in->fn(x, w, in, g);
            left &= ~g;
        }
        for (uint32_t r = em; r; r &= r - 1)
            w->pc[__builtin_ctz(r)]++;
        return false;
    }
    /* its: park the lanes until their masks are complete */
    for (uint32_t r = em; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint32_t ml = lane_mask(x, w, in, l);
        if (!check_mask(x, w, in, l, ml))
            return false;
        w->syncmask[l] = ml;
    }
    exec_warp_diverge(w);
    w->syncwait |= em;
    w->run &= ~em;
    try_release(x, w);
    return false;
}

void exec_sync_check(Exec *x, Warp *w)
{
    const SimInst *insts = x->insts;
    for (uint32_t r = w->syncwait; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        const SimInst *in = &insts[w->pc[l]];
        if (!check_mask(x, w, in, l, w->syncmask[l]))
            return;
        uint32_t missing = w->syncmask[l] & ~w->syncwait;
        if (missing & w->barwait) {
            exec_fault(x, w, in, l, "deadlock", 0,
                       "lanes of warp %d wait at %s for lanes 0x%08x, which wait at a block barrier "
                       "(bar.sync) the waiting lanes never reach", w->id, exec_sync_kind_name(in),
                       missing & w->barwait);
            return;
        }
    }
}

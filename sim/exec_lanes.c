/* exec_lanes.c: a warp's lane groups -- each lane has its own PC; the
 * group that issues is the runnable lanes at the lowest PC; while every
 * runnable lane shares one PC the warp is "converged" and keeps a single PC
 * (the fast path).  Called by exec_issue.c, exec_sync.c and inspect.c;
 * calls only exec_vec.c (the lowest pc of a set of lanes). */
#include "exec_int.h"
#include "exec_lanes.h"
#include "exec_vec.h"

/* Write the common PC out to every runnable lane and leave the fast path. */
void exec_warp_diverge(Warp *w)
{
    if (w->conv) {
        lanes_fill_pc(w->pc, w->run, w->upc);
        w->conv = false;
        w->gok = false;
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
    if (w->run == FULL_MASK) { /* the usual case: four lanes at a time */
        typedef int32_t I32x4 __attribute__((vector_size(16)));
        I32x4 diff = {0, 0, 0, 0}, want = {pc, pc, pc, pc};
        for (int l = 0; l < WARP; l += 4) {
            I32x4 v;
            memcpy(&v, w->pc + l, sizeof v);
            diff |= v ^ want;
        }
        if (diff[0] | diff[1] | diff[2] | diff[3])
            return;
    } else {
        for (uint32_t r = w->run; r; r &= r - 1)
            if (w->pc[__builtin_ctz(r)] != pc)
                return;
    }
    w->conv = true;
    w->upc = pc;
}

int32_t exec_next_group_above(const Warp *w, uint32_t *mask, int32_t *above)
{
    const int32_t *p = w->pc;
    uint32_t run = w->run;
    if (!run) {
        *mask = 0;
        *above = INT32_MAX;
        return INT32_MAX;
    }
    int32_t pc = exec_vec_lowest(p, run, mask);
    uint32_t rest = run & ~*mask, at;
    *above = rest ? exec_vec_lowest(p, rest, &at) : INT32_MAX;
    return pc;
}

int32_t exec_next_group(const Warp *w, uint32_t *mask)
{
    if (w->conv) {
        *mask = w->run;
        return w->upc;
    }
    if (w->yield_pc < 0 && w->run) {
        int32_t above;
        return exec_next_group_above(w, mask, &above);
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

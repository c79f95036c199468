/* exec_memfast.h: a warp's loads and stores in one go where the lanes'
 * addresses allow (exec_memfast.c), the lane-by-lane path of exec_mem.c
 * taking the rest.  Called by exec_mem.c's handlers. */
#ifndef WARPSIM_EXEC_MEMFAST_H
#define WARPSIM_EXEC_MEMFAST_H

#include "exec_int.h"
#include "exec_vec.h"

/* ld/st for lanes m of w in one go: true when done; false when some lane
 * needs the lane-by-lane path (it may fault), nothing done. */
bool exec_ld_fast(Exec *x, Warp *w, const SimInst *in, uint32_t m);
bool exec_st_fast(Exec *x, Warp *w, const SimInst *in, uint32_t m);

/* The commonest access: a whole warp's 4-byte elements one after another in
 * the block's shared memory (s[tid], s[tid + k]).  True, with the first
 * element's host address, when in (a 4-byte shared ld/st with a base
 * register) is that for lanes m: the checks affine_of and region_at would
 * make, nothing else. */
static inline bool exec_shared_row(Exec *x, Warp *w, const SimInst *in, uint32_t m, uint8_t **host)
{
    if (m != FULL_MASK || in->space != PTX_SPACE_SHARED || in->vec != 1 || in->size != 4 || in->base < 0)
        return false;
    const uint64_t *b = exec_src(x, w, in->base);
    uint64_t a0 = b[0] + (uint64_t)in->off, st, limit = x->shared_size;
    if ((a0 & 3) || a0 >= limit || limit - a0 < 4 * WARP || !exec_vec_affine(b, &st) || st != 4)
        return false;
    *host = w->blk->shared + a0;
    return true;
}

/* The same for any lanes m of such an access: lane l's element at
 * first + 4 * (l - lowest lane of m), every lane of m one element after the
 * one before (what the lanes' other registers hold does not matter).  True,
 * with first's host address, when those bytes are in the block's shared
 * memory and aligned. */
static inline bool exec_shared_lanes(Exec *x, Warp *w, const SimInst *in, uint32_t m, uint8_t **first)
{
    if (!m || in->space != PTX_SPACE_SHARED || in->vec != 1 || in->size != 4 || in->base < 0)
        return false;
    const uint64_t *b = exec_src(x, w, in->base);
    int lo = __builtin_ctz(m), hi = 31 - __builtin_clz(m);
    uint64_t a = b[lo] + (uint64_t)in->off, limit = x->shared_size;
    for (uint32_t r = m & (m - 1); r; r &= r - 1) {
        int l = __builtin_ctz(r);
        if (b[l] + (uint64_t)in->off != a + 4 * (uint64_t)(l - lo))
            return false;
    }
    if ((a & 3) || a >= limit || limit - a < 4 * (uint64_t)(hi - lo + 1))
        return false;
    *first = w->blk->shared + a;
    return true;
}

/* A kernel parameter (ld.param at a constant offset, one element) read by
 * lanes m: true when done, false when out of the parameters' bytes. */
bool exec_ld_param(Exec *x, Warp *w, const SimInst *in, uint32_t m);

#endif

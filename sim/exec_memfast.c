/* exec_memfast.c: a warp's load or store in one go.  Most accesses of a
 * warp are aligned and fall in one region (one global allocation, the
 * block's shared memory, the parameter buffer, the constant bank), many of
 * them as a0 + l * step; then one bounds check and one copy loop serve the
 * whole warp.  When any lane would fault, exec_ld_fast/exec_st_fast say no
 * and exec_mem.c's lane-by-lane path runs, so faults (first lane, message)
 * and partial effects are unchanged.  With SMs on threads (exec_par.c) the
 * bytes are noted here too.  Called by exec_mem.c's ld and st handlers. */
#include "exec_memfast.h"
#include "exec_par.h"
#include "exec_lanes.h"

#include <string.h>

/* The lanes of a warp access, for the notes of SMs on threads: m, and
 * each lane's address -- addr[l], or a0 + l * step when addr is NULL. */
typedef struct {
    uint32_t m;
    const uint64_t *addr;
    uint64_t a0, step;
} Lanes;

/* A chunk's warp access to allocation al (addresses lo..hi): the bytes
 * noted, and the pages saved first when it writes; false when they could
 * not be.  Lanes that cover lo..hi + size without a gap (a coalesced
 * access, the common case) are noted as that one range; other reads (a
 * gather) as their lanes' pages, other writes lane by lane.  Noting more
 * than was touched can only make a false conflict, never miss one. */
static bool par_region(Exec *x, const MemAlloc *al, const Lanes *ln, unsigned size, bool write, uint64_t lo,
                       uint64_t hi)
{
    uint64_t span = hi - lo + size;
    if (span == (uint64_t)exec_popc(ln->m) * size) {
        if (write && !exec_par_write(x, al, lo, span))
            return false;
        exec_par_note(x, lo, span, write);
        return true;
    }
    for (uint32_t r = ln->m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        uint64_t a = ln->addr ? ln->addr[l] : ln->a0 + (uint64_t)l * ln->step;
        if (!write) {
            exec_par_note_gather(x, al, a); /* the page: a lookup, not a range to sort */
            continue;
        }
        if (!exec_par_write(x, al, a, size))
            return false;
        exec_par_note(x, a, size, write);
    }
    return true;
}

/* ---- the whole-warp fast path ---------------------------------------------
 * Most accesses of a warp are aligned and fall in one region: one global
 * allocation, the block's shared memory, the parameter buffer or the
 * constant bank.  region_of() checks that for all lanes of m at once (the
 * lowest and highest address, the OR of all for alignment) and gives the
 * region's host base; then the handlers run a plain copy loop.  When any
 * lane would fault it says no, and the lane-by-lane path below runs as
 * before, so faults (first lane, message) and partial effects are
 * unchanged. */
typedef struct {
    uint8_t *host;      /* host address of device address `addr` */
    uint64_t addr;
} Region;

/* The region holding every access [a, a + size) with lo <= a <= hi (lo, hi
 * aligned, hi - lo small), for in's state space: false when there is none
 * (some access would fault, or the space needs the lane-by-lane path). */
static bool region_at(Exec *x, Warp *w, const SimInst *in, uint64_t lo, uint64_t hi, unsigned size, bool write,
                      const Lanes *ln, Region *rg)
{
    int sp = in->space;
    uint64_t win = 0;
    if (sp == PTX_SPACE_NONE) {
        if (lo >= MEM_WINDOWS_END) {
            sp = PTX_SPACE_GLOBAL;
        } else if (lo >= MEM_SHARED_WIN && hi < MEM_SHARED_WIN + MEM_WIN_SIZE) {
            sp = PTX_SPACE_SHARED;
            win = MEM_SHARED_WIN;
        } else {
            return false;
        }
    }
    uint8_t *host;
    uint64_t limit;
    switch (sp) {
    case PTX_SPACE_GLOBAL: {
        MemAlloc *al = exec_global_find(x, lo, hi - lo + size);
        if (!al)
            return false;
        if (x->pchunk && !par_region(x, al, ln, size, write, lo, hi))
            return false; /* the lane by lane path faults */
        rg->host = al->host;
        rg->addr = al->addr;
        return true;
    }
    case PTX_SPACE_SHARED: host = w->blk->shared; limit = x->shared_size; break;
    case PTX_SPACE_CONST: host = x->prog->const_bank; limit = x->prog->const_size; break;
    case PTX_SPACE_PARAM: host = x->params; limit = x->params_size; break;
    default: return false;
    }
    if ((write && sp != PTX_SPACE_SHARED) || hi - win >= limit || size > limit - (hi - win))
        return false;
    rg->host = host;
    rg->addr = win;
    return true;
}

static bool region_of(Exec *x, Warp *w, const SimInst *in, uint32_t m, unsigned size, bool write,
                      uint64_t addr[WARP], Region *rg)
{
    const uint64_t *base = in->base >= 0 ? exec_src(x, w, in->base) : NULL;
    uint64_t off = (uint64_t)in->off, lo = UINT64_MAX, hi = 0, any = 0;
    LANES(m, {
        uint64_t a = (base ? base[l] : 0) + off;
        addr[l] = a;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        any |= a;
    });
    if ((any & (size - 1)) || hi - lo > (1ull << 40))
        return false;
    Lanes ln = {.m = m, .addr = addr};
    return region_at(x, w, in, lo, hi, size, write, &ln, rg);
}

/* ---- the affine fast path --------------------------------------------------
 * Most warps address memory as a0 + l * step for lane l: s[tid], s[tid + k],
 * in[i] for consecutive i (step = the element size), or one variable for
 * all (step 0).  affine_of finds that in one pass over the 32 address
 * registers (exec_vec_affine: AVX2 where the host has it), inactive lanes'
 * too (where they break the pattern, the general path above runs), and the
 * bounds from the first and last active lanes alone.  *o0 is lane 0's offset in the region (modulo 2^64: lane 0
 * may be inactive and outside it); lane l's is o0 + l * step. */
static bool affine_of(Exec *x, Warp *w, const SimInst *in, uint32_t m, unsigned size, bool write,
                      uint64_t *o0, uint64_t *step, Region *rg)
{
    uint64_t a0 = (uint64_t)in->off, st = 0;
    if (!(m & (m - 1))) /* one lane: no pattern to find (the general path is as quick) */
        return false;
    if (in->base >= 0) {
        const uint64_t *b = exec_src(x, w, in->base);
        if (!exec_vec_affine(b, &st))
            return false;
        a0 += b[0];
    }
    /* aligned lane 0 and step: every lane aligned; a span of at most 31
     * steps that does not wrap around */
    if (((a0 | st) & (size - 1)) || (st + (1ull << 32)) > (2ull << 32))
        return false;
    uint64_t first = a0 + (uint64_t)__builtin_ctz(m) * st, last = a0 + (uint64_t)(31 - __builtin_clz(m)) * st;
    uint64_t lo = (int64_t)st >= 0 ? first : last, hi = (int64_t)st >= 0 ? last : first;
    Lanes ln = {.m = m, .a0 = a0, .step = st};
    if (lo > hi || !region_at(x, w, in, lo, hi, size, write, &ln, rg))
        return false;
    *o0 = a0 - rg->addr;
    *step = st;
    return true;
}

/* Region offsets of the lanes' addresses (kept out of pointer arithmetic:
 * host - addr would point far outside any object). */
static inline void region_offsets(uint64_t addr[WARP], const Region *rg, uint32_t m)
{
    uint64_t base = rg->addr;
    LANES(m, { addr[l] -= base; });
}

/* The copy loops, with the element type a constant in each: T is what
 * load_val/store_val do for that size (and signedness, for loads). */
#define BY_TYPE(sz, sgn, BODY)                                               \
    switch ((sz) * 2 + (sgn)) {                                              \
    case 2: { typedef uint8_t T; BODY; break; }                              \
    case 3: { typedef int8_t T; BODY; break; }                               \
    case 4: { typedef uint16_t T; BODY; break; }                             \
    case 5: { typedef int16_t T; BODY; break; }                              \
    case 8: { typedef uint32_t T; BODY; break; }                             \
    case 9: { typedef int32_t T; BODY; break; }                              \
    default: { typedef uint64_t T; BODY; break; }                            \
    }

/* ---- one lane ----------------------------------------------------------------
 * A lane alone (thread 0 summing a block's values, a diverged tail): its
 * address, the alignment check and region_at, as region_of makes them for a
 * one-lane mask, without the 32-lane scan.  *host: where its bytes are;
 * false when the lane-by-lane path must run. */
static inline bool one_lane(Exec *x, Warp *w, const SimInst *in, uint32_t m, unsigned size, bool write,
                            uint8_t **host)
{
    int l = __builtin_ctz(m);
    uint64_t a = (in->base >= 0 ? exec_src(x, w, in->base)[l] : 0) + (uint64_t)in->off;
    if (in->space == PTX_SPACE_SHARED) { /* region_at's test for the block's shared memory */
        uint64_t limit = x->shared_size;
        if ((a & (size - 1)) || a >= limit || size > limit - a)
            return false;
        *host = w->blk->shared + a;
        return true;
    }
    Region rg;
    Lanes ln = {.m = m, .a0 = a, .step = 0}; /* (lane l's address: a0 + l * 0) */
    if ((a & (size - 1)) || !region_at(x, w, in, a, a, size, write, &ln, &rg))
        return false;
    *host = rg.host + (a - rg.addr);
    return true;
}

static bool ld_one(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    unsigned sz = in->size;
    int n = in->vec, l = __builtin_ctz(m);
    uint8_t *h;
    if (!one_lane(x, w, in, m, sz * (unsigned)n, false, &h))
        return false;
    if (n == 1) {
        BY_TYPE(sz, in->sub, {
            T v;
            memcpy(&v, h, sizeof v);
            exec_reg(w, in->d)[l] = (uint64_t)v;
        });
        return true;
    }
    for (int k = 0; k < n; k++)
        if (in->vd[k] >= 0)
            BY_TYPE(sz, in->sub, {
                T v;
                memcpy(&v, h + k * sizeof v, sizeof v);
                exec_reg(w, in->vd[k])[l] = (uint64_t)v;
            });
    return true;
}

static bool st_one(Exec *x, Warp *w, const SimInst *in, uint32_t m, const uint64_t *const v[4])
{
    unsigned sz = in->size;
    int n = in->vec, l = __builtin_ctz(m);
    uint8_t *h;
    if (!one_lane(x, w, in, m, sz * (unsigned)n, true, &h))
        return false;
    BY_TYPE(sz, 0, for (int k = 0; k < n; k++) {
        T t = (T)v[k][l];
        memcpy(h + k * sizeof t, &t, sizeof t);
    });
    return true;
}

/* ---- the commonest accesses, looked at first ---------------------------------
 * exec_shared_row (exec_memfast.h), and a kernel parameter read by every
 * lane: the checks affine_of and region_at make for them, nothing else.
 * When these say no, the paths above decide as before. */
bool exec_ld_param(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint64_t a = (uint64_t)in->off, limit = x->params_size;
    unsigned sz = in->size;
    if ((a & (sz - 1)) || a >= limit || sz > limit - a)
        return false;
    uint64_t *d = exec_reg(w, in->d);
    BY_TYPE(sz, in->sub, {
        T v;
        memcpy(&v, x->params + a, sizeof v);
        exec_vec_fill(d, (uint64_t)v, m);
    });
    return true;
}

bool exec_ld_fast(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint64_t addr[WARP], o0, step;
    Region rg;
    unsigned sz = in->size;
    uint8_t *row;
    if (m && !(m & (m - 1))) /* one lane first: thread 0 summing a block's values */
        return ld_one(x, w, in, m);
    if (in->d >= 0 && exec_shared_row(x, w, in, m, &row)) {
        exec_vec_load32(exec_reg(w, in->d), row, in->sub);
        return true;
    }
    if (in->space == PTX_SPACE_PARAM && in->base < 0 && in->vec == 1 && in->d >= 0 && m && exec_ld_param(x, w, in, m))
        return true;
    if (affine_of(x, w, in, m, sz * in->vec, false, &o0, &step, &rg)) {
        int n = in->vec;
        if (n > 1 && m == FULL_MASK && step == sz * (unsigned)n && in->vd[0] >= 0 && in->vd[1] >= 0 &&
            (n == 2 || (in->vd[2] >= 0 && in->vd[3] >= 0))) {
            /* a whole warp's vectors one after another: lane by lane, each
             * lane's elements in order (a register named twice gets the later
             * element either way) */
            const uint8_t *src = rg.host + o0;
            uint64_t *d0 = exec_reg(w, in->vd[0]), *d1 = exec_reg(w, in->vd[1]);
            if (n == 2) {
                BY_TYPE(sz, in->sub, for (int l = 0; l < WARP; l++) {
                    T v[2];
                    memcpy(v, src + (size_t)l * sizeof v, sizeof v);
                    d0[l] = (uint64_t)v[0];
                    d1[l] = (uint64_t)v[1];
                });
            } else {
                uint64_t *d2 = exec_reg(w, in->vd[2]), *d3 = exec_reg(w, in->vd[3]);
                BY_TYPE(sz, in->sub, for (int l = 0; l < WARP; l++) {
                    T v[4];
                    memcpy(v, src + (size_t)l * sizeof v, sizeof v);
                    d0[l] = (uint64_t)v[0];
                    d1[l] = (uint64_t)v[1];
                    d2[l] = (uint64_t)v[2];
                    d3[l] = (uint64_t)v[3];
                });
            }
            return true;
        }
        for (int k = 0; k < n; k++) {
            int32_t slot = n == 1 ? in->d : in->vd[k];
            if (slot < 0)
                continue;
            uint64_t *d = exec_reg(w, slot);
            const uint8_t *h = rg.host + k * sz;
            if (step == 0) { /* one element for every lane (a parameter): read once */
                BY_TYPE(sz, in->sub, {
                    T v;
                    memcpy(&v, h + o0, sizeof v);
                    exec_vec_fill(d, (uint64_t)v, m);
                });
            } else if (m == FULL_MASK && step == sz && sz == 4) {
                exec_vec_load32(d, h + o0, in->sub);
            } else if (m == FULL_MASK && step == sz) { /* one contiguous copy */
                const uint8_t *src = h + o0;
                BY_TYPE(sz, in->sub, LANES_ALL({
                    T v;
                    memcpy(&v, src + (size_t)l * sizeof v, sizeof v);
                    d[l] = (uint64_t)v;
                }));
            } else {
                BY_TYPE(sz, in->sub, LANES(m, {
                    T v;
                    memcpy(&v, h + (o0 + (uint64_t)l * step), sizeof v);
                    d[l] = (uint64_t)v;
                }));
            }
        }
        return true;
    }
    if (!region_of(x, w, in, m, sz * in->vec, false, addr, &rg))
        return false;
    region_offsets(addr, &rg, m);
    for (int k = 0; k < in->vec; k++) {
        int32_t slot = in->vec == 1 ? in->d : in->vd[k];
        if (slot < 0)
            continue;
        uint64_t *d = exec_reg(w, slot);
        const uint8_t *h = rg.host + k * sz;
        BY_TYPE(sz, in->sub, LANES(m, {
            T v;
            memcpy(&v, h + addr[l], sizeof v);
            d[l] = (uint64_t)v;
        }));
    }
    return true;
}

bool exec_st_fast(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint64_t addr[WARP], o0, step;
    Region rg;
    unsigned sz = in->size;
    const uint64_t *v[4] = {NULL, NULL, NULL, NULL};
    if (in->vec == 1)
        v[0] = exec_src(x, w, in->s[0]);
    else
        for (int k = 0; k < in->vec; k++)
            v[k] = exec_src(x, w, in->vd[k]);
    int n = in->vec;
    uint8_t *row;
    if (exec_shared_row(x, w, in, m, &row)) {
        exec_vec_store32(row, v[0]);
        return true;
    }
    if (m && !(m & (m - 1)))
        return st_one(x, w, in, m, v);
    uint8_t *h;
    uint64_t span = (uint64_t)sz * (uint64_t)n;
    if (affine_of(x, w, in, m, (unsigned)span, true, &o0, &step, &rg)) {
        h = rg.host;
        if (step == 0) { /* every lane the same bytes: in lane order, the last one's stay */
            int l = 31 - __builtin_clz(m);
            BY_TYPE(sz, 0, for (int k = 0; k < n; k++) {
                T t = (T)v[k][l];
                memcpy(h + o0 + k * sizeof t, &t, sizeof t);
            });
            return true;
        }
        if (step + span - 1 < 2 * span - 1) /* |step| < span: lanes' bytes overlap, in lane order below */
            goto ordered;
        if (n > 1 && m == FULL_MASK && step == span) { /* a whole warp's vectors one after another */
            uint8_t *dst = h + o0;
            const uint64_t *v0 = v[0], *v1 = v[1], *v2 = v[n > 2 ? 2 : 0], *v3 = v[n > 2 ? 3 : 0];
            if (n == 2) {
                BY_TYPE(sz, 0, for (int l = 0; l < WARP; l++) {
                    T t[2];
                    t[0] = (T)v0[l];
                    t[1] = (T)v1[l];
                    memcpy(dst + (size_t)l * sizeof t, t, sizeof t);
                });
            } else {
                BY_TYPE(sz, 0, for (int l = 0; l < WARP; l++) {
                    T t[4];
                    t[0] = (T)v0[l];
                    t[1] = (T)v1[l];
                    t[2] = (T)v2[l];
                    t[3] = (T)v3[l];
                    memcpy(dst + (size_t)l * sizeof t, t, sizeof t);
                });
            }
            return true;
        }
        for (int k = 0; k < n; k++) {
            const uint64_t *s = v[k];
            uint8_t *hk = h + k * sz;
            if (m == FULL_MASK && step == sz && sz == 4) {
                exec_vec_store32(hk + o0, s);
            } else if (m == FULL_MASK && step == sz) { /* one contiguous copy */
                uint8_t *dst = hk + o0;
                BY_TYPE(sz, 0, LANES_ALL({
                    T t = (T)s[l];
                    memcpy(dst + (size_t)l * sizeof t, &t, sizeof t);
                }));
            } else {
                BY_TYPE(sz, 0, LANES(m, {
                    T t = (T)s[l];
                    memcpy(hk + (o0 + (uint64_t)l * step), &t, sizeof t);
                }));
            }
        }
        return true;
    ordered:
        LANES(m, { addr[l] = o0 + (uint64_t)l * step; });
        goto store;
    }
    if (!region_of(x, w, in, m, sz * in->vec, true, addr, &rg))
        return false;
    h = rg.host;
    region_offsets(addr, &rg, m);
store:
    /* in lane order (no LANES: lanes may store to the same bytes) */
    BY_TYPE(sz, 0, for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        for (int k = 0; k < n; k++) {
            T t = (T)v[k][l];
            memcpy(h + addr[l] + k * sizeof t, &t, sizeof t);
        }
    });
    return true;
}


/* exec_warp.c: warp-synchronous collectives -- shfl.sync, vote.sync,
 * match.sync, redux.sync, activemask.  Plain semantics for now: the lanes of
 * the issuing group that the member mask names take part, and a source lane
 * outside the group is read as it stands. */
#include "exec_int.h"
#include "exec_lanes.h"

#include <string.h>

enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };

static void ex_shfl(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A; OPS_B; OPS_C;
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_SHFL, (uint32_t)exec_src(x, w, in->s[3])[__builtin_ctz(m)]);
    uint64_t *d = exec_reg(w, in->d);
    uint64_t src[WARP];
    memcpy(src, a, sizeof src);
    uint32_t pv = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        int lane = __builtin_ctz(r);
        uint32_t bval = (uint32_t)b[lane], cval = (uint32_t)c[lane];
        int segmask = (int)((cval >> 8) & 0x1f);
        int maxLane = (lane & segmask) | ((int)(cval & 0x1f) & ~segmask);
        int minLane = lane & segmask;
        int64_t j = lane; /* 64-bit: b is any 32-bit value, and lane - b must not overflow */
        bool ok = false;
        switch (in->sub) {
        case SH_UP: j = (int64_t)lane - bval; ok = j >= maxLane; break;
        case SH_DOWN: j = (int64_t)lane + bval; ok = j <= maxLane; break;
        case SH_BFLY: j = (int64_t)(lane ^ bval); ok = j <= maxLane; break;
        case SH_IDX: j = minLane | ((int)(bval & 0x1f) & ~segmask); ok = j <= maxLane; break;
        }
        if (!ok || j < 0 || j >= WARP)
            j = lane;
        d[lane] = (uint32_t)src[j];
        if (ok)
            pv |= 1u << lane;
    }
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (pv & m);
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

static void ex_vote(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_VOTE, mm);
    uint32_t part = m & mm;
    uint32_t pv = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
    if (in->negsrc)
        pv = ~pv;
    pv &= part;
    if (in->sub == V_BALLOT) {
        uint64_t *d = exec_reg(w, in->d);
        LANES(m, { d[l] = pv; });
        return;
    }
    bool v = in->sub == V_ALL ? pv == part : in->sub == V_ANY ? pv != 0 : (pv == 0 || pv == part);
    uint32_t res = v ? m : 0;
    w->p[in->d] = (w->p[in->d] & ~m) | res;
}

static void ex_match(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[0 + 1])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_MATCH, mm);
    uint32_t part = m & mm;
    uint64_t wm = in->size == 8 ? ~0ull : 0xffffffffull;
    uint64_t *d = exec_reg(w, in->d);
    if (in->sub == 0) { /* any */
        for (uint32_t r = m; r; r &= r - 1) {
            int l = __builtin_ctz(r);
            uint32_t same = 0;
            for (uint32_t q = part; q; q &= q - 1) {
                int k = __builtin_ctz(q);
                if ((a[k] & wm) == (a[l] & wm))
                    same |= 1u << k;
            }
            d[l] = same;
        }
        return;
    }
    bool all = true;
    int first = part ? __builtin_ctz(part) : 0;
    for (uint32_t q = part; q; q &= q - 1)
        if ((a[__builtin_ctz(q)] & wm) != (a[first] & wm))
            all = false;
    LANES(m, { d[l] = all ? mm : 0; });
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (all ? m : 0);
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

static void ex_redux(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[1])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_REDUX, mm);
    uint32_t part = m & mm;
    bool sgn = in->type == PTX_T_S32;
    uint32_t acc = in->sub == R_AND ? 0xffffffffu : 0;
    bool first = true;
    for (uint32_t q = part; q; q &= q - 1) {
        uint32_t v = (uint32_t)a[__builtin_ctz(q)];
        switch (in->sub) {
        case R_ADD: acc += v; break;
        case R_AND: acc &= v; break;
        case R_OR: acc |= v; break;
        case R_XOR: acc ^= v; break;
        case R_MIN: acc = first ? v : sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case R_MAX: acc = first ? v : sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        }
        first = false;
    }
    uint64_t *d = exec_reg(w, in->d);
    LANES(m, { d[l] = acc; });
}

static void ex_activemask(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_ACTIVEMASK, m);
    uint64_t *d = exec_reg(w, in->d);
    LANES(m, { d[l] = m; });
}

SimStatus dec_warp(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    static const char *const ign[] = {"sync", "aligned", NULL};
    dec_ignore(c, ign);
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    if (!strcmp(op, "activemask")) {
        if (dec_types(c, ts) != 1 || c->pi->n_opnds != 1)
            return dec_fail(c, "expected activemask.b32 d");
        if (dec_dst(c, 0, &in->d))
            return c->err->status;
        in->fn = ex_activemask;
        return SIM_OK;
    }
    if (!strcmp(op, "shfl")) {
        static const char *const modes[] = {"up", "down", "bfly", "idx"};
        int k;
        for (k = 0; k < 4; k++)
            if (dec_mod(c, modes[k]))
                break;
        if (k == 4)
            return dec_fail(c, "needs .up, .down, .bfly or .idx");
        in->sub = (uint8_t)k;
        if (dec_types(c, ts) != 1 || ptx_type_size(ts[0]) != 4)
            return dec_fail(c, "needs .b32");
        if (c->pi->n_opnds != 5)
            return dec_fail(c, "expected d[|p], a, b, c, membermask");
        if (dec_dst(c, 0, &in->d) || dec_pred2(c, 0, &in->pd))
            return c->err->status;
        if (dec_src(c, 1, PTX_T_B32, &in->s[0]) || dec_src(c, 2, PTX_T_B32, &in->s[1]) ||
            dec_src(c, 3, PTX_T_B32, &in->s[2]) || dec_src(c, 4, PTX_T_B32, &in->s[3]))
            return c->err->status;
        in->fn = ex_shfl;
        return SIM_OK;
    }
    if (!strcmp(op, "vote")) {
        static const char *const modes[] = {"all", "any", "uni", "ballot"};
        int k;
        for (k = 0; k < 4; k++)
            if (dec_mod(c, modes[k]))
                break;
        if (k == 4)
            return dec_fail(c, "needs .all, .any, .uni or .ballot");
        in->sub = (uint8_t)k;
        dec_types(c, ts);
        if (c->pi->n_opnds != 3)
            return dec_fail(c, "expected d, {!}p, membermask");
        if (k == V_BALLOT) {
            if (dec_dst(c, 0, &in->d))
                return c->err->status;
        } else if (dec_pred(c, 0, &in->d, NULL)) {
            return c->err->status;
        }
        bool neg = false;
        if (dec_pred(c, 1, &in->ps, &neg) || dec_src(c, 2, PTX_T_B32, &in->s[0]))
            return c->err->status;
        in->negsrc = neg;
        in->fn = ex_vote;
        return SIM_OK;
    }
    if (!strcmp(op, "match")) {
        bool any = dec_mod(c, "any");
        if (!any && !dec_mod(c, "all"))
            return dec_fail(c, "needs .any or .all");
        in->sub = any ? 0 : 1;
        if (dec_types(c, ts) != 1)
            return dec_fail(c, "needs .b32 or .b64");
        in->size = (uint8_t)ptx_type_size(ts[0]);
        if (in->size != 4 && in->size != 8)
            return dec_fail(c, "needs .b32 or .b64");
        if (c->pi->n_opnds != 3)
            return dec_fail(c, "expected d[|p], a, membermask");
        if (dec_dst(c, 0, &in->d) || dec_pred2(c, 0, &in->pd))
            return c->err->status;
        if (dec_src(c, 1, ts[0], &in->s[0]) || dec_src(c, 2, PTX_T_B32, &in->s[1]))
            return c->err->status;
        in->fn = ex_match;
        return SIM_OK;
    }
    if (!strcmp(op, "redux")) {
        static const char *const ops[] = {"add", "min", "max", "and", "or", "xor"};
        int k;
        for (k = 0; k < 6; k++)
            if (dec_mod(c, ops[k]))
                break;
        if (k == 6)
            return dec_fail(c, "needs .add, .min, .max, .and, .or or .xor");
        in->sub = (uint8_t)k;
        if (dec_types(c, ts) != 1 || ptx_type_size(ts[0]) != 4 || ptx_type_is_float(ts[0]))
            return dec_fail(c, "needs a 32-bit integer type");
        in->type = (uint8_t)ts[0];
        if (c->pi->n_opnds != 3)
            return dec_fail(c, "expected d, a, membermask");
        if (dec_dst(c, 0, &in->d) || dec_src(c, 1, ts[0], &in->s[0]) ||
            dec_src(c, 2, PTX_T_B32, &in->s[1]))
            return c->err->status;
        in->fn = ex_redux;
        return SIM_OK;
    }
    return dec_fail(c, "unknown warp instruction");
}

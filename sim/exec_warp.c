/* exec_warp.c: warp-synchronous collectives -- shfl.sync, vote.sync,
 * match.sync, redux.sync, bar.warp.sync -- and activemask.  exec_sync.c
 * decides when the lanes of a member mask have all arrived; then they run
 * together, each lane with its own instruction's operands (the lanes may sit
 * at different instructions of one kind, as in the seed's strange shuffle).
 * A source lane outside the mask is read as it stands: on an H100 a lane that
 * does not exist reads 0, which is what its never-written registers hold
 * here too. */
#include "exec_int.h"
#include "exec_race.h"
#include "exec_trace.h"
#include "exec_decode.h"
#include "exec_lanes.h"

#include <string.h>

enum { SH_UP, SH_DOWN, SH_BFLY, SH_IDX };

/* The collectives on whole-warp operand arrays: lane l's own operands are
 * a[l], b[l], c[l]; the result of the lanes in m goes to d[l] (and pv).
 * The handlers below pass their registers; exec_collective passes operands
 * gathered from each lane's own instruction. */
static void shfl_core(int mode, uint32_t m, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                      uint64_t *d, uint32_t *pv)
{
    uint64_t src[WARP];
    memcpy(src, a, sizeof src);
    uint32_t ok_lanes = 0;
    for (uint32_t r = m; r; r &= r - 1) {
        int lane = __builtin_ctz(r);
        uint32_t bval = (uint32_t)b[lane], cval = (uint32_t)c[lane];
        int segmask = (int)((cval >> 8) & 0x1f);
        int maxLane = (lane & segmask) | ((int)(cval & 0x1f) & ~segmask);
        int minLane = lane & segmask;
        int64_t j = lane; /* 64-bit: b is any 32-bit value, and lane - b must not overflow */
        bool ok = false;
        switch (mode) {
        case SH_UP: j = (int64_t)lane - bval; ok = j >= maxLane; break;
        case SH_DOWN: j = (int64_t)lane + bval; ok = j <= maxLane; break;
        case SH_BFLY: j = (int64_t)(lane ^ bval); ok = j <= maxLane; break;
        case SH_IDX: j = minLane | ((int)(bval & 0x1f) & ~segmask); ok = j <= maxLane; break;
        }
        if (!ok || j < 0 || j >= WARP)
            j = lane;
        d[lane] = (uint32_t)src[j];
        if (ok)
            ok_lanes |= 1u << lane;
    }
    *pv = ok_lanes;
}

static void ex_shfl(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A; OPS_B; OPS_C;
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_SHFL, (uint32_t)exec_src(x, w, in->s[3])[__builtin_ctz(m)]);
    uint64_t res[WARP];
    uint32_t pv;
    shfl_core(in->sub, m, a, b, c, res, &pv);
    uint64_t *d = exec_reg(w, in->d);
    LANES(m, { d[l] = res[l]; });
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (pv & m);
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

/* The vote predicate of the lanes in m: true lanes. */
static uint32_t vote_pred(const Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t pv = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
    if (in->negsrc)
        pv = ~pv;
    return pv & m;
}

/* Lanes m (member mask part) with true lanes pv: ballot value, or for
 * all/any/uni whether the vote holds. */
static bool vote_core(int mode, uint32_t part, uint32_t pv)
{
    return mode == V_ALL ? pv == part : mode == V_ANY ? pv != 0 : (pv == 0 || pv == part);
}

static void vote_write(Warp *w, const SimInst *in, uint32_t m, uint32_t pv, uint32_t part)
{
    if (in->sub == V_BALLOT) {
        uint64_t *d = exec_reg(w, in->d);
        LANES(m, { d[l] = pv; });
        return;
    }
    uint32_t res = vote_core(in->sub, part, pv) ? m : 0;
    w->p[in->d] = (w->p[in->d] & ~m) | res;
}

static void ex_vote(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_VOTE, mm);
    uint32_t part = m & mm;
    vote_write(w, in, m, vote_pred(w, in, part), part);
}

/* elect.sync d|p, membermask (PTX ISA 9.7.13.x "elect.sync", sm_90): the
 * leader is the lowest-numbered lane of the member mask that executes it,
 * as an H100 elects (traces/hw/conformance-h100.jsonl, elect_one); every
 * lane gets its lane id in d and p true only in the leader. */
static void elect_write(Warp *w, const SimInst *in, uint32_t m, uint32_t part)
{
    int leader = part ? __builtin_ctz(part) : 0;
    if (in->d >= 0) {
        uint64_t *d = exec_reg(w, in->d);
        LANES(m, { d[l] = (uint32_t)leader; });
    }
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (part ? (1u << leader) & m : 0);
}

static void ex_elect(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[0])[__builtin_ctz(m)];
    elect_write(w, in, m, m & mm);
}

/* match on values a of lanes part: for lane l of m, the lanes with its value
 * (any), or for all the member mask when all agree (0 otherwise). */
static void match_core(int all_mode, int size, uint32_t m, uint32_t part, uint32_t mm, const uint64_t *a,
                       uint64_t *d, bool *all_out)
{
    uint64_t wm = size == 8 ? ~0ull : 0xffffffffull;
    if (!all_mode) {
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
        *all_out = false;
        return;
    }
    bool all = true;
    int first = part ? __builtin_ctz(part) : 0;
    for (uint32_t q = part; q; q &= q - 1)
        if ((a[__builtin_ctz(q)] & wm) != (a[first] & wm))
            all = false;
    LANES(m, { d[l] = all ? mm : 0; });
    *all_out = all;
}

static void ex_match(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[1])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_MATCH, mm);
    uint64_t res[WARP];
    bool all;
    match_core(in->sub, in->size, m, m & mm, mm, a, res, &all);
    uint64_t *d = exec_reg(w, in->d);
    LANES(m, { d[l] = res[l]; });
    if (in->sub == 1 && in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (all ? m : 0);
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

static uint32_t redux_core(int op, bool sgn, uint32_t part, const uint64_t *a)
{
    uint32_t acc = op == R_AND ? 0xffffffffu : 0;
    bool first = true;
    for (uint32_t q = part; q; q &= q - 1) {
        uint32_t v = (uint32_t)a[__builtin_ctz(q)];
        switch (op) {
        case R_ADD: acc += v; break;
        case R_AND: acc &= v; break;
        case R_OR: acc |= v; break;
        case R_XOR: acc ^= v; break;
        case R_MIN: acc = first ? v : sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case R_MAX: acc = first ? v : sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        }
        first = false;
    }
    return acc;
}

static void ex_redux(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    uint32_t mm = (uint32_t)exec_src(x, w, in->s[1])[__builtin_ctz(m)];
    if (x->trace)
        exec_trace_collective(x, w, in, m, TRACE_COLL_REDUX, mm);
    uint32_t acc = redux_core(in->sub, in->type == PTX_T_S32, m & mm, a);
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

static void ex_warp_sync(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    (void)in;
    if (x->race)
        exec_race_warp_sync(x, w, m);
}

/* ---- a collective whose lanes sit at different instructions ------------- */

/* Copy lane l's value of operand slot s into out[l] for the lanes of g. */
static void gather(Exec *x, Warp *w, uint32_t g, int32_t s, uint64_t *out)
{
    const uint64_t *v = exec_src(x, w, s);
    for (uint32_t r = g; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        out[l] = v[l];
    }
}

void exec_collective(Exec *x, Warp *w, uint32_t g)
{
    const SimInst *insts = x->insts;
    const SimInst *in0 = &insts[w->pc[__builtin_ctz(g)]];
    uint64_t A[WARP] = {0}, B[WARP] = {0}, C[WARP] = {0}, R[WARP] = {0};
    uint32_t pv = 0;
    /* every lane's operands from its own instruction */
    for (uint32_t left = g; left;) {
        int32_t pc = w->pc[__builtin_ctz(left)];
        uint32_t sub = 0;
        for (uint32_t r = left; r; r &= r - 1)
            if (w->pc[__builtin_ctz(r)] == pc)
                sub |= 1u << __builtin_ctz(r);
        left &= ~sub;
        const SimInst *in = &insts[pc];
        if (x->trace)
            exec_trace_collective(x, w, in, sub,
                                  in->fn == ex_shfl ? TRACE_COLL_SHFL : in->fn == ex_vote ? TRACE_COLL_VOTE
                                  : in->fn == ex_match ? TRACE_COLL_MATCH : TRACE_COLL_REDUX, g);
        if (in->fn == ex_shfl) {
            gather(x, w, sub, in->s[0], A);
            gather(x, w, sub, in->s[1], B);
            gather(x, w, sub, in->s[2], C);
        } else if (in->fn == ex_vote) {
            pv |= vote_pred(w, in, sub);
        } else if (in->fn == ex_match || in->fn == ex_redux) {
            gather(x, w, sub, in->s[0], A);
        }
    }
    bool all = false;
    uint32_t acc = 0;
    if (in0->fn == ex_shfl)
        shfl_core(in0->sub, g, A, B, C, R, &pv);
    else if (in0->fn == ex_match)
        match_core(in0->sub, in0->size, g, g, g, A, R, &all);
    else if (in0->fn == ex_redux)
        acc = redux_core(in0->sub, in0->type == PTX_T_S32, g, A);
    else if (in0->fn == ex_warp_sync && x->race)
        exec_race_warp_sync(x, w, g);
    /* each lane's result into its own instruction's destinations */
    for (uint32_t left = g; left;) {
        int32_t pc = w->pc[__builtin_ctz(left)];
        uint32_t sub = 0;
        for (uint32_t r = left; r; r &= r - 1)
            if (w->pc[__builtin_ctz(r)] == pc)
                sub |= 1u << __builtin_ctz(r);
        left &= ~sub;
        const SimInst *in = &insts[pc];
        if (in->fn == ex_shfl) {
            uint64_t *d = exec_reg(w, in->d);
            LANES(sub, { d[l] = R[l]; });
            if (in->pd >= 0)
                w->p[in->pd] = (w->p[in->pd] & ~sub) | (pv & sub);
        } else if (in->fn == ex_vote) {
            vote_write(w, in, sub, pv, g);
        } else if (in->fn == ex_match) {
            uint64_t *d = exec_reg(w, in->d);
            LANES(sub, { d[l] = R[l]; });
            if (in->sub == 1 && in->pd >= 0)
                w->p[in->pd] = (w->p[in->pd] & ~sub) | (all ? sub : 0);
        } else if (in->fn == ex_redux) {
            uint64_t *d = exec_reg(w, in->d);
            LANES(sub, { d[l] = acc; });
        } else if (in->fn == ex_elect) {
            elect_write(w, in, sub, g);
        }
    }
}

/* The name of a warp-synchronous instruction's kind for messages. */
const char *exec_sync_kind_name(const SimInst *in)
{
    static const char *const shfl[] = {"shfl.sync.up", "shfl.sync.down", "shfl.sync.bfly", "shfl.sync.idx"};
    static const char *const vote[] = {"vote.sync.all", "vote.sync.any", "vote.sync.uni", "vote.sync.ballot"};
    if (in->fn == ex_shfl)
        return shfl[in->sub & 3];
    if (in->fn == ex_vote)
        return vote[in->sub & 3];
    if (in->fn == ex_match)
        return in->sub ? "match.all.sync" : "match.any.sync";
    if (in->fn == ex_redux)
        return "redux.sync";
    if (in->fn == ex_elect)
        return "elect.sync";
    return "bar.warp.sync";
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
    if (!strcmp(op, "elect")) {
        if (c->pi->n_opnds != 2)
            return dec_fail(c, "expected elect.sync d|p, membermask");
        if (dec_dst_or_sink(c, 0, &in->d) || dec_pred2(c, 0, &in->pd) || dec_src(c, 1, PTX_T_B32, &in->s[0]))
            return c->err->status;
        in->fn = ex_elect;
        in->wsync = 1;
        in->wmask = in->s[0];
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
        in->wsync = 1;
        in->wmask = in->s[3];
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
        in->wsync = 1;
        in->wmask = in->s[0];
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
        in->wsync = 1;
        in->wmask = in->s[1];
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
        in->wsync = 1;
        in->wmask = in->s[1];
        return SIM_OK;
    }
    return dec_fail(c, "unknown warp instruction");
}

ExecFn exec_warp_sync_fn(void) { return ex_warp_sync; }

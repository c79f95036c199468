/* exec_half.c: half precision -- .f16, .f16x2, .bf16, .bf16x2 arithmetic
 * (add sub mul fma neg abs min max), set/setp on packed halves, and the
 * .relu/.satfinite forms of cvt.  Results are rounded once from the exact
 * value, computed in integers from the operands' bits (never through the
 * host's _Float16), per the PTX ISA sections "Half Precision Floating-Point
 * Instructions" (9.7.4) and "cvt" (9.7.9.21).  A packed operand holds its
 * first element in bits 15..0 and its second in bits 31..16. */
#include "exec_int.h"
#include "exec_decode.h"
#include "exec_lanes.h"

#include <string.h>

typedef unsigned __int128 u128;

/* IEEE binary16 (5 exponent, 10 fraction bits) and bfloat16 (8, 7). */
typedef struct {
    int mb, eb, bias;
} HFmt;
static const HFmt F16 = {10, 5, 15}, BF16 = {7, 8, 127};

#define H_NAN 0x7fffu /* canonical NaN of both formats (an H100 returns it) */

enum { HC_ZERO, HC_FIN, HC_INF, HC_NAN };

/* bits -> class, sign, and value m * 2^e (m < 2^(mb+1)). */
static int h_decode(HFmt f, uint32_t h, bool ftz, int *neg, uint64_t *m, int *e)
{
    uint32_t emask = (1u << f.eb) - 1;
    uint32_t ex = (h >> f.mb) & emask, fr = h & ((1u << f.mb) - 1);
    *neg = (h >> (f.mb + f.eb)) & 1;
    if (ex == emask)
        return fr ? HC_NAN : HC_INF;
    if (ex == 0) {
        if (fr == 0 || ftz)
            return HC_ZERO;
        *m = fr;
        *e = 1 - f.bias - f.mb;
        return HC_FIN;
    }
    *m = fr | (1u << f.mb);
    *e = (int)ex - f.bias - f.mb;
    return HC_FIN;
}

static uint32_t h_sign(HFmt f, int neg) { return neg ? 1u << (f.mb + f.eb) : 0; }
static uint32_t h_inf(HFmt f, int neg) { return h_sign(f, neg) | (((1u << f.eb) - 1) << f.mb); }

/* Round neg * M * 2^e (M > 0) to f in mode r; ftz flushes a subnormal result. */
static uint32_t h_round(HFmt f, int neg, u128 M, int e, AluRound r, bool ftz)
{
    int n = 0;
    for (u128 t = M; t; t >>= 1)
        n++;
    int E = e + n - 1, emin = 1 - f.bias;
    int lsb = (E > emin ? E : emin) - f.mb;
    int shift = lsb - e;
    u128 q;
    bool above = false, half = false, below = false; /* the dropped part vs half an ulp */
    if (shift <= 0) {
        q = M << -shift;
    } else if (shift >= 127) {
        q = 0;
        below = true;
    } else {
        q = M >> shift;
        u128 rem = M & (((u128)1 << shift) - 1), h = (u128)1 << (shift - 1);
        above = rem > h;
        half = rem == h;
        below = rem && rem < h;
    }
    bool inexact = above || half || below;
    bool up = false;
    switch (r) {
    case ALU_RN: up = above || (half && (q & 1)); break;
    case ALU_RZ: break;
    case ALU_RP: up = inexact && !neg; break;
    case ALU_RM: up = inexact && neg; break;
    }
    q += up;
    if (q >> (f.mb + 1)) {
        q >>= 1;
        lsb++;
    }
    uint32_t bits;
    if (q >> f.mb) {
        int ef = lsb + f.mb + f.bias;
        if (ef >= (1 << f.eb) - 1) { /* overflow: infinity or the largest finite by mode */
            bool to_inf = r == ALU_RN || (r == ALU_RP && !neg) || (r == ALU_RM && neg);
            return to_inf ? h_inf(f, neg) : h_inf(f, neg) - 1;
        }
        bits = ((uint32_t)ef << f.mb) | (uint32_t)(q & ((1u << f.mb) - 1));
    } else {
        if (ftz)
            q = 0;
        bits = (uint32_t)q;
    }
    return h_sign(f, neg) | bits;
}

enum { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX, H_MIN_NAN, H_MAX_NAN, H_EX2, H_TANH };

/* a*b + c exactly (or a + c, a*b: op), then rounded once. */
static uint32_t h_arith(HFmt f, int op, uint32_t a, uint32_t b, uint32_t c, AluRound r, bool ftz)
{
    int na = 0, nb = 0, nc = 0, ea = 0, eb = 0, ec = 0;
    uint64_t ma = 0, mb = 0, mc = 0;
    int ca = h_decode(f, a, ftz, &na, &ma, &ea);
    int cb = h_decode(f, b, ftz, &nb, &mb, &eb);
    int cc = h_decode(f, c, ftz, &nc, &mc, &ec);
    /* as (product p) + (addend s): add a + b is 1*a + b, mul a*b + 0 */
    int np, cp, ns, cs, ep = 0, es = 0;
    uint64_t mp = 0, ms = 0;
    if (op == H_ADD || op == H_SUB) {
        np = na; cp = ca; mp = ma; ep = ea;
        ns = op == H_SUB ? !nb : nb; cs = cb; ms = mb; es = eb;
    } else {
        np = na ^ nb;
        if (ca == HC_NAN || cb == HC_NAN)
            cp = HC_NAN;
        else if ((ca == HC_INF && cb == HC_ZERO) || (ca == HC_ZERO && cb == HC_INF))
            return H_NAN;
        else if (ca == HC_INF || cb == HC_INF)
            cp = HC_INF;
        else if (ca == HC_ZERO || cb == HC_ZERO)
            cp = HC_ZERO;
        else {
            cp = HC_FIN;
            mp = ma * mb;
            ep = ea + eb;
        }
        if (op == H_MUL) { /* + (-0): keeps the product's zero sign */
            ns = 1; cs = HC_ZERO;
        } else {
            ns = nc; cs = cc; ms = mc; es = ec;
        }
    }
    if (cp == HC_NAN || cs == HC_NAN)
        return H_NAN;
    if (cp == HC_INF && cs == HC_INF)
        return np == ns ? h_inf(f, np) : H_NAN;
    if (cp == HC_INF)
        return h_inf(f, np);
    if (cs == HC_INF)
        return h_inf(f, ns);
    if (cp == HC_ZERO && cs == HC_ZERO) /* -0 only when both are -0, or x - x in .rm */
        return h_sign(f, np == ns ? np : r == ALU_RM);
    if (cp == HC_ZERO)
        return h_round(f, ns, ms, es, r, ftz);
    if (cs == HC_ZERO)
        return h_round(f, np, mp, ep, r, ftz);
    /* both finite: align on the smaller exponent; a term more than 100
     * bits below the other only decides rounding (a sticky 1) */
    u128 P = mp, S = ms;
    int e;
    if (ep - es > 100) {
        P <<= 64; e = ep - 64; S = 1;
    } else if (es - ep > 100) {
        S <<= 64; e = es - 64; P = 1;
    } else if (ep >= es) {
        P <<= (ep - es); e = es;
    } else {
        S <<= (es - ep); e = ep;
    }
    if (np == ns)
        return h_round(f, np, P + S, e, r, ftz);
    if (P == S)
        return h_sign(f, r == ALU_RM);
    return P > S ? h_round(f, np, P - S, e, r, ftz) : h_round(f, ns, S - P, e, r, ftz);
}

/* f16 value as f32 bits, exactly (NaN: the f32 canonical NaN). */
static uint32_t h_to_f32(HFmt f, uint32_t h, bool ftz)
{
    int neg = 0, e = 0;
    uint64_t m = 0;
    switch (h_decode(f, h, ftz, &neg, &m, &e)) {
    case HC_ZERO: return neg ? 0x80000000u : 0;
    case HC_INF: return neg ? 0xff800000u : 0x7f800000u;
    case HC_NAN: return 0x7fffffffu;
    default: {
        static const HFmt F32 = {23, 8, 127};
        return h_round(F32, neg, m, e, ALU_RN, false);
    }
    }
}

static uint32_t h_one(int op, HFmt f, uint32_t a, uint32_t b, uint32_t c, const SimInst *in)
{
    AluRound r = (AluRound)in->rnd;
    bool ftz = in->ftz;
    uint32_t v;
    switch (op) {
    case H_NEG: /* the sign bit flips; a NaN gives the canonical NaN (as the H100 does) */
    case H_ABS:
        if ((a & ~h_sign(f, 1)) > h_inf(f, 0))
            return H_NAN;
        if (ftz && ((a >> f.mb) & ((1u << f.eb) - 1)) == 0)
            a &= h_sign(f, 1);
        return op == H_NEG ? a ^ h_sign(f, 1) : a & ~h_sign(f, 1);
    case H_MIN: case H_MAX: case H_MIN_NAN: case H_MAX_NAN: {
        /* min/max of the exact values (-0 below +0); a NaN operand gives
         * the other one, both NaN (or .NaN with either) the canonical NaN */
        int ng, ex;
        uint64_t mm;
        bool an = h_decode(f, a, ftz, &ng, &mm, &ex) == HC_NAN, bn = h_decode(f, b, ftz, &ng, &mm, &ex) == HC_NAN;
        bool nanmode = op == H_MIN_NAN || op == H_MAX_NAN;
        if ((an && bn) || (nanmode && (an || bn)))
            v = H_NAN;
        else if (an)
            v = b;
        else if (bn)
            v = a;
        else {
            uint32_t fa = h_to_f32(f, a, ftz), fb = h_to_f32(f, b, ftz);
            bool lt = alu_compare(ALU_CMP_LT, PTX_T_F32, fa, fb, false) || (fa == 0x80000000u && fb == 0);
            bool max = op == H_MAX || op == H_MAX_NAN;
            v = lt ? (max ? b : a) : (max ? a : b);
        }
        if (ftz && v != H_NAN && ((v >> f.mb) & ((1u << f.eb) - 1)) == 0)
            v &= h_sign(f, 1);
        break;
    }
    case H_EX2: case H_TANH: {
        /* ex2.approx / tanh.approx of halves: the H100's half-precision
         * special function unit, measured over every input (alu_sfu.c) */
        bool f16 = f.mb == 10;
        uint16_t h = (uint16_t)a;
        v = op == H_EX2 ? (f16 ? alu_f16_ex2_approx(h) : alu_bf16_ex2_approx(h))
                        : (f16 ? alu_f16_tanh_approx(h) : alu_bf16_tanh_approx(h));
        break;
    }
    default:
        v = h_arith(f, op, a, b, c, r, ftz);
        break;
    }
    if (in->sat) { /* clamp to [0, 1]; NaN gives +0 */
        int neg, e;
        uint64_t m;
        int cl = h_decode(f, v, false, &neg, &m, &e);
        uint32_t one = (uint32_t)f.bias << f.mb;
        if (cl == HC_NAN || neg)
            v = 0;
        else if (v > one)
            v = one;
    }
    if (in->aux) { /* .relu: negative results become +0, NaN the canonical NaN */
        if ((v & ~h_sign(f, 1)) > h_inf(f, 0))
            v = H_NAN;
        else if (v & h_sign(f, 1))
            v = 0;
    }
    return v;
}

static void ex_half(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    const uint64_t *a = exec_src(x, w, in->s[0]);
    const uint64_t *b = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : a;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    PtxType t = (PtxType)in->type;
    HFmt f = t == PTX_T_F16 || t == PTX_T_F16X2 ? F16 : BF16;
    bool two = t == PTX_T_F16X2 || t == PTX_T_BF16X2;
    LANES(m, {
        uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l], C = (uint32_t)c[l];
        uint32_t lo = h_one(in->sub, f, A & 0xffff, B & 0xffff, C & 0xffff, in);
        uint32_t hi = two ? h_one(in->sub, f, A >> 16, B >> 16, C >> 16, in) : 0;
        d[l] = lo | hi << 16;
    });
}

SimStatus dec_half(DecodeCtx *c, PtxType t)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    in->type = (uint8_t)t;
    int rnd = dec_round(c, NULL);
    in->rnd = (uint8_t)(rnd < 0 ? ALU_RN : rnd);
    in->ftz = dec_mod(c, "ftz");
    in->sat = dec_mod(c, "sat");
    in->aux = dec_mod(c, "relu");
    bool bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
    if (bf && !strcmp(op, "ex2") && in->ftz)
        in->ftz = 0; /* ex2.approx.ftz.bf16: bf16 has no subnormal inputs the f32 path would see differently */
    else if (bf && (in->ftz || in->sat))
        return dec_fail(c, ".ftz and .sat are not defined for .%s", ptx_type_name(t));
    int sub, nsrc = 2;
    if (!strcmp(op, "add")) sub = H_ADD;
    else if (!strcmp(op, "sub")) sub = H_SUB;
    else if (!strcmp(op, "mul")) sub = H_MUL;
    else if (!strcmp(op, "fma") || !strcmp(op, "mad")) { sub = H_FMA; nsrc = 3; }
    else if (!strcmp(op, "neg")) { sub = H_NEG; nsrc = 1; }
    else if (!strcmp(op, "abs")) { sub = H_ABS; nsrc = 1; }
    else if (!strcmp(op, "min")) sub = dec_mod(c, "NaN") ? H_MIN_NAN : H_MIN;
    else if (!strcmp(op, "max")) sub = dec_mod(c, "NaN") ? H_MAX_NAN : H_MAX;
    else if (!strcmp(op, "ex2") && dec_mod(c, "approx")) { sub = H_EX2; nsrc = 1; }
    else if (!strcmp(op, "tanh") && dec_mod(c, "approx")) { sub = H_TANH; nsrc = 1; }
    else return dec_fail(c, "%s is not supported for .%s", op, ptx_type_name(t));
    if (in->aux && sub != H_FMA && sub != H_MIN && sub != H_MAX && sub != H_MIN_NAN && sub != H_MAX_NAN)
        return dec_fail(c, ".relu is defined for fma only");
    in->sub = (uint8_t)sub;
    if (c->pi->n_opnds != nsrc + 1)
        return dec_fail(c, "expected %d operands, found %d", nsrc + 1, c->pi->n_opnds);
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    for (int i = 0; i < nsrc; i++)
        if (dec_src(c, i + 1, PTX_T_B32, &in->s[i]))
            return c->err->status;
    in->fn = ex_half;
    return SIM_OK;
}

/* ---- set / setp on halves ----------------------------------------------- */

static uint32_t bool_op(int bop, uint32_t t, uint32_t p)
{
    switch (bop) {
    case 1: return t & p;
    case 2: return t | p;
    case 3: return t ^ p;
    default: return t;
    }
}

/* type: the compared (source) type; type2: set's destination type, or
 * PTX_T_PRED for setp (d and pd the predicates of "p|q"). */
static void ex_half_cmp(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A; OPS_B;
    PtxType st = (PtxType)in->type, dt = (PtxType)in->type2;
    bool two = st == PTX_T_F16X2 || st == PTX_T_BF16X2;
    PtxType et = st == PTX_T_F16X2 ? PTX_T_F16 : st == PTX_T_BF16X2 ? PTX_T_BF16 : st;
    uint32_t c = in->ps >= 0 ? w->p[in->ps] : in->ps == -2 ? FULL_MASK : 0;
    if (in->negsrc)
        c = ~c;
    uint32_t p0 = 0, p1 = 0;
    LANES(m, {
        uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l];
        p0 |= (uint32_t)alu_compare((AluCmp)in->cmp, et, A & 0xffff, B & 0xffff, in->ftz) << l;
        if (two)
            p1 |= (uint32_t)alu_compare((AluCmp)in->cmp, et, A >> 16, B >> 16, in->ftz) << l;
    });
    uint32_t q0 = bool_op(in->bop, ~p0, c); /* scalar setp's q: BoolOp(!t, c) */
    p0 = bool_op(in->bop, p0, c);
    p1 = bool_op(in->bop, p1, c);
    if (dt == PTX_T_PRED) {
        if (in->d >= 0)
            w->p[in->d] = (w->p[in->d] & ~m) | (p0 & m);
        if (in->pd >= 0)
            w->p[in->pd] = (w->p[in->pd] & ~m) | ((two ? p1 : q0) & m);
        return;
    }
    /* set: true is 1.0 in a half destination, all ones in an integer one */
    uint32_t t1 = dt == PTX_T_F16 || dt == PTX_T_F16X2 ? 0x3c00u
                : dt == PTX_T_BF16 || dt == PTX_T_BF16X2 ? 0x3f80u
                : dt == PTX_T_F32 ? 0x3f800000u : 0xffffffffu;
    bool dtwo = dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 || (two && ptx_type_size(dt) == 4);
    if (dtwo && t1 == 0xffffffffu)
        t1 = 0xffffu;
    uint64_t *d = exec_reg(w, in->d);
    LANES(m, {
        uint32_t lo = (p0 >> l & 1) ? t1 : 0, hi = (p1 >> l & 1) ? t1 : 0;
        d[l] = dtwo ? (lo | hi << 16) : lo;
    });
}

SimStatus dec_half_cmp(DecodeCtx *c, bool is_set, PtxType dt, PtxType st)
{
    SimInst *in = c->in;
    in->type = (uint8_t)st;
    in->type2 = (uint8_t)(is_set ? dt : PTX_T_PRED);
    int k = 1;
    if (is_set) {
        if (dec_dst(c, 0, &in->d))
            return c->err->status;
    } else {
        if (dec_pred(c, 0, &in->d, NULL) || dec_pred2(c, 0, &in->pd))
            return c->err->status;
    }
    if (dec_src(c, k, PTX_T_B32, &in->s[0]) || dec_src(c, k + 1, PTX_T_B32, &in->s[1]))
        return c->err->status;
    if (in->bop) {
        bool neg = false;
        if (dec_pred(c, k + 2, &in->ps, &neg))
            return c->err->status;
        in->negsrc = neg;
    }
    in->fn = ex_half_cmp;
    return SIM_OK;
}

/* ---- cvt to halves: packed, .relu, .satfinite ---------------------------- */

uint32_t exec_half_post(PtxType dt, uint32_t h, bool relu, bool satfinite)
{
    HFmt f = dt == PTX_T_F16 || dt == PTX_T_F16X2 ? F16 : BF16;
    bool nan = (h & ~h_sign(f, 1)) > h_inf(f, 0);
    if (nan)
        return (relu || satfinite) ? H_NAN : h;
    if (satfinite && (h & ~h_sign(f, 1)) == h_inf(f, 0))
        h -= 1; /* the largest finite value of that sign */
    if (relu && (h & h_sign(f, 1)))
        h = 0;
    return h;
}

/* ---- atomics ---------------------------------------------------------------- */

uint32_t exec_half_add(PtxType t, uint32_t a, uint32_t b)
{
    HFmt f = t == PTX_T_F16 || t == PTX_T_F16X2 ? F16 : BF16;
    uint32_t lo = h_arith(f, H_ADD, a & 0xffff, b & 0xffff, 0, ALU_RN, false);
    if (t == PTX_T_F16 || t == PTX_T_BF16)
        return lo;
    return lo | h_arith(f, H_ADD, a >> 16, b >> 16, 0, ALU_RN, false) << 16;
}

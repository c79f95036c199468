/* alu_cvt.c: the cvt instruction and the f16/bf16 helpers, bit exact.
 *
 * Part of the ALU (sim/alu.h).  Every float is taken apart into an exact
 * value sign * m * 2^e, rounded in integer arithmetic (to an integer for
 * .rni/.rzi/.rmi/.rpi and float->int, to the destination format otherwise)
 * and put back together, so no host FPU rounding mode or out-of-range
 * float->int cast is ever involved.  Rules: PTX ISA 9.7.9.21 (cvt). */
#include <string.h>

#include "alu.h"

/* ---- types ------------------------------------------------------------ */

static int tbits(PtxType t)
{
    switch (t) {
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8:
        return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: case PTX_T_BF16:
        return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32:
        return 32;
    default:
        return 64;
    }
}

static bool tsigned(PtxType t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static bool tint(PtxType t)
{
    return (t >= PTX_T_B8 && t <= PTX_T_B64) || (t >= PTX_T_U8 && t <= PTX_T_S64);
}

static uint64_t wmask(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* A binary floating-point format: explicit mantissa bits and exponent bits. */
typedef struct {
    int mant, ebits;
} Fmt;

static bool fmt_of(PtxType t, Fmt *f)
{
    switch (t) {
    case PTX_T_F16:  f->mant = 10; f->ebits = 5;  return true;
    case PTX_T_BF16: f->mant = 7;  f->ebits = 8;  return true;
    case PTX_T_F32:  f->mant = 23; f->ebits = 8;  return true;
    case PTX_T_F64:  f->mant = 52; f->ebits = 11; return true;
    default:         return false;
    }
}

static int fmt_bias(Fmt f) { return (1 << (f.ebits - 1)) - 1; }
static int fmt_emax_field(Fmt f) { return (1 << f.ebits) - 1; }
static uint64_t fmt_sign(Fmt f) { return 1ull << (f.mant + f.ebits); }
static uint64_t fmt_inf(Fmt f) { return (uint64_t)fmt_emax_field(f) << f.mant; }
static uint64_t fmt_maxfinite(Fmt f) { return fmt_inf(f) - 1; }
static uint64_t fmt_one(Fmt f) { return (uint64_t)fmt_bias(f) << f.mant; }

/* Canonical NaN of each format: all exponent and mantissa bits set, sign
 * clear (0x7fff for f16 and bf16, 0x7fffffff, 0x7fffffffffffffff). */
static uint64_t fmt_nan(Fmt f) { return fmt_sign(f) - 1; }

/* A NaN carried across formats the IEEE way: sign kept, quiet bit set,
 * payload aligned at the top of the destination mantissa. */
static uint64_t nan_convert(Fmt sf, Fmt df, uint64_t bits)
{
    uint64_t pay = bits & wmask(sf.mant);
    pay = df.mant >= sf.mant ? pay << (df.mant - sf.mant) : pay >> (sf.mant - df.mant);
    return ((bits & fmt_sign(sf)) ? fmt_sign(df) : 0) | fmt_inf(df)
           | (1ull << (df.mant - 1)) | pay;
}

/* The NaN cvt gives for a NaN input, as measured on an H100 (sm_90):
 *  - a plain same-type cvt (no .rni etc, no .ftz) is a move: bits kept;
 *  - cvt.f32.bf16 without .ftz is a shift: bits kept ("unspecified" in ISA);
 *  - any conversion to or from .f64 carries sign and payload over, quieted
 *    (cvt.f64.f32 0xffc01234 -> 0xfff8024680000000, cvt.rn.f16.f64 of
 *    0xfff8000000001234 -> 0xfe00);
 *  - everything else gives the destination's canonical NaN (cvt.f32.f16,
 *    cvt.rn.f16.f32, cvt.rn.bf16.f32, cvt.ftz.f32.f32, cvt.rni.f32.f32 ...). */
static uint64_t cvt_nan(PtxType dst, PtxType src, Fmt df, Fmt sf, uint64_t a,
                        bool int_round, bool ftz)
{
    if (dst == src && !int_round && !ftz)
        return a;
    if (dst == PTX_T_F32 && src == PTX_T_BF16 && !ftz)
        return a << 16;
    if (dst == PTX_T_F64 || src == PTX_T_F64)
        return nan_convert(sf, df, a);
    return fmt_nan(df);
}

/* ---- exact values ------------------------------------------------------ */

typedef enum { V_ZERO, V_FINITE, V_INF, V_NAN } VClass;

/* A value sign * m * 2^e (m != 0 when finite). */
typedef struct {
    VClass cls;
    bool neg;
    uint64_t m;
    int e;
} Val;

static Val decode(Fmt f, uint64_t bits)
{
    Val v = {V_ZERO, (bits & fmt_sign(f)) != 0, 0, 0};
    int ef = (int)((bits >> f.mant) & (uint64_t)fmt_emax_field(f));
    uint64_t frac = bits & wmask(f.mant);
    int bias = fmt_bias(f);
    if (ef == fmt_emax_field(f)) {
        v.cls = frac ? V_NAN : V_INF;
    } else if (ef == 0) {
        if (frac) {
            v.cls = V_FINITE;
            v.m = frac;
            v.e = 1 - bias - f.mant;
        }
    } else {
        v.cls = V_FINITE;
        v.m = frac | (1ull << f.mant);
        v.e = ef - bias - f.mant;
    }
    return v;
}

/* Does rounding away the `shift` low bits of m round up?  (shift >= 1) */
static bool round_up(uint64_t m, int shift, bool neg, AluRound r, uint64_t kept)
{
    bool guard = shift - 1 < 64 && ((m >> (shift - 1)) & 1);
    bool sticky = shift - 1 >= 64 ? m != 0 : (m & wmask(shift - 1)) != 0;
    switch (r) {
    case ALU_RN: return guard && (sticky || (kept & 1));
    case ALU_RZ: return false;
    case ALU_RM: return neg && (guard || sticky);
    case ALU_RP: return !neg && (guard || sticky);
    }
    return false;
}

/* Round sign * m * 2^e (m != 0) into format f by mode r. */
static uint64_t encode(Fmt f, bool neg, uint64_t m, int e, AluRound r)
{
    int p = f.mant + 1, bias = fmt_bias(f), emin = 1 - bias;
    int msb = 63 - __builtin_clzll(m);
    int E = msb + e;                          /* value in [2^E, 2^(E+1)) */
    int q = (E < emin ? emin : E) - f.mant;   /* exponent of one ulp */
    int shift = q - e;
    uint64_t M;
    if (shift <= 0) {
        M = m << -shift;
    } else {
        M = shift < 64 ? m >> shift : 0;
        if (round_up(m, shift, neg, r, M)) {
            M++;
            if (M == 1ull << p) {
                M >>= 1;
                q++;
            }
        }
    }
    uint64_t sign = neg ? fmt_sign(f) : 0;
    if (M == 0)
        return sign;
    if (M < 1ull << f.mant)                    /* subnormal */
        return sign | M;
    long biased = (long)q + f.mant + bias;
    if (biased >= fmt_emax_field(f)) {         /* overflow */
        bool to_inf = r == ALU_RN || (r == ALU_RP && !neg) || (r == ALU_RM && neg);
        return sign | (to_inf ? fmt_inf(f) : fmt_maxfinite(f));
    }
    return sign | ((uint64_t)biased << f.mant) | (M & wmask(f.mant));
}

/* Round v to an integer by r: magnitude in *mag, *ovf when it is 2^64 or
 * more.  Works for any finite v. */
static void to_integer(Val v, AluRound r, uint64_t *mag, bool *ovf)
{
    *ovf = false;
    if (v.cls != V_FINITE) {
        *mag = 0;
        return;
    }
    if (v.e >= 0) {
        *ovf = v.e >= 64 || (v.e > 0 && (v.m >> (64 - v.e)) != 0);
        *mag = *ovf ? ~0ull : v.m << v.e;
        return;
    }
    int shift = -v.e;
    uint64_t k = shift < 64 ? v.m >> shift : 0;
    if (round_up(v.m, shift, v.neg, r, k)) {
        k++;
        if (k == 0)
            *ovf = true;
    }
    *mag = k;
}

/* ---- the four kinds of conversion ------------------------------------ */

/* float -> int: round by r, saturate to the destination range; NaN gives 0,
 * except that an f64 source or a 64-bit destination gives 1 << (w-1)
 * (ISA: "Otherwise 1 << (BitWidth(dst) - 1)"). */
static uint64_t float_to_int(PtxType dst, PtxType src, Val v, AluRound r)
{
    int w = tbits(dst);
    if (v.cls == V_NAN)
        return (src != PTX_T_F64 && w != 64) ? 0 : 1ull << (w - 1);
    uint64_t mag;
    bool ovf;
    if (v.cls == V_INF) {
        mag = ~0ull;
        ovf = true;
    } else {
        to_integer(v, r, &mag, &ovf);
    }
    if (tsigned(dst)) {
        uint64_t lim = 1ull << (w - 1);        /* |INT_MIN| */
        if (v.neg) {
            if (ovf || mag > lim)
                mag = lim;
            return (0 - mag) & wmask(w);
        }
        return (ovf || mag > lim - 1) ? lim - 1 : mag;
    }
    if (v.neg)
        return 0;
    return (ovf || mag > wmask(w)) ? wmask(w) : mag;
}

static uint64_t int_to_int(PtxType dst, PtxType src, uint64_t a, bool sat)
{
    int sw = tbits(src), dw = tbits(dst);
    bool neg = false;
    uint64_t v = a & wmask(sw);
    if (tsigned(src) && sw < 64 && (v >> (sw - 1)))
        v |= ~wmask(sw);                       /* sign-extend the source */
    if (tsigned(src) && (int64_t)v < 0)
        neg = true;
    if (sat) {
        if (tsigned(dst)) {
            int64_t hi = (int64_t)(wmask(dw) >> 1), lo = -hi - 1;
            if (neg)
                v = (int64_t)v < lo ? (uint64_t)lo : v;
            else
                v = v > (uint64_t)hi ? (uint64_t)hi : v;
        } else {
            v = neg ? 0 : (v > wmask(dw) ? wmask(dw) : v);
        }
    }
    return v & wmask(dw);
}

/* .sat on a float destination: [+0.0, 1.0], NaN and -0.0 -> +0.0. */
static uint64_t sat_float(Fmt f, uint64_t bits)
{
    if (decode(f, bits).cls == V_NAN || (bits & fmt_sign(f)))
        return 0;
    return bits > fmt_one(f) ? fmt_one(f) : bits;
}

uint64_t alu_cvt(PtxType dst, PtxType src, uint64_t a, AluRound r,
                 bool int_round, bool sat, bool ftz)
{
    Fmt sf = {0, 0}, df = {0, 0};
    bool sfloat = fmt_of(src, &sf), dfloat = fmt_of(dst, &df);
    if ((!sfloat && !tint(src)) || (!dfloat && !tint(dst)))
        return 0;                              /* packed or odd types */

    if (!sfloat && !dfloat)
        return int_to_int(dst, src, a, sat);

    Val v;
    if (sfloat) {
        v = decode(sf, a & wmask(tbits(src)));
        /* .ftz applies to f32 inputs only */
        if (ftz && src == PTX_T_F32 && (a & 0x7f800000u) == 0)
            v.cls = V_ZERO;
    } else {
        int w = tbits(src);
        uint64_t x = a & wmask(w);
        v.neg = tsigned(src) && (x >> (w - 1));
        v.m = v.neg ? (0 - x) & wmask(w) : x;  /* |INT_MIN| fits: 2^(w-1) */
        v.e = 0;
        v.cls = v.m ? V_FINITE : V_ZERO;
    }

    if (!dfloat)
        return float_to_int(dst, src, v, r);

    uint64_t d;
    if (v.cls == V_NAN) {
        d = cvt_nan(dst, src, df, sf, a & wmask(tbits(src)), int_round, ftz);
    } else if (v.cls == V_INF) {
        d = (v.neg ? fmt_sign(df) : 0) | fmt_inf(df);
    } else if (v.cls == V_ZERO) {
        d = v.neg ? fmt_sign(df) : 0;
    } else {
        AluRound fr = r;
        if (int_round) {
            /* round to an integral value first (exact in the source
             * format); the rest of the trip is then exact too */
            uint64_t mag;
            bool ovf;
            if (v.e < 0) {
                to_integer(v, r, &mag, &ovf);
                v.m = mag;
                v.e = 0;
            }
            fr = ALU_RN;
        }
        d = v.m ? encode(df, v.neg, v.m, v.e, fr) : (v.neg ? fmt_sign(df) : 0);
    }
    /* .ftz on an f32 result: subnormals become signed zero */
    if (ftz && dst == PTX_T_F32 && (d & 0x7f800000u) == 0)
        d &= 0x80000000u;
    return sat ? sat_float(df, d) : d;
}

/* ---- f16 / bf16 helpers ----------------------------------------------- */

uint32_t alu_f16_to_f32(uint16_t h)
{
    return (uint32_t)alu_cvt(PTX_T_F32, PTX_T_F16, h, ALU_RN, false, false, false);
}

uint16_t alu_f32_to_f16(uint32_t f, AluRound r)
{
    return (uint16_t)alu_cvt(PTX_T_F16, PTX_T_F32, f, r, false, false, false);
}

uint32_t alu_bf16_to_f32(uint16_t h)
{
    return (uint32_t)alu_cvt(PTX_T_F32, PTX_T_BF16, h, ALU_RN, false, false, false);
}

uint16_t alu_f32_to_bf16(uint32_t f, AluRound r)
{
    return (uint16_t)alu_cvt(PTX_T_BF16, PTX_T_F32, f, r, false, false, false);
}

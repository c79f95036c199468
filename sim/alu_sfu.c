/* alu_sfu.c: the approximate instructions, bit for bit as an H100 runs them.
 *
 * Part of the ALU (sim/alu.h).  ptxas turns each .approx/.full instruction
 * into one MUFU operation of the special function unit plus fix-up
 * arithmetic (read from SASS, docs/special-functions.md); the MUFU results
 * come from tables measured on the GPU (sim/sfu_table.h), indexed by the
 * input's mantissa (and exponent parity, fixed-point fraction, ...), and the
 * fix-ups are ordinary IEEE operations.  Every function here was run beside
 * the real instruction over every 32-bit input: 0 mismatches
 * (traces/hw/sfu-h100.txt).  If a table cannot be loaded (no memory), the
 * result falls back to the correctly rounded value. */
#include <math.h>
#include <string.h>

#include "alu.h"
#include "sfu_table.h"

#define SIGN32 0x80000000u
#define ABS32  0x7fffffffu
#define INF32  0x7f800000u
#define NAN32  ALU_F32_CANON_NAN
#define MIN_NORMAL32 0x00800000u

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t u64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static bool nan32(uint32_t u) { return (u & ABS32) > INF32; }

/* |x| >= 2^-126 as FSETP.GEU computes it: true for NaN. */
static bool geu_min_normal(uint32_t x) { return nan32(x) || (x & ABS32) >= MIN_NORMAL32; }

/* The fallback: a double result rounded once (the PTX ISA's error bounds). */
static uint32_t round_approx(double v, bool ftz)
{
    uint32_t u = u32((float)v);
    if (ftz && (u & INF32) == 0)
        u &= SIGN32;
    return nan32(u) ? NAN32 : u;
}

/* t (a positive normal float's bits) times 2^k, as the SFU scales its
 * results: a result below the normal range is +0, above it +Inf. */
static uint32_t scale(uint32_t t, int k)
{
    int e = (int)(t >> 23) + k;
    if (e <= 0)
        return 0;
    if (e >= 255)
        return INF32;
    return (t & 0x7fffffu) | (uint32_t)e << 23;
}

/* A double holding an exactly representable-or-not value in the normal
 * float range, rounded toward zero to float bits. */
static uint32_t rz_from_double(double d)
{
    uint64_t b = u64(d);
    uint32_t s = (uint32_t)(b >> 32) & SIGN32;
    int e = (int)((b >> 52) & 0x7ff) - 1023 + 127;
    return s | (uint32_t)e << 23 | (uint32_t)((b >> 29) & 0x7fffffu);
}

/* ---- MUFU operations (their inputs are flushed: .ftz forms are these) ---- */

static uint32_t mufu_rcp(uint32_t x)
{
    const uint32_t *T = sfu_table(SFU_T_RCP);
    uint32_t s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a == INF32) return s;
    if (a < MIN_NORMAL32) return s | INF32;
    if (!T) return round_approx(1.0 / (double)f32(x), true);
    return s | scale(T[a & 0x7fffffu], -((int)(a >> 23) - 127));
}

/* MUFU.RSQ (sq false) and MUFU.SQRT (sq true): the table covers [1, 4); the
 * exponent's parity picks the half, its even part scales the result. */
static uint32_t mufu_rsq_sqrt(uint32_t x, bool sq)
{
    const uint32_t *T = sfu_table(sq ? SFU_T_SQRT : SFU_T_RSQ);
    uint32_t s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a < MIN_NORMAL32) return sq ? s : s | INF32;
    if (s) return NAN32;
    if (a == INF32) return sq ? INF32 : 0;
    if (!T) return round_approx(sq ? sqrt((double)f32(x)) : 1.0 / sqrt((double)f32(x)), true);
    int e = (int)(a >> 23) - 127, p = e & 1, k = (e - p) / 2;
    return scale(T[(uint32_t)p << 23 | (a & 0x7fffffu)], sq ? k : -k);
}

/* MUFU.EX2: |x| as fixed point with 23 fraction bits, truncated; 2^int
 * scales the table entry of the fraction (one table per sign). */
static uint32_t mufu_ex2(uint32_t x)
{
    const uint32_t *T = sfu_table(SFU_T_EX2);
    uint32_t a = x & ABS32;
    if (a > INF32) return NAN32;
    if (x == INF32) return INF32;
    if (x == (SIGN32 | INF32)) return 0;
    if (a < MIN_NORMAL32) x &= SIGN32;
    double d = (double)f32(x);
    if (d >= 128.0) return INF32;
    if (d <= -160.0) return 0;
    if (!T) return round_approx(exp2(d), true);
    int64_t N = (int64_t)(fabs(d) * 0x1p23);
    int n = (int)(N >> 23);
    uint32_t f = (uint32_t)(N & 0x7fffff);
    return d >= 0 ? scale(T[f], n) : scale(T[(1u << 23) + f], -n);
}

/* MUFU.LG2: e + L(m).  The table holds the exponents 0 and -1; above, the
 * sum is truncated; below -1 the magnitude |e| - L is truncated and, when
 * exact, one ulp smaller (the unit negates in one's complement). */
static uint32_t mufu_lg2(uint32_t x)
{
    const uint32_t *T = sfu_table(SFU_T_LG2);
    uint32_t s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    if (a < MIN_NORMAL32) return SIGN32 | INF32;
    if (s) return NAN32;
    if (a == INF32) return INF32;
    if (!T) return round_approx(log2((double)f32(x)), true);
    int e = (int)(a >> 23) - 127;
    uint32_t m = a & 0x7fffffu;
    if (e == 0) return T[1u << 23 | m];
    if (e == -1) return T[m];
    double L = (double)f32(T[1u << 23 | m]);
    if (e > 0) return rz_from_double((double)e + L);
    double M = (double)(-e) - L;
    uint32_t r = rz_from_double(M);
    if ((double)f32(r) == M) r -= 1;
    return r | SIGN32;
}

/* MUFU.SIN / MUFU.COS of t turns (the instruction has already multiplied by
 * 1/(2 pi)): the fraction of |t| as 25-bit fixed point, truncated; the table
 * covers half a turn, the other half is its negation; COS is SIN a quarter
 * turn on; SIN is odd. */
static uint32_t mufu_sincos(uint32_t x, bool cosine)
{
    const uint32_t *T = sfu_table(SFU_T_SIN);
    uint32_t a = x & ABS32;
    if (a >= INF32) return NAN32;
    if (a < MIN_NORMAL32) x &= SIGN32;
    double u = fabs((double)f32(x)), fr = u - floor(u);
    if (!T) {
        double v = cosine ? cos(2 * M_PI * fr) : sin(2 * M_PI * fr);
        return round_approx(cosine || !(x & SIGN32) ? v : -v, true);
    }
    uint32_t idx = (uint32_t)(fr * 0x1p25);
    if (cosine)
        idx = (idx + (1u << 23)) & ((1u << 25) - 1);
    uint32_t r = idx < (1u << 24) ? T[idx] : T[idx - (1u << 24)] ^ SIGN32;
    if (!cosine && (x & SIGN32))
        r ^= SIGN32;
    return r;
}

/* MUFU.TANH: odd; x itself below 2^-8, 1 from 8 up; in between a table
 * indexed by the exponent and the top 19 (below 1) or 21 (from 1 up)
 * mantissa bits: the unit ignores the rest. */
static uint32_t mufu_tanh(uint32_t x)
{
    const uint32_t *T = sfu_table(SFU_T_TANH);
    uint32_t s = x & SIGN32, a = x & ABS32;
    if (a > INF32) return NAN32;
    int e = (int)(a >> 23) - 127;
    if (e >= 3) return s | 0x3f800000u;
    if (e <= -9) return x;
    if (!T) return round_approx(tanh((double)f32(x)), false);
    uint32_t m = a & 0x7fffffu;
    uint32_t idx = e < 0 ? (uint32_t)(e + 8) << 19 | m >> 4 : (8u << 19) + ((uint32_t)e << 21) + (m >> 2);
    return s | T[idx];
}

/* ---- the PTX instructions -------------------------------------------- */

static uint32_t mul32(uint32_t a, uint32_t b, bool ftz)
{
    return alu_f32_mul(a, b, ALU_RN, ftz, false);
}

#define F_2P24  0x4b800000u   /* 2^24 */
#define F_QUART 0x3e800000u   /* 0.25 */
#define F_ONE   0x3f800000u

/* rcp.approx.f32: s = 0.25 above 2^126, 2^24 below 2^-126, else 1;
 * s * RCP(x * s).  .ftz: RCP(x). */
uint32_t alu_f32_rcp_approx(uint32_t a, bool ftz)
{
    if (ftz)
        return mufu_rcp(a);
    uint32_t s = geu_min_normal(a) ? F_ONE : F_2P24;
    if (!nan32(a) && (a & ABS32) > 0x7e800000u)
        s = F_QUART;
    return mul32(s, mufu_rcp(mul32(a, s, false)), false);
}

/* sqrt/rsqrt.approx.f32: below 2^-126, x * 2^24 and the result * 2^-12 (sqrt)
 * or * 2^12 (rsqrt).  .ftz: the MUFU alone. */
static uint32_t rsq_sqrt(uint32_t a, bool ftz, bool sq)
{
    if (ftz || geu_min_normal(a))
        return mufu_rsq_sqrt(a, sq);
    uint32_t r = mufu_rsq_sqrt(mul32(a, F_2P24, false), sq);
    return mul32(r, sq ? 0x39800000u : 0x45800000u, false);
}

uint32_t alu_f32_sqrt_approx(uint32_t a, bool ftz) { return rsq_sqrt(a, ftz, true); }
uint32_t alu_f32_rsqrt_approx(uint32_t a, bool ftz) { return rsq_sqrt(a, ftz, false); }

/* ex2.approx.f32: below -126, EX2(x / 2) squared (a subnormal result).
 * .ftz: EX2(x). */
uint32_t alu_f32_ex2_approx(uint32_t a, bool ftz)
{
    if (ftz || nan32(a) || !(f32(a) < -126.0f))
        return mufu_ex2(a);
    uint32_t r = mufu_ex2(mul32(a, 0x3f000000u, false));
    return mul32(r, r, false);
}

/* lg2.approx.f32: below 2^-126, LG2(x * 2^24) - 24.  .ftz: LG2(x). */
uint32_t alu_f32_lg2_approx(uint32_t a, bool ftz)
{
    if (ftz || geu_min_normal(a))
        return mufu_lg2(a);
    return alu_f32_add(mufu_lg2(mul32(a, F_2P24, false)), 0xc1c00000u, ALU_RN, false, false);
}

/* sin/cos.approx(.ftz).f32: SIN/COS(x * 1/(2 pi) rounded toward zero); the
 * .ftz and plain forms are the same code. */
#define F_INV_2PI 0x3e22f983u
uint32_t alu_f32_sin_approx(uint32_t a, bool ftz)
{
    (void)ftz;
    return mufu_sincos(alu_f32_mul(a, F_INV_2PI, ALU_RZ, false, false), false);
}

uint32_t alu_f32_cos_approx(uint32_t a, bool ftz)
{
    (void)ftz;
    return mufu_sincos(alu_f32_mul(a, F_INV_2PI, ALU_RZ, false, false), true);
}

uint32_t alu_f32_tanh_approx(uint32_t a)
{
    return mufu_tanh(a);
}

/* div.approx.f32: b below 2^-126 (or 0): both scaled by 2^24; RCP(b) * a.
 * .ftz: a * RCP(b), flushed. */
uint32_t alu_f32_div_approx(uint32_t a, uint32_t b, bool ftz)
{
    if (ftz)
        return mul32(a, mufu_rcp(b), true);
    if (!geu_min_normal(b)) {
        b = mul32(b, F_2P24, false);
        a = mul32(a, F_2P24, false);
    }
    return mul32(mufu_rcp(b), a, false);
}

/* div.full.f32: also b above 2^126: both scaled by 1/4 first. */
uint32_t alu_f32_div_full(uint32_t a, uint32_t b, bool ftz)
{
    bool big = !nan32(b) && (b & ABS32) > 0x7e800000u, small = !geu_min_normal(b);
    if (big) {
        b = mul32(b, F_QUART, ftz);
        a = mul32(a, F_QUART, ftz);
    }
    if (ftz)
        return mul32(mufu_rcp(b), a, true);
    if (small) {
        b = mul32(b, F_2P24, false);
        a = mul32(a, F_2P24, false);
    }
    return mul32(mufu_rcp(b), a, false);
}

/* rcp.approx.ftz.f64 is MUFU.RCP64H: the high word of a alone (sign,
 * exponent, 20 mantissa bits) indexes the table; the low word of the result
 * is 0.  NaN gives 0x7fffffff00000000, zero and subnormal +-Inf, Inf +-0,
 * a result below the normal range +-0. */
uint64_t alu_f64_rcp_approx(uint64_t a)
{
    const uint32_t *T = sfu_table(SFU_T_RCP64H);
    uint32_t h = (uint32_t)(a >> 32), s = h & SIGN32, m = h & ABS32, r;
    if (m > 0x7ff00000u)
        r = ABS32;
    else if (m == 0x7ff00000u)
        r = s;
    else if (m < 0x00100000u)
        r = s | 0x7ff00000u;
    else if (!T) {
        double d;
        uint64_t t = (uint64_t)h << 32;
        memcpy(&d, &t, 8);
        uint64_t q = u64(1.0 / d);
        r = ((q >> 52) & 0x7ff) == 0 ? s : (uint32_t)(q >> 32);
    } else {
        int e = (int)(m >> 20) - 1023;
        uint32_t t = T[m & 0xfffffu];
        int ee = (int)(t >> 20) - e;
        r = ee <= 0 ? s : ee >= 0x7ff ? s | 0x7ff00000u : s | (t & 0xfffffu) | (uint32_t)ee << 20;
    }
    return (uint64_t)r << 32;
}

/* ---- f16 / bf16: MUFU.EX2.F16 ... every input measured ----------------- */

static uint16_t half_op(SfuTable t, uint16_t h)
{
    const uint32_t *T = sfu_table(t);
    if (T)
        return (uint16_t)T[h];
    bool bf = t == SFU_T_EX2_BF16 || t == SFU_T_TANH_BF16;
    float x = bf ? f32((uint32_t)h << 16) : f32(alu_f16_to_f32(h));
    double v = (t == SFU_T_EX2_F16 || t == SFU_T_EX2_BF16) ? exp2((double)x) : tanh((double)x);
    return bf ? alu_f32_to_bf16(u32((float)v), ALU_RN) : alu_f32_to_f16(u32((float)v), ALU_RN);
}

uint16_t alu_f16_ex2_approx(uint16_t a) { return half_op(SFU_T_EX2_F16, a); }
uint16_t alu_bf16_ex2_approx(uint16_t a) { return half_op(SFU_T_EX2_BF16, a); }
uint16_t alu_f16_tanh_approx(uint16_t a) { return half_op(SFU_T_TANH_F16, a); }
uint16_t alu_bf16_tanh_approx(uint16_t a) { return half_op(SFU_T_TANH_BF16, a); }

/* alu_float.c: f32 and f64 arithmetic exactly as PTX defines it.
 *
 * Part of the ALU (sim/alu.h).  IEEE operations run on the host FPU with the
 * rounding mode switched around the one operation (this file is built with
 * -frounding-math -ffp-contract=off, and volatile keeps the compiler from
 * folding or moving the operation); then the PTX rules are applied on top:
 * .ftz flushes, .sat clamps, f32 NaN results become the canonical NaN and
 * f64 NaNs propagate the way an H100 propagates them (see nan64_pick).  The
 * approximate instructions are in alu_sfu.c.  The host is assumed
 * to run in round-to-nearest, the mode every function here leaves behind. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "alu.h"

#define SIGN32 0x80000000u
#define EXP32  0x7f800000u
#define SIGN64 0x8000000000000000ull
#define EXP64  0x7ff0000000000000ull

/* ---- bit views ---------------------------------------------------------- */

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static bool nan32(uint32_t u) { return (u & ~SIGN32) > EXP32; }
static bool nan64(uint64_t u) { return (u & ~SIGN64) > EXP64; }

/* .ftz: a subnormal becomes zero of the same sign. */
static uint32_t flush32(uint32_t u)
{
    return (u & EXP32) == 0 ? u & SIGN32 : u;
}

static uint32_t maybe_flush(uint32_t u, bool ftz)
{
    return ftz ? flush32(u) : u;
}

static uint32_t canon32(uint32_t u)
{
    return nan32(u) ? ALU_F32_CANON_NAN : u;
}

/* ---- f64 NaNs, as measured on sm_90 (H100) ----------------------------
 * f64 does not canonicalise: a NaN operand comes back quieted with sign and
 * payload kept, and when several operands are NaN the one chosen follows a
 * fixed priority per instruction (add/sub/mul/min/max: b then a; fma: b, c,
 * a; div: a then b).  A NaN made from non-NaN operands (Inf-Inf, 0*Inf,
 * sqrt(-1), 0/0) is 0xfff8000000000000. */
#define F64_QUIET   0x0008000000000000ull
#define F64_DEFAULT_NAN 0xfff8000000000000ull

static uint64_t quiet64(uint64_t u)
{
    return u | F64_QUIET;
}

/* The NaN to return given operand NaNs in priority order (n of them), or
 * 0 when none is NaN. */
static uint64_t nan64_pick(int n, const uint64_t *ops)
{
    for (int i = 0; i < n; i++)
        if (nan64(ops[i]))
            return quiet64(ops[i]);
    return 0;
}

static uint64_t fix_nan64(uint64_t r)
{
    return nan64(r) ? F64_DEFAULT_NAN : r;
}

/* .sat: clamp to [+0.0, 1.0]; NaN and every value <= 0 (-0.0 included)
 * become +0.0. */
static uint32_t sat32(uint32_t u)
{
    if (nan32(u) || (u & SIGN32))
        return 0;
    return u > 0x3f800000u ? 0x3f800000u : u;
}

/* The result tail every rounded f32 operation shares. */
static uint32_t finish32(float r, bool ftz, bool sat)
{
    uint32_t u = canon32(maybe_flush(u32(r), ftz));
    return sat ? sat32(u) : u;
}

static int fe_mode(AluRound r)
{
    switch (r) {
    case ALU_RZ: return FE_TOWARDZERO;
    case ALU_RM: return FE_DOWNWARD;
    case ALU_RP: return FE_UPWARD;
    default:     return FE_TONEAREST;
    }
}

/* ---- one operation under a rounding mode ------------------------------ */

typedef enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA } Op;

static float op32(Op op, float a, float b, float c, AluRound r)
{
    volatile float x = a, y = b, z = c, d = 0.0f;
    if (r != ALU_RN)
        fesetround(fe_mode(r));
    switch (op) {
    case OP_ADD:  d = x + y; break;
    case OP_SUB:  d = x - y; break;
    case OP_MUL:  d = x * y; break;
    case OP_DIV:  d = x / y; break;
    case OP_SQRT: d = sqrtf(x); break;
    case OP_FMA:  d = fmaf(x, y, z); break;
    }
    if (r != ALU_RN)
        fesetround(FE_TONEAREST);
    return d;
}

static double op64(Op op, double a, double b, double c, AluRound r)
{
    volatile double x = a, y = b, z = c, d = 0.0;
    if (r != ALU_RN)
        fesetround(fe_mode(r));
    switch (op) {
    case OP_ADD:  d = x + y; break;
    case OP_SUB:  d = x - y; break;
    case OP_MUL:  d = x * y; break;
    case OP_DIV:  d = x / y; break;
    case OP_SQRT: d = sqrt(x); break;
    case OP_FMA:  d = fma(x, y, z); break;
    }
    if (r != ALU_RN)
        fesetround(FE_TONEAREST);
    return d;
}

/* .ftz decides on the result rounded to 24 bits as if the exponent were
 * unbounded: a product just below 2^-126 that the host, rounding in the
 * subnormal format, rounds up to 2^-126 is flushed on an H100 (mul.ftz of
 * 0x0cb5e5ea by 0x33342512 gives +0).  Recompute such a result 2^64 higher,
 * where nothing is subnormal: in double the product is exact; for fma the
 * double rounds once more, which matters only on a 53-bit midpoint. */
static bool flushes_unbounded(Op op, float a, float b, float c, AluRound r)
{
    double s = 0x1p64;
    double v = op == OP_MUL ? (double)a * (double)b * s : fma((double)a, (double)b * s, (double)c * s);
    volatile double vv = v;
    volatile float q;
    if (r != ALU_RN)
        fesetround(fe_mode(r));
    q = (float)vv;
    if (r != ALU_RN)
        fesetround(FE_TONEAREST);
    return fabsf(q) < 0x1p-62f;
}

static uint32_t arith32(Op op, uint32_t a, uint32_t b, uint32_t c, AluRound r,
                        bool ftz, bool sat)
{
    a = maybe_flush(a, ftz);
    b = maybe_flush(b, ftz);
    c = maybe_flush(c, ftz);
    float d = op32(op, f32(a), f32(b), f32(c), r);
    if (ftz && (op == OP_MUL || op == OP_FMA) && (u32(d) & ~SIGN32) == 0x00800000u &&
        flushes_unbounded(op, f32(a), f32(b), f32(c), r))
        d = copysignf(0.0f, d);
    return finish32(d, ftz, sat);
}

/* ---- f32 IEEE ------------------------------------------------------------ */

uint32_t alu_f32_add(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat)
{
    return arith32(OP_ADD, a, b, 0, r, ftz, sat);
}

uint32_t alu_f32_sub(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat)
{
    return arith32(OP_SUB, a, b, 0, r, ftz, sat);
}

uint32_t alu_f32_mul(uint32_t a, uint32_t b, AluRound r, bool ftz, bool sat)
{
    return arith32(OP_MUL, a, b, 0, r, ftz, sat);
}

uint32_t alu_f32_fma(uint32_t a, uint32_t b, uint32_t c, AluRound r, bool ftz, bool sat)
{
    return arith32(OP_FMA, a, b, c, r, ftz, sat);
}

uint32_t alu_f32_div(uint32_t a, uint32_t b, AluRound r, bool ftz)
{
    return arith32(OP_DIV, a, b, 0, r, ftz, false);
}

uint32_t alu_f32_rcp(uint32_t a, AluRound r, bool ftz)
{
    return arith32(OP_DIV, 0x3f800000u, a, 0, r, ftz, false);
}

uint32_t alu_f32_sqrt(uint32_t a, AluRound r, bool ftz)
{
    return arith32(OP_SQRT, a, 0, 0, r, ftz, false);
}

/* ---- min/max, abs/neg ------------------------------------------------- */

/* Total order on non-NaN values with -0.0 < +0.0: compare as sign-magnitude. */
static bool less32(uint32_t x, uint32_t y)
{
    if ((x ^ y) & SIGN32)
        return (x & SIGN32) != 0;          /* differing signs: negative is less */
    return (x & SIGN32) ? x > y : x < y;
}

static bool less64(uint64_t x, uint64_t y)
{
    if ((x ^ y) & SIGN64)
        return (x & SIGN64) != 0;
    return (x & SIGN64) ? x > y : x < y;
}

static uint32_t minmax32(uint32_t a, uint32_t b, bool ftz, bool nan, bool want_max)
{
    a = maybe_flush(a, ftz);
    b = maybe_flush(b, ftz);
    bool na = nan32(a), nb = nan32(b);
    if ((na && nb) || (nan && (na || nb)))
        return ALU_F32_CANON_NAN;
    if (na)
        return b;
    if (nb)
        return a;
    return less32(a, b) != want_max ? a : b;
}

uint32_t alu_f32_min(uint32_t a, uint32_t b, bool ftz, bool nan)
{
    return minmax32(a, b, ftz, nan, false);
}

uint32_t alu_f32_max(uint32_t a, uint32_t b, bool ftz, bool nan)
{
    return minmax32(a, b, ftz, nan, true);
}

/* abs/neg change the sign bit only, except that a NaN comes back as the
 * canonical NaN: the ISA leaves it "unspecified", an H100 gives 0x7fffffff
 * (abs.f32 of 0xffc01234, neg.f32 of 0x7f812345). */
uint32_t alu_f32_abs(uint32_t a, bool ftz)
{
    return canon32(maybe_flush(a, ftz) & ~SIGN32);
}

uint32_t alu_f32_neg(uint32_t a, bool ftz)
{
    return canon32(maybe_flush(a, ftz) ^ SIGN32);
}

/* ---- f64 ----------------------------------------------------------------- */

/* One f64 operation: operand NaNs first (in the instruction's priority
 * order `pri`), then the host result with a fresh NaN made the GPU's. */
static uint64_t arith64(Op op, uint64_t a, uint64_t b, uint64_t c, AluRound r,
                        int n, const uint64_t *pri)
{
    uint64_t nan = nan64_pick(n, pri);
    if (nan)
        return nan;
    return fix_nan64(u64(op64(op, f64(a), f64(b), f64(c), r)));
}

uint64_t alu_f64_add(uint64_t a, uint64_t b, AluRound r)
{
    return arith64(OP_ADD, a, b, 0, r, 2, (uint64_t[]){b, a});
}

uint64_t alu_f64_sub(uint64_t a, uint64_t b, AluRound r)
{
    return arith64(OP_SUB, a, b, 0, r, 2, (uint64_t[]){b, a});
}

uint64_t alu_f64_mul(uint64_t a, uint64_t b, AluRound r)
{
    return arith64(OP_MUL, a, b, 0, r, 2, (uint64_t[]){b, a});
}

uint64_t alu_f64_div(uint64_t a, uint64_t b, AluRound r)
{
    return arith64(OP_DIV, a, b, 0, r, 2, (uint64_t[]){a, b});
}

uint64_t alu_f64_sqrt(uint64_t a, AluRound r)
{
    return arith64(OP_SQRT, a, 0, 0, r, 1, (uint64_t[]){a});
}

uint64_t alu_f64_fma(uint64_t a, uint64_t b, uint64_t c, AluRound r)
{
    return arith64(OP_FMA, a, b, c, r, 3, (uint64_t[]){b, c, a});
}

uint64_t alu_f64_rcp(uint64_t a, AluRound r)
{
    return arith64(OP_DIV, 0x3ff0000000000000ull, a, 0, r, 1, (uint64_t[]){a});
}

/* rsqrt.approx.f64: 1/sqrt(a) in double (two roundings, < 1.5 ulp);
 * subnormals supported, -0 -> -Inf, +0 -> +Inf, negative -> NaN, a NaN
 * operand comes back quieted. */
uint64_t alu_f64_rsqrt_approx(uint64_t a)
{
    if (nan64(a))
        return quiet64(a);
    if ((a & ~SIGN64) == 0)
        return (a & SIGN64) | EXP64;
    return fix_nan64(u64(1.0 / sqrt(f64(a))));
}

static uint64_t minmax64(uint64_t a, uint64_t b, bool want_max)
{
    bool na = nan64(a), nb = nan64(b);
    if (na && nb)
        return quiet64(b);
    if (na)
        return b;
    if (nb)
        return a;
    return less64(a, b) != want_max ? a : b;
}

uint64_t alu_f64_min(uint64_t a, uint64_t b) { return minmax64(a, b, false); }
uint64_t alu_f64_max(uint64_t a, uint64_t b) { return minmax64(a, b, true); }
/* abs/neg.f64 of a NaN: the NaN quieted, sign untouched (ISA: "passed
 * through unchanged" for abs; H100 also sets the quiet bit of an sNaN). */
uint64_t alu_f64_abs(uint64_t a) { return nan64(a) ? quiet64(a) : a & ~SIGN64; }
uint64_t alu_f64_neg(uint64_t a) { return nan64(a) ? quiet64(a) : a ^ SIGN64; }

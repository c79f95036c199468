/* exec_float.c: floating-point instructions and cvt -- decoders (dec_float,
 * dec_cvt) and handlers.  add/sub/mul/fma in round-to-nearest without ftz
 * or sat run inline (the host's IEEE arithmetic is exact for them, NaN
 * results are made canonical as on the GPU); every other form calls alu_*. */
#include "exec_int.h"
#include "exec_decode.h"
#include "sfu_table.h"
#include "exec_lanes.h"

#include <math.h>
#include <string.h>

static inline float f32_of(uint64_t v) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f; }
static inline uint64_t bits_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return f != f ? ALU_F32_CANON_NAN : b; }
static inline double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bits_f64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

#define FBIN(name, expr)                                                     \
    static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m)        \
    {                                                                        \
        OPS_D; OPS_A; OPS_B;                                                 \
        LANES(m, { d[l] = (expr); });                                        \
    }
FBIN(ex_fadd32, bits_f32(f32_of(a[l]) + f32_of(b[l])))
FBIN(ex_fsub32, bits_f32(f32_of(a[l]) - f32_of(b[l])))
FBIN(ex_fmul32, bits_f32(f32_of(a[l]) * f32_of(b[l])))
/* f64 NaN results follow the GPU's propagation rules (alu_float.c): the
 * rare NaN takes the exact path. */
#define F64NAN(r, slow) ((r) != (r) ? (slow) : bits_f64(r))
FBIN(ex_fadd64, F64NAN(f64_of(a[l]) + f64_of(b[l]), alu_f64_add(a[l], b[l], ALU_RN)))
FBIN(ex_fsub64, F64NAN(f64_of(a[l]) - f64_of(b[l]), alu_f64_sub(a[l], b[l], ALU_RN)))
FBIN(ex_fmul64, F64NAN(f64_of(a[l]) * f64_of(b[l]), alu_f64_mul(a[l], b[l], ALU_RN)))

/* fma.rn.f32 without a libm call per lane: the product of two floats is
 * exact in double, so a*b+c in double is rounded once; rounding that double
 * to float again gives the correctly rounded fma unless it sits exactly on a
 * float midpoint (low 29 bits 0x10000000) -- then, and for results outside
 * the normal float range and NaN, fall back to fmaf.  (A float midpoint
 * strictly between the exact value and its double rounding would be a
 * nearer double, so no other case can round twice.) */
static inline uint64_t ffma32_lane(uint64_t a, uint64_t b, uint64_t c)
{
    double r = (double)f32_of(a) * (double)f32_of(b) + (double)f32_of(c);
    uint64_t u;
    memcpy(&u, &r, 8);
    if ((u & 0x1fffffffu) != 0x10000000u && fabs(r) >= 0x1p-126 && fabs(r) <= 0x1p+127)
        return bits_f32((float)r);
    return bits_f32(fmaf(f32_of(a), f32_of(b), f32_of(c)));
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* fma.rn.f32 for a whole warp with the host's FMA instruction, which rounds
 * once in the current (nearest) mode exactly as fmaf does; NaN results are
 * made canonical as in bits_f32.  Eight lanes at a time: the low halves of
 * eight 64-bit register lanes are packed into one vector of floats.  Only
 * called when the CPU has AVX2 and FMA (ffma32_host_fma).  d may be a
 * source: each group of eight is read before it is written. */
__attribute__((target("avx2,fma")))
static void ffma32_warp_fma(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256 canon = _mm256_castsi256_ps(_mm256_set1_epi32((int)ALU_F32_CANON_NAN));
#define PACK8_(p, l)                                                                       \
    _mm256_castsi256_ps(_mm256_permute2x128_si256(                                        \
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)((p) + (l))), even), \
        _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)((p) + (l) + 4)), even), 0x20))
    for (int l = 0; l < WARP; l += 8) {
        __m256 r = _mm256_fmadd_ps(PACK8_(a, l), PACK8_(b, l), PACK8_(c, l));
        r = _mm256_blendv_ps(r, canon, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
        __m256i u = _mm256_castps_si256(r);
        _mm256_storeu_si256((__m256i *)(d + l), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(u)));
        _mm256_storeu_si256((__m256i *)(d + l + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(u, 1)));
    }
#undef PACK8_
}

static bool ffma32_host_fma(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
static void ffma32_warp_fma(uint64_t *d, const uint64_t *a, const uint64_t *b, const uint64_t *c)
{
    (void)d; (void)a; (void)b; (void)c;
}
static bool ffma32_host_fma(void) { return false; }
#endif

static bool ffma32_portable_only; /* exec_float_test_portable_fma */

void exec_float_test_portable_fma(bool on)
{
    ffma32_portable_only = on;
}

/* With the whole warp active, the double path runs for every lane in one
 * vectorisable loop into t; only when some lane needs fmaf does the warp go
 * lane by lane (d may be a source, so it is written last). */
static void ex_ffma32(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B; OPS_C;
    if (m == FULL_MASK && !ffma32_portable_only && ffma32_host_fma()) {
        ffma32_warp_fma(d, a, b, c);
        return;
    }
    if (m == FULL_MASK) {
        uint64_t t[WARP];
        int slow = 0;
        LANES_ALL({ /* bitwise operators and 32-bit compares: SSE2 can run it */
            double r = (double)f32_of(a[l]) * (double)f32_of(b[l]) + (double)f32_of(c[l]);
            uint64_t u;
            memcpy(&u, &r, 8);
            double ar = fabs(r);
            slow |= (((uint32_t)u & 0x1fffffffu) == 0x10000000u) | (ar < 0x1p-126) | (ar > 0x1p+127) |
                    (r != r);
            float f = (float)r;
            uint32_t fb;
            memcpy(&fb, &f, 4);
            t[l] = fb;
        });
        if (!slow) {
            LANES_ALL({ d[l] = t[l]; });
            return;
        }
    }
    LANES(m, { d[l] = ffma32_lane(a[l], b[l], c[l]); });
}

static void ex_ffma64(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B; OPS_C;
    LANES(m, { d[l] = F64NAN(fma(f64_of(a[l]), f64_of(b[l]), f64_of(c[l])), alu_f64_fma(a[l], b[l], c[l], ALU_RN)); });
}

enum {
    F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_DIV_APPROX, F_DIV_FULL, F_ABS, F_NEG, F_MIN, F_MAX,
    F_MIN_NAN, F_MAX_NAN, F_RCP, F_RCP_APPROX, F_SQRT, F_SQRT_APPROX, F_RSQRT, F_EX2, F_LG2,
    F_SIN, F_COS, F_TANH, F_COPYSIGN,
    F_FMA_NP, F_FMA_NC, F_FMA_NPC /* a mul fused into an add/sub: fma(-a, b, c), fma(a, b, -c), fma(-a, b, -c) */
};

static void ex_f32(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    const uint64_t *a = exec_src(x, w, in->s[0]);
    const uint64_t *b = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : a;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    AluRound r = (AluRound)in->rnd;
    bool z = in->ftz, s = in->sat;
    LANES(m, {
        uint32_t A = (uint32_t)a[l], B = (uint32_t)b[l], C = (uint32_t)c[l], v = 0;
        switch (in->sub) {
        case F_ADD: v = alu_f32_add(A, B, r, z, s); break;
        case F_SUB: v = alu_f32_sub(A, B, r, z, s); break;
        case F_MUL: v = alu_f32_mul(A, B, r, z, s); break;
        case F_FMA: v = alu_f32_fma(A, B, C, r, z, s); break;
        case F_FMA_NP: v = alu_f32_fma(A ^ 0x80000000u, B, C, r, z, s); break;
        case F_FMA_NC: v = alu_f32_fma(A, B, C ^ 0x80000000u, r, z, s); break;
        case F_FMA_NPC: v = alu_f32_fma(A ^ 0x80000000u, B, C ^ 0x80000000u, r, z, s); break;
        case F_DIV: v = alu_f32_div(A, B, r, z); break;
        case F_DIV_APPROX: v = alu_f32_div_approx(A, B, z); break;
        case F_DIV_FULL: v = alu_f32_div_full(A, B, z); break;
        case F_ABS: v = alu_f32_abs(A, z); break;
        case F_NEG: v = alu_f32_neg(A, z); break;
        case F_MIN: v = alu_f32_min(A, B, z, false); break;
        case F_MAX: v = alu_f32_max(A, B, z, false); break;
        case F_MIN_NAN: v = alu_f32_min(A, B, z, true); break;
        case F_MAX_NAN: v = alu_f32_max(A, B, z, true); break;
        case F_RCP: v = alu_f32_rcp(A, r, z); break;
        case F_RCP_APPROX: v = alu_f32_rcp_approx(A, z); break;
        case F_SQRT: v = alu_f32_sqrt(A, r, z); break;
        case F_SQRT_APPROX: v = alu_f32_sqrt_approx(A, z); break;
        case F_RSQRT: v = alu_f32_rsqrt_approx(A, z); break;
        case F_EX2: v = alu_f32_ex2_approx(A, z); break;
        case F_LG2: v = alu_f32_lg2_approx(A, z); break;
        case F_SIN: v = alu_f32_sin_approx(A, z); break;
        case F_COS: v = alu_f32_cos_approx(A, z); break;
        case F_TANH: v = alu_f32_tanh_approx(A); break;
        case F_COPYSIGN: v = (B & 0x7fffffffu) | (A & 0x80000000u); break;
        }
        d[l] = v;
    });
}

static void ex_f64(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D;
    const uint64_t *a = exec_src(x, w, in->s[0]);
    const uint64_t *b = in->s[1] != -1 ? exec_src(x, w, in->s[1]) : a;
    const uint64_t *c = in->s[2] != -1 ? exec_src(x, w, in->s[2]) : a;
    AluRound r = (AluRound)in->rnd;
    LANES(m, {
        uint64_t A = a[l], B = b[l], C = c[l], v = 0;
        switch (in->sub) {
        case F_ADD: v = alu_f64_add(A, B, r); break;
        case F_SUB: v = alu_f64_sub(A, B, r); break;
        case F_MUL: v = alu_f64_mul(A, B, r); break;
        case F_FMA: v = alu_f64_fma(A, B, C, r); break;
        case F_FMA_NP: v = alu_f64_fma(A ^ 0x8000000000000000ull, B, C, r); break;
        case F_FMA_NC: v = alu_f64_fma(A, B, C ^ 0x8000000000000000ull, r); break;
        case F_FMA_NPC: v = alu_f64_fma(A ^ 0x8000000000000000ull, B, C ^ 0x8000000000000000ull, r); break;
        case F_DIV: v = alu_f64_div(A, B, r); break;
        case F_ABS: v = alu_f64_abs(A); break;
        case F_NEG: v = alu_f64_neg(A); break;
        case F_MIN: case F_MIN_NAN: v = alu_f64_min(A, B); break;
        case F_MAX: case F_MAX_NAN: v = alu_f64_max(A, B); break;
        case F_RCP: v = alu_f64_rcp(A, r); break;
        case F_RCP_APPROX: v = alu_f64_rcp_approx(A); break;
        case F_SQRT: v = alu_f64_sqrt(A, r); break;
        case F_RSQRT: v = alu_f64_rsqrt_approx(A); break;
        case F_COPYSIGN: v = (B & ~(1ull << 63)) | (A & (1ull << 63)); break;
        }
        d[l] = v;
    });
}

static void ex_testp(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_A;
    uint32_t r = 0;
    bool f64 = in->type == PTX_T_F64;
    LANES(m, {
        double v = f64 ? f64_of(a[l]) : (double)f32_of(a[l]);
        int cls = f64 ? fpclassify(f64_of(a[l])) : fpclassify(f32_of(a[l]));
        bool t = false;
        switch (in->sub) {
        case 0: t = isfinite(v); break;
        case 1: t = isinf(v); break;
        case 2: t = !isnan(v); break;
        case 3: t = isnan(v); break;
        case 4: t = cls == FP_NORMAL || cls == FP_ZERO; break; /* ISA: +-0 count as normal */
        case 5: t = cls == FP_SUBNORMAL; break;
        }
        r |= (uint32_t)t << l;
    });
    w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
}

/* An add/sub that ptxas contracts with an earlier mul (contract.h): one
 * fma.rn of the mul's sources and the add's other operand, with the add's
 * guard, .ftz and .sat.  The mul still runs (its result may be read by
 * nothing else; ptxas drops it). */
static SimStatus dec_fused(DecodeCtx *c, const ContractFuse *fz, bool f64)
{
    SimInst *in = c->in;
    PtxType t = f64 ? PTX_T_F64 : PTX_T_F32;
    if (dec_src(c, fz->addend, t, &in->s[2]))
        return c->err->status;
    const PtxInst *add = c->pi;
    c->pi = &c->f->insts[fz->mul];
    SimStatus st = dec_src(c, 1, t, &in->s[0]);
    if (st == SIM_OK)
        st = dec_src(c, 2, t, &in->s[1]);
    c->pi = add;
    if (st)
        return st;
    in->sub = (uint8_t)(fz->neg_product ? (fz->neg_addend ? F_FMA_NPC : F_FMA_NP)
                                        : fz->neg_addend ? F_FMA_NC : F_FMA);
    in->rnd = ALU_RN;
    bool plain = !in->ftz && !in->sat && in->sub == F_FMA;
    in->fn = f64 ? (plain ? ex_ffma64 : ex_f64) : (plain ? ex_ffma32 : ex_f32);
    in->defs = EXEC_DEFS_D;
    return SIM_OK;
}

/* The special function unit's table an approximate instruction reads
 * (sfu_table.h), loaded now so that a failure is a load error. */
static SimStatus dec_sfu_table(DecodeCtx *c)
{
    int t = sfu_inst_table(c->pi);
    if (t < 0)
        return SIM_OK;
    SimError e;
    if (sfu_table_require((SfuTable)t, &e) == SIM_OK)
        return SIM_OK;
    return sim_error_set(c->err, e.status, c->m->path, c->pi->ptx_line, c->pi->ptx_col,
                         "cannot load the special function unit's %s table: %s",
                         sfu_table_name((SfuTable)t), e.msg);
}

SimStatus dec_float(DecodeCtx *c)
{
    SimInst *in = c->in;
    const char *op = c->pi->opcode;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    if (dec_types(c, ts) != 1)
        return dec_fail(c, "expected one type modifier");
    PtxType t = ts[0];
    if ((t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2) &&
        strcmp(op, "testp") && strcmp(op, "copysign") && strcmp(op, "rcp") && strcmp(op, "sqrt") &&
        strcmp(op, "rsqrt") && strcmp(op, "lg2") && strcmp(op, "sin") && strcmp(op, "cos") && strcmp(op, "div"))
        return dec_half(c, t);
    if (t != PTX_T_F32 && t != PTX_T_F64)
        return dec_fail(c, "type .%s is not supported (f32 and f64 are)", ptx_type_name(t));
    in->type = (uint8_t)t;
    bool f64 = t == PTX_T_F64;
    int rnd = dec_round(c, NULL);
    in->rnd = (uint8_t)(rnd < 0 ? ALU_RN : rnd);
    in->ftz = dec_mod(c, "ftz");
    in->sat = dec_mod(c, "sat");
    bool approx = dec_mod(c, "approx");
    bool full = dec_mod(c, "full");
    int nsrc = 1, sub;
    if (!strcmp(op, "testp")) {
        static const char *const cls[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        int k;
        for (k = 0; k < 6; k++)
            if (dec_mod(c, cls[k]))
                break;
        if (k == 6)
            return dec_fail(c, "needs a class (.finite, .infinite, ...)");
        in->sub = (uint8_t)k;
        if (dec_pred(c, 0, &in->d, NULL) || dec_src(c, 1, t, &in->s[0]))
            return c->err->status;
        in->fn = ex_testp;
        in->defs = EXEC_DEFS_PRED;
        return SIM_OK;
    }
    if (!strcmp(op, "add")) { sub = F_ADD; nsrc = 2; }
    else if (!strcmp(op, "sub")) { sub = F_SUB; nsrc = 2; }
    else if (!strcmp(op, "mul")) { sub = F_MUL; nsrc = 2; }
    else if (!strcmp(op, "fma") || !strcmp(op, "mad")) {
        sub = F_FMA; nsrc = 3;
        if (rnd < 0 && !strcmp(op, "fma"))
            return dec_fail(c, "fma needs a rounding modifier");
    }
    else if (!strcmp(op, "div")) { sub = approx ? F_DIV_APPROX : full ? F_DIV_FULL : F_DIV; nsrc = 2; }
    else if (!strcmp(op, "abs")) sub = F_ABS;
    else if (!strcmp(op, "neg")) sub = F_NEG;
    else if (!strcmp(op, "min")) { sub = dec_mod(c, "NaN") ? F_MIN_NAN : F_MIN; nsrc = 2; }
    else if (!strcmp(op, "max")) { sub = dec_mod(c, "NaN") ? F_MAX_NAN : F_MAX; nsrc = 2; }
    else if (!strcmp(op, "rcp")) sub = approx ? F_RCP_APPROX : F_RCP;
    else if (!strcmp(op, "sqrt")) sub = approx ? F_SQRT_APPROX : F_SQRT;
    else if (!strcmp(op, "rsqrt")) sub = F_RSQRT;
    else if (!strcmp(op, "ex2")) sub = F_EX2;
    else if (!strcmp(op, "lg2")) sub = F_LG2;
    else if (!strcmp(op, "sin")) sub = F_SIN;
    else if (!strcmp(op, "cos")) sub = F_COS;
    else if (!strcmp(op, "tanh")) sub = F_TANH;
    else if (!strcmp(op, "copysign")) { sub = F_COPYSIGN; nsrc = 2; }
    else return dec_fail(c, "unknown floating-point operation");
    if (f64 && (sub == F_SQRT_APPROX || sub == F_EX2 || sub == F_LG2 || sub == F_SIN ||
                sub == F_COS || sub == F_TANH || sub == F_DIV_APPROX || sub == F_DIV_FULL))
        return dec_fail(c, "not available for .f64");
    if ((sub == F_DIV || sub == F_RCP || sub == F_SQRT) && rnd < 0 && !approx)
        return dec_fail(c, "needs .approx, .full or a rounding modifier");
    in->sub = (uint8_t)sub;
    if (dec_dst(c, 0, &in->d))
        return c->err->status;
    const ContractFuse *fz = c->fuse && c->f && c->pi >= c->f->insts && c->pi < c->f->insts + c->f->n_insts
                                 ? &c->fuse[c->pi - c->f->insts] : NULL;
    if (dec_sfu_table(c))
        return c->err->status;
    if ((sub == F_ADD || sub == F_SUB) && fz && fz->mul >= 0)
        return dec_fused(c, fz, f64);
    if (c->pi->n_opnds != nsrc + 1)
        return dec_fail(c, "expected %d operands, found %d", nsrc + 1, c->pi->n_opnds);
    for (int i = 0; i < nsrc; i++)
        if (dec_src(c, i + 1, t, &in->s[i]))
            return c->err->status;
    bool plain = in->rnd == ALU_RN && !in->ftz && !in->sat;
    if (plain && !f64) {
        in->fn = sub == F_ADD ? ex_fadd32 : sub == F_SUB ? ex_fsub32 : sub == F_MUL ? ex_fmul32
               : sub == F_FMA ? ex_ffma32 : ex_f32;
    } else if (plain && f64) {
        in->fn = sub == F_ADD ? ex_fadd64 : sub == F_SUB ? ex_fsub64 : sub == F_MUL ? ex_fmul64
               : sub == F_FMA ? ex_ffma64 : ex_f64;
    } else {
        in->fn = f64 ? ex_f64 : ex_f32;
    }
    in->defs = EXEC_DEFS_D;
    return SIM_OK;
}

/* ---- cvt ---------------------------------------------------------------- */

static void ex_cvt(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    PtxType dt = (PtxType)in->type, st = (PtxType)in->type2;
    /* a register wider than a signed dtype gets the result sign-extended
     * (PTX ISA "Operand Size Exceeding Instruction-Type Size") */
    if (dt == PTX_T_S8 || dt == PTX_T_S16 || dt == PTX_T_S32)
        LANES(m, { d[l] = alu_extend(dt, alu_cvt(dt, st, a[l], (AluRound)in->rnd, in->approx,
                                                 in->sat, in->ftz)); });
    else
        LANES(m, { d[l] = alu_cvt(dt, st, a[l], (AluRound)in->rnd, in->approx, in->sat, in->ftz); });
}

/* cvt to f16/bf16 with .relu / .satfinite (in->aux bits 1, 2) */
static void ex_cvt_half_post(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    PtxType dt = (PtxType)in->type, st = (PtxType)in->type2;
    LANES(m, { d[l] = exec_half_post(dt, (uint32_t)alu_cvt(dt, st, a[l], (AluRound)in->rnd, in->approx, in->sat,
                                                           in->ftz), in->aux & 1, in->aux & 2); });
}

/* cvt.rnd.f16x2.f32 / .bf16x2.f32 d, a, b: a to the upper half, b the lower */
static void ex_cvt_x2(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A; OPS_B;
    PtxType dt = (PtxType)in->type == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
    AluRound r = (AluRound)in->rnd;
    LANES(m, {
        uint32_t hi = exec_half_post(dt, (uint32_t)alu_cvt(dt, PTX_T_F32, a[l], r, false, false, false),
                                     in->aux & 1, in->aux & 2);
        uint32_t lo = exec_half_post(dt, (uint32_t)alu_cvt(dt, PTX_T_F32, b[l], r, false, false, false),
                                     in->aux & 1, in->aux & 2);
        d[l] = lo | hi << 16;
    });
}

static void ex_cvt_u32_u64(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    LANES(m, { d[l] = (uint32_t)a[l]; });
}

static void ex_cvt_s64_s32(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    OPS_D; OPS_A;
    LANES(m, { d[l] = (uint64_t)(int64_t)(int32_t)a[l]; });
}

SimStatus dec_cvt(DecodeCtx *c)
{
    SimInst *in = c->in;
    PtxType ts[2] = {PTX_T_NONE, PTX_T_NONE};
    bool is_int = false;
    int rnd = dec_round(c, &is_int);
    in->ftz = dec_mod(c, "ftz");
    in->sat = dec_mod(c, "sat");
    bool relu = dec_mod(c, "relu"), satfinite = dec_mod(c, "satfinite");
    if (dec_types(c, ts) != 2)
        return dec_fail(c, "expected .dtype.atype");
    PtxType dt = ts[0], st = ts[1];
    bool half_d = dt == PTX_T_F16 || dt == PTX_T_BF16 || dt == PTX_T_F16X2 || dt == PTX_T_BF16X2;
    if ((relu || satfinite) && !half_d)
        return dec_fail(c, ".relu and .satfinite are supported for f16 and bf16 destinations");
    in->aux = (relu ? 1 : 0) | (satfinite ? 2 : 0);
    if ((dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) && st == PTX_T_F32) {
        /* cvt.frnd2{.relu}{.satfinite}.f16x2.f32 d, a, b: d = {cvt(b), cvt(a)}
         * -- a in the upper half (PTX ISA, cvt) */
        if (rnd < 0 || is_int)
            return dec_fail(c, "needs .rn, .rz, .rm or .rp");
        in->type = (uint8_t)dt;
        in->type2 = (uint8_t)st;
        in->rnd = (uint8_t)rnd;
        if (c->pi->n_opnds != 3)
            return dec_fail(c, "expected d, a, b");
        if (dec_dst(c, 0, &in->d) || dec_src(c, 1, st, &in->s[0]) || dec_src(c, 2, st, &in->s[1]))
            return c->err->status;
        in->fn = ex_cvt_x2;
        in->defs = EXEC_DEFS_D;
        return SIM_OK;
    }
    if (ptx_type_size(dt) > 8 || ptx_type_size(st) > 8 || dt == PTX_T_PRED || st == PTX_T_PRED ||
        dt == PTX_T_F16X2 || st == PTX_T_F16X2 || dt == PTX_T_BF16X2 || st == PTX_T_BF16X2)
        return dec_fail(c, "conversion .%s.%s is not supported", ptx_type_name(dt), ptx_type_name(st));
    bool dfl = ptx_type_is_float(dt);
    in->type = (uint8_t)dt;
    in->type2 = (uint8_t)st;
    if (rnd < 0) {
        rnd = dfl ? ALU_RN : ALU_RZ;
        is_int = !dfl;
    }
    in->rnd = (uint8_t)rnd;
    in->approx = is_int; /* integer rounding (.rni ...) */
    if (dec_dst(c, 0, &in->d) || dec_src(c, 1, st, &in->s[0]))
        return c->err->status;
    in->fn = in->aux ? ex_cvt_half_post : ex_cvt;
    in->defs = EXEC_DEFS_D;
    if (!in->sat && !in->ftz && !in->aux) {
        if ((dt == PTX_T_U32 || dt == PTX_T_B32) && (st == PTX_T_U64 || st == PTX_T_S64 || st == PTX_T_B64))
            in->fn = ex_cvt_u32_u64;
        else if (dt == PTX_T_S32 && (st == PTX_T_U64 || st == PTX_T_S64 || st == PTX_T_B64))
            in->fn = ex_cvt_s64_s32;   /* truncate, then sign-extend */
        else if ((dt == PTX_T_U64 || dt == PTX_T_B64) && (st == PTX_T_U32 || st == PTX_T_B32))
            in->fn = ex_cvt_u32_u64;
        else if (dt == PTX_T_S64 && st == PTX_T_S32)
            in->fn = ex_cvt_s64_s32;
    }
    return SIM_OK;
}

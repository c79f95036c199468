/* test_alu.c: cmocka tests for sim/alu.h (integer, float and cvt rules).
 *
 * Edge cases are pinned to the values the PTX ISA gives; the clever code is
 * also run beside a naive reference (SQLite style) on the same random
 * inputs: loops for the bit operations, the host FPU under fesetround for
 * IEEE rounding, a table search over every f16 for f32->f16, and libm for
 * the .approx functions, checked against the ISA's stated error bounds. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "alu.h"

/* ---- helpers ------------------------------------------------------------ */

static uint32_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float FV(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t D(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double DV(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

#define EQ(x, y) assert_int_equal((uint64_t)(x), (uint64_t)(y))
#define NAN32 ALU_F32_CANON_NAN
#define NAN64 ALU_F64_CANON_NAN
#define PINF 0x7f800000u
#define NINF 0xff800000u
#define NZERO 0x80000000u
#define MINSUB 0x00000001u       /* smallest positive f32 subnormal */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static const AluRound modes[4] = {ALU_RN, ALU_RZ, ALU_RM, ALU_RP};
static const int fe_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* Host reference: one double -> float conversion under mode i. */
static float host_d2f(double d, int i)
{
    volatile double x = d;
    fesetround(fe_modes[i]);
    volatile float f = (float)x;
    fesetround(FE_TONEAREST);
    return f;
}

/* ulp distance between two finite floats of the same sign */
static int64_t ulps(uint32_t a, uint32_t b)
{
    int64_t x = (int32_t)a < 0 ? -(int64_t)(a & 0x7fffffff) : (int64_t)a;
    int64_t y = (int32_t)b < 0 ? -(int64_t)(b & 0x7fffffff) : (int64_t)b;
    return x > y ? x - y : y - x;
}

/* ---- integer: div/rem, min/max, abs, sad, sat ------------------------- */

/* values measured on an H100 (sm_90) */
static void test_alu_int_div_rem_by_zero_give_all_ones(void **s)
{
    (void)s;
    EQ(alu_int_div(PTX_T_U32, 7, 0), 0xffffffffu);
    EQ(alu_int_div(PTX_T_U64, 7, 0), ~0ull);
    EQ(alu_int_div(PTX_T_S32, 7, 0), 0xffffffffu);
    EQ(alu_int_div(PTX_T_S32, (uint32_t)-7, 0), 0xffffffffu);
    EQ(alu_int_div(PTX_T_S64, (uint64_t)-7, 0), ~0ull);
    EQ(alu_int_rem(PTX_T_U32, 7, 0), 0xffffffffu);
    EQ(alu_int_rem(PTX_T_S32, 7, 0), 0xffffffffu);
    EQ(alu_int_rem(PTX_T_S32, (uint32_t)-7, 0), 0xffffffffu);
    EQ(alu_int_rem(PTX_T_S64, (uint64_t)-7, 0), ~0ull);
    EQ(alu_int_div(PTX_T_S16, 5, 0), 0xffff);
}

static void test_alu_int_div_int_min_by_minus_one_wraps(void **s)
{
    (void)s;
    EQ(alu_int_div(PTX_T_S32, 0x80000000u, 0xffffffffu), 0x80000000u);
    EQ(alu_int_rem(PTX_T_S32, 0x80000000u, 0xffffffffu), 0);
    EQ(alu_int_div(PTX_T_S64, 0x8000000000000000ull, ~0ull), 0x8000000000000000ull);
    EQ(alu_int_div(PTX_T_S16, 0x8000, 0xffff), 0x8000);
}

static void test_alu_int_div_rem_match_c_on_random_inputs(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rnd(), b = rnd() >> (rnd() & 63);
        if ((uint32_t)b == 0 || ((uint32_t)a == 0x80000000u && (uint32_t)b == 0xffffffffu))
            continue;
        int32_t x = (int32_t)a, y = (int32_t)b;
        EQ(alu_int_div(PTX_T_S32, (uint32_t)a, (uint32_t)b), (uint32_t)(x / y));
        EQ(alu_int_rem(PTX_T_S32, (uint32_t)a, (uint32_t)b), (uint32_t)(x % y));
        EQ(alu_int_div(PTX_T_U32, a & 0xffffffff, b & 0xffffffff), (uint32_t)a / (uint32_t)b);
        if (b)
            EQ(alu_int_rem(PTX_T_U64, a, b), a % b);
    }
}

/* schoolbook 64x64 -> high 64, the reference for mul.hi.u64 */
static uint64_t mulhi_u64_ref(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static void test_alu_int_mul_hi_matches_schoolbook_reference(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rnd(), b = rnd();
        EQ(alu_int_mul_hi(PTX_T_U64, a, b), mulhi_u64_ref(a, b));
        /* signed high word = unsigned high word minus the sign corrections */
        uint64_t sh = mulhi_u64_ref(a, b) - ((int64_t)a < 0 ? b : 0) - ((int64_t)b < 0 ? a : 0);
        EQ(alu_int_mul_hi(PTX_T_S64, a, b), sh);
        int64_t p = (int64_t)(int32_t)a * (int32_t)b;
        EQ(alu_int_mul_hi(PTX_T_S32, a & 0xffffffff, b & 0xffffffff), (uint32_t)((uint64_t)p >> 32));
    }
    EQ(alu_int_mul_hi(PTX_T_S16, 0x8000, 0x8000), 0x4000);
    EQ(alu_int_mul_hi(PTX_T_U16, 0xffff, 0xffff), 0xfffe);
}

static void test_alu_int_min_max_respect_signedness(void **s)
{
    (void)s;
    EQ(alu_int_min(PTX_T_S32, 0xffffffffu, 1), 0xffffffffu);
    EQ(alu_int_min(PTX_T_U32, 0xffffffffu, 1), 1);
    EQ(alu_int_max(PTX_T_S16, 0x8000, 0x7fff), 0x7fff);
    EQ(alu_int_max(PTX_T_U64, 1ull << 63, 5), 1ull << 63);
}

static void test_alu_int_abs_of_int_min_is_int_min(void **s)
{
    (void)s;
    EQ(alu_int_abs(PTX_T_S32, 0x80000000u), 0x80000000u);
    EQ(alu_int_abs(PTX_T_S32, (uint32_t)-5), 5);
    EQ(alu_int_abs(PTX_T_S64, 0x8000000000000000ull), 0x8000000000000000ull);
    EQ(alu_int_abs(PTX_T_S16, 0xfffe), 2);
}

static void test_alu_int_sad_uses_signed_difference(void **s)
{
    (void)s;
    EQ(alu_int_sad(PTX_T_S32, (uint32_t)-3, 4, 10), 17);
    EQ(alu_int_sad(PTX_T_U32, 0xfffffffdu, 4, 10), 0xfffffff9u + 10);
    EQ(alu_int_sad(PTX_T_U32, 4, 9, 0xffffffffu), 4);         /* wraps */
}

static void test_alu_s32_add_sub_sat_clamp(void **s)
{
    (void)s;
    EQ(alu_s32_add_sat(0x7fffffffu, 1), 0x7fffffffu);
    EQ(alu_s32_add_sat(0x80000000u, 0xffffffffu), 0x80000000u);
    EQ(alu_s32_sub_sat(0x80000000u, 1), 0x80000000u);
    EQ(alu_s32_sub_sat(0x7fffffffu, 0xffffffffu), 0x7fffffffu);
    EQ(alu_s32_add_sat(5, (uint32_t)-7), (uint32_t)-2);
}

static void test_alu_mul24_takes_low_24_bits_and_hi_is_bits_47_16(void **s)
{
    (void)s;
    EQ(alu_mul24(PTX_T_U32, false, 0xff000002u, 3), 6);
    EQ(alu_mul24(PTX_T_U32, true, 0xffffff, 0xffffff), (uint32_t)((0xffffffull * 0xffffff) >> 16));
    EQ(alu_mul24(PTX_T_S32, false, 0x00ffffffu, 2), 0xfffffffeu);   /* -1 * 2 */
    EQ(alu_mul24(PTX_T_S32, true, 0x00800000u, 0x00800000u), (uint32_t)((1ull << 46) >> 16));
}

/* ---- bits -------------------------------------------------------------- */

static void test_alu_popc_clz_brev_match_loops(void **s)
{
    (void)s;
    for (int i = 0; i < 5000; i++) {
        uint64_t a = rnd() >> (rnd() & 63);
        uint32_t pc = 0, lz = 0, lz32 = 0, rv32 = 0;
        uint64_t rv = 0;
        for (int b = 0; b < 64; b++) {
            pc += (a >> b) & 1;
            rv |= ((a >> b) & 1) << (63 - b);
            if (b < 32)
                rv32 |= (uint32_t)((a >> b) & 1) << (31 - b);
        }
        while (lz < 64 && !((a << lz) >> 63))
            lz++;
        while (lz32 < 32 && !(((uint32_t)a << lz32) >> 31))
            lz32++;
        EQ(alu_popc(PTX_T_B64, a), pc);
        EQ(alu_clz(PTX_T_B64, a), lz);
        EQ(alu_clz(PTX_T_B32, a), lz32);
        EQ(alu_brev(PTX_T_B64, a), rv);
        EQ(alu_brev(PTX_T_B32, a), rv32);
    }
    EQ(alu_clz(PTX_T_B32, 0), 32);
    EQ(alu_clz(PTX_T_B64, 0), 64);
}

static void test_alu_bfind_of_zero_and_negative(void **s)
{
    (void)s;
    EQ(alu_bfind(PTX_T_U32, 0, false), 0xffffffffu);
    EQ(alu_bfind(PTX_T_U32, 0, true), 0xffffffffu);
    EQ(alu_bfind(PTX_T_S32, 0xffffffffu, false), 0xffffffffu);   /* -1: no non-sign bit */
    EQ(alu_bfind(PTX_T_S32, 0xfffffff0u, false), 3);             /* top 0 is bit 3 */
    EQ(alu_bfind(PTX_T_U32, 0x80000000u, false), 31);
    EQ(alu_bfind(PTX_T_U32, 0x00010000u, true), 15);
    EQ(alu_bfind(PTX_T_S64, 1ull << 40, true), 23);
    EQ(alu_bfind(PTX_T_U64, 1ull << 63, false), 63);
}

/* bfe by the ISA's per-bit loop, written independently */
static uint64_t bfe_ref(bool sgn, int w, uint64_t a, uint32_t pos, uint32_t len)
{
    pos &= 0xff;
    len &= 0xff;
    int msb = w - 1;
    uint64_t sbit = 0;
    if (sgn && len) {
        uint32_t i = pos + len - 1;
        sbit = (a >> (i < (uint32_t)msb ? i : (uint32_t)msb)) & 1;
    }
    uint64_t d = 0;
    for (int i = 0; i <= msb; i++) {
        uint64_t bit = ((uint32_t)i < len && pos + i <= (uint32_t)msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

static void test_alu_bfe_pos_len_beyond_width_and_sign_fill(void **s)
{
    (void)s;
    EQ(alu_bfe(PTX_T_U32, 0xabcd1234u, 8, 8), 0x12);
    EQ(alu_bfe(PTX_T_S32, 0x0000f000u, 12, 4), 0xffffffffu);
    EQ(alu_bfe(PTX_T_S32, 0x80000000u, 40, 3), 0xffffffffu);     /* pos past msb */
    EQ(alu_bfe(PTX_T_U32, 0x80000000u, 40, 3), 0);
    EQ(alu_bfe(PTX_T_S32, 0x80000000u, 28, 200), 0xfffffff8u);   /* len past msb */
    EQ(alu_bfe(PTX_T_S32, 0xffffffffu, 0, 0), 0);                /* len 0 */
    EQ(alu_bfe(PTX_T_U32, 0xffffffffu, 0x104, 0x102), 3);        /* only low 8 bits */
    for (int i = 0; i < 5000; i++) {
        uint64_t a = rnd();
        uint32_t p = (uint32_t)rnd() & 0x7f, l = (uint32_t)rnd() & 0x7f;
        EQ(alu_bfe(PTX_T_S64, a, p, l), bfe_ref(true, 64, a, p, l));
        EQ(alu_bfe(PTX_T_S32, a & 0xffffffff, p, l), bfe_ref(true, 32, a & 0xffffffff, p, l));
        EQ(alu_bfe(PTX_T_U32, a & 0xffffffff, p, l), bfe_ref(false, 32, a & 0xffffffff, p, l));
    }
}

static void test_alu_bfi_inserts_and_clips_at_width(void **s)
{
    (void)s;
    EQ(alu_bfi(PTX_T_B32, 0xf, 0, 4, 4), 0xf0);
    EQ(alu_bfi(PTX_T_B32, 0xff, 0x12345678u, 28, 8), 0xf2345678u);
    EQ(alu_bfi(PTX_T_B32, 0xff, 0x12345678u, 32, 8), 0x12345678u);
    EQ(alu_bfi(PTX_T_B32, 0xff, 0x12345678u, 0, 0), 0x12345678u);
    EQ(alu_bfi(PTX_T_B64, 1, 0, 63, 5), 1ull << 63);
    for (int i = 0; i < 2000; i++) {
        uint32_t a = (uint32_t)rnd(), b = (uint32_t)rnd(), p = (uint32_t)rnd() & 31,
                 l = (uint32_t)rnd() % (33 - p);
        uint32_t m = l == 32 ? ~0u : ((1u << l) - 1) << p;
        EQ(alu_bfi(PTX_T_B32, a, b, p, l), (b & ~m) | ((a << p) & m));
    }
}

static void test_alu_prmt_default_mode_selects_and_sign_replicates(void **s)
{
    (void)s;
    uint32_t a = 0x33221100u, b = 0xf7665544u;
    EQ(alu_prmt(a, b, 0x3210, ALU_PRMT_DEFAULT), a);
    EQ(alu_prmt(a, b, 0x7654, ALU_PRMT_DEFAULT), b);
    EQ(alu_prmt(a, b, 0x0123, ALU_PRMT_DEFAULT), 0x00112233u);
    EQ(alu_prmt(a, b, 0xf000, ALU_PRMT_DEFAULT), 0xff000000u);   /* sign of 0xf7 */
    EQ(alu_prmt(a, b, 0x000b, ALU_PRMT_DEFAULT), 0x00000000u);   /* sign of 0x33 */
}

static void test_alu_prmt_modes_follow_isa_table(void **s)
{
    (void)s;
    /* byte k of {b,a} is k*0x11, so each result byte names its source */
    uint32_t a = 0x33221100u, b = 0x77665544u;
    static const struct { AluPrmtMode m; uint32_t d[4]; } t[] = {
        {ALU_PRMT_F4E,  {0x33221100u, 0x44332211u, 0x55443322u, 0x66554433u}},
        {ALU_PRMT_B4E,  {0x55667700u, 0x66770011u, 0x77001122u, 0x00112233u}},
        {ALU_PRMT_RC8,  {0x00000000u, 0x11111111u, 0x22222222u, 0x33333333u}},
        {ALU_PRMT_ECL,  {0x33221100u, 0x33221111u, 0x33222222u, 0x33333333u}},
        {ALU_PRMT_ECR,  {0x00000000u, 0x11111100u, 0x22221100u, 0x33221100u}},
        {ALU_PRMT_RC16, {0x11001100u, 0x33223322u, 0x11001100u, 0x33223322u}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (uint32_t c = 0; c < 4; c++)
            EQ(alu_prmt(a, b, c | 0xfc, t[i].m), t[i].d[c]);   /* only c[1:0] */
}

static void test_alu_shf_wrap_vs_clamp(void **s)
{
    (void)s;
    EQ(alu_shf(true, false, 0x80000000u, 0x1, 1), 0x3);
    EQ(alu_shf(true, false, 0xaaaaaaaau, 0x1, 40), 0xaaaaaaaau);  /* clamp: n=32 -> a */
    EQ(alu_shf(true, true, 0x80000000u, 0x1, 33), 0x3);           /* wrap: n=1 */
    EQ(alu_shf(false, false, 0x2, 0x1, 1), 0x80000001u);
    EQ(alu_shf(false, false, 0x2, 0xdeadbeefu, 99), 0xdeadbeefu); /* clamp: -> b */
    EQ(alu_shf(false, true, 0x2, 0x1, 32), 0x2);                  /* wrap: n=0 */
    for (int i = 0; i < 2000; i++) {
        uint32_t a = (uint32_t)rnd(), b = (uint32_t)rnd(), c = (uint32_t)rnd() & 63;
        uint32_t n = c > 32 ? 32 : c;
        uint64_t v = ((uint64_t)b << 32) | a;
        EQ(alu_shf(false, false, a, b, c), n == 32 ? b : (uint32_t)(v >> n));
        EQ(alu_shf(true, true, a, b, c), (uint32_t)((v << (c & 31)) >> 32));
    }
}

static void test_alu_shl_shr_amounts_at_or_past_width(void **s)
{
    (void)s;
    EQ(alu_shl(PTX_T_B32, 1, 31), 0x80000000u);
    EQ(alu_shl(PTX_T_B32, 1, 32), 0);
    EQ(alu_shl(PTX_T_B16, 0xffff, 8), 0xff00);
    EQ(alu_shr(PTX_T_U32, 0x80000000u, 40), 0);
    EQ(alu_shr(PTX_T_S32, 0x80000000u, 40), 0xffffffffu);
    EQ(alu_shr(PTX_T_S32, 0x40000000u, 40), 0);
    EQ(alu_shr(PTX_T_S16, 0x8000, 4), 0xf800);
    EQ(alu_shr(PTX_T_S64, 1ull << 63, 0xffffffffu), ~0ull);
}

static void test_alu_extend_sign_and_zero(void **s)
{
    (void)s;
    EQ(alu_extend(PTX_T_S8, 0x80), 0xffffffffffffff80ull);
    EQ(alu_extend(PTX_T_U8, 0x180), 0x80);
    EQ(alu_extend(PTX_T_S32, 0x7fffffff), 0x7fffffff);
    EQ(alu_extend(PTX_T_B16, 0xffffffff), 0xffff);
}

/* ---- comparisons ------------------------------------------------------ */

static void test_alu_cmp_from_name_maps_words_and_rejects_others(void **s)
{
    (void)s;
    EQ(alu_cmp_from_name("eq"), ALU_CMP_EQ);
    EQ(alu_cmp_from_name("hs"), ALU_CMP_HS);
    EQ(alu_cmp_from_name("geu"), ALU_CMP_GEU);
    EQ(alu_cmp_from_name("nan"), ALU_CMP_NAN);
    assert_int_equal(alu_cmp_from_name("eqq"), -1);
    assert_int_equal(alu_cmp_from_name(""), -1);
}

static void test_alu_compare_nan_ordered_false_unordered_true(void **s)
{
    (void)s;
    uint32_t n = 0x7fc00000u, one = F(1.0f);
    assert_false(alu_compare(ALU_CMP_EQ, PTX_T_F32, n, n, false));
    assert_false(alu_compare(ALU_CMP_LT, PTX_T_F32, n, one, false));
    assert_true(alu_compare(ALU_CMP_NE, PTX_T_F32, one, F(2.0f), false));
    assert_false(alu_compare(ALU_CMP_NE, PTX_T_F32, n, one, false));
    assert_true(alu_compare(ALU_CMP_NEU, PTX_T_F32, n, one, false));
    assert_true(alu_compare(ALU_CMP_LTU, PTX_T_F64, D(NAN), D(1.0), false));
    assert_true(alu_compare(ALU_CMP_NAN, PTX_T_F32, one, n, false));
    assert_false(alu_compare(ALU_CMP_NUM, PTX_T_F32, one, n, false));
    assert_true(alu_compare(ALU_CMP_EQ, PTX_T_F32, NZERO, 0, false));   /* -0 == +0 */
    assert_true(alu_compare(ALU_CMP_GT, PTX_T_F16, 0x4000, 0x3c00, false));
}

static void test_alu_compare_ftz_flushes_subnormals(void **s)
{
    (void)s;
    assert_false(alu_compare(ALU_CMP_EQ, PTX_T_F32, MINSUB, 0, false));
    assert_true(alu_compare(ALU_CMP_EQ, PTX_T_F32, MINSUB, 0, true));
    assert_true(alu_compare(ALU_CMP_LT, PTX_T_F32, 0, MINSUB, false));
}

static void test_alu_compare_integers_signed_and_unsigned(void **s)
{
    (void)s;
    assert_true(alu_compare(ALU_CMP_LT, PTX_T_S32, 0xffffffffu, 0, false));
    assert_false(alu_compare(ALU_CMP_LT, PTX_T_U32, 0xffffffffu, 0, false));
    assert_true(alu_compare(ALU_CMP_HI, PTX_T_S32, 0xffffffffu, 0, false));
    assert_true(alu_compare(ALU_CMP_LS, PTX_T_B16, 0x10, 0x10, false));
    assert_true(alu_compare(ALU_CMP_GE, PTX_T_S64, 0, 0x8000000000000000ull, false));
}

/* ---- f32 IEEE arithmetic -------------------------------------------- */

static void test_alu_f32_add_nan_results_are_canonical(void **s)
{
    (void)s;
    EQ(alu_f32_add(0xffc01234u, F(1.0f), ALU_RN, false, false), NAN32);
    EQ(alu_f32_add(PINF, NINF, ALU_RN, false, false), NAN32);
    EQ(alu_f32_mul(0, PINF, ALU_RZ, false, false), NAN32);
    EQ(alu_f32_fma(PINF, 0, F(1.0f), ALU_RN, false, false), NAN32);
    EQ(alu_f32_div(0, 0, ALU_RN, false), NAN32);
    EQ(alu_f32_sqrt(F(-1.0f), ALU_RN, false), NAN32);
}

static void test_alu_f32_add_signed_zero_depends_on_rounding(void **s)
{
    (void)s;
    EQ(alu_f32_add(F(1.0f), F(-1.0f), ALU_RN, false, false), 0);
    EQ(alu_f32_add(F(1.0f), F(-1.0f), ALU_RM, false, false), NZERO);
    EQ(alu_f32_add(NZERO, NZERO, ALU_RN, false, false), NZERO);
}

/* reference: exact double op then one host conversion under the mode */
static void test_alu_f32_rounding_modes_match_exact_reference(void **s)
{
    (void)s;
    int changed = 0;
    for (int i = 0; i < 20000; i++) {
        /* exponents within a window so the double sum is exact */
        uint32_t a = ((uint32_t)rnd() & 0x807fffffu) | ((uint32_t)(110 + rnd() % 30) << 23);
        uint32_t b = ((uint32_t)rnd() & 0x807fffffu) | ((uint32_t)(110 + rnd() % 30) << 23);
        for (int m = 0; m < 4; m++) {
            double x = FV(a), y = FV(b);
            EQ(alu_f32_add(a, b, modes[m], false, false), F(host_d2f(x + y, m)));
            EQ(alu_f32_mul(a, b, modes[m], false, false), F(host_d2f(x * y, m)));
            EQ(alu_f32_div(a, b, modes[m], false), F(host_d2f(x / y, m)));
            EQ(alu_f32_sqrt(a & 0x7fffffff, modes[m], false), F(host_d2f(sqrt(fabs(x)), m)));
            EQ(alu_f32_rcp(b, modes[m], false), F(host_d2f(1.0 / y, m)));
        }
        changed += alu_f32_mul(a, b, ALU_RP, false, false) != alu_f32_mul(a, b, ALU_RM, false, false);
    }
    assert_true(changed > 10000);   /* the modes really differ on these inputs */
}

static void test_alu_f32_rz_rm_rp_on_one_plus_tiny(void **s)
{
    (void)s;
    uint32_t one = F(1.0f), tiny = F(0x1p-30f);
    EQ(alu_f32_add(one, tiny, ALU_RN, false, false), one);
    EQ(alu_f32_add(one, tiny, ALU_RZ, false, false), one);
    EQ(alu_f32_add(one, tiny, ALU_RP, false, false), one + 1);
    EQ(alu_f32_sub(0, alu_f32_add(one, tiny, ALU_RN, false, false), ALU_RN, false, false), F(-1.0f));
    EQ(alu_f32_add(F(-1.0f), tiny | NZERO, ALU_RM, false, false), F(-1.0f) + 1);
    EQ(alu_f32_mul(F(FLT_MAX), F(2.0f), ALU_RZ, false, false), F(FLT_MAX));
    EQ(alu_f32_mul(F(FLT_MAX), F(2.0f), ALU_RN, false, false), PINF);
    EQ(alu_f32_mul(F(-FLT_MAX), F(2.0f), ALU_RP, false, false), F(-FLT_MAX));
}

static void test_alu_f32_fma_rounds_once(void **s)
{
    (void)s;
    /* a*b = 1 - 2^-46 exactly; a*b - 1 survives only without a middle rounding */
    uint32_t a = F(1.0f + 0x1p-23f), b = F(1.0f - 0x1p-23f), m1 = F(-1.0f);
    EQ(alu_f32_fma(a, b, m1, ALU_RN, false, false), F(-0x1p-46f));
    EQ(alu_f32_add(alu_f32_mul(a, b, ALU_RN, false, false), m1, ALU_RN, false, false), 0);
    /* 1 + 2^-30 under each mode */
    uint32_t one = F(1.0f), t = F(0x1p-15f);
    EQ(alu_f32_fma(t, t, one, ALU_RN, false, false), one);
    EQ(alu_f32_fma(t, t, one, ALU_RP, false, false), one + 1);
}

static void test_alu_f32_ftz_flushes_inputs_and_results(void **s)
{
    (void)s;
    EQ(alu_f32_add(MINSUB, MINSUB, ALU_RN, false, false), 2);
    EQ(alu_f32_add(MINSUB, MINSUB, ALU_RN, true, false), 0);
    EQ(alu_f32_mul(F(0x1p-70f), F(-0x1p-70f), ALU_RN, false, false), F(-0x1p-140f));
    EQ(alu_f32_mul(F(0x1p-70f), F(-0x1p-70f), ALU_RN, true, false), NZERO);
    EQ(alu_f32_div(F(1.0f), MINSUB, ALU_RN, true), PINF);      /* 1/0 after flush */
    EQ(alu_f32_sqrt(MINSUB | NZERO, ALU_RN, true), NZERO);
    EQ(alu_f32_sqrt(NZERO, ALU_RN, false), NZERO);
}

static void test_alu_f32_sat_clamps_and_nan_becomes_plus_zero(void **s)
{
    (void)s;
    EQ(alu_f32_add(F(0.75f), F(0.5f), ALU_RN, false, true), F(1.0f));
    EQ(alu_f32_add(F(-0.75f), F(0.5f), ALU_RN, false, true), 0);
    EQ(alu_f32_mul(PINF, 0, ALU_RN, false, true), 0);
    EQ(alu_f32_add(F(0.25f), F(0.5f), ALU_RN, false, true), F(0.75f));
    EQ(alu_f32_mul(NZERO, F(1.0f), ALU_RN, false, true), 0);
    EQ(alu_f32_fma(F(2.0f), F(2.0f), F(1.0f), ALU_RN, false, true), F(1.0f));
}

static void test_alu_f32_min_max_nan_and_signed_zero(void **s)
{
    (void)s;
    uint32_t n = 0x7fc00001u, one = F(1.0f);
    EQ(alu_f32_min(n, one, false, false), one);
    EQ(alu_f32_max(one, n, false, false), one);
    EQ(alu_f32_min(n, 0xffc00000u, false, false), NAN32);
    EQ(alu_f32_min(n, one, false, true), NAN32);
    EQ(alu_f32_max(one, n, false, true), NAN32);
    EQ(alu_f32_min(0, NZERO, false, false), NZERO);
    EQ(alu_f32_max(NZERO, 0, false, false), 0);
    EQ(alu_f32_min(F(-2.0f), F(1.0f), false, false), F(-2.0f));
    EQ(alu_f32_max(MINSUB, 0, true, false), 0);                 /* flushed: ties */
    EQ(alu_f32_min(MINSUB | NZERO, 0, true, false), NZERO);
}

static void test_alu_f32_abs_neg_flip_sign_and_canonicalise_nan(void **s)
{
    (void)s;
    EQ(alu_f32_abs(0xffc01234u, false), NAN32);                  /* H100 */
    EQ(alu_f32_neg(0x7f812345u, false), NAN32);
    EQ(alu_f32_abs(F(-2.5f), false), F(2.5f));
    EQ(alu_f32_neg(0, false), NZERO);
    EQ(alu_f32_abs(MINSUB | NZERO, true), 0);
    EQ(alu_f32_neg(MINSUB, true), NZERO);
    EQ(alu_f32_abs(MINSUB | NZERO, false), MINSUB);
}

static void test_alu_f32_div_rcp_by_zero_give_signed_inf(void **s)
{
    (void)s;
    EQ(alu_f32_div(F(1.0f), NZERO, ALU_RN, false), NINF);
    EQ(alu_f32_rcp(0, ALU_RZ, false), PINF);
    EQ(alu_f32_rcp(NINF, ALU_RN, false), NZERO);
    EQ(alu_f32_rcp(F(3.0f), ALU_RZ, false), F(1.0f / 3.0f) - 1);   /* 1/3 rn rounds up */
    EQ(alu_f32_rcp(F(3.0f), ALU_RP, false), F(1.0f / 3.0f));
}

/* ---- f32 approximations: special values and error bounds ------------ */

static void test_alu_f32_approx_special_values_follow_isa_tables(void **s)
{
    (void)s;
    EQ(alu_f32_ex2_approx(NINF, false), 0);
    EQ(alu_f32_ex2_approx(NZERO, false), F(1.0f));
    EQ(alu_f32_ex2_approx(PINF, false), PINF);
    EQ(alu_f32_lg2_approx(0, false), NINF);
    EQ(alu_f32_lg2_approx(NZERO, false), NINF);
    EQ(alu_f32_lg2_approx(F(-1.0f), false), NAN32);
    EQ(alu_f32_lg2_approx(NINF, false), NAN32);
    EQ(alu_f32_lg2_approx(PINF, false), PINF);
    EQ(alu_f32_sin_approx(PINF, false), NAN32);
    EQ(alu_f32_sin_approx(NZERO, false), NZERO);
    EQ(alu_f32_cos_approx(NINF, false), NAN32);
    EQ(alu_f32_cos_approx(NZERO, false), F(1.0f));
    EQ(alu_f32_rsqrt_approx(NZERO, false), NINF);
    EQ(alu_f32_rsqrt_approx(0, false), PINF);
    EQ(alu_f32_rsqrt_approx(PINF, false), 0);
    EQ(alu_f32_rsqrt_approx(F(-4.0f), false), NAN32);
    EQ(alu_f32_rcp_approx(NZERO, false), NINF);
    EQ(alu_f32_rcp_approx(NINF, false), NZERO);
    EQ(alu_f32_sqrt_approx(NZERO, false), NZERO);
    EQ(alu_f32_sqrt_approx(F(-1.0f), false), NAN32);
    EQ(alu_f32_tanh_approx(NINF), F(-1.0f));
    EQ(alu_f32_tanh_approx(PINF), F(1.0f));
    EQ(alu_f32_tanh_approx(NZERO), NZERO);
    EQ(alu_f32_tanh_approx(0x7fc00005u), NAN32);
}

static void test_alu_f32_approx_subnormals_kept_unless_ftz(void **s)
{
    (void)s;
    EQ(alu_f32_ex2_approx(F(-140.0f), false), F(0x1p-140f));
    EQ(alu_f32_ex2_approx(F(-140.0f), true), 0);
    EQ(alu_f32_ex2_approx(MINSUB, true), F(1.0f));
    EQ(alu_f32_lg2_approx(MINSUB, false), F(-149.0f));
    EQ(alu_f32_lg2_approx(MINSUB, true), NINF);
    EQ(alu_f32_rsqrt_approx(MINSUB, true), PINF);
    EQ(alu_f32_sin_approx(MINSUB, false), 0);                    /* H100 flushes sin/cos */
    EQ(alu_f32_sin_approx(MINSUB | NZERO, false), NZERO);
    EQ(alu_f32_cos_approx(MINSUB, false), F(1.0f));
    EQ(alu_f32_div_approx(F(0x1p-140f), F(3.0f), false), 0xab);  /* subnormal result kept */
    EQ(alu_f32_tanh_approx(MINSUB), MINSUB);                     /* passes through */
}

static void test_alu_f32_approx_within_isa_error_bounds_over_sweep(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        float x = (float)((double)(rnd() % 2000001) / 1000000.0 - 1.0);   /* [-1, 1] */
        float big = FV(((uint32_t)rnd() & 0x3fffffffu) | 0x00800000u);    /* positive normal */
        float ex = x * 120.0f;
        /* ex2: 2 ulp */
        assert_true(ulps(alu_f32_ex2_approx(F(ex), false), F((float)exp2(ex))) <= 2);
        /* lg2: 2^-22 absolute on (0.5, 2), 2^-22 relative elsewhere */
        double l = log2(big), gl = FV(alu_f32_lg2_approx(F(big), false));
        if (big > 0.5f && big < 2.0f)
            assert_true(fabs(gl - l) <= 0x1p-22);
        else
            assert_true(fabs(gl - l) <= 0x1p-22 * fabs(l));
        /* sin/cos: the ISA says 2^-20.5 absolute; the H100 reaches 2^-19.52 on
         * [-2pi, 2pi] (at -11.06: x / 2pi is truncated, then quantized to
         * 2^-25 turns, docs/special-functions.md), and these are its results */
        float ang = x * 6.2831f;
        assert_true(fabs(FV(alu_f32_sin_approx(F(ang), false)) - sin(ang)) <= exp2(-19.5));
        assert_true(fabs(FV(alu_f32_cos_approx(F(ang), false)) - cos(ang)) <= exp2(-19.5));
        /* rsqrt 2^-22.9 rel, sqrt.approx 2^-23 rel, rcp.approx 1 ulp */
        double r = 1.0 / sqrt(big);
        assert_true(fabs(FV(alu_f32_rsqrt_approx(F(big), false)) - r) <= exp2(-22.9) * r);
        assert_true(fabs(FV(alu_f32_sqrt_approx(F(big), false)) - sqrt(big)) <= 0x1p-23 * sqrt(big));
        assert_true(ulps(alu_f32_rcp_approx(F(big), false), F((float)(1.0 / big))) <= 1);
        /* tanh 2^-11 rel */
        double th = tanh(ex / 20.0f);
        assert_true(fabs(FV(alu_f32_tanh_approx(F(ex / 20.0f))) - th) <= 0x1p-11 * fabs(th));
        /* div.full / div.approx: 2 ulp */
        float q = (float)((double)big / (double)(x + 2.0f));
        assert_true(ulps(alu_f32_div_full(F(big), F(x + 2.0f), false), F(q)) <= 2);
        assert_true(ulps(alu_f32_div_approx(F(big), F(x + 2.0f), false), F(q)) <= 2);
    }
}

static void test_alu_f32_div_approx_huge_divisor_gives_zero_or_nan(void **s)
{
    (void)s;
    uint32_t huge = F(0x1.8p127f);
    EQ(alu_f32_div_approx(F(3.0f), huge, false), 0);
    EQ(alu_f32_div_approx(F(-3.0f), huge, false), NZERO);
    EQ(alu_f32_div_approx(PINF, huge, false), NAN32);
    EQ(alu_f32_div_full(F(0x1p127f), huge, false), F(0x1p127f / 0x1.8p127f));
    EQ(alu_f32_div_approx(F(1.0f), MINSUB, true), PINF);
}

/* ---- f64 ---------------------------------------------------------------- */

static void test_alu_f64_rounding_modes_and_nan_results(void **s)
{
    (void)s;
    uint64_t one = D(1.0), tiny = D(0x1p-60);
    EQ(alu_f64_add(one, tiny, ALU_RN), one);
    EQ(alu_f64_add(one, tiny, ALU_RP), one + 1);
    EQ(alu_f64_sub(D(-1.0), tiny, ALU_RM), D(-1.0) + 1);
    EQ(alu_f64_sub(D(-1.0), tiny, ALU_RZ), D(-1.0));
    EQ(alu_f64_div(one, D(3.0), ALU_RP), D(1.0 / 3.0) + 1);
    EQ(alu_f64_rcp(D(3.0), ALU_RZ), D(1.0 / 3.0));
    EQ(alu_f64_sqrt(D(2.0), ALU_RP), alu_f64_sqrt(D(2.0), ALU_RZ) + 1);  /* inexact */
    EQ(alu_f64_sqrt(D(2.0), ALU_RM), alu_f64_sqrt(D(2.0), ALU_RZ));
    EQ(alu_f64_mul(D(0x1p1000), D(0x1p100), ALU_RZ), D(DBL_MAX));
    EQ(alu_f64_add(0xfff8000000001234ull, one, ALU_RN), 0xfff8000000001234ull);
    EQ(alu_f64_sqrt(D(-2.0), ALU_RN), 0xfff8000000000000ull);
    uint64_t a = D(1.0 + 0x1p-52), b = D(1.0 - 0x1p-52);
    EQ(alu_f64_fma(a, b, D(-1.0), ALU_RN), D(-0x1p-104));
    EQ(alu_f64_fma(D(0x1p-30), D(0x1p-30), one, ALU_RP), one + 1);
}

/* f64 keeps NaN payloads; which NaN wins was measured on an H100 */
#define QA 0xfff8000000001234ull
#define QB 0x7ff8000000005678ull
#define QC 0x7ff8000000009abcull
#define SN 0x7ff0000000000001ull
static void test_alu_f64_nan_operand_priority_matches_h100(void **s)
{
    (void)s;
    EQ(alu_f64_add(QA, QB, ALU_RN), QB);
    EQ(alu_f64_add(QB, QA, ALU_RN), QA);
    EQ(alu_f64_sub(QB, QA, ALU_RN), QA);                         /* sign not flipped */
    EQ(alu_f64_mul(QA, QB, ALU_RZ), QB);
    EQ(alu_f64_fma(QA, QB, QC, ALU_RN), QB);
    EQ(alu_f64_fma(QC, QA, QB, ALU_RN), QA);
    EQ(alu_f64_fma(QA, D(1.0), QB, ALU_RN), QB);
    EQ(alu_f64_div(QA, QB, ALU_RN), QA);
    EQ(alu_f64_add(SN, D(2.0), ALU_RN), SN | 0x0008000000000000ull);
    EQ(alu_f64_sqrt(SN, ALU_RN), SN | 0x0008000000000000ull);
    EQ(alu_f64_rcp(SN, ALU_RN), SN | 0x0008000000000000ull);
    EQ(alu_f64_add(D(INFINITY), D(-INFINITY), ALU_RN), 0xfff8000000000000ull);
    EQ(alu_f64_mul(0, D(INFINITY), ALU_RN), 0xfff8000000000000ull);
    EQ(alu_f64_div(0, 0, ALU_RN), 0xfff8000000000000ull);
}

static void test_alu_f64_min_max_abs_neg(void **s)
{
    (void)s;
    EQ(alu_f64_min(D(NAN), D(2.0)), D(2.0));
    EQ(alu_f64_min(SN, D(2.0)), D(2.0));
    EQ(alu_f64_max(QA, QB), QB);
    EQ(alu_f64_min(QB, QA), QA);
    EQ(alu_f64_min(QA, SN), SN | 0x0008000000000000ull);
    EQ(alu_f64_min(D(0.0), D(-0.0)), D(-0.0));
    EQ(alu_f64_max(D(-0.0), D(0.0)), D(0.0));
    EQ(alu_f64_abs(QA), QA);                                     /* NaN unchanged */
    EQ(alu_f64_abs(SN), SN | 0x0008000000000000ull);
    EQ(alu_f64_neg(QA), QA);
    EQ(alu_f64_abs(D(-3.0)), D(3.0));
    EQ(alu_f64_neg(D(0.0)), D(-0.0));
}

static void test_alu_f64_rcp_approx_uses_upper_word_only(void **s)
{
    (void)s;
    uint64_t r = alu_f64_rcp_approx(D(3.0) | 0xffffffffull);
    EQ(r & 0xffffffffull, 0);
    assert_true(fabs(DV(r) - 1.0 / 3.0) <= 0x1p-19 / 3.0);
    EQ(alu_f64_rcp_approx(D(-0.0)), D(-INFINITY));
    EQ(alu_f64_rcp_approx(1), D(INFINITY));                  /* subnormal -> +Inf */
    EQ(alu_f64_rcp_approx(D(-INFINITY)), D(-0.0));
    EQ(alu_f64_rcp_approx(D(0x1p1023)), 0);                  /* subnormal result flushed */
    EQ(alu_f64_rcp_approx(0x7ff8000000000000ull), 0x7fffffff00000000ull);
    EQ(alu_f64_rcp_approx(D(4.0)), D(0.25));
}

static void test_alu_f64_rsqrt_approx_special_and_accuracy(void **s)
{
    (void)s;
    EQ(alu_f64_rsqrt_approx(D(-0.0)), D(-INFINITY));
    EQ(alu_f64_rsqrt_approx(D(0.0)), D(INFINITY));
    EQ(alu_f64_rsqrt_approx(D(INFINITY)), D(0.0));
    EQ(alu_f64_rsqrt_approx(D(-1.0)), 0xfff8000000000000ull);
    EQ(alu_f64_rsqrt_approx(SN), SN | 0x0008000000000000ull);
    EQ(alu_f64_rsqrt_approx(D(4.0)), D(0.5));
    assert_true(fabs(DV(alu_f64_rsqrt_approx(D(2.0))) - 1 / sqrt(2.0)) <= 0x1p-52);
}

/* ---- cvt: float -> int ---------------------------------------------- */

static void test_alu_cvt_f32_to_s32_saturates_and_nan_is_zero(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(3e9f), ALU_RZ, true, false, false), 0x7fffffffu);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(-3e9f), ALU_RZ, true, false, false), 0x80000000u);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, PINF, ALU_RZ, true, false, false), 0x7fffffffu);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, NAN32, ALU_RZ, true, false, false), 0);
    EQ(alu_cvt(PTX_T_U32, PTX_T_F32, F(-5.0f), ALU_RN, true, false, false), 0);
    EQ(alu_cvt(PTX_T_U8, PTX_T_F32, F(300.0f), ALU_RN, true, false, false), 255);
    EQ(alu_cvt(PTX_T_S8, PTX_T_F32, F(-300.0f), ALU_RN, true, false, false), 0x80);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(-2147483648.0f), ALU_RZ, true, false, false), 0x80000000u);
    EQ(alu_cvt(PTX_T_U64, PTX_T_F32, F(2e19f), ALU_RZ, true, false, false), ~0ull);
}

static void test_alu_cvt_float_to_int_nan_with_f64_or_64bit_is_msb(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_S32, PTX_T_F64, D(NAN), ALU_RZ, true, false, false), 0x80000000u);
    EQ(alu_cvt(PTX_T_U64, PTX_T_F32, NAN32, ALU_RZ, true, false, false), 1ull << 63);
    EQ(alu_cvt(PTX_T_S64, PTX_T_F64, D(NAN), ALU_RN, true, false, false), 1ull << 63);
    EQ(alu_cvt(PTX_T_U16, PTX_T_F16, 0x7e00, ALU_RN, true, false, false), 0);
}

static void test_alu_cvt_float_to_int_each_rounding_mode(void **s)
{
    (void)s;
    static const struct { float x; int32_t rn, rz, rm, rp; } t[] = {
        {2.5f, 2, 2, 2, 3}, {3.5f, 4, 3, 3, 4}, {-2.5f, -2, -2, -3, -2},
        {-0.4f, 0, 0, -1, 0}, {0.4f, 0, 0, 0, 1}, {-1.5f, -2, -1, -2, -1},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(t[i].x), ALU_RN, true, false, false), (uint32_t)t[i].rn);
        EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(t[i].x), ALU_RZ, true, false, false), (uint32_t)t[i].rz);
        EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(t[i].x), ALU_RM, true, false, false), (uint32_t)t[i].rm);
        EQ(alu_cvt(PTX_T_S32, PTX_T_F32, F(t[i].x), ALU_RP, true, false, false), (uint32_t)t[i].rp);
    }
}

static void test_alu_cvt_float_to_int_ftz_changes_rmi_of_negative_subnormal(void **s)
{
    (void)s;
    uint32_t ns = MINSUB | NZERO;
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, ns, ALU_RM, true, false, false), 0xffffffffu);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, ns, ALU_RM, true, false, true), 0);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, MINSUB, ALU_RP, true, false, false), 1);
    EQ(alu_cvt(PTX_T_S32, PTX_T_F32, MINSUB, ALU_RP, true, false, true), 0);
}

/* reference: host nearbyint under the mode, clamp in double, then cast */
static void test_alu_cvt_float_to_int_matches_host_reference(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint32_t a = (uint32_t)rnd();
        if ((a & 0x7f800000u) == 0x7f800000u)
            continue;
        if (i & 1)   /* half the time near the interesting range */
            a = (a & 0x807fffffu) | ((uint32_t)(120 + rnd() % 70) << 23);
        for (int m = 0; m < 4; m++) {
            volatile double x = FV(a);
            fesetround(fe_modes[m]);
            volatile double r = nearbyint(x);
            fesetround(FE_TONEAREST);
            int64_t s32 = r < -2147483648.0 ? INT32_MIN : r > 2147483647.0 ? INT32_MAX : (int64_t)r;
            uint64_t u64 = r < 0 ? 0 : r >= 0x1p64 ? ~0ull : (uint64_t)r;
            int64_t s64 = r < -0x1p63 ? INT64_MIN : r >= 0x1p63 ? INT64_MAX : (int64_t)r;
            EQ(alu_cvt(PTX_T_S32, PTX_T_F32, a, modes[m], true, false, false), (uint32_t)s32);
            EQ(alu_cvt(PTX_T_U64, PTX_T_F32, a, modes[m], true, false, false), u64);
            EQ(alu_cvt(PTX_T_S64, PTX_T_F64, D(x), modes[m], true, false, false), (uint64_t)s64);
        }
    }
}

/* ---- cvt: int -> float, int -> int ------------------------------------ */

static void test_alu_cvt_s32_to_f32_rounds_by_mode(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, 16777217, ALU_RN, false, false, false), F(16777216.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, 16777217, ALU_RZ, false, false, false), F(16777216.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, 16777217, ALU_RP, false, false, false), F(16777218.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, (uint32_t)-16777217, ALU_RM, false, false, false), F(-16777218.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, 16777219, ALU_RN, false, false, false), F(16777220.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_S32, 0x80000000u, ALU_RN, false, false, false), F(-2147483648.0f));
    EQ(alu_cvt(PTX_T_F64, PTX_T_S64, 0x8000000000000000ull, ALU_RN, false, false, false), D(-0x1p63));
    EQ(alu_cvt(PTX_T_F16, PTX_T_U32, 70000, ALU_RN, false, false, false), 0x7c00);
    EQ(alu_cvt(PTX_T_F16, PTX_T_U32, 70000, ALU_RZ, false, false, false), 0x7bff);
    EQ(alu_cvt(PTX_T_F32, PTX_T_U8, 0xff, ALU_RN, false, true, false), F(1.0f));   /* .sat */
}

static void test_alu_cvt_u64_to_f32_and_f64_match_host_under_each_mode(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rnd() >> (rnd() & 31);
        for (int m = 0; m < 4; m++) {
            volatile uint64_t va = a;
            volatile int64_t vs = (int64_t)a;
            fesetround(fe_modes[m]);
            volatile float f = (float)va;
            volatile double d = (double)va;
            volatile float fs = (float)vs;
            fesetround(FE_TONEAREST);
            EQ(alu_cvt(PTX_T_F32, PTX_T_U64, a, modes[m], false, false, false), F(f));
            EQ(alu_cvt(PTX_T_F64, PTX_T_U64, a, modes[m], false, false, false), D(d));
            EQ(alu_cvt(PTX_T_F32, PTX_T_S64, a, modes[m], false, false, false), F(fs));
        }
    }
}

static void test_alu_cvt_int_to_int_truncates_extends_and_saturates(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_U16, PTX_T_S32, 0x12345678u, ALU_RN, false, false, false), 0x5678);
    EQ(alu_cvt(PTX_T_S64, PTX_T_S32, 0xfffffffeu, ALU_RN, false, false, false), (uint64_t)-2);
    EQ(alu_cvt(PTX_T_U32, PTX_T_S8, 0x80, ALU_RN, false, false, false), 0xffffff80u);
    EQ(alu_cvt(PTX_T_U64, PTX_T_U32, 0xffffffffu, ALU_RN, false, false, false), 0xffffffffu);
    EQ(alu_cvt(PTX_T_S8, PTX_T_S32, 300, ALU_RN, false, true, false), 0x7f);
    EQ(alu_cvt(PTX_T_S8, PTX_T_S32, (uint32_t)-300, ALU_RN, false, true, false), 0x80);
    EQ(alu_cvt(PTX_T_U32, PTX_T_S8, 0x80, ALU_RN, false, true, false), 0);
    EQ(alu_cvt(PTX_T_S32, PTX_T_U32, 0x80000000u, ALU_RN, false, true, false), 0x7fffffffu);
    EQ(alu_cvt(PTX_T_U16, PTX_T_S64, (uint64_t)-1, ALU_RN, false, true, false), 0);
    EQ(alu_cvt(PTX_T_S64, PTX_T_U64, ~0ull, ALU_RN, false, true, false), 0x7fffffffffffffffull);
}

/* ---- cvt: float -> float --------------------------------------------- */

static void test_alu_cvt_f64_to_f32_overflow_by_mode(void **s)
{
    (void)s;
    uint64_t big = D(1e300), nbig = D(-1e300);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, big, ALU_RN, false, false, false), PINF);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, big, ALU_RZ, false, false, false), F(FLT_MAX));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, big, ALU_RM, false, false, false), F(FLT_MAX));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, big, ALU_RP, false, false, false), PINF);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, nbig, ALU_RM, false, false, false), NINF);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, nbig, ALU_RP, false, false, false), F(-FLT_MAX));
}

/* every value here was measured on an H100 (sm_90) */
static void test_alu_cvt_nan_results_match_h100(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_F32, PTX_T_F16, 0xfe01, ALU_RN, false, false, false), NAN32);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F32, 0xffc01234u, ALU_RN, false, false, false), 0x7fff);
    EQ(alu_cvt(PTX_T_BF16, PTX_T_F32, 0x7f812345u, ALU_RZ, false, false, false), 0x7fff);
    EQ(alu_cvt(PTX_T_F32, PTX_T_BF16, 0xff81, ALU_RN, false, false, false), 0xff810000u);
    EQ(alu_cvt(PTX_T_F32, PTX_T_BF16, 0xff81, ALU_RN, false, false, true), NAN32);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, 0x7ff8123450000000ull, ALU_RN, false, false, false), 0x7fc091a2u);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, QA, ALU_RN, false, false, false), 0xffc00000u);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F32, 0xffc01234u, ALU_RN, false, false, false), 0xfff8024680000000ull);
    EQ(alu_cvt(PTX_T_F64, PTX_T_BF16, 0xff81, ALU_RN, false, false, false), 0xfff8200000000000ull);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F16, 0xfe01, ALU_RN, false, false, false), 0xfff8040000000000ull);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F64, QA, ALU_RN, false, false, false), 0xfe00);
    EQ(alu_cvt(PTX_T_BF16, PTX_T_F64, QA, ALU_RN, false, false, false), 0xffc0);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, 0xffc01234u, ALU_RN, false, false, false), 0xffc01234u);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, 0xffc01234u, ALU_RN, false, false, true), NAN32);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, 0xffc01234u, ALU_RN, true, false, false), NAN32);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F16, 0x7d55, ALU_RN, true, false, false), 0x7fff);
    EQ(alu_cvt(PTX_T_BF16, PTX_T_F16, 0xfe01, ALU_RN, false, false, false), 0x7fff);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F64, SN, ALU_RN, false, false, false), SN);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F64, SN, ALU_RZ, true, false, false), SN | 0x0008000000000000ull);
}

static void test_alu_cvt_f64_to_f32_subnormals_with_and_without_ftz(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(0x1p-149), ALU_RN, false, false, false), MINSUB);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(0x1p-149), ALU_RN, false, false, true), 0);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(0x1p-151), ALU_RN, false, false, false), 0);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(0x1p-151), ALU_RP, false, false, false), MINSUB);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(-0x1p-151), ALU_RM, false, false, false), MINSUB | NZERO);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F64, D(0x1.8p-149), ALU_RN, false, false, false), 2);   /* tie to even */
    EQ(alu_cvt(PTX_T_F64, PTX_T_F32, MINSUB, ALU_RN, false, false, false), D(0x1p-149));
    EQ(alu_cvt(PTX_T_F64, PTX_T_F32, MINSUB | NZERO, ALU_RN, false, false, true), D(-0.0));
}

static void test_alu_cvt_f64_to_f32_matches_host_under_each_mode(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint64_t a = rnd();
        int e = 1023 - 160 + (int)(rnd() % 300);         /* around the f32 range */
        a = (a & 0x800fffffffffffffull) | ((uint64_t)e << 52);
        for (int m = 0; m < 4; m++)
            EQ(alu_cvt(PTX_T_F32, PTX_T_F64, a, modes[m], false, false, false), F(host_d2f(DV(a), m)));
    }
}

/* Reference for f32 -> f16: every finite f16 in order, then a binary search
 * for the neighbours of x and the pick each mode makes. */
static double f16_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    return (h & 0x8000) ? -v : v;
}

static uint16_t f16_ref(float xf, int m)
{
    double x = xf, ax = fabs(x);
    uint16_t sign = x < 0 ? 0x8000 : 0;
    if (x != x)
        return 0x7fff;
    uint16_t lo = 0, hi = 0x7bff;                      /* magnitudes */
    if (ax > 65504.0) {
        bool inf = (m == 0 && ax >= 65520.0) || (m == 3 && !sign) || (m == 2 && sign);
        return sign | (inf ? 0x7c00 : 0x7bff);
    }
    while (lo < hi) {                                  /* largest <= ax */
        uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
        if (f16_value(mid) <= ax) lo = mid; else hi = (uint16_t)(mid - 1);
    }
    if (f16_value(lo) == ax)
        return sign | lo;
    uint16_t up = (uint16_t)(lo + 1);
    double dl = ax - f16_value(lo), du = f16_value(up) - ax;
    uint16_t pick;
    switch (m) {
    case 0:  pick = dl < du ? lo : du < dl ? up : ((lo & 1) ? up : lo); break;
    case 1:  pick = lo; break;
    case 2:  pick = sign ? up : lo; break;
    default: pick = sign ? lo : up; break;
    }
    return sign | pick;
}

static void test_alu_f32_to_f16_matches_table_reference(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint32_t a = ((uint32_t)rnd() & 0x807fffffu) | ((uint32_t)(95 + rnd() % 50) << 23);
        if (i % 7 == 0)
            a &= 0x8000ffffu | (0x33u << 23);         /* deep in the f16 subnormals */
        for (int m = 0; m < 4; m++)
            EQ(alu_f32_to_f16(a, modes[m]), f16_ref(FV(a), m));
    }
}

static void test_alu_f16_to_f32_exact_for_every_f16(void **s)
{
    (void)s;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
            EQ(alu_f16_to_f32((uint16_t)h), NAN32);
        else if ((h & 0x7fff) == 0x7c00)
            EQ(alu_f16_to_f32((uint16_t)h), (h & 0x8000) ? NINF : PINF);
        else
            EQ(alu_f16_to_f32((uint16_t)h), F((float)f16_value((uint16_t)h)));
        /* and back again, exactly */
        if ((h & 0x7c00) != 0x7c00)
            EQ(alu_f32_to_f16(alu_f16_to_f32((uint16_t)h), ALU_RZ), h);
    }
}

static void test_alu_f32_to_f16_overflow_underflow_and_nan(void **s)
{
    (void)s;
    EQ(alu_f32_to_f16(F(65519.0f), ALU_RN), 0x7bff);
    EQ(alu_f32_to_f16(F(65520.0f), ALU_RN), 0x7c00);
    EQ(alu_f32_to_f16(F(1e6f), ALU_RZ), 0x7bff);
    EQ(alu_f32_to_f16(F(-1e6f), ALU_RP), 0xfbff);
    EQ(alu_f32_to_f16(F(0x1p-24f), ALU_RN), 0x0001);
    EQ(alu_f32_to_f16(F(0x1p-25f), ALU_RN), 0x0000);          /* tie to even: 0 */
    EQ(alu_f32_to_f16(F(0x1.8p-25f), ALU_RN), 0x0001);
    EQ(alu_f32_to_f16(F(-0x1p-30f), ALU_RM), 0x8001);
    EQ(alu_f32_to_f16(0xffc01234u, ALU_RN), 0x7fff);
    EQ(alu_f32_to_f16(NZERO, ALU_RN), 0x8000);
}

static void test_alu_f32_to_bf16_matches_bit_reference(void **s)
{
    (void)s;
    for (int i = 0; i < 20000; i++) {
        uint32_t a = (uint32_t)rnd();
        if ((a & 0x7f800000u) == 0x7f800000u)
            continue;
        uint32_t t = a >> 16, rest = a & 0xffff;
        bool neg = a >> 31;
        uint32_t rn = (a + 0x7fff + (t & 1)) >> 16;
        uint32_t up = rest ? t + 1 : t;
        EQ(alu_f32_to_bf16(a, ALU_RN), rn);
        EQ(alu_f32_to_bf16(a, ALU_RZ), t);
        EQ(alu_f32_to_bf16(a, ALU_RP), neg ? t : up);
        EQ(alu_f32_to_bf16(a, ALU_RM), neg ? up : t);
        EQ(alu_bf16_to_f32((uint16_t)t), t << 16);
    }
    EQ(alu_f32_to_bf16(F(FLT_MAX), ALU_RN), 0x7f80);
    EQ(alu_f32_to_bf16(F(FLT_MAX), ALU_RZ), 0x7f7f);
    EQ(alu_f32_to_bf16(0x7f800001u, ALU_RN), 0x7fff);
}

static void test_alu_cvt_f64_to_f16_rounds_once_not_twice(void **s)
{
    (void)s;
    /* 1 + 2^-11 + 2^-40: via f32 it would tie and round to even (1.0) */
    uint64_t x = D(1.0 + 0x1p-11 + 0x1p-40);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F64, x, ALU_RN, false, false, false), 0x3c01);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F64, D(1.0 + 0x1p-11), ALU_RN, false, false, false), 0x3c00);
    EQ(alu_cvt(PTX_T_BF16, PTX_T_F64, D(1.0 + 0x1p-8 + 0x1p-40), ALU_RN, false, false, false), 0x3f81);
}

static void test_alu_cvt_same_type_int_rounding_gives_integral_float(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(2.5f), ALU_RN, true, false, false), F(2.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(-2.5f), ALU_RM, true, false, false), F(-3.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(-0.4f), ALU_RP, true, false, false), NZERO);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(0.4f), ALU_RP, true, false, false), F(1.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(1e30f), ALU_RZ, true, false, false), F(1e30f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, NINF, ALU_RN, true, false, false), NINF);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F64, D(-7.5), ALU_RN, true, false, false), D(-8.0));
    EQ(alu_cvt(PTX_T_F16, PTX_T_F16, 0x3e00, ALU_RZ, true, false, false), 0x3c00);   /* 1.5 */
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, MINSUB | NZERO, ALU_RM, true, false, true), NZERO);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, MINSUB | NZERO, ALU_RM, true, false, false), F(-1.0f));
    for (int i = 0; i < 5000; i++) {
        uint32_t a = ((uint32_t)rnd() & 0x807fffffu) | ((uint32_t)(110 + rnd() % 50) << 23);
        EQ(alu_cvt(PTX_T_F32, PTX_T_F32, a, ALU_RN, true, false, false), F(rintf(FV(a))));
        EQ(alu_cvt(PTX_T_F32, PTX_T_F32, a, ALU_RZ, true, false, false), F(truncf(FV(a))));
        EQ(alu_cvt(PTX_T_F32, PTX_T_F32, a, ALU_RM, true, false, false), F(floorf(FV(a))));
        EQ(alu_cvt(PTX_T_F32, PTX_T_F32, a, ALU_RP, true, false, false), F(ceilf(FV(a))));
    }
}

static void test_alu_cvt_sat_on_float_destination_clamps_to_unit(void **s)
{
    (void)s;
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(1.5f), ALU_RN, false, true, false), F(1.0f));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, F(-1.5f), ALU_RN, false, true, false), 0);
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, NAN32, ALU_RN, false, true, false), 0);
    EQ(alu_cvt(PTX_T_F16, PTX_T_F32, F(7.0f), ALU_RN, false, true, false), 0x3c00);
    EQ(alu_cvt(PTX_T_F64, PTX_T_F32, F(0.25f), ALU_RN, false, true, false), D(0.25));
    EQ(alu_cvt(PTX_T_F32, PTX_T_F32, MINSUB, ALU_RN, false, false, true), 0);        /* cvt.ftz.f32.f32 */
    EQ(alu_cvt(PTX_T_F32, PTX_T_F16, 0x0001, ALU_RN, false, false, true), F(0x1p-24f)); /* f16 subnormal is an f32 normal */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_int_div_rem_by_zero_give_all_ones),
        cmocka_unit_test(test_alu_int_div_int_min_by_minus_one_wraps),
        cmocka_unit_test(test_alu_int_div_rem_match_c_on_random_inputs),
        cmocka_unit_test(test_alu_int_mul_hi_matches_schoolbook_reference),
        cmocka_unit_test(test_alu_int_min_max_respect_signedness),
        cmocka_unit_test(test_alu_int_abs_of_int_min_is_int_min),
        cmocka_unit_test(test_alu_int_sad_uses_signed_difference),
        cmocka_unit_test(test_alu_s32_add_sub_sat_clamp),
        cmocka_unit_test(test_alu_mul24_takes_low_24_bits_and_hi_is_bits_47_16),
        cmocka_unit_test(test_alu_popc_clz_brev_match_loops),
        cmocka_unit_test(test_alu_bfind_of_zero_and_negative),
        cmocka_unit_test(test_alu_bfe_pos_len_beyond_width_and_sign_fill),
        cmocka_unit_test(test_alu_bfi_inserts_and_clips_at_width),
        cmocka_unit_test(test_alu_prmt_default_mode_selects_and_sign_replicates),
        cmocka_unit_test(test_alu_prmt_modes_follow_isa_table),
        cmocka_unit_test(test_alu_shf_wrap_vs_clamp),
        cmocka_unit_test(test_alu_shl_shr_amounts_at_or_past_width),
        cmocka_unit_test(test_alu_extend_sign_and_zero),
        cmocka_unit_test(test_alu_cmp_from_name_maps_words_and_rejects_others),
        cmocka_unit_test(test_alu_compare_nan_ordered_false_unordered_true),
        cmocka_unit_test(test_alu_compare_ftz_flushes_subnormals),
        cmocka_unit_test(test_alu_compare_integers_signed_and_unsigned),
        cmocka_unit_test(test_alu_f32_add_nan_results_are_canonical),
        cmocka_unit_test(test_alu_f32_add_signed_zero_depends_on_rounding),
        cmocka_unit_test(test_alu_f32_rounding_modes_match_exact_reference),
        cmocka_unit_test(test_alu_f32_rz_rm_rp_on_one_plus_tiny),
        cmocka_unit_test(test_alu_f32_fma_rounds_once),
        cmocka_unit_test(test_alu_f32_ftz_flushes_inputs_and_results),
        cmocka_unit_test(test_alu_f32_sat_clamps_and_nan_becomes_plus_zero),
        cmocka_unit_test(test_alu_f32_min_max_nan_and_signed_zero),
        cmocka_unit_test(test_alu_f32_abs_neg_flip_sign_and_canonicalise_nan),
        cmocka_unit_test(test_alu_f32_div_rcp_by_zero_give_signed_inf),
        cmocka_unit_test(test_alu_f32_approx_special_values_follow_isa_tables),
        cmocka_unit_test(test_alu_f32_approx_subnormals_kept_unless_ftz),
        cmocka_unit_test(test_alu_f32_approx_within_isa_error_bounds_over_sweep),
        cmocka_unit_test(test_alu_f32_div_approx_huge_divisor_gives_zero_or_nan),
        cmocka_unit_test(test_alu_f64_rounding_modes_and_nan_results),
        cmocka_unit_test(test_alu_f64_nan_operand_priority_matches_h100),
        cmocka_unit_test(test_alu_f64_min_max_abs_neg),
        cmocka_unit_test(test_alu_f64_rcp_approx_uses_upper_word_only),
        cmocka_unit_test(test_alu_f64_rsqrt_approx_special_and_accuracy),
        cmocka_unit_test(test_alu_cvt_f32_to_s32_saturates_and_nan_is_zero),
        cmocka_unit_test(test_alu_cvt_float_to_int_nan_with_f64_or_64bit_is_msb),
        cmocka_unit_test(test_alu_cvt_float_to_int_each_rounding_mode),
        cmocka_unit_test(test_alu_cvt_float_to_int_ftz_changes_rmi_of_negative_subnormal),
        cmocka_unit_test(test_alu_cvt_float_to_int_matches_host_reference),
        cmocka_unit_test(test_alu_cvt_s32_to_f32_rounds_by_mode),
        cmocka_unit_test(test_alu_cvt_u64_to_f32_and_f64_match_host_under_each_mode),
        cmocka_unit_test(test_alu_cvt_int_to_int_truncates_extends_and_saturates),
        cmocka_unit_test(test_alu_cvt_f64_to_f32_overflow_by_mode),
        cmocka_unit_test(test_alu_cvt_nan_results_match_h100),
        cmocka_unit_test(test_alu_cvt_f64_to_f32_subnormals_with_and_without_ftz),
        cmocka_unit_test(test_alu_cvt_f64_to_f32_matches_host_under_each_mode),
        cmocka_unit_test(test_alu_f32_to_f16_matches_table_reference),
        cmocka_unit_test(test_alu_f16_to_f32_exact_for_every_f16),
        cmocka_unit_test(test_alu_f32_to_f16_overflow_underflow_and_nan),
        cmocka_unit_test(test_alu_f32_to_bf16_matches_bit_reference),
        cmocka_unit_test(test_alu_cvt_f64_to_f16_rounds_once_not_twice),
        cmocka_unit_test(test_alu_cvt_same_type_int_rounding_gives_integral_float),
        cmocka_unit_test(test_alu_cvt_sat_on_float_destination_clamps_to_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* exec_vec.c: whole-warp handlers written for the host's vector unit, picked
 * once when an instruction is decoded.  setp of 32-bit integers (the loop
 * test and the tid < stride test of nearly every kernel) compares all 32
 * lanes with no per-instruction look at its type, comparison or combining
 * op -- on x86-64 with AVX2 four lanes per instruction, else with SSE2, else
 * in plain C.  Results are exactly ex_setp's: the lanes' low 32 bits
 * compared, signed for .s32, unsigned for .u32/.b32.  Called through
 * SimInst.fn; exec_arith.c's decoder asks exec_vec_setp32 for the handler. */
#include "exec_int.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VEC_X86 1
#define VEC_AVX2 __attribute__((target("avx2")))
#endif

/* ---- lt and eq masks of 32 lanes ------------------------------------------
 * bit l: lane l's low 32 bits of a below (lt) / equal to (eq) b's; flip is
 * 0x80000000 for an unsigned comparison (both sides' sign bits flipped, the
 * signed order is the unsigned one), 0 for a signed one. */
#ifdef VEC_X86
/* Four lanes per step: each 64-bit lane shifted up 32 bits, so a 64-bit
 * signed compare orders the low halves; movemask_pd gathers the 4 bits. */
VEC_AVX2 static inline uint32_t lt_avx2(const uint64_t *a, const uint64_t *b, uint32_t flip)
{
    const __m256i f = _mm256_set1_epi64x((long long)((uint64_t)flip << 32));
    uint32_t r = 0;
    for (int l = 0; l < WARP; l += 4) {
        __m256i va = _mm256_xor_si256(_mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(a + l)), 32), f);
        __m256i vb = _mm256_xor_si256(_mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), 32), f);
        r |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(vb, va))) << l;
    }
    return r;
}

VEC_AVX2 static inline uint32_t eq_avx2(const uint64_t *a, const uint64_t *b)
{
    uint32_t r = 0;
    for (int l = 0; l < WARP; l += 4) {
        __m256i va = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(a + l)), 32);
        __m256i vb = _mm256_slli_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), 32);
        r |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(va, vb))) << l;
    }
    return r;
}

/* SSE2: the low halves of four lanes packed into one vector (shufps). */
static inline __m128i low4(const uint64_t *p)
{
    __m128 lo = _mm_loadu_ps((const float *)p), hi = _mm_loadu_ps((const float *)(p + 2));
    return _mm_castps_si128(_mm_shuffle_ps(lo, hi, 0x88));
}

static inline uint32_t lt_sse2(const uint64_t *a, const uint64_t *b, uint32_t flip)
{
    const __m128i f = _mm_set1_epi32((int)flip);
    uint32_t r = 0;
    for (int l = 0; l < WARP; l += 4) {
        __m128i va = _mm_xor_si128(low4(a + l), f), vb = _mm_xor_si128(low4(b + l), f);
        r |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(va, vb))) << l;
    }
    return r;
}

static inline uint32_t eq_sse2(const uint64_t *a, const uint64_t *b)
{
    uint32_t r = 0;
    for (int l = 0; l < WARP; l += 4)
        r |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(low4(a + l), low4(b + l)))) << l;
    return r;
}
#else
static inline uint32_t lt_c(const uint64_t *a, const uint64_t *b, uint32_t flip)
{
    uint32_t r = 0;
    for (int l = 0; l < WARP; l++)
        r |= (uint32_t)((int32_t)((uint32_t)a[l] ^ flip) < (int32_t)((uint32_t)b[l] ^ flip)) << l;
    return r;
}

static inline uint32_t eq_c(const uint64_t *a, const uint64_t *b)
{
    uint32_t r = 0;
    for (int l = 0; l < WARP; l++)
        r |= (uint32_t)((uint32_t)a[l] == (uint32_t)b[l]) << l;
    return r;
}
#endif

/* ---- the handlers ---------------------------------------------------------
 * ex_setp with no combining op: d gets the comparison, pd (if any) its
 * negation, in the lanes of m; d first, so that pd wins when both name one
 * predicate, as there. */
static inline void setp_write(Warp *w, const SimInst *in, uint32_t m, uint32_t r)
{
    if (in->d >= 0)
        w->p[in->d] = (w->p[in->d] & ~m) | (r & m);
    if (in->pd >= 0)
        w->p[in->pd] = (w->p[in->pd] & ~m) | (~r & m);
}

/* One handler per comparison and signedness: EXPR gives the mask from LT(a,
 * b, flip) and EQ(a, b). */
#define SETP32(name, ATTR, LT, EQ, FLIP, EXPR)                                   \
    ATTR static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m)       \
    {                                                                            \
        const uint64_t *a = exec_src(x, w, in->s[0]), *b = exec_src(x, w, in->s[1]); \
        const uint32_t flip = (FLIP);                                            \
        (void)flip;                                                              \
        setp_write(w, in, m, (EXPR));                                            \
    }
#define SETP32_ALL(pre, ATTR, LT, EQ)                                            \
    SETP32(pre##_eq, ATTR, LT, EQ, 0, EQ(a, b))                                  \
    SETP32(pre##_ne, ATTR, LT, EQ, 0, ~EQ(a, b))                                 \
    SETP32(pre##_lt_s, ATTR, LT, EQ, 0, LT(a, b, flip))                          \
    SETP32(pre##_le_s, ATTR, LT, EQ, 0, ~LT(b, a, flip))                         \
    SETP32(pre##_gt_s, ATTR, LT, EQ, 0, LT(b, a, flip))                          \
    SETP32(pre##_ge_s, ATTR, LT, EQ, 0, ~LT(a, b, flip))                         \
    SETP32(pre##_lt_u, ATTR, LT, EQ, 0x80000000u, LT(a, b, flip))                \
    SETP32(pre##_le_u, ATTR, LT, EQ, 0x80000000u, ~LT(b, a, flip))               \
    SETP32(pre##_gt_u, ATTR, LT, EQ, 0x80000000u, LT(b, a, flip))                \
    SETP32(pre##_ge_u, ATTR, LT, EQ, 0x80000000u, ~LT(a, b, flip))               \
    static const ExecFn pre##_fns[2][6] = {                                      \
        {pre##_eq, pre##_ne, pre##_lt_s, pre##_le_s, pre##_gt_s, pre##_ge_s},    \
        {pre##_eq, pre##_ne, pre##_lt_u, pre##_le_u, pre##_gt_u, pre##_ge_u}};

#ifdef VEC_X86
SETP32_ALL(setp_avx2, VEC_AVX2, lt_avx2, eq_avx2)
SETP32_ALL(setp_sse2, , lt_sse2, eq_sse2)
#else
SETP32_ALL(setp_c, , lt_c, eq_c)
#endif

static int vec_mode = -1; /* exec_vec_test_mode: -1 the host's best, 0 the portable code */

void exec_vec_test_mode(int mode)
{
    vec_mode = mode;
}

bool exec_vec_avx2(void)
{
#ifdef VEC_X86
    return vec_mode != 0 && __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

ExecFn exec_vec_setp32(const SimInst *in)
{
    int sgn;
    if (in->type == PTX_T_S32)
        sgn = 0;
    else if (in->type == PTX_T_U32 || in->type == PTX_T_B32)
        sgn = 1;
    else
        return NULL;
    if (in->bop || in->cmp > ALU_CMP_GE)
        return NULL;
#ifdef VEC_X86
    return exec_vec_avx2() ? setp_avx2_fns[sgn][in->cmp] : setp_sse2_fns[sgn][in->cmp];
#else
    return setp_c_fns[sgn][in->cmp];
#endif
}

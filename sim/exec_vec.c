/* exec_vec.c: whole-warp work written for the host's vector unit.  setp of
 * 32-bit integers (the loop test and the tid < stride test of nearly every
 * kernel), picked once when an instruction is decoded, compares all 32
 * lanes with no per-instruction look at its type, comparison or combining
 * op -- on x86-64 with AVX2 eight lanes per instruction, else with SSE2, else
 * in plain C.  Results are exactly ex_setp's: the lanes' low 32 bits
 * compared, signed for .s32, unsigned for .u32/.b32.  Called through
 * SimInst.fn; exec_arith.c's decoder asks exec_vec_setp32 for the handler.
 * Also the affine-address test and the register/memory copies of
 * exec_memfast.c's whole-warp loads and stores (exec_vec.h). */
#include "exec_int.h"
#include "exec_vec.h"

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
/* Eight lanes per step: vshufps packs the low halves of eight slots into
 * one vector, in the order 0 1 4 5 | 2 3 6 7 (it works within 128-bit
 * halves), the same for both sides; one 32-bit compare, and lanes_order
 * puts the mask bits back in lane order once for all 32. */
VEC_AVX2 static inline __m256i low8(const uint64_t *p)
{
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_loadu_ps((const float *)p),
                                                 _mm256_loadu_ps((const float *)(p + 4)), 0x88));
}

/* bits 2 3 <-> 4 5 of each byte: 0 1 4 5 2 3 6 7 back to 0 1 2 3 4 5 6 7 */
static inline uint32_t lanes_order(uint32_t r)
{
    return (r & 0xc3c3c3c3u) | ((r << 2) & 0x30303030u) | ((r >> 2) & 0x0c0c0c0cu);
}

VEC_AVX2 static inline uint32_t lt_avx2(const uint64_t *a, const uint64_t *b, uint32_t flip)
{
    const __m256i f = _mm256_set1_epi32((int)flip);
    uint32_t r = 0;
    _Pragma("GCC unroll 4")
    for (int l = 0; l < WARP; l += 8) {
        __m256i va = _mm256_xor_si256(low8(a + l), f), vb = _mm256_xor_si256(low8(b + l), f);
        r |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(vb, va))) << l;
    }
    return lanes_order(r);
}

VEC_AVX2 static inline uint32_t eq_avx2(const uint64_t *a, const uint64_t *b)
{
    uint32_t r = 0;
    _Pragma("GCC unroll 4")
    for (int l = 0; l < WARP; l += 8)
        r |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(low8(a + l), low8(b + l)))) << l;
    return lanes_order(r);
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

/* ---- affine addresses --------------------------------------------------- */
#ifdef VEC_X86
VEC_AVX2 static bool affine_avx2(const uint64_t *b, uint64_t st)
{
    uint64_t b0 = b[0];
    __m256i want = _mm256_set_epi64x((long long)(b0 + 3 * st), (long long)(b0 + 2 * st), (long long)(b0 + st),
                                     (long long)b0);
    const __m256i step4 = _mm256_set1_epi64x((long long)(4 * st));
    __m256i diff = _mm256_setzero_si256();
    _Pragma("GCC unroll 8")
    for (int l = 0; l < WARP; l += 4) {
        diff = _mm256_or_si256(diff, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(b + l)), want));
        want = _mm256_add_epi64(want, step4);
    }
    return _mm256_testz_si256(diff, diff);
}
#endif

/* two lanes at a time (GCC's vector extension, which clang has too: at -O2
 * GCC vectorises no reduction) */
static bool affine_c(const uint64_t *b, uint64_t st)
{
    typedef uint64_t U64x2 __attribute__((vector_size(16)));
    uint64_t b0 = b[0];
    U64x2 want = {b0, b0 + st}, step2 = {2 * st, 2 * st}, diff = {0, 0};
    for (int l = 0; l < WARP; l += 2) {
        U64x2 v;
        memcpy(&v, b + l, sizeof v);
        diff |= v ^ want;
        want += step2;
    }
    return !(diff[0] | diff[1]);
}

/* ---- copies between registers and memory ---------------------------------
 * (memcpy for the element: the bytes may be unaligned for their type) */
#ifdef VEC_X86
VEC_AVX2 static void fill_avx2(uint64_t *d, uint64_t v, uint32_t m)
{
    const __m256i vv = _mm256_set1_epi64x((long long)v);
    if (m == FULL_MASK) {
        _Pragma("GCC unroll 8")
        for (int l = 0; l < WARP; l += 4)
            _mm256_storeu_si256((__m256i *)(d + l), vv);
        return;
    }
    const __m256i bit = _mm256_set_epi64x(8, 4, 2, 1);
    for (uint32_t g = m; g;) { /* the groups of four lanes with an active one */
        int l = __builtin_ctz(g) & ~3;
        g &= ~(15u << l);
        __m256i keep = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((m >> l) & 15), bit), bit);
        _mm256_maskstore_epi64((long long *)(d + l), keep, vv);
    }
}

VEC_AVX2 static void load32_avx2(uint64_t *d, const uint8_t *src, bool sgn)
{
    if (sgn) {
        _Pragma("GCC unroll 8")
        for (int l = 0; l < WARP; l += 4)
            _mm256_storeu_si256((__m256i *)(d + l), _mm256_cvtepi32_epi64(_mm_loadu_si128((const __m128i *)(src + 4 * l))));
    } else {
        _Pragma("GCC unroll 8")
        for (int l = 0; l < WARP; l += 4)
            _mm256_storeu_si256((__m256i *)(d + l), _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(src + 4 * l))));
    }
}

/* the low halves of eight slots (low8's order), put back in lane order */
VEC_AVX2 static void store32_avx2(uint8_t *dst, const uint64_t *s)
{
    _Pragma("GCC unroll 4")
    for (int l = 0; l < WARP; l += 8)
        _mm256_storeu_si256((__m256i *)(dst + 4 * l), _mm256_permute4x64_epi64(low8(s + l), 0xd8));
}
#endif

static int vec_mode = -1;
#ifdef VEC_X86
static bool have_avx2; /* the host's, asked once before main (use_avx2 runs for every row) */

__attribute__((constructor)) static void vec_host(void)
{
    __builtin_cpu_init();
    have_avx2 = __builtin_cpu_supports("avx2");
}
#endif

static bool use_avx2(void)
{
#ifdef VEC_X86
    return vec_mode != 0 && have_avx2;
#else
    return false;
#endif
}

void exec_vec_fill(uint64_t *d, uint64_t v, uint32_t m)
{
#ifdef VEC_X86
    if (use_avx2()) {
        fill_avx2(d, v, m);
        return;
    }
#endif
    for (uint32_t r = m; r; r &= r - 1)
        d[__builtin_ctz(r)] = v;
}

void exec_vec_load32(uint64_t *d, const uint8_t *src, bool sgn)
{
#ifdef VEC_X86
    if (use_avx2()) {
        load32_avx2(d, src, sgn);
        return;
    }
#endif
    for (int l = 0; l < WARP; l++) {
        uint32_t v;
        memcpy(&v, src + 4 * l, 4);
        d[l] = sgn ? (uint64_t)(int64_t)(int32_t)v : v;
    }
}

void exec_vec_store32(uint8_t *dst, const uint64_t *s)
{
#ifdef VEC_X86
    if (use_avx2()) {
        store32_avx2(dst, s);
        return;
    }
#endif
    for (int l = 0; l < WARP; l++) {
        uint32_t v = (uint32_t)s[l];
        memcpy(dst + 4 * l, &v, 4);
    }
} /* exec_vec_test_mode: -1 the host's best, 0 the portable code */

void exec_vec_test_mode(int mode)
{
    vec_mode = mode;
}

bool exec_vec_avx2(void)
{
    return use_avx2();
}

/* ---- the lowest pc of a set of lanes ----------------------------------------
 * Lanes outside r read as INT32_MAX; the minimum of the four eight-lane
 * vectors, folded to one lane, then the lanes equal to it. */
#ifdef VEC_X86
VEC_AVX2 static int32_t lowest_avx2(const int32_t *p, uint32_t r, uint32_t *at)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128), big = _mm256_set1_epi32(INT32_MAX);
    __m256i v[4], mn = big;
    for (int i = 0; i < 4; i++) {
        __m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(r >> (8 * i))), bit), bit);
        v[i] = _mm256_blendv_epi8(big, _mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * i)), on);
        mn = _mm256_min_epi32(mn, v[i]);
    }
    __m128i h = _mm_min_epi32(_mm256_castsi256_si128(mn), _mm256_extracti128_si256(mn, 1));
    h = _mm_min_epi32(h, _mm_shuffle_epi32(h, 0x4e));
    h = _mm_min_epi32(h, _mm_shuffle_epi32(h, 0xb1));
    int32_t pc = _mm_cvtsi128_si32(h);
    __m256i want = _mm256_set1_epi32(pc);
    uint32_t eq = 0;
    for (int i = 0; i < 4; i++)
        eq |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v[i], want))) << (8 * i);
    *at = eq & r;
    return pc;
}
#endif

int32_t exec_vec_lowest(const int32_t *p, uint32_t r, uint32_t *at)
{
#ifdef VEC_X86
    if (use_avx2())
        return lowest_avx2(p, r, at);
#endif
    int32_t pc = INT32_MAX;
    uint32_t m = 0;
    for (uint32_t q = r; q; q &= q - 1) {
        int l = __builtin_ctz(q);
        if (p[l] < pc) {
            pc = p[l];
            m = 1u << l;
        } else if (p[l] == pc) {
            m |= 1u << l;
        }
    }
    *at = m;
    return pc;
}

bool exec_vec_affine(const uint64_t *b, uint64_t *step)
{
    uint64_t st = b[1] - b[0];
    *step = st;
#ifdef VEC_X86
    if (use_avx2())
        return affine_avx2(b, st);
#endif
    return affine_c(b, st);
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

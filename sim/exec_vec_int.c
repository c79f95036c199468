/* exec_vec_int.c: integer add/sub/mul/mad, logic ops, 32-bit shifts, mov
 * and cvta over a whole warp with AVX2, four lanes (four 64-bit register
 * slots) per vector, picked when an instruction is decoded (exec_vec.h).
 * A 32-bit op works on the low dword of each slot and clears the high one,
 * so it stores (uint64_t)(uint32_t) of the result, as the plain-C handlers
 * of exec_arith.c and exec_mov.c do.  With part of the warp active every
 * lane is computed (inactive lanes hold values too, and integer ops have no
 * side effects) and only the active lanes are stored.  Hosts without AVX2
 * keep the plain-C handlers, which GCC already vectorises with SSE2. */
#include "exec_vec.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VEC_AVX2 __attribute__((target("avx2")))

/* keep[q]: all ones in the 64-bit lanes i with bit i of q set */
static const int64_t keep[16][4] = {
    {0, 0, 0, 0},   {-1, 0, 0, 0},   {0, -1, 0, 0},   {-1, -1, 0, 0},
    {0, 0, -1, 0},  {-1, 0, -1, 0},  {0, -1, -1, 0},  {-1, -1, -1, 0},
    {0, 0, 0, -1},  {-1, 0, 0, -1},  {0, -1, 0, -1},  {-1, -1, 0, -1},
    {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}};

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))

/* BODY computes r for lanes l..l+3 (va, vb, vc: the sources' slots there);
 * a full warp stores every group, a partial one the active lanes of each
 * group that has any, and only those (vpmaskmovq: the others' bytes are
 * not written). */
#define VEC_LANES(BODY)                                                        \
    do {                                                                       \
        if (m == FULL_MASK) {                                                  \
            _Pragma("GCC unroll 8")                                            \
            for (int l = 0; l < WARP; l += 4) {                                \
                BODY;                                                          \
                _mm256_storeu_si256((__m256i *)(d + l), r);                    \
            }                                                                  \
        } else {                                                               \
            for (uint32_t g_ = m; g_;) { /* the groups with an active lane */  \
                int l = __builtin_ctz(g_) & ~3;                                \
                g_ &= ~(15u << l);                                             \
                BODY;                                                          \
                _mm256_maskstore_epi64((long long *)(d + l), LD(keep[(m >> l) & 15]), r); \
            }                                                                  \
        }                                                                      \
    } while (0)

/* d = EXPR(va, vb); lo: the low dword of each slot */
#define VBIN(name, EXPR)                                                       \
    VEC_AVX2 static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m) \
    {                                                                          \
        const uint64_t *a = exec_src(x, w, in->s[0]), *b = exec_src(x, w, in->s[1]); \
        uint64_t *d = exec_reg(w, in->d);                                      \
        const __m256i lo = _mm256_set1_epi64x(0xffffffffll);                   \
        (void)lo;                                                              \
        VEC_LANES(__m256i va = LD(a + l); __m256i vb = LD(b + l); __m256i r = (EXPR)); \
    }
#define VTER(name, EXPR)                                                       \
    VEC_AVX2 static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m) \
    {                                                                          \
        const uint64_t *a = exec_src(x, w, in->s[0]), *b = exec_src(x, w, in->s[1]); \
        const uint64_t *c = exec_src(x, w, in->s[2]);                          \
        uint64_t *d = exec_reg(w, in->d);                                      \
        const __m256i lo = _mm256_set1_epi64x(0xffffffffll);                   \
        (void)lo;                                                              \
        VEC_LANES(__m256i va = LD(a + l); __m256i vb = LD(b + l); __m256i vc = LD(c + l); \
                  __m256i r = (EXPR));                                         \
    }
/* A shift by an immediate: one count for all lanes, as a 64-bit value in
 * the low quadword (a count above 31 gives 0, or the sign for sra). */
#define VSHI(name, OP)                                                         \
    VEC_AVX2 static void name(Exec *x, Warp *w, const SimInst *in, uint32_t m) \
    {                                                                          \
        const uint64_t *a = exec_src(x, w, in->s[0]);                          \
        uint64_t *d = exec_reg(w, in->d);                                      \
        const __m256i lo = _mm256_set1_epi64x(0xffffffffll);                   \
        const __m128i n = _mm_cvtsi32_si128((int)(uint32_t)exec_src(x, w, in->s[1])[0]); \
        VEC_LANES(__m256i r = _mm256_and_si256(OP(LD(a + l), n), lo));         \
    }

/* 32-bit: the dword op gives the low dword exactly; the high one is cleared */
#define LO32(v) _mm256_and_si256((v), lo)
VBIN(v_add32, LO32(_mm256_add_epi32(va, vb)))
VBIN(v_sub32, LO32(_mm256_sub_epi32(va, vb)))
VBIN(v_mul32, LO32(_mm256_mullo_epi32(va, vb)))
VBIN(v_and32, LO32(_mm256_and_si256(va, vb)))
VBIN(v_or32, LO32(_mm256_or_si256(va, vb)))
VBIN(v_xor32, LO32(_mm256_xor_si256(va, vb)))
/* per-lane counts: vpsllvd/vpsrlvd give 0 for a count above 31 and vpsravd
 * the sign, as B >= 32 ? 0 : ... and B >= 32 ? 31 : B do; the count is the
 * low dword of b's slot, (uint32_t)b[l] */
VBIN(v_shl32, LO32(_mm256_sllv_epi32(va, vb)))
VBIN(v_shr_u32, LO32(_mm256_srlv_epi32(va, vb)))
VBIN(v_shr_s32, LO32(_mm256_srav_epi32(va, vb)))
VSHI(v_shl32i, _mm256_sll_epi32)
VSHI(v_shr_u32i, _mm256_srl_epi32)
VSHI(v_shr_s32i, _mm256_sra_epi32)
VTER(v_mad32, LO32(_mm256_add_epi32(_mm256_mullo_epi32(va, vb), vc)))
/* vpmuldq / vpmuludq: the low dwords' 64-bit product, signed / unsigned */
VBIN(v_mulwide_s32, _mm256_mul_epi32(va, vb))
VBIN(v_mulwide_u32, _mm256_mul_epu32(va, vb))
VTER(v_madwide_s32, _mm256_add_epi64(_mm256_mul_epi32(va, vb), vc))
VTER(v_madwide_u32, _mm256_add_epi64(_mm256_mul_epu32(va, vb), vc))
VBIN(v_add64, _mm256_add_epi64(va, vb))
VBIN(v_sub64, _mm256_sub_epi64(va, vb))
VBIN(v_and64, _mm256_and_si256(va, vb))
VBIN(v_or64, _mm256_or_si256(va, vb))
VBIN(v_xor64, _mm256_xor_si256(va, vb))

VEC_AVX2 static void and_avx2(uint64_t *d, const uint64_t *a, uint64_t mask, uint32_t m)
{
    const __m256i wm = _mm256_set1_epi64x((long long)mask);
    VEC_LANES(__m256i r = _mm256_and_si256(LD(a + l), wm));
}

VEC_AVX2 static void v_mov(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    and_avx2(exec_reg(w, in->d), exec_src(x, w, in->s[0]), in->off ? (uint64_t)in->off : ~0ull, m);
}

VEC_AVX2 static void v_cvta(Exec *x, Warp *w, const SimInst *in, uint32_t m)
{
    const uint64_t *a = exec_src(x, w, in->s[0]);
    uint64_t *d = exec_reg(w, in->d);
    const __m256i delta = _mm256_set1_epi64x(in->off);
    const __m256i wm = _mm256_set1_epi64x(in->size == 4 ? 0xffffffffll : -1);
    VEC_LANES(__m256i r = _mm256_and_si256(_mm256_add_epi64(LD(a + l), delta), wm));
}

static const ExecFn avx2_fns[EXEC_VEC_N] = {
    [EXEC_VEC_ADD32] = v_add32, [EXEC_VEC_SUB32] = v_sub32, [EXEC_VEC_MUL32] = v_mul32,
    [EXEC_VEC_AND32] = v_and32, [EXEC_VEC_OR32] = v_or32, [EXEC_VEC_XOR32] = v_xor32,
    [EXEC_VEC_SHL32] = v_shl32, [EXEC_VEC_SHR_U32] = v_shr_u32, [EXEC_VEC_SHR_S32] = v_shr_s32,
    [EXEC_VEC_MAD32] = v_mad32,
    [EXEC_VEC_MULWIDE_S32] = v_mulwide_s32, [EXEC_VEC_MULWIDE_U32] = v_mulwide_u32,
    [EXEC_VEC_MADWIDE_S32] = v_madwide_s32, [EXEC_VEC_MADWIDE_U32] = v_madwide_u32,
    [EXEC_VEC_ADD64] = v_add64, [EXEC_VEC_SUB64] = v_sub64, [EXEC_VEC_AND64] = v_and64,
    [EXEC_VEC_OR64] = v_or64, [EXEC_VEC_XOR64] = v_xor64,
    [EXEC_VEC_MOV] = v_mov, [EXEC_VEC_CVTA] = v_cvta};
#endif

void exec_vec_and(uint64_t *d, const uint64_t *a, uint64_t wm, uint32_t m)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (exec_vec_avx2()) {
        and_avx2(d, a, wm, m);
        return;
    }
#endif
    for (uint32_t r = m; r; r &= r - 1) {
        int l = __builtin_ctz(r);
        d[l] = a[l] & wm;
    }
}

ExecFn exec_vec_int(ExecVecOp op, const SimInst *in)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if ((unsigned)op >= EXEC_VEC_N || !exec_vec_avx2())
        return NULL;
    if (in->s[1] < 0) { /* an immediate count: one for every lane */
        if (op == EXEC_VEC_SHL32)
            return v_shl32i;
        if (op == EXEC_VEC_SHR_U32)
            return v_shr_u32i;
        if (op == EXEC_VEC_SHR_S32)
            return v_shr_s32i;
    }
    return avx2_fns[op];
#else
    (void)op;
    (void)in;
    return NULL;
#endif
}

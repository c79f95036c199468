/* exec_lanes.h: the lane loop every handler is built from.  With all 32
 * lanes active the loop has no condition, so the compiler vectorises it;
 * otherwise it visits the set bits of the mask. */
#ifndef WARPSIM_EXEC_LANES_H
#define WARPSIM_EXEC_LANES_H

#include <stdint.h>
#include <string.h>

/* A destination slot is either one of the sources or 32 lanes away from it,
 * and lane l only reads lane l: the full-warp loop carries no dependence.
 * Saying so lets -O2 vectorise it without a run-time overlap check (which
 * its cheap cost model refuses). */
#if defined(__clang__)
#define LANES_NODEP_ _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define LANES_NODEP_ _Pragma("GCC ivdep")
#else
#define LANES_NODEP_
#endif

/* The body for every lane l of the warp, vectorisable. */
#define LANES_ALL(...)                                                  \
    do {                                                                \
        LANES_NODEP_                                                    \
        for (int l = 0; l < WARP; l++) { __VA_ARGS__; }                 \
    } while (0)

#define LANES(m, ...)                                                   \
    do {                                                                \
        if ((m) == FULL_MASK) {                                         \
            LANES_ALL(__VA_ARGS__);                                     \
        } else {                                                        \
            for (uint32_t r_ = (m); r_; r_ &= r_ - 1) {                 \
                int l = __builtin_ctz(r_);                              \
                __VA_ARGS__;                                            \
            }                                                           \
        }                                                               \
    } while (0)

/* Operands of a handler: d destination, a b c sources. */
#define OPS_D   uint64_t *d = exec_reg(w, in->d) /* may equal a source: lane l reads, then writes, only lane l */
#define OPS_A   const uint64_t *a = exec_src(x, w, in->s[0])
#define OPS_B   const uint64_t *b = exec_src(x, w, in->s[1])
#define OPS_C   const uint64_t *c = exec_src(x, w, in->s[2])

/* p[l] = v (lanes_fill_pc) or p[l] += d (lanes_add_pc) in the lanes of m: a
 * warp's per-lane pcs, a whole warp in eight 4-lane stores (GCC's -O2 leaves
 * the plain loop scalar). */
typedef int32_t LanesI32x4 __attribute__((vector_size(16)));
static inline void lanes_fill_pc(int32_t *p, uint32_t m, int32_t v)
{
    if (m == FULL_MASK) {
        const LanesI32x4 vv = {v, v, v, v};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (int l = 0; l < WARP; l += 4)
            memcpy(p + l, &vv, sizeof vv);
    } else {
        for (uint32_t r = m; r; r &= r - 1)
            p[__builtin_ctz(r)] = v;
    }
}

static inline void lanes_add_pc(int32_t *p, uint32_t m, int32_t d)
{
    if (m == FULL_MASK) {
        const LanesI32x4 dd = {d, d, d, d};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
        for (int l = 0; l < WARP; l += 4) {
            LanesI32x4 v;
            memcpy(&v, p + l, sizeof v);
            v += dd;
            memcpy(p + l, &v, sizeof v);
        }
    } else {
        for (uint32_t r = m; r; r &= r - 1)
            p[__builtin_ctz(r)] += d;
    }
}

/* Width mask of an integer type (low bits kept in a register slot). */
static inline uint64_t lanes_wmask(int bytes)
{
    return bytes >= 8 ? ~0ull : (1ull << (bytes * 8)) - 1;
}

#endif

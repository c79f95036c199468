// common.cuh: shared pieces of the SFU explorer and prover (scripts/sfu/):
// the instructions under test as inline PTX, the deterministic references
// the measured tables are stored against, and bit helpers.  Built with
// -fmad=false so every reference is the same IEEE computation as on a CPU.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

#define HD __host__ __device__ inline
HD float bf(u32 u) { float f; memcpy(&f, &u, 4); return f; }
HD u32 fb(float f) { u32 u; memcpy(&u, &f, 4); return u; }
HD double bd(u64 u) { double f; memcpy(&f, &u, 8); return f; }
HD u64 db(double f) { u64 u; memcpy(&u, &f, 8); return u; }

/* ---- the instructions ---- */
#define UN(name, ins) __device__ inline u32 name(u32 x) { u32 r; \
    asm volatile(ins " %0, %1;" : "=r"(r) : "r"(x)); return r; }
// f32 instructions take .f32 operands; bit-cast through "f" constraints.
#define UNF(name, ins) __device__ inline u32 name(u32 x) { float r; \
    asm volatile(ins " %0, %1;" : "=f"(r) : "f"(bf(x))); return fb(r); }
UNF(i_rcp, "rcp.approx.f32") UNF(i_rcp_ftz, "rcp.approx.ftz.f32")
UNF(i_rsq, "rsqrt.approx.f32") UNF(i_rsq_ftz, "rsqrt.approx.ftz.f32")
UNF(i_sqrt, "sqrt.approx.f32") UNF(i_sqrt_ftz, "sqrt.approx.ftz.f32")
UNF(i_ex2, "ex2.approx.f32") UNF(i_ex2_ftz, "ex2.approx.ftz.f32")
UNF(i_lg2, "lg2.approx.f32") UNF(i_lg2_ftz, "lg2.approx.ftz.f32")
UNF(i_sin, "sin.approx.f32") UNF(i_sin_ftz, "sin.approx.ftz.f32")
UNF(i_cos, "cos.approx.f32") UNF(i_cos_ftz, "cos.approx.ftz.f32")
UNF(i_tanh, "tanh.approx.f32")
UN(i_ex2_f16x2, "ex2.approx.f16x2") UN(i_ex2_bf16x2, "ex2.approx.ftz.bf16x2")
UN(i_tanh_f16x2, "tanh.approx.f16x2") UN(i_tanh_bf16x2, "tanh.approx.bf16x2")
#define UNH(name, ins) __device__ inline u32 name(u32 x) { unsigned short r, a = (unsigned short)x; \
    asm volatile(ins " %0, %1;" : "=h"(r) : "h"(a)); return r; }
UNH(i_ex2_f16, "ex2.approx.f16") UNH(i_ex2_bf16, "ex2.approx.ftz.bf16")
UNH(i_tanh_f16, "tanh.approx.f16") UNH(i_tanh_bf16, "tanh.approx.bf16")
#define BINF(name, ins) __device__ inline u32 name(u32 a, u32 b) { float r; \
    asm volatile(ins " %0, %1, %2;" : "=f"(r) : "f"(bf(a)), "f"(bf(b))); return fb(r); }
BINF(i_div_approx, "div.approx.f32") BINF(i_div_approx_ftz, "div.approx.ftz.f32")
BINF(i_div_full, "div.full.f32") BINF(i_div_full_ftz, "div.full.ftz.f32")
BINF(i_mul_ftz, "mul.rn.ftz.f32") BINF(i_mul, "mul.rn.f32")
// rcp.approx.ftz.f64: returns the high word; *lo gets the low word.
__device__ inline u32 i_rcp64(u64 x, u32 *lo) { double r;
    asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(bd(x)));
    u64 u = db(r); *lo = (u32)u; return (u32)(u >> 32); }

/* ---- deterministic references (identical on host and device) ---- */
// 2^y for |y| <= 1: Taylor series of e^(y ln2) by Horner with fma.
HD double ref_exp2(double y)
{
    const double ln2 = 0.6931471805599453094;
    double z = y * ln2, s = 1.0;
    for (int k = 22; k >= 1; k--)
        s = fma(s, z / (double)k, 1.0);
    return s;
}
// log2(x) for x in [0.5, 2]: 2 atanh((x-1)/(x+1)) / ln2.
HD double ref_log2(double x)
{
    double s = (x - 1.0) / (x + 1.0), s2 = s * s, p = 0.0;
    for (int k = 41; k >= 1; k -= 2)
        p = fma(p, s2, 1.0 / (double)k);
    return 2.0 * s * p / 0.6931471805599453094;
}
// sin(2 pi t) and cos(2 pi t) for t in [0, 1): quarter reduction (exact),
// Taylor on |2 pi r| <= pi/4.
HD void ref_sincos2pi(double t, double *sn, double *cs)
{
    double q = floor(t * 4.0 + 0.5);          // nearest quarter
    double r = t - q * 0.25;                   // exact, |r| <= 1/8
    double z = r * 6.283185307179586477, z2 = z * z;
    double s = 0.0, c = 0.0;
    for (int k = 25; k >= 1; k -= 2)           // sin series
        s = fma(s, -z2 / ((double)(k + 1) * (double)(k + 2)), 1.0);
    s *= z;
    for (int k = 24; k >= 0; k -= 2)           // cos series
        c = fma(c, -z2 / ((double)(k + 1) * (double)(k + 2)), 1.0);
    int qi = ((int)q) & 3;
    double S[4] = {s, c, -s, -c}, C[4] = {c, -s, -c, s};
    *sn = S[qi];
    *cs = C[qi];
}
// Order-preserving integer view of a float (for deltas across the sign).
HD int32_t ord32(u32 u) { return (u & 0x80000000u) ? -(int32_t)(u & 0x7fffffffu) : (int32_t)u; }
HD u32 unord32(int32_t o) { return o < 0 ? ((u32)(-o) | 0x80000000u) : (u32)o; }

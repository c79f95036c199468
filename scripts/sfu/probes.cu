// probes.cu: one kernel per approximate instruction, for cuobjdump -sass:
// what ptxas turns each PTX form into (MUFU.* and the fix-up around it).
#include "common.cuh"
#define P1(name, fn) extern "C" __global__ void name(const u32 *a, u32 *o) { int i = threadIdx.x; o[i] = fn(a[i]); }
#define P2(name, fn) extern "C" __global__ void name(const u32 *a, const u32 *b, u32 *o) { int i = threadIdx.x; o[i] = fn(a[i], b[i]); }
P1(p_rcp, i_rcp) P1(p_rcp_ftz, i_rcp_ftz) P1(p_rsq, i_rsq) P1(p_rsq_ftz, i_rsq_ftz)
P1(p_sqrt, i_sqrt) P1(p_sqrt_ftz, i_sqrt_ftz) P1(p_ex2, i_ex2) P1(p_ex2_ftz, i_ex2_ftz)
P1(p_lg2, i_lg2) P1(p_lg2_ftz, i_lg2_ftz) P1(p_sin, i_sin) P1(p_sin_ftz, i_sin_ftz)
P1(p_cos, i_cos) P1(p_cos_ftz, i_cos_ftz) P1(p_tanh, i_tanh)
P1(p_ex2_f16, i_ex2_f16) P1(p_ex2_bf16, i_ex2_bf16) P1(p_tanh_f16, i_tanh_f16) P1(p_tanh_bf16, i_tanh_bf16)
P1(p_ex2_f16x2, i_ex2_f16x2) P1(p_ex2_bf16x2, i_ex2_bf16x2) P1(p_tanh_f16x2, i_tanh_f16x2) P1(p_tanh_bf16x2, i_tanh_bf16x2)
P2(p_div_approx, i_div_approx) P2(p_div_approx_ftz, i_div_approx_ftz)
P2(p_div_full, i_div_full) P2(p_div_full_ftz, i_div_full_ftz)
extern "C" __global__ void p_rcp64(const u64 *a, u64 *o) { int i = threadIdx.x; u32 lo; u32 hi = i_rcp64(a[i], &lo); o[i] = ((u64)hi << 32) | lo; }

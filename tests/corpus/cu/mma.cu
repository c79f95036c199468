#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void k_wmma(const half *a, const half *b, float *c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void k_mma_asm(float *d, const unsigned *a, const unsigned *b) {
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    unsigned a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], b0 = b[0], b1 = b[1];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    d[threadIdx.x] = c0 + c1 + c2 + c3;
}
__device__ __managed__ int mcount;
__device__ __half hv;
__global__ void k_half(__half *o, const __half2 *in, __nv_bfloat16 *bo) {
    __half2 x = in[threadIdx.x];
    __half2 y = __hmul2(x, x);
    o[threadIdx.x] = __hadd(__low2half(y), __high2half(y)) + hv;
    bo[threadIdx.x] = __float2bfloat16(__half2float(o[threadIdx.x]) * 2.0f);
    atomicAdd(&mcount, 1);
}

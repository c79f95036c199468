#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k_pipeline(const float4 *in, float4 *out) {
    __shared__ float4 buf[128];
    __pipeline_memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x];
}
__global__ void k_cg_memcpy(const int *in, int *out, int n) {
    extern __shared__ int sm[];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, sm, in + blockIdx.x * n, sizeof(int) * n);
    cg::wait(block);
    out[blockIdx.x * n + threadIdx.x] = sm[threadIdx.x] * 2;
}

// async.cu: the timing suite's cp.async family (tests/timing/families.txt).
// A block walks `tiles` tiles of 1024 floats: copy a tile to shared memory,
// then compute `work` FMAs per element on it.  pipe_sync copies through
// registers; pipe_async1 uses cp.async but waits for each tile at once (no
// overlap); pipe_async2 double-buffers, copying tile t+1 while it computes
// on tile t.  blockDim.x must be 256 (one float4 per thread per tile).
#include <cuda_pipeline.h>
#define TILE 1024
__device__ float g_in[8u << 20];

__device__ float compute(const float *t, int work)
{
    float v = t[threadIdx.x * 4], a = t[(threadIdx.x * 4 + 5) & (TILE - 1)];
    for (int k = 0; k < work; k++)
        v = fmaf(v, a, 1.0f);
    return v;
}

extern "C" __global__ void pipe_sync(float *out, int tiles, int work)
{
    __shared__ float4 t[TILE / 4];
    const float4 *src = (const float4 *)(g_in + (size_t)blockIdx.x * tiles * TILE);
    float acc = 0.0f;
    for (int i = 0; i < tiles; i++) {
        t[threadIdx.x] = src[i * (TILE / 4) + threadIdx.x];
        __syncthreads();
        acc += compute((const float *)t, work);
        __syncthreads();
    }
    if (acc == -1.0f)
        out[0] = acc;
}

extern "C" __global__ void pipe_async1(float *out, int tiles, int work)
{
    __shared__ float4 t[TILE / 4];
    const float4 *src = (const float4 *)(g_in + (size_t)blockIdx.x * tiles * TILE);
    float acc = 0.0f;
    for (int i = 0; i < tiles; i++) {
        __pipeline_memcpy_async(&t[threadIdx.x], &src[i * (TILE / 4) + threadIdx.x], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        acc += compute((const float *)t, work);
        __syncthreads();
    }
    if (acc == -1.0f)
        out[0] = acc;
}

extern "C" __global__ void pipe_async2(float *out, int tiles, int work)
{
    __shared__ float4 t[2][TILE / 4];
    const float4 *src = (const float4 *)(g_in + (size_t)blockIdx.x * tiles * TILE);
    float acc = 0.0f;
    __pipeline_memcpy_async(&t[0][threadIdx.x], &src[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    for (int i = 0; i < tiles; i++) {
        if (i + 1 < tiles)
            __pipeline_memcpy_async(&t[(i + 1) & 1][threadIdx.x], &src[(i + 1) * (TILE / 4) + threadIdx.x],
                                    sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        acc += compute((const float *)t[i & 1], work);
        __syncthreads();
    }
    if (acc == -1.0f)
        out[0] = acc;
}

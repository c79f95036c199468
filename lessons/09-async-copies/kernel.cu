// kernel.cu: lesson 09 -- asynchronous copies and pipelines.  A block walks
// `tiles` tiles of 1024 floats: copy a tile into shared memory, then each thread
// runs `work` dependent FMAs on it.  The first three kernels are the timing
// suite's (tests/timing/async.cu), so the H100's recording of them
// (traces/hw/timing-h100.json, family cp_async) speaks for this lesson.
// blockDim.x must be 256 (one float4 per thread per tile).
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

#define TILE 1024
__device__ float g_in[8u << 20];        // 32 MB, zero-filled: only addresses matter

__device__ float compute(const float *t, int work)
{
    float v = t[threadIdx.x * 4], a = t[(threadIdx.x * 4 + 5) & (TILE - 1)];
    for (int k = 0; k < work; k++)
        v = fmaf(v, a, 1.0f);
    return v;
}

// Step 1: the synchronous copy.  t[...] = src[...] loads into a register and
// stores from it; one barrier before the compute (the tile is complete) and
// one after it (nobody still reads the tile the next copy overwrites).
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

// Step 2a: cp.async, but waited for at once: global -> shared without the
// register, and nothing to do while it flies.
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

// Step 2b: double buffering.  Tile i+1's copy is issued before tile i's
// compute; wait_prior(1) waits for all groups but the newest one.
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

// Step 3: the same copy through cooperative groups: the whole block copies
// one tile "as if by another thread", and cg::wait(block) completes it (a
// wait for the copies and a block barrier).  Each thread then adds the four
// floats of its neighbour's float4 -- data another thread's copy brought --
// into out.  early = 1 reads before the wait: a race the checker reports.
extern "C" __global__ void tile_sum(const float *in, float *out, int early)
{
    __shared__ float4 t[TILE / 4];
    cg::thread_block block = cg::this_thread_block();
    const float4 *src = (const float4 *)(in + (size_t)blockIdx.x * TILE);
    cg::memcpy_async(block, t, src, sizeof(float4) * (TILE / 4));
    unsigned j = (threadIdx.x + 1) & (TILE / 4 - 1);
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (early)
        v = t[j];                       // too early: the copy may not have landed
    cg::wait(block);
    if (!early)
        v = t[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = v.x + v.y + v.z + v.w;
}

// Step 4: where cudaMalloc puts a buffer.  TMA's copies need 16-byte aligned
// addresses; each buffer's address modulo 256 (0: at least 256-byte aligned),
// and modulo 16 of a pointer 4 floats into the first.
extern "C" __global__ void alignment_of(const float *a, const float *b, unsigned *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = (unsigned)((unsigned long long)a % 256);
        out[1] = (unsigned)((unsigned long long)b % 256);
        out[2] = (unsigned)((unsigned long long)(a + 4) % 16);
        out[3] = (unsigned)((unsigned long long)(a + 3) % 16);
    }
}

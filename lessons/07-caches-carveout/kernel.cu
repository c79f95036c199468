// kernel.cu: lesson 07 -- caches and the L1/shared carveout.  Two memory-bound
// kernels, the same as the timing suite's (tests/timing/memory.cu) so that the
// H100's recording of them (traces/hw/timing-h100.json) speaks for this lesson:
// a per-block gather whose 128 KB working set fits L1 only at small carveouts,
// and a stream whose speed depends on how many warps hide the memory latency.
// The data is one zero-filled __device__ array: only addresses matter.
#define BIG (16u << 20)                 // floats: 64 MB
__device__ float g_big[BIG];

// Reuse and the carveout: each block owns a 128 KB region of g_big, reads it
// once in full (float4, coalesced: the warm-up) and then makes `iters` random
// 4-byte reads in it per thread.  Those reads hit L1 only if the 128 KB still
// sits in what the carveout leaves to L1 (256 KB unified minus shared memory).
#define REGION (32u * 1024u)            // floats: 128 KB
extern "C" __global__ void l1_gather(float *out, int iters)
{
    const float *r = g_big + (size_t)blockIdx.x * REGION;
    const float4 *r4 = (const float4 *)r;
    float s = 0.0f;
    for (unsigned k = threadIdx.x; k < REGION / 4; k += blockDim.x) {
        float4 v = r4[k];
        s += v.x + v.y + v.z + v.w;
    }
    unsigned h = threadIdx.x * 2654435761u + blockIdx.x * 40503u + 1u;
    for (int it = 0; it < iters; it++) {
        h = h * 1664525u + 1013904223u;
        s += r[(h >> 9) & (REGION - 1)];
    }
    if (s != 0.0f)                      // never true on zeros; keeps the loads
        out[0] = s;
}

// Latency hiding: each thread makes LOADS coalesced loads, a grid apart, one
// at a time (the loop is not unrolled and each add waits for its load), so a
// warp has one load in flight and only more warps hide the memory latency.
// The dynamic shared memory (--smem) is never touched: it only limits how
// many blocks fit on an SM, so the same work runs at 1..8 blocks per SM.
#define LOADS 16
extern "C" __global__ void stream_sum(float *out)
{
    unsigned n = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll 1
    for (int k = 0; k < LOADS; k++)
        s += g_big[i + k * n];
    if (s != 0.0f)
        out[0] = s;
}

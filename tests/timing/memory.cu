// memory.cu: the timing suite's memory-bound kernels (tests/timing/families.txt):
// latency hiding against occupancy, global-memory strides (coalescing), and a
// per-block random gather whose 128 KB working set fits L1 only at small
// carveouts.  The data is one zero-filled __device__ array, so a launch needs
// no large --arg buffer: only addresses matter, never values.
#define BIG (16u << 20)                 // floats: 64 MB
__device__ float g_big[BIG];

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
    if (s != 0.0f)                      // never true on zeros; keeps the loads
        out[0] = s;
}

// Coalescing: 4 loads per thread, neighbouring lanes `stride` floats apart, so
// a warp's request touches 4 sectors at stride 1 and 32 from stride 8 on.
extern "C" __global__ void stride_load(float *out, int stride)
{
    unsigned n = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; k++)
        s += g_big[((i + k * n) * (unsigned)stride) & (BIG - 1)];
    if (s != 0.0f)
        out[0] = s;
}

// Carveout: each block owns a 128 KB region of g_big, reads it once in full
// (float4, coalesced: the warm-up) and then makes `iters` random 4-byte reads
// in it per thread.  Its L1 hit rate depends on whether 128 KB fits in what
// the carveout leaves to L1 (256 KB unified minus the shared-memory capacity).
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
    if (s != 0.0f)
        out[0] = s;
}

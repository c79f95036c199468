// timing.cu: kernels whose speed the timing model must get right in
// direction (tests/test_timing_model.c): the headline measurements of
// issue 15 on an H100, and the shapes a lesson shows.  Each one isolates
// one effect: latency hiding by occupancy, L1 capacity against the
// carveout, shared-memory bank conflicts, instruction-level parallelism.

// Memory bound: every element read once and written once, grid-stride.
extern "C" __global__ void stream_scale(const float *in, float *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = 2.0f * in[i];
}

// Random reads inside one block's own window of `window` floats (a power
// of two): from L1 when the window fits in it, else from L2.
extern "C" __global__ void window_gather(const float *data, float *out, int window, int iters)
{
    const float *mine = data + (size_t)blockIdx.x * window;
    unsigned h = threadIdx.x * 2654435761u + 12345u;
    float acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        h = h * 1664525u + 1013904223u;
        acc += mine[(h >> 8) & (window - 1)];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Shared-memory reads with a stride between lanes: stride 32 puts every
// lane of a warp in one bank, 33 spreads them again.
extern "C" __global__ void smem_stride(float *out, int stride, int iters)
{
    __shared__ float s[8192];
    for (int i = threadIdx.x; i < 8192; i += blockDim.x)
        s[i] = (float)i;
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < iters; k++)
        acc += s[(threadIdx.x * stride + k) & 8191];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 4*n dependent FMAs in one chain, or the same count in 4 chains.
extern "C" __global__ void fma_chain1(float *out, int n)
{
    float a = threadIdx.x;
#pragma unroll 16
    for (int k = 0; k < 4 * n; k++)
        a = fmaf(a, 0.999f, 0.5f);
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

extern "C" __global__ void fma_chain4(float *out, int n)
{
    float a = threadIdx.x, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
#pragma unroll 4
    for (int k = 0; k < n; k++) {
        a = fmaf(a, 0.999f, 0.5f);
        b = fmaf(b, 0.999f, 0.5f);
        c = fmaf(c, 0.999f, 0.5f);
        d = fmaf(d, 0.999f, 0.5f);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

// A cp.async double buffer: the next tile is in flight while this one is
// summed.
extern "C" __global__ void async_tiles(const float *in, float *out, int tiles)
{
    __shared__ float buf[2][256];
    const float *src = in + (size_t)blockIdx.x * tiles * 256;
    float acc = 0.0f;
    unsigned dst0 = (unsigned)__cvta_generic_to_shared(&buf[0][threadIdx.x]);
    unsigned dst1 = (unsigned)__cvta_generic_to_shared(&buf[1][threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst0), "l"(src + threadIdx.x));
    asm volatile("cp.async.commit_group;\n" ::);
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles) {
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((t + 1) & 1 ? dst1 : dst0),
                         "l"(src + (t + 1) * 256 + threadIdx.x));
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 1;\n" ::);
        __syncthreads();
        acc += buf[t & 1][(threadIdx.x * 7) & 255];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// %clock64 around a dependent chain of n FMAs: the modelled latency.
extern "C" __global__ void clock_chain(long long *cycles, float *out, int n)
{
    float a = threadIdx.x;
    long long t0 = clock64();
    for (int k = 0; k < n; k++)
        a = fmaf(a, 0.999f, 0.5f);
    out[threadIdx.x] = a;
    long long t1 = clock64();
    if (threadIdx.x == 0)
        cycles[0] = t1 - t0;
}

// In the first half of the blocks warp 0 exits at once and the others
// after a short loop; the second half works longer.  A block retiring
// beside a working one makes the SM rebuild its warp lists, and with 2
// warps a block the working block's warps change scheduler.
extern "C" __global__ void uneven_blocks(float *out, int n)
{
    bool first = blockIdx.x < gridDim.x / 2;
    if (first && threadIdx.x < 32)
        return;
    float a = threadIdx.x;
    for (int k = 0; k < (first ? n / 4 : n); k++)
        a = fmaf(a, 0.999f, 0.5f);
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}

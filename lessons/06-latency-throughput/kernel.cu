// kernel.cu: lesson 06 -- latency and throughput.  Chains of dependent FMAs
// (the same as the timing suite's tests/timing/compute.cu, so the H100's
// recording of them in traces/hw/timing-h100.json speaks for this lesson),
// a memory stream with one, four or a 16-byte load in flight per thread, a
// loop whose one operation is a multiply, a division or a sine, and busy
// warps placed on one scheduler or spread over four.

// 1. Latency against throughput: C independent chains of dependent FMAs per
// thread.  With one warp per scheduler a single chain waits out the FMA
// latency; independent chains (ILP) or more warps (TLP) fill those cycles.
// m and c come from the launch, so nothing folds at compile time; the sum is
// kept alive by a test that is never true (with m = 0.999 and c = 0.5 every
// chain stays positive), so the output is always 0.
template <int C>
__device__ void chains(float *out, int n, float m, float c)
{
    float a[C];
#pragma unroll
    for (int k = 0; k < C; k++)
        a[k] = (float)(threadIdx.x + k);
#pragma unroll 4
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < C; k++)
            a[k] = fmaf(a[k], m, c);
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < C; k++)
        s += a[k];
    if (s == -1.0f)
        out[0] = s;
}

extern "C" __global__ void fma_ilp1(float *out, int n, float m, float c) { chains<1>(out, n, m, c); }
extern "C" __global__ void fma_ilp4(float *out, int n, float m, float c) { chains<4>(out, n, m, c); }

// 2. Bytes in flight.  Each thread reads 64 bytes of a zero-filled array, a
// grid apart so every warp access is coalesced.  load_1: sixteen 4-byte
// loads, one at a time (the add waits for each).  load_4: the same sixteen,
// four issued before the first add needs one (__ldg, a read-only load, lets
// nvcc put all four ahead of the adds in the PTX, which the simulator issues
// in order; ptxas would reorder plain loads the same way for a GPU).
// load_v4: four 16-byte loads, one at a time.  The dynamic shared memory of the launch is never touched:
// it only keeps the SM at one block (8 warps), where nothing else hides the
// memory latency.
#define BIG (4u << 20)                  // floats: 16 MB
__device__ float g_big[BIG];
#define LOADS 16

extern "C" __global__ void load_1(float *out)
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

extern "C" __global__ void load_4(float *out)
{
    unsigned n = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll 1
    for (int k = 0; k < LOADS; k += 4) {
        float a = __ldg(&g_big[i + k * n]), b = __ldg(&g_big[i + (k + 1) * n]);
        float c = __ldg(&g_big[i + (k + 2) * n]), d = __ldg(&g_big[i + (k + 3) * n]);
        s += (a + b) + (c + d);
    }
    if (s != 0.0f)
        out[0] = s;
}

extern "C" __global__ void load_v4(float *out)
{
    unsigned n = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 *g4 = (const float4 *)g_big;
    float s = 0.0f;
#pragma unroll 1
    for (int k = 0; k < LOADS / 4; k++) {
        float4 v = g4[i + k * n];
        s += (v.x + v.y) + (v.z + v.w);
    }
    if (s != 0.0f)
        out[0] = s;
}

// 3. Instruction cost: the same dependent loop of n steps whose one
// operation is an integer multiply, an integer division or a hardware sine
// (the special function unit).  Thread 0 of block 0 writes the integer
// results (exact on any GPU); the sine's result is kept alive by a test that
// is never true (|x| < 1 + |c| stays far from -7), so its output is always 0.
extern "C" __global__ void op_mul(unsigned *out, int n, unsigned d)
{
    unsigned h = threadIdx.x + 12345u;
    for (int i = 0; i < n; i++)
        h = h * d + (unsigned)i;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = h;
}

extern "C" __global__ void op_div(unsigned *out, int n, unsigned d)
{
    unsigned h = threadIdx.x + 12345u;
    for (int i = 0; i < n; i++)
        h = h / d + (unsigned)i * 1000003u;
    if (threadIdx.x == 0 && blockIdx.x == 0)
        out[0] = h;
}

extern "C" __global__ void op_sin(float *out, int n, float c)
{
    float x = (float)threadIdx.x * 0.001f;
    for (int i = 0; i < n; i++)
        x = __sinf(x) + c;
    if (x == -7.0f)
        out[0] = x;
}

// 4. A warp's scheduler: warp k of an SM is issued by sub-partition k % 4
// for all its life.  A block of 16 warps where only four work, `stride`
// apart: stride 1 gives warps 0-3 (one per scheduler), 2 gives 0, 2, 4, 6
// (two schedulers), 4 gives 0, 4, 8, 12 (all on scheduler 0).  Each busy
// warp runs 8 independent FMA chains, enough to issue almost every cycle.
extern "C" __global__ void busy_warps(float *out, int n, int stride, float m)
{
    unsigned w = threadIdx.x / 32;
    if (w % (unsigned)stride != 0 || w / (unsigned)stride >= 4)
        return;
    float a[8];
#pragma unroll
    for (int k = 0; k < 8; k++)
        a[k] = (float)(threadIdx.x + k);
#pragma unroll 1
    for (int i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 8; k++)
            a[k] = fmaf(a[k], m, 0.5f);
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++)
        s += a[k];
    if (blockIdx.x == 0 && threadIdx.x % 32 == 0)
        out[w / (unsigned)stride] = s;
}

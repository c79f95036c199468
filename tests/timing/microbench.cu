// microbench.cu: latency and throughput microbenchmarks behind the timing
// model's parameters (tests/timing/microbench.txt, traces/hw/timing-microbench-
// h100.json).  Latencies are one thread timing a dependent chain with clock64
// (and %globaltimer for DRAM); out[0] = cycles, out[1] = nanoseconds, out[2]
// keeps the chain's result alive.  The atomic kernel is timed by Nsight Compute.
__device__ __forceinline__ unsigned long long ns_now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// n dependent FMAs (n a multiple of 64).
extern "C" __global__ void mb_fma_latency(unsigned long long *out, int n, float m, float c)
{
    float a = (float)threadIdx.x;
    long long t0 = clock64();
    for (int i = 0; i < n; i += 64) {
#pragma unroll
        for (int k = 0; k < 64; k++)
            a = fmaf(a, m, c);
    }
    long long t1 = clock64();
    out[0] = (unsigned long long)(t1 - t0);
    out[2] = __float_as_uint(a);
}

// n dependent shared-memory loads: a chase around 1024 words (j = s[j]).
extern "C" __global__ void mb_smem_latency(unsigned long long *out, int n, int stride)
{
    __shared__ unsigned s[1024];
    for (int k = 0; k < 1024; k++)
        s[k] = (k + stride) & 1023;
    __syncthreads();
    unsigned j = 0;
    long long t0 = clock64();
    for (int i = 0; i < n; i++)
        j = s[j];
    long long t1 = clock64();
    out[0] = (unsigned long long)(t1 - t0);
    out[2] = j;
}

// Writes a chase through nodes `stride` words apart: next[i] = i + stride
// modulo nodes * stride.  One thread per node.
extern "C" __global__ void mb_chase_init(unsigned *next, unsigned nodes, unsigned stride)
{
    unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nodes)
        next[k * stride] = ((k + 1) % nodes) * stride;
}

// warm dependent loads untimed, then n timed.  The .ca form caches in L1;
// mb_chase_cg bypasses L1 (ld.global.cg), so a warmed set measures L2 hits.
extern "C" __global__ void mb_chase_ca(const unsigned *next, unsigned long long *out, int warm, int n)
{
    unsigned j = 0;
    for (int i = 0; i < warm; i++)
        j = next[j];
    long long t0 = clock64();
    unsigned long long n0 = ns_now();
    for (int i = 0; i < n; i++)
        j = next[j];
    long long t1 = clock64();
    unsigned long long n1 = ns_now();
    out[0] = (unsigned long long)(t1 - t0);
    out[1] = n1 - n0;
    out[2] = j;
}

extern "C" __global__ void mb_chase_cg(const unsigned *next, unsigned long long *out, int warm, int n)
{
    unsigned j = 0;
    for (int i = 0; i < warm; i++)
        j = __ldcg(&next[j]);
    long long t0 = clock64();
    unsigned long long n0 = ns_now();
    for (int i = 0; i < n; i++)
        j = __ldcg(&next[j]);
    long long t1 = clock64();
    unsigned long long n1 = ns_now();
    out[0] = (unsigned long long)(t1 - t0);
    out[1] = n1 - n0;
    out[2] = j;
}

// Every thread adds 1 to *p `iters` times: all atomics on one address.
extern "C" __global__ void mb_atomic_one(int *p, int iters)
{
    for (int i = 0; i < iters; i++)
        atomicAdd(p, 1);
}

// Launch and block-dispatch cost: a kernel that does nothing, at several
// grid sizes (Nsight Compute's cycles of an empty grid).
extern "C" __global__ void mb_empty() {}

// DRAM read bandwidth: the grid reads n floats (float4 loads, grid-stride,
// several in flight a thread) once; bytes / Nsight Compute's cycles.
extern "C" __global__ void mb_stream_read(const float4 *in, float *out, unsigned n4)
{
    float s = 0.0f;
    unsigned stride = gridDim.x * blockDim.x;
#pragma unroll 4
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        float4 v = in[i];
        s += v.x + v.y + v.z + v.w;
    }
    if (s != 0.0f)
        out[0] = s;
}

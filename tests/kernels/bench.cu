// bench.cu: kernels for tests/bench_exec.c (throughput of the executor).

// Arithmetic-heavy: a long dependent loop of FMAs and integer ops.
extern "C" __global__ void bench_alu(float *out, unsigned *uout, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = (float)i * 0.001f, b = 1.0001f, c = 0.5f;
    unsigned h = (unsigned)i * 2654435761u;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, b, c);
        c = fmaf(c, 0.999f, -a * 0.0001f);
        h = (h ^ (h >> 13)) * 0x5bd1e995u + (unsigned)k;
        h += h << 3;
    }
    out[i] = a + c;
    uout[i] = h;
}

// Shared-memory reduction, many blocks.
extern "C" __global__ void bench_reduce(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

// Memory-bound copy with a grid-stride loop.
extern "C" __global__ void bench_copy(const int4 *in, int4 *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

// The seeds' sum_reduce (seed 003, Numba): each block stages its values in
// shared memory, thread 0 adds them one by one and adds the block's sum to
// s[0] with one atomic.
extern "C" __global__ void bench_sum_reduce(const float *a, float *s)
{
    __shared__ float staging[512];
    staging[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    float local_sum = 0.0f;
    if (threadIdx.x == 0) {
        for (unsigned i = 0; i < blockDim.x; i++)
            local_sum = local_sum + staging[i];
        atomicAdd(&s[0], local_sum);
    }
}

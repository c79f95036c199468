// atomics.cu: integer atomics whose final values do not depend on the order
// in which the threads' updates land.
// c[0] add, c[1] max, c[2] min, c[3] or, c[4] and, c[5] xor, c[6] inc with
// limit 100, c[7] CAS-loop add, c[8] exch counting (number of first
// claims), c[9] dec with limit 50, u64 c64[0] add.
extern "C" __global__ void atomics(const int *in, int n, int *c, unsigned *u, int *flags,
                                   unsigned long long *c64)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    atomicAdd(&c[0], v);
    atomicMax(&c[1], v);
    atomicMin(&c[2], v);
    atomicOr(&u[0], (unsigned)v);
    atomicAnd(&u[1], (unsigned)v | 0x80000001u);
    atomicXor(&u[2], (unsigned)v);
    atomicInc(&u[3], 100u);
    int old = c[7], assumed;
    do {
        assumed = old;
        old = atomicCAS(&c[7], assumed, assumed + v);
    } while (old != assumed);
    if (atomicExch(&flags[i % 37], 1) == 0)
        atomicAdd(&c[8], 1);
    atomicDec(&u[4], 50u);
    atomicAdd(&c64[0], (unsigned long long)(unsigned)v * 1000003ull);
    atomicMax((unsigned long long *)&c64[1], (unsigned long long)(unsigned)v << 20);
}

// A shared-memory histogram merged into global memory.
extern "C" __global__ void histogram(const unsigned char *in, int n, unsigned *hist)
{
    __shared__ unsigned h[64];
    for (int k = threadIdx.x; k < 64; k += blockDim.x)
        h[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 63], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < 64; k += blockDim.x)
        atomicAdd(&hist[k], h[k]);
}

// Float atomicAdd of small integers: every partial sum is exact.
extern "C" __global__ void atomic_fadd(const float *in, int n, float *sum, double *dsum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&sum[i & 3], in[i]);
        atomicAdd(dsum, (double)in[i] * 0.5);
    }
}

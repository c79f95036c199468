// Lesson 4: occupancy and the L1/shared carveout.
//
// Three kernels whose resource use you can read off ptxas and feed to
// `warpsim occupancy`:
//   scale_pad   a memory-bound copy that also asks for dynamic shared memory
//               it barely uses, so you can lower occupancy on purpose (the
//               "is occupancy already enough?" test of the lesson);
//   poly_eval   compute-bound, keeps many values live: lots of registers;
//   poly_eval_bounded  the same code under __launch_bounds__(256, 8), which
//               asks the compiler to fit 8 blocks of 256 threads per SM, i.e.
//               at most 32 registers per thread; see what that costs.
//   tile_sum    a static __shared__ tile: shared memory set by the compiler.

#define TERMS 48

extern "C" __global__ void scale_pad(const float *__restrict__ in, float *__restrict__ out,
                                     float a, int n)
{
    extern __shared__ float pad[];   // size comes from the launch (third <<<>>> argument)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        pad[0] = a;                  // touch it so it is really allocated
    __syncthreads();
    if (i < n)
        out[i] = pad[0] * in[i];
}

// Evaluate TERMS polynomials at once: every coefficient set stays live in
// registers across the loop, which is what drives the register count up.
__device__ __forceinline__ void poly_body(const float *__restrict__ x, float *__restrict__ y,
                                          int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    float acc[TERMS];
#pragma unroll
    for (int t = 0; t < TERMS; t++)
        acc[t] = v * (t + 1);
#pragma unroll 1
    for (int k = 0; k < 64; k++) {
#pragma unroll
        for (int t = 0; t < TERMS; t++)
            acc[t] = acc[t] * v + acc[(t + 7) % TERMS] * 0.5f + (float)k;
    }
    float s = 0.f;
#pragma unroll
    for (int t = 0; t < TERMS; t++)
        s += acc[t] * (t & 1 ? -1.f : 1.f);
    y[i] = s;
}

extern "C" __global__ void poly_eval(const float *__restrict__ x, float *__restrict__ y, int n)
{
    poly_body(x, y, n);
}

extern "C" __global__ void __launch_bounds__(256, 8)
poly_eval_bounded(const float *__restrict__ x, float *__restrict__ y, int n)
{
    poly_body(x, y, n);
}

// Sum of each 256-element tile through a static shared-memory array.
#define TILE 256
extern "C" __global__ void tile_sum(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : 0.f;
    __syncthreads();
    for (int s = TILE / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            tile[threadIdx.x] += tile[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = tile[0];
}

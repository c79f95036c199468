// grade fixture: a correct block_sum -- a shared-memory tree per block,
// a barrier between steps, one atomicAdd per block.  Full marks.
#define THREADS 256

extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int partial[THREADS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    partial[t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half)
            partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, partial[0]);
}

// lesson14_free_early.cu: a typical mistake in lesson 14's exercise -- the
// NULL check is there, but thread 0 frees the private histogram without
// waiting for the block: the other threads still read it.
extern "C" __global__ void histogram(const int *in, int *hist, int n, int bins)
{
    __shared__ int *mine;
    if (threadIdx.x == 0)
        mine = (int *)malloc((size_t)bins * sizeof(int));
    __syncthreads();
    int *p = mine;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (p == NULL) {
        if (i < n)
            atomicAdd(&hist[(unsigned)in[i] % bins], 1);
        return;
    }
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        p[k] = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&p[(unsigned)in[i] % bins], 1);
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        if (p[k])
            atomicAdd(&hist[k], p[k]);
    if (threadIdx.x == 0)
        free(p);                        // the others may not be done
}

// lesson14_drop.cu: a typical mistake in lesson 14's exercise -- malloc's
// NULL is checked, but a block that got NULL just returns: its elements
// are never counted.
extern "C" __global__ void histogram(const int *in, int *hist, int n, int bins)
{
    __shared__ int *mine;
    if (threadIdx.x == 0)
        mine = (int *)malloc((size_t)bins * sizeof(int));
    __syncthreads();
    int *p = mine;
    if (p == NULL)
        return;                         // no room: and the block's elements?
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        p[k] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&p[(unsigned)in[i] % bins], 1);
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        if (p[k])
            atomicAdd(&hist[k], p[k]);
    __syncthreads();
    if (threadIdx.x == 0)
        free(p);
}

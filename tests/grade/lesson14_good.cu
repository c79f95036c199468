// lesson14_good.cu: lesson 14's exercise done right -- the block's private
// histogram comes from the heap when there is room, and when malloc says
// NULL the block counts straight into the global histogram instead.
extern "C" __global__ void histogram(const int *in, int *hist, int n, int bins)
{
    __shared__ int *mine;
    if (threadIdx.x == 0)
        mine = (int *)malloc((size_t)bins * sizeof(int));
    __syncthreads();
    int *p = mine;                      // the same for every thread of the block
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (p == NULL) {                    // no room on the heap: no private copy
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
    __syncthreads();
    if (threadIdx.x == 0)
        free(p);
}

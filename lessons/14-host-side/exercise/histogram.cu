// histogram.cu: lesson 14's exercise (README.md here).  Each block counts its
// elements in a private histogram borrowed from the device heap, then adds
// it to the global one.  It is right while the heap has room, and faults
// when it does not: malloc's NULL is never checked.  Make it right always.
extern "C" __global__ void histogram(const int *in, int *hist, int n, int bins)
{
    __shared__ int *mine;               // one allocation for the whole block
    if (threadIdx.x == 0)
        mine = (int *)malloc((size_t)bins * sizeof(int));
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        mine[k] = 0;                    // malloc does not clear what it returns
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&mine[(unsigned)in[i] % bins], 1);
    __syncthreads();
    for (int k = threadIdx.x; k < bins; k += blockDim.x)
        if (mine[k])
            atomicAdd(&hist[k], mine[k]);
    __syncthreads();                    // everyone is done with it
    if (threadIdx.x == 0)
        free(mine);
}

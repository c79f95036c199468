// hostile: 64 KB of local memory per thread.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    volatile int big[16384];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 16384; k += 1024)
        big[k] = i < n ? in[i] : 0;
    if (i < n)
        atomicAdd(out, big[(i * 1024) & 16383]);
}

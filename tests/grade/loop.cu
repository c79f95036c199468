// grade fixture: one thread never leaves its loop.  Thread 0 means to
// step over the padding threads past n but never advances j.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
    if (i == 0)
        for (int j = n; j < (int)(gridDim.x * blockDim.x); ) atomicAdd(out, 0);
}

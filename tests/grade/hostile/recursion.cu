// hostile: a recursive device function (needs a call stack in local memory).
__device__ __noinline__ int deep(int k) { return k <= 0 ? 0 : 1 + deep(k - 1); }
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i] + deep(i) - i);
}

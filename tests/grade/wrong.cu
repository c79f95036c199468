// grade fixture: an off-by-one -- the last element is never added.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        atomicAdd(out, in[i]);
}

// grade fixture: the kernel has the wrong name (blocksum, not block_sum).
extern "C" __global__ void blocksum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

// grade fixture: block_sum with a parameter too few (n is missing).
extern "C" __global__ void block_sum(const int *in, int *out)
{
    atomicAdd(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// grade fixture: a correct block_sum with one atomicAdd per element.
// Every test passes; the rubric's "one atomic per block" is not earned.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

// hostile: an invalid UTF-8 byte on the faulting source line.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
    out[1 << 20] = 1; // ÿþ not UTF-8
}

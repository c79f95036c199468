// hostile: inline asm that ptxas rejects (no such instruction).
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    asm volatile("frobnicate.b32 %0, %0;" : "+r"(v));
    atomicAdd(out, v);
}

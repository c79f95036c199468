// hostile: an instruction the simulator does not implement (applypriority,
// an L2 eviction hint), through inline PTX that ptxas accepts.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(in));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}

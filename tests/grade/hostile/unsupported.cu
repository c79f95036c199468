// hostile: an instruction the simulator does not implement (the Tensor
// Memory Accelerator's cp.async.bulk.commit_group), through inline PTX that
// ptxas accepts for sm_90.
extern "C" __global__ void block_sum(const int *in, int *out, int n)
{
    asm volatile("cp.async.bulk.commit_group;");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}
